"""The documents an officer signs, printed by Chromium and read back with pdftotext.

The review pack, the par sheet and the signs: the cover's fields, the contents with the page
each section starts on, "Page N of M" and the filing's sha256 on every page, plots with
titled axes, and on no page an internal identifier, a JSON pointer, a module name, a
command-line flag or another jurisdiction's code. Skipped where Chromium or pdftotext is
absent.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from store_db import EXAMPLES, amended
from typer.testing import CliRunner

from validator.cli import app
from validator.review import SECTIONS
from validator.review.pdf import opening

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None or shutil.which("pdftotext") is None,
    reason="printing needs Debian's chromium and poppler's pdftotext",
)

FCP = EXAMPLES / "four-card-poker.yaml"
HOLDEM = EXAMPLES / "poker-holdem.yaml"
OFFICE = "Bureau of Gaming Operations"

#: what no page a person reads may carry
LEAKS = {
    "an internal id": re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b"),
    "a JSON pointer": re.compile(r"(?<![\w.)])/[a-z_]+(?:/[a-z_0-9]+)+"),
    "a module name": re.compile(r"\bvalidator\.[a-z_]+"),
    "a command-line flag": re.compile(r"(?<![\w-])--[a-z][a-z-]+"),
    "another jurisdiction's code": re.compile(r"\bCOMAR\b|N\.J\.A\.C\.|\bNRS\b|\bMd\. Code\b"),
}


def squeeze(text: str) -> str:
    return " ".join(text.split())


def pages_of(pdf: Path) -> list[str]:
    out = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True, text=True
    )
    return [p for p in out.stdout.split("\f") if p.strip()]


def leaks(page: str, quoted: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """Every leak on ``page``, the submission's own lines quoted under a finding aside."""
    text = squeeze(page)
    for line in quoted:
        text = text.replace(squeeze(line), "")
    return [f"{what}: {m.group(0)!r}" for what, r in LEAKS.items() for m in r.finditer(text)]


def run(*args: str) -> int:
    return CliRunner().invoke(app, list(args)).exit_code


@pytest.fixture(scope="module")
def flawed_proposal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Aces Up C → A, effective date moved, and a meter seed of $1,200 where
    § 641a.12(d)(3) fixes $1,000: a proposal with changes and findings."""
    return amended(
        FCP,
        tmp_path_factory.mktemp("review") / "fcp-proposal.yaml",
        ("aces_up: C", "aces_up: A"),
        ("2027-01-01", "2027-06-01"),
        ('seed: "$1,000"', 'seed: "$1,200"'),
    )


@pytest.fixture(scope="module")
def review_pages(flawed_proposal: Path) -> list[str]:
    pdf = flawed_proposal.with_suffix(".pdf")
    code = run(
        "review", str(flawed_proposal), "--against", str(FCP), "--office", OFFICE,
        "--format", "pdf", "--out", str(pdf),
    )  # fmt: skip
    assert code == 1, "the pack is written, and exit 1: the submission has errors"
    return pages_of(pdf)


@pytest.mark.slow  # the pack is printed twice: once to find its pages, once with them
def test_the_review_pack_cover_and_contents(flawed_proposal: Path, review_pages: list[str]) -> None:
    cover = squeeze(review_pages[0])
    sha = hashlib.sha256(flawed_proposal.read_bytes()).hexdigest()
    for field, value in (
        ("Office", OFFICE),
        ("Certificate holder", "Example Downs Racing & Casino"),
        ("Facility", "Example Downs"),
        ("Game", "Four Card Poker (58 Pa. Code ch. 641a)"),
        ("Effective date", "2027-06-01"),
        ("Filing sha256", sha),
        ("Prepared by", "rulesub"),
    ):
        assert f"{field} {value}" in cover, field
    assert re.search(r"Regulation version [0-9a-f]{64}", cover)
    assert re.search(r"Prepared on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", cover)
    assert "Audit chain head" not in cover  # not from the store: no chain to name
    # the contents: each section with the page it starts on, and it does start there
    assert "Contents" in cover
    given = {"changes": "Changes against the file given"}  # --against FILE: not the record's
    for key, heading in SECTIONS[1:]:
        heading = given.get(key, heading)
        found = re.search(rf"{re.escape(heading)} (\d+)", cover)
        assert found, f"{heading}: not in the contents with a page"
        page = review_pages[int(found.group(1)) - 1]
        assert opening(page) == heading, f"{heading}: not on its page"


@pytest.mark.slow
def test_the_review_pack_pages(flawed_proposal: Path, review_pages: list[str]) -> None:
    sha = hashlib.sha256(flawed_proposal.read_bytes()).hexdigest()
    total = len(review_pages)
    quoted = flawed_proposal.read_text(encoding="utf-8").splitlines()
    for number, page in enumerate(review_pages, 1):
        flat = squeeze(page).replace(" ", "")
        assert f"Page{number}of{total}" in flat, f"page {number}: no page number"
        assert sha in flat, f"page {number}: no sha256"
        assert leaks(page, [q for q in quoted if "seed" in q]) == [], f"page {number}"
        assert "Audit chain head" not in page, f"page {number}: not from the store, no chain"
        # prepared from a submission with errors: the DRAFT mark heads every page
        assert squeeze(page).startswith("DRAFT: made under a Rules Submission with 2 errors")
    # the summary first: every wager's hold before and after, the findings by severity
    summary = squeeze(review_pages[1])
    assert opening(review_pages[1]) == "Summary"
    # a changed paytable's row names both paytables, as an unchanged one names its own
    assert "Aces Up Wager: Paytable C → Paytable A 3.8917% 2.7759% -1.1158 percentage" in summary
    assert "Errors 2" in summary
    assert f"signed in the Approval block, page {len(review_pages)}" in summary
    text = squeeze("\n".join(review_pages))
    # a finding quotes the submission's own line; a change is named by its field
    assert 'line 26: primary: {seed: "$1,200"' in text
    assert "Effective date 2027-01-01 2027-06-01" in text
    # the plots: titled axes with units, the method stated
    assert "Probability (%)" in text and "Net result (units of the Ante Wager)" in text
    assert "Return to the player (%)" in text and "Method: exact" in text


def test_the_office_from_the_settings(
    flawed_proposal: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.rulesub]\noffice = "Office of the Examiner"\n')
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "pack.html"
    assert run("review", str(flawed_proposal), "--out", str(out)) == 1
    assert "<dt>Office</dt><dd>Office of the Examiner</dd>" in out.read_text()


def par_pages(submission: Path, rounds: int, tmp_path: Path) -> list[str]:
    """The par sheet of ``submission`` printed to PDF (one worker) and read back, page by
    page."""
    pdf = tmp_path / "par.pdf"
    code = run(
        "par", str(submission), "--format", "pdf", "--out", str(pdf), "--rounds", str(rounds),
        "--workers", "1",
    )  # fmt: skip
    assert code == 0
    return pages_of(pdf)


def test_the_par_sheet_printed(tmp_path: Path) -> None:
    pages = par_pages(FCP, 2000, tmp_path)
    first = squeeze(pages[0])
    sha = hashlib.sha256(FCP.read_bytes()).hexdigest()
    for field in (
        "Certificate holder Example Downs Racing & Casino",
        "Facility Example Downs",
        "Effective date 2027-01-01",
        f"Submission sha256 {sha}",
        "House edge of every wager",
        "Base game, Optimal strategy 2.7879%",
        "Aces Up Wager, Paytable C 3.8917%",
    ):
        assert field in first, field
    assert re.search(r"Regulation version [0-9a-f]{64}", first)
    for number, page in enumerate(pages, 1):
        flat = squeeze(page).replace(" ", "")
        assert f"Page{number}of{len(pages)}" in flat and sha in flat, f"page {number}"
        assert leaks(page) == [], f"page {number}"
    text = squeeze("\n".join(pages))
    assert "Probability (%)" in text and "Return to the player (%)" in text


def test_the_draft_par_sheet_printed(tmp_path: Path) -> None:
    """A par sheet made under a submission with errors (--allow-findings) is marked DRAFT on
    every page, not on its first only: at the head of each page and in its foot."""
    flawed = EXAMPLES.parent / "flawed" / "hcf-payout-limit.yaml"
    pdf = tmp_path / "par.pdf"
    code = run(
        "par", str(flawed), "--format", "pdf", "--out", str(pdf), "--rounds", "500",
        "--workers", "1", "--allow-findings",
    )  # fmt: skip
    assert code == 0, "--allow-findings: written, marked DRAFT"
    pages = pages_of(pdf)
    assert len(pages) > 1
    for number, page in enumerate(pages, 1):
        flat = squeeze(page)
        assert flat.startswith("DRAFT: made under a Rules Submission with 1 error"), number
        assert "DRAFT · Par sheet: High Card Flush" in flat, number


def test_the_poker_par_sheet_printed(tmp_path: Path) -> None:
    """A nonbanking game's par sheet: no empty table of the house's wagers (the house has
    none), its house figures on page 1; the submission named by its file, never by where it
    lay on the machine; a time charge (§ 553.15(b)(3)) stated exactly, by the clock."""
    pages = par_pages(EXAMPLES / "poker-omaha-hi-lo-8.yaml", 600, tmp_path)
    first = squeeze(pages[0])
    assert "House edge of every wager" not in first
    assert "The house: rake and Bad Beat fund" in first
    assert "The rake by time charges: $54.00 an hour exactly, $1.80 a hand at 30 hands" in first
    assert "seed 1 (poker-omaha-hi-lo-8.yaml)" in first
    assert str(EXAMPLES) not in squeeze("\n".join(pages)).replace(" ", "")
    for number, page in enumerate(pages, 1):
        assert f"Page{number}of{len(pages)}" in squeeze(page).replace(" ", ""), number
        assert leaks(page) == [], f"page {number}"


def test_the_signs_printed_for_patrons(tmp_path: Path) -> None:
    """--print: no section, no paytable letter; § 553.20(b)'s live Bad Beat amount is the
    meter's, never a printed number."""
    from validator.review.pdf import render_pdf

    for sub in (FCP, HOLDEM):
        html = tmp_path / f"{sub.stem}.html"
        assert run("signage", str(sub), "--print", "--format", "html", "--out", str(html)) == 0
        pdf = tmp_path / f"{sub.stem}.pdf"
        pdf.write_bytes(render_pdf(html.read_text(encoding="utf-8")))
        for page in pages_of(pdf):
            assert leaks(page) == []
            assert "§" not in page and "Pa. Code" not in page
            assert not re.search(r"Paytable [A-Z]\b", page)
    holdem = squeeze("\n".join(pages_of(tmp_path / "poker-holdem.pdf")))
    assert "Bad Beat payout: the current amount is displayed in the Poker area" in holdem
    assert "24,318" not in holdem


def test_the_markdown_documents_speak_to_people(flawed_proposal: Path, tmp_path: Path) -> None:
    """The review pack and the par sheet as Markdown memos: the same words as their pages."""
    out = tmp_path / "pack.md"
    assert run("review", str(flawed_proposal), "--against", str(FCP), "--format", "markdown",
               "--out", str(out)) == 1  # fmt: skip
    quoted = [q for q in flawed_proposal.read_text(encoding="utf-8").splitlines() if "seed" in q]
    memo = out.read_text(encoding="utf-8").replace("\\", "")
    assert leaks(memo, [q.strip() for q in quoted]) == []
    assert "Effective date: 2027-01-01 → 2027-06-01" in memo
    par = tmp_path / "par.md"
    assert run("par", str(FCP), "--format", "markdown", "--out", str(par), "--rounds", "500",
               "--workers", "1") == 0  # fmt: skip
    assert leaks(par.read_text(encoding="utf-8").replace("\\", "")) == []


def test_the_audit_chain_head_on_the_cover_when_the_pack_is_from_the_store(
    tmp_path: Path,
) -> None:
    """A filing from the store: the cover names its audit chain's head
    (``Store.audit_head()``); a pack of a file the store does not hold has no such line."""
    from html import unescape

    from validator.store import Store

    db = f"sqlite:///{tmp_path / 'store.db'}"
    assert run("record", str(FCP), "--by", "C. Holder", "--db", db) == 0
    store = Store(db)
    head = store.audit_head()
    store.dispose()
    pack = tmp_path / "pack.html"
    assert run("review", str(FCP), "--db", db, "--out", str(pack)) == 0
    assert f"<dt>Audit chain head</dt><dd>{head}</dd>" in unescape(pack.read_text())
    other, lunar = tmp_path / "other.html", FCP.with_name("lunar-poker.yaml")
    assert run("review", str(lunar), "--db", db, "--out", str(other)) == 0
    assert "Audit chain head" not in other.read_text()


@pytest.mark.slow  # the pack is printed twice: once to find its pages, once with them
def test_the_audit_chain_head_at_the_foot_of_every_page_from_the_store(tmp_path: Path) -> None:
    """A pack made from the store names its audit chain's head, as the cover words it, at
    the foot of every printed page: a line of its own under the sha256 and the page's
    number, so the foot stays legible at the page's width. The HTML and the Markdown, which
    have no pages, say it once, on the cover; the JSON gives it as data, as the API does."""
    import json

    from validator.store import Store

    db = f"sqlite:///{tmp_path / 'store.db'}"
    assert run("record", str(FCP), "--by", "C. Holder", "--db", db) == 0
    store = Store(db)
    head = store.audit_head()
    store.dispose()
    said = f"Audit chain head {head}"
    pdf = tmp_path / "pack.pdf"
    assert run("review", str(FCP), "--db", db, "--format", "pdf", "--out", str(pdf)) == 0
    pages = pages_of(pdf)
    assert len(pages) > 1
    sha = hashlib.sha256(FCP.read_bytes()).hexdigest()
    for number, page in enumerate(pages, 1):
        foot = [line.strip() for line in page.splitlines() if line.strip()][-2:]
        assert foot[0].startswith(f"sha256 {sha}"), f"page {number}: {foot}"
        assert foot[0].endswith(f"Page {number} of {len(pages)}"), f"page {number}: {foot}"
        assert squeeze(foot[1]) == said, f"page {number}: no audit chain head at its foot"
    assert said in squeeze(pages[0].rsplit(sha, 1)[0])  # the cover's own line too
    html = tmp_path / "pack.html"
    assert run("review", str(FCP), "--db", db, "--out", str(html)) == 0
    shown = html.read_text(encoding="utf-8").split("</style>", 1)[1]
    assert shown.count(head.hash) == 1 and f"<dd>{head}</dd>" in shown
    md = tmp_path / "pack.md"
    assert run("review", str(FCP), "--db", db, "--out", str(md)) == 0
    assert md.read_text(encoding="utf-8").count(head.hash) == 1
    data = tmp_path / "pack.json"
    assert run("review", str(FCP), "--db", db, "--out", str(data)) == 0
    assert json.loads(data.read_text(encoding="utf-8"))["audit_head"] == head.to_json()


def test_a_kept_pack_is_dated_when_it_is_handed_out_with_its_chain_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web view keeps a filing's pack (its figures are fixed by the filing's bytes,
    status and counterpart) and reads the audit chain head each time it hands it out. The
    pack said it was prepared when first built, so a pack downloaded after another filing
    was decided was dated before the audit entry its foot commits to. It is dated when it
    is handed out, as its chain head is read."""
    from validator.store import Store
    from validator.web.packs import Packs

    db = f"sqlite:///{tmp_path / 'store.db'}"
    assert run("record", str(FCP), "--by", "C. Holder", "--db", db) == 0
    store = Store(db)
    try:
        row = store.get(1)
        packs = Packs(store)
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # 2027-01-01 00:00 UTC
        first = packs.pack(row).headed(store.audit_head())
        assert first.generated_at.isoformat() == "2027-01-01T00:00:00+00:00"
        other = amended(FCP, tmp_path / "later.yaml", ("2027-01-01", "2027-03-01"))
        assert run("record", str(other), "--by", "C. Holder", "--db", db) == 0
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798848000")  # a day later
        again = packs.pack(store.get(1))
        assert again.findings is first.findings  # the kept pack, not built again
        later = again.headed(store.audit_head())
        assert later.audit_head.entry == first.audit_head.entry + 1
        assert later.generated_at.isoformat() == "2027-01-02T00:00:00+00:00"
    finally:
        store.dispose()
