"""Printed signage: rendered by headless Chromium, one sign per page, every line on its page.

The HTML is printed to PDF by Debian's ``chromium`` (installed by ``.ci/run``); a small PDF
reader counts the pages and extracts each page's text. Skipped where no Chromium is
installed.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.compiler import load_game
from validator.signage.build import Line, Paytable, SignSet, build_signage
from validator.signage.checked import check_submission

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

EXAMPLES = sorted((PROJECT_ROOT / "rulesubs" / "example").glob("*.yaml"))

#: Every optional wager of Four Card Poker offered: the most signs, the longest ones.
EVERYTHING = """\
rulesub: 1
certificate_holder: The Grand Riverside Racetrack, Hotel & Casino Resort of Pennsylvania
facility: Grand Riverside
game: four-card-poker
effective: 2027-01-01
table: {positions: 7, min_wager: 25, max_wager: 5000}
dealing:
  methods: [automated_shoe]
  shuffler: automated_counting
  decks: 2
  change_every_hours: {automated_shoe: 8}
offered: [four_card_progressive, five_card_progressive, bad_beat_bonus, five_card_hand_bonus,
  six_card_bonus]
paytables: {aces_up: F, four_card_progressive: A, four_card_envy_bonus: B,
  five_card_progressive: D, bad_beat_bonus: A, six_card_bonus: E}
progressives:
  four_card_progressive:
    wager_amount: 5
    meters: {primary: {seed: 25000, reseed: 25000, increment: 29%, reserve_increment: N/A}}
  five_card_progressive:
    wager_amount: 5
    meters:
      mega: {seed: 50000, reseed: 50000, increment: 10%}
      major: {seed: 5000, reseed: 5000, increment: 8%}
      minor: {seed: 1250, reseed: 1250, increment: 3%}
  five_card_hand_bonus:
    wager_amount: 1
    meters: {primary: {seed: 10000, reseed: 0, increment: 13%, reserve_increment: 8%}}
equipment: {progressive_system: true, electronic_wagering_system: true}
adjacent_boxes: 2
"""


# -- a small PDF reader: pages in order, each page's text ------------------------------------


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a PDF as Chromium (Skia) writes it: objects in the clear,
    Flate-compressed content streams, fonts with ToUnicode maps."""
    objs = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(rb"(\d+)\s+0\s+obj\b(.*?)\bendobj", data, re.S)
    }

    def stream(num: int) -> bytes:
        body = objs[num]
        start = re.search(rb"stream\r?\n", body)
        assert start is not None
        raw = body[start.end() : body.rindex(b"endstream")]
        return zlib.decompress(raw) if b"/FlateDecode" in body[: start.start()] else raw

    def ref(text: bytes, key: bytes) -> int | None:
        m = re.search(rb"/" + key + rb"\s+(\d+)\s+0\s+R", text)
        return int(m.group(1)) if m else None

    def to_unicode(num: int | None) -> dict[int, str]:
        table: dict[int, str] = {}
        if num is None:
            return table
        text = stream(num)
        for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
            for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                table[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be")
        for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
            for lo, hi, dst in re.findall(
                rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block
            ):
                for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                    table[code] = chr(int(dst, 16) + i)
        return table

    def is_pages(body: bytes) -> bool:
        return re.search(rb"/Type\s*/Pages\b", body) is not None

    def kids(num: int) -> list[int]:
        if not is_pages(objs[num]):
            return [num]
        m = re.search(rb"/Kids\s*\[(.*?)\]", objs[num], re.S)
        assert m is not None
        return [p for k in re.findall(rb"(\d+)\s+0\s+R", m.group(1)) for p in kids(int(k))]

    root = next(n for n, b in objs.items() if is_pages(b) and b"/Parent" not in b)
    pages = []
    for page in kids(root):
        body = objs[page]
        resources = objs[r] if (r := ref(body, b"Resources")) is not None else body
        fonts_dict = re.search(rb"/Font\s*<<(.*?)>>", resources, re.S)
        font_refs = (
            fonts_dict.group(1) if fonts_dict else objs.get(ref(resources, b"Font") or -1, b"")
        )
        fonts = {
            name: to_unicode(ref(objs[int(num)], b"ToUnicode"))
            for name, num in re.findall(rb"/(\w+)\s+(\d+)\s+0\s+R", font_refs)
        }
        contents = re.search(rb"/Contents\s+(?:(\d+)\s+0\s+R|\[(.*?)\])", body, re.S)
        assert contents is not None
        nums = (
            [int(contents.group(1))]
            if contents.group(1)
            else [int(x) for x in re.findall(rb"(\d+)\s+0\s+R", contents.group(2))]
        )
        content = b"\n".join(stream(n) for n in nums)
        text: list[str] = []
        font: dict[int, str] = {}
        # Tf selects a font; <hex> strings are 2-byte glyph codes; moves separate words
        tokens = rb"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>|(T[dDm*]|ET)\b"
        for tok in re.finditer(tokens, content):
            if tok.group(1):
                font = fonts.get(tok.group(1), {})
            elif tok.group(2) is not None:
                hexes = tok.group(2).decode()
                text += [font.get(int(hexes[i : i + 4], 16), "") for i in range(0, len(hexes), 4)]
            else:
                text.append(" ")
        pages.append("".join(text))
    return pages


def squeeze(text: str) -> str:
    """Compare text without spacing or ligatures: the PDF places glyphs, not words."""
    return "".join(unicodedata.normalize("NFKC", text).split())


# -- rendering --------------------------------------------------------------------------------


def print_pdf(html: Path, tmp_path: Path) -> bytes:
    """Printed by the same Chromium printer the review pack uses."""
    from validator.review.pdf import print_pdf as print_to

    pdf = tmp_path / "signs.pdf"
    assert CHROMIUM is not None
    print_to(html.read_text(encoding="utf-8"), pdf, "the signs")
    return pdf.read_bytes()


def expected_lines(signs: SignSet, index: int) -> list[str]:
    sign = signs.signs[index]
    lines = [sign.title, signs.certificate_holder]
    for item in sign.items:
        if isinstance(item, Line):
            lines.append(item.text)
        else:
            assert isinstance(item, Paytable)
            lines.append(item.title)
            lines += [f"{hand}{payout}" for hand, payout in item.rows]
            lines += [line.text for line in item.lines]
    return lines


def render_and_check(submission: Path, tmp_path: Path, *extra: str) -> None:
    out = tmp_path / "signs.html"
    result = CliRunner().invoke(
        app, ["signage", str(submission), "--format", "html", "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.stderr
    checked = check_submission(submission)
    signs = build_signage(
        load_game(checked.submission.game), checked.submission, draft=bool(checked.errors)
    )
    if "--no-cite" in extra or "--print" in extra:  # the signs as posted: no paytable letters
        from validator.signage.render import as_posted

        signs = as_posted(signs)
    pages = pdf_pages(print_pdf(out, tmp_path))
    assert len(pages) == len(signs.signs), "one page per sign"
    for i, page in enumerate(pages):
        text = squeeze(page)
        for line in expected_lines(signs, i):
            assert squeeze(line) in text, f"page {i + 1}: {line!r} not rendered"
        if "--no-cite" in extra:
            assert "§" not in page
        if signs.draft:
            assert "DRAFT" in text
        # printed, each page numbered, as the text's "Sign 1 of 5" is
        assert f"signs·Page{i + 1}of{len(pages)}" in text, f"page {i + 1}: no page number"


@pytest.mark.slow  # every example printed by a browser
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_prints_one_page_per_sign(example: Path, tmp_path: Path) -> None:
    render_and_check(example, tmp_path)


def test_every_wager_offered_still_one_page_per_sign(tmp_path: Path) -> None:
    """The longest signage there is (every Four Card Poker wager, § 641a.2(b)(7)), a long
    casino name, printed with and without citations."""
    path = tmp_path / "everything.yaml"
    path.write_text(EVERYTHING, encoding="utf-8")
    render_and_check(path, tmp_path)
    render_and_check(path, tmp_path, "--no-cite")


def test_a_draft_is_marked_on_every_page(tmp_path: Path) -> None:
    path = tmp_path / "draft.yaml"
    path.write_text(EVERYTHING.replace("aces_up: F", "aces_up: Q"), encoding="utf-8")
    render_and_check(path, tmp_path, "--force")


def test_a_signs_foot_names_the_games_chapter_only_beside_its_own_sections() -> None:
    """The Table limits sign cites § 601a.10(a), a section of ch. 601a: its foot said
    "§ 601a.10(a) (58 Pa. Code ch. 678a (PA))", as if it were ch. 678a's. A section of the
    game's own chapter keeps the source beside it."""
    hcf = PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml"
    page = CliRunner().invoke(app, ["signage", str(hcf), "--format", "html"]).stdout
    feet = re.findall(r'<div class="foot">([^<]*)</div>', page)
    limits = [f for f in feet if "601a.10(a)" in f]
    assert limits and all("ch. 678a" not in f for f in limits)
    own = [f for f in feet if "§ 678a." in f]
    assert own and all(f.endswith("(58 Pa. Code ch. 678a (PA))") for f in own)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
@pytest.mark.parametrize("name", ["four-card-poker.yaml", "everything"])
def test_a_hand_on_a_posted_sign_is_printed_on_one_line(name: str, tmp_path: Path) -> None:
    """A patron reads each hand whole: the printed payout tables broke "Four-of-a-" from
    "kind" and "Straight" from "flush" in two columns of large type. The type is now the
    largest at which every row of the sign's tables fits its column on one line."""
    import subprocess

    path = PROJECT_ROOT / "rulesubs" / "example" / name
    if name == "everything":
        path = tmp_path / "everything.yaml"
        path.write_text(EVERYTHING, encoding="utf-8")
    out = tmp_path / "signs.html"
    result = CliRunner().invoke(
        app, ["signage", str(path), "--print", "--format", "html", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    pdf = tmp_path / "signs.pdf"
    pdf.write_bytes(print_pdf(out, tmp_path))
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    lines = [" ".join(line.split()) for line in text.splitlines()]
    checked = check_submission(path)
    signs = build_signage(load_game(checked.submission.game), checked.submission)
    hands = {h for s in signs.signs for i in s.items if isinstance(i, Paytable) for h, _ in i.rows}
    assert hands
    for hand in hands:
        assert any(hand in line for line in lines), f"{hand!r} is broken across lines"
