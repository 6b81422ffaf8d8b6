"""The review pack: every section present, its figures the engines', printed by Chromium.

The print test renders the HTML in headless Chromium (Debian's ``chromium``), prints it to
PDF and reads it back with ``pdftotext`` (poppler-utils): the page count, every section
present, the sections a person would start on a new page starting one, the approval
block whole on the last page. Skipped where Chromium or pdftotext is absent.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from fractions import Fraction
from html import escape, unescape
from pathlib import Path

import pytest
from store_db import EXAMPLES, amended
from typer.testing import CliRunner

from tests.conftest import unheld
from validator import PROJECT_ROOT
from validator.cli import app
from validator.review import SECTIONS, build_pack, render_html, render_markdown
from validator.review.build import PAGE_STARTS

HCF = EXAMPLES / "high-card-flush.yaml"
FCP = EXAMPLES / "four-card-poker.yaml"
FLAWED = PROJECT_ROOT / "rulesubs" / "flawed" / "hcf-payout-limit.yaml"
HEADINGS = dict(SECTIONS)
APPROVAL_FIELDS = (
    "Name of the approving officer",
    "Date of approval",
    "Signature",
    "Findings waived, with the reasons",
)


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def proposal(tmp_path: Path) -> Path:
    return amended(
        FCP,
        tmp_path / "fcp-proposal.yaml",
        ("aces_up: C", "aces_up: A"),
        ("2027-01-01", "2027-06-01"),
    )


def test_every_section_in_order_in_html_and_markdown(proposal: Path) -> None:
    pack = build_pack(proposal, "fcp-proposal.yaml", FCP, "approved #1", approved=object())
    html, md = render_html(pack), render_markdown(pack)
    for text in (html, md):
        at = [text.index(heading) for _, heading in SECTIONS]
        assert at == sorted(at)
        assert pack.regulation_version in text
        assert pack.sha256 in text
    for field in APPROVAL_FIELDS:
        assert field in html and field in md


def test_the_changes_carry_the_exact_holds_of_the_diff(proposal: Path) -> None:
    """The pack's hold before and after are ``rulesub diff``'s, and the math section's
    hold of the proposed paytable is ``rulesub odds``'s."""
    pack = build_pack(proposal, "fcp-proposal.yaml", FCP, "approved #1")
    diff = json.loads(cli("diff", str(FCP), str(proposal), "--format", "json"))
    aces = next(c for c in diff["changes"] if c["path"] == "/paytables/aces_up")
    change = next(c for c in pack.diff.changes if c.path == "/paytables/aces_up")
    assert float(change.hold_old.value * 100) == pytest.approx(aces["hold_percent"]["old"])
    assert float(change.hold_new.value * 100) == pytest.approx(aces["hold_percent"]["new"])
    html = render_html(pack)
    assert f"exact: {change.hold_old.value} → {change.hold_new.value}" in html
    odds = json.loads(
        cli("odds", "four-card-poker", "--wager", "aces_up", "--paytable", "A", "--format", "json")
    )
    priced = next(p for p in pack.priced if p.title.startswith("Aces Up Wager: Paytable A"))
    assert float(priced.result.hold * 100) == pytest.approx(odds["hold_percent"])
    assert str(priced.result.hold) in html


def test_the_findings_are_listed_with_sections_and_lines() -> None:
    validated = json.loads(
        CliRunner().invoke(app, ["validate", str(FLAWED), "--format", "json"]).stdout
    )
    pack = build_pack(FLAWED, "hcf-payout-limit.yaml")
    html = unheld(render_html(pack))
    assert validated["findings"]
    lines = FLAWED.read_text(encoding="utf-8").splitlines()
    for f in validated["findings"]:
        assert f"<td class='num'>{f['line']}</td>" in html
        assert f["code"] not in html  # an internal id: the message and section say it
        if f["cite"]:
            assert escape(f["cite"]) in html
        # the submission's own line, quoted under the finding
        assert f"line {f['line']}: <code>{escape(lines[f['line'] - 1].rstrip())}</code>" in html
    assert "DRAFT" in html  # the signage proofs of a submission with errors


def test_a_pack_with_errors_is_a_draft_on_every_page_and_its_approval_not_open() -> None:
    """Every page of a pack from a submission with errors carries the DRAFT mark (a running
    head, and the foot), the cover says so, and the approval block does not offer a plain
    "Approved": ``rulesub approve`` needs every error fixed or waived with its reason."""
    pack = build_pack(FLAWED, "hcf-payout-limit.yaml")
    html, md = unheld(render_html(pack)), render_markdown(pack)
    mark = "DRAFT: made under a Rules Submission with 1 error; not for use until each is"
    cover = html.split('<section id="summary"')[0]
    assert mark in cover
    assert "@top-center" in html and 'content: "DRAFT · sha256' in html
    approval = html.split('<section id="approval"')[1]
    terms = "Approval is not open: the submission had 1 error when this pack was prepared"
    assert terms in approval and "(line 12, § 678a.12(e))" in approval
    assert "Approved, every error waived as written below" in approval
    assert "Approved<span" not in approval
    assert mark in md.split("## ")[0] and terms in md
    assert "Decision: [ ] Approved  [ ]" not in md
    clean = render_html(build_pack(HCF, "high-card-flush.yaml"))
    assert "DRAFT" not in clean and "@top-center" not in clean
    assert "Approval is not open" not in clean
    assert "Approved<span class='box'></span>Rejected" in clean


def test_a_pack_speaks_to_people_names_not_ids_and_money_in_words() -> None:
    """The wagers offered by their names, not their ids; what would comply in words with
    money printed, not the file's YAML (``validate`` keeps it); a strategy as its strategy
    file names it, not by its key."""
    from html import unescape

    pack = build_pack(FLAWED, "hcf-payout-limit.yaml", HCF, "high-card-flush.yaml")
    page = unescape(render_html(pack))
    changes = page.split('<section id="changes"')[1].split("</section>")[0]
    assert "Progressive Jackpot Wager" in changes
    assert "flush_bonus" not in changes and "progressive_jackpot" not in changes
    # the dealing methods and the shuffler in words, not the file's values
    assert (
        "dealt from a manual dealing shoe" in changes and "an automated card shuffling" in changes
    )
    assert "manual_shoe" not in changes and "automated_counting" not in changes
    assert "What would comply: a payout limit of $85,040 or more" in page
    assert "payout_limit: 85040" not in page
    par = page.split('<section id="par"')[1].split('<section id="signage"')[0]
    assert "<h3>Charles Mousseau's strategy</h3>" in par and "<h3>mousseau</h3>" not in par
    memo = render_markdown(pack)
    assert "What would comply: a payout limit of $85,040 or more" in memo.replace("\\", "")
    assert "flush_bonus" not in memo.split("## Paytable math")[0]


def test_review_against_a_file_and_unreadable_input(tmp_path: Path) -> None:
    out = tmp_path / "pack.md"
    r = CliRunner().invoke(
        app, ["review", str(HCF), "--against", str(HCF), "--format", "markdown", "--out", str(out)]
    )
    assert r.exit_code == 0, r.stderr
    assert "No selection or stated value changed" in out.read_text()
    bad = PROJECT_ROOT / "rulesubs" / "flawed" / "unreadable-tag.yaml"
    r = CliRunner().invoke(app, ["review", str(bad)])
    assert r.exit_code == 2
    assert "unreadable-tag.yaml:" in r.stderr
    r = CliRunner().invoke(app, ["review", str(HCF), "--format", "pdf"])
    assert r.exit_code == 2 and "--out" in r.stderr


@pytest.mark.parametrize("old", ["unreadable-tag.yaml", "another game"])
def test_review_against_a_file_no_diff_can_use_writes_no_pack(tmp_path: Path, old: str) -> None:
    """An OLD_FILE that cannot be read, or is another game's, is input the command cannot
    use: exit 2 and no pack, not a pack that says "No diff" and exits 0 as if compared."""
    against = FCP if old == "another game" else PROJECT_ROOT / "rulesubs" / "flawed" / old
    out = tmp_path / "pack.md"
    r = CliRunner().invoke(
        app,
        ["review", str(HCF), "--against", str(against), "--format", "markdown", "--out", str(out)],
    )
    assert r.exit_code == 2, r.stdout
    assert f"--against {against}:" in r.stderr and "no pack is written" in r.stderr
    assert not out.exists()


# -- printed ----------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium")
PDFTOTEXT = shutil.which("pdftotext")
printing = pytest.mark.skipif(
    CHROMIUM is None or PDFTOTEXT is None,
    reason="needs Debian's chromium and pdftotext (poppler-utils), as .ci/run installs",
)


def pdf_pages(pdf: Path) -> list[str]:
    text = subprocess.run(
        [str(PDFTOTEXT), "-layout", str(pdf), "-"], capture_output=True, check=True, text=True
    ).stdout
    pages = text.split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def squeeze(text: str) -> str:
    return "".join(text.split())


def first_line(page: str) -> str:
    return next(line.strip() for line in page.splitlines() if line.strip())


@printing
def test_the_printed_pack_pages(proposal: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "review.pdf"
    r = CliRunner().invoke(
        app,
        ["review", str(proposal), "--against", str(FCP), "--format", "pdf", "--out", str(pdf)],
    )
    assert r.exit_code == 0, r.stderr
    assert pdf.read_bytes().startswith(b"%PDF-")
    pages = pdf_pages(pdf)
    total = len(pages)
    # the cover, then each page-starting section on a page of its own at least
    assert total >= 1 + len(PAGE_STARTS)
    # 13: the Bad Beat Bonus (§ 641a.12(f)) is priced over the joint deal, a page of math
    assert total <= 13, "the pack of one submission stays a document a person reads"
    for number, page in enumerate(pages, 1):
        assert f"Page{number}of{total}" in squeeze(page), f"page {number}: no page number"
        assert "Approved on:" in page, f"page {number}: no place for the approval date"
    # page 1 opens with the cover; every page-starting section opens a page, in order
    assert first_line(pages[0]) == HEADINGS["submission"]
    openings = [first_line(p) for p in pages]
    # compared with a file given: its heading says so (never "the approved submission")
    headings = HEADINGS | {"changes": "Changes against the file given"}
    starts = [openings.index(headings[key]) for key in PAGE_STARTS]
    assert starts == sorted(starts) and starts[0] > 0
    text = "\n".join(pages)
    for heading in headings.values():
        assert heading in text
    # the approval block, whole, on the last page, alone
    assert starts[-1] == total - 1
    for field in APPROVAL_FIELDS:
        assert field in pages[-1]
    # content reached the print: the changed paytable, the proofs, the regulation version
    assert "Aces Up Wager: Paytable C → Paytable A" in text
    # a payout and a hand each on one line of its cell (§ 641a.12(f): "10,000 to 1")
    assert re.search(r"Four-of-a-kind +[\d,]+ +1/\d+ +10,000 to 1 ", text)
    assert re.search(r"Three-of-a-kind +[\d,]+ ", text)
    assert "Sign 1 of" in text
    pack = build_pack(proposal, "fcp-proposal.yaml")
    assert pack.regulation_version in squeeze(text)


def test_the_pack_as_json_carries_the_stages_own_figures(proposal: Path) -> None:
    data = json.loads(cli("review", str(proposal), "--against", str(FCP), "--format", "json"))
    diff = json.loads(cli("diff", str(FCP), str(proposal), "--format", "json"))
    assert data["changes"] == diff
    odds = json.loads(
        cli("odds", "four-card-poker", "--wager", "aces_up", "--paytable", "A", "--format", "json")
    )
    aces = next(m for m in data["math"] if m["title"].startswith("Aces Up Wager: Paytable A"))
    assert aces["odds"] == odds
    assert data["findings"] == []
    assert data["sha256"] == hashlib.sha256(proposal.read_bytes()).hexdigest()
    titles = [s["title"] for s in data["signage"]["signs"]]
    assert titles and all(t in cli("signage", str(proposal)) for t in titles)


def test_a_packs_findings_name_fields_in_words_not_paths() -> None:
    """The pack an officer signs names each field a finding is about as a person does ("the
    Progressive Jackpot meter's rate of progression is not stated", § 678a.12(d)(3)), never
    by its path into the file (`/progressives/progressive_jackpot/meters/primary/increment`),
    which `validate`'s line keeps for the file's author."""
    flawed = PROJECT_ROOT / "rulesubs" / "flawed" / "hcf-progressive.yaml"
    pack = build_pack(flawed, "hcf-progressive.yaml")
    for text in (render_markdown(pack), unescape(render_html(pack))):
        findings = text.split("Findings", 1)[1]
        assert "/progressives/" not in findings and "/equipment/" not in findings
        assert "Progressive Jackpot meter's rate of progression is not stated" in findings


def test_a_packs_findings_count_a_lists_items_from_one_and_print_no_empty_section() -> None:
    """The first wager ``offered`` lists is item 1 to the officer, not 0 as its path counts
    it; a finding on the file's form cites no section, and the memo prints no empty
    brackets for one."""
    flawed = PROJECT_ROOT / "rulesubs" / "flawed" / "fcp-limits-and-keys.yaml"
    pack = build_pack(flawed, "fcp-limits-and-keys.yaml")
    memo = render_markdown(pack)
    findings = memo.split("## Findings", 1)[1].split("## Changes", 1)[0]
    assert "Wagers offered (item 1): 'ante' is a base wager" in findings
    assert "Wagers offered 0" not in findings and "()" not in findings
    assert "the maximum wager $10\n" in findings  # rulesub/wager-limits: no section
    assert "is not stated (§ 641a.12(c))" in findings  # a rule's section, as before
    page = unescape(render_html(pack))
    assert "Wagers offered (item 1)" in page.split("Findings", 1)[1]


def test_a_bonus_shows_its_return_with_its_own_exact_fraction() -> None:
    """Lunar Poker's Bet Wager payout is a bonus (§ 589.11(c)): the pack states what it
    returns per unit of the wager it is paid on, 5/637 (`odds` gives its hold, -5/637);
    the exact fraction beside the percentage is the return's, never the hold's sign."""
    page = cli("review", str(EXAMPLES / "lunar-poker.yaml"), "--format", "html")
    found = re.findall(
        r"Returned per unit \(a bonus\): ([-\d.]+)%</strong> exact (-?\d+/\d+)", page
    )
    assert found, "the pack prices no bonus"
    for percent, exact in found:
        assert float(percent) == pytest.approx(float(Fraction(exact)) * 100, abs=1e-4)


def test_a_waiver_that_waives_nothing_says_what_would_comply_in_words(tmp_path: Path) -> None:
    """A waiver comment whose finding does not stand is reported; the pack an officer signs
    says what would comply in words, never "(`rulesub rules` lists them)", a command."""
    text = FCP.read_text(encoding="utf-8").replace(
        "adjacent_boxes: 2",
        "adjacent_boxes: 2  # rulesub: ignore[four-card-poker/no-payout-limit] -- x",
    )
    path = tmp_path / "fcp.yaml"
    path.write_text(text, encoding="utf-8")
    pack = build_pack(path, "fcp.yaml")
    assert any(f.code == "rulesub/unused-waiver" for f in pack.findings)
    for page in (render_html(pack), render_markdown(pack)):
        assert "the waiver removed, or its code corrected to one of this submission" in page
        assert "rulesub rules" not in page


def test_the_contents_give_pages_only_where_a_printing_found_them(proposal: Path) -> None:
    """A pack read on screen (or printed from the browser) lists its sections as links,
    with no page column it cannot fill; the PDF's contents give each section's page."""
    pack = build_pack(proposal, "fcp-proposal.yaml")
    screen = render_html(pack)
    contents = screen.split("<h2>Contents</h2>", 1)[1].split("</table>", 1)[0]
    assert "<th>Page</th>" not in contents and "class='num'" not in contents
    assert contents.count("<a href='#") == len(pack.sections) - 1
    printed = render_html(pack, {"findings": 2, "changes": 3})
    contents = printed.split("<h2>Contents</h2>", 1)[1].split("</table>", 1)[0]
    assert "<th>Page</th>" in contents
    assert "<td class='num'>2</td>" in contents and "<td class='num'>3</td>" in contents


def test_every_table_in_the_pack_heads_its_columns(proposal: Path) -> None:
    """A table read aloud, or split across a page, says what its columns are: the signage
    section's paytables head theirs as the signs do ("Hand" and the chapter's column)."""
    page = render_html(build_pack(proposal, "fcp-proposal.yaml"))
    signage = page.split('<section id="signage"')[1].split("</section>")[0]
    tables = re.findall(r"<table>.*?</table>", signage)
    assert tables
    for table in tables:
        assert re.match(r"<table><thead><tr><th>Hand</th><th class='num'>[^<]+</th></tr>", table)
    for table in re.findall(r"<table[^>]*>.*?</table>", page):
        rows = re.findall(r"<tr>.*?</tr>", table)
        assert "<thead>" in table or all(r.startswith("<tr><th scope='row'>") for r in rows)


def test_a_waiver_the_filing_asks_for_is_counted_alike_on_the_cover_and_in_the_changes(
    tmp_path: Path,
) -> None:
    """A waiver written in a filing is the filer's request, granted only at approval: the
    cover counts the finding, and so does the changes section, which names it new where
    the approved submission did not have it (it said "1 warning; 0 findings are new"
    under a cover of 2 warnings, hiding the new one)."""
    lunar = EXAMPLES / "lunar-poker.yaml"
    old = amended(
        lunar,
        tmp_path / "old.yaml",
        ("offered: [super]", "offered: []"),
        ("instant_payout: B, super: A}", "instant_payout: B}"),
    )
    new = amended(
        lunar,
        tmp_path / "new.yaml",
        ("super: A}", "super: A}  # rulesub: ignore[lunar-poker/super-hold] -- the chapter's"),
        ("2027-01-01", "2027-06-01"),
    )
    pack = build_pack(new, "new.yaml", old, "old.yaml")
    warnings = pack.counts["warnings"]
    assert any(f.code == "lunar-poker/super-hold" for f in pack.findings)
    memo = render_markdown(pack)
    assert f"**0 errors, {warnings} warnings, 0 informational findings.**" in memo
    assert f"The new submission has 0 errors and {warnings} warnings; 1 finding is new." in memo
    assert pack.diff is not None
    assert [f.code for f in pack.diff.new_findings] == ["lunar-poker/super-hold"]


def test_a_citation_is_printed_whole_never_broken_at_a_line_end() -> None:
    """The findings table's Section column and the approval block broke "§ 641a.12(d)" from
    its "(1)", and "§" from its number: each citation is now set in a span that does not
    wrap, its section sign held to its number, in the pack and in the par sheet it holds."""
    html = render_html(build_pack(FLAWED, "hcf-payout-limit.yaml"))
    body = html.split("<body>", 1)[1]
    text = re.sub(r'<span class="nb">§&nbsp;[^<]+</span>', "", body)
    assert "§ " not in text and "§&nbsp;" not in text
    assert re.search(r'<span class="nb">§&nbsp;678a\.12\(e\)\)?</span>', body)
    assert ".nb { white-space: nowrap; }" in html


def test_a_long_value_changed_wraps_and_every_column_stays_on_the_page(
    tmp_path: Path,
) -> None:
    """A rake methodology changed (§ 553.15(a)(2)) ran its Old cell off the printed page,
    taking the New and Hold columns with it: words wrap in their cells, a figure stays on
    one line, and each change names the section that rules on its field."""
    holdem = EXAMPLES / "poker-holdem.yaml"
    new = amended(
        holdem,
        tmp_path / "new.yaml",
        ("10% of the pot and of each side pot", "5% of the pot and of each side pot"),
        ("rate: 10%", "rate: 5%"),
    )
    page = unheld(render_html(build_pack(new, "new.yaml", holdem, "poker-holdem.yaml")))
    others = page.split("<h3>Other changes</h3>", 1)[1].split("</table>", 1)[0]
    assert "<th>Section</th>" in others
    methodology = re.search(r"<tr><td>Rake methodology</td>(.*?)</tr>", others)
    assert methodology and methodology[1].count("<td class='v prose'>") == 2
    assert "§ 553.15(a)(2)" in methodology[1]
    rate = re.search(r"<tr><td>Rake percentage rate</td>(.*?)</tr>", others)
    assert rate and rate[1].count("<td class='v'>") == 2 and "§ 553.15(b)(1)" in rate[1]


def test_a_citation_before_an_apostrophe_or_a_quote_is_set_whole_and_the_text_kept(
    tmp_path: Path,
) -> None:
    """A citation is held whole in the text as written, never in its escaped form: "as
    § 553.20(i)'s procedures say" in a changed value reads so in the pack, its citation
    in a span that does not wrap, where an apostrophe's entity (``&#x27;``) was cut by the
    citation's end and the page read "§ 553.20(i)';s"."""
    holdem = EXAMPLES / "poker-holdem.yaml"
    said = "Contributions end on the date"
    new = amended(
        holdem, tmp_path / "holdem.yaml", (said, 'As § 553.20(i)\'s "procedures" say, c' + said[1:])
    )
    pack = build_pack(new, "holdem.yaml", holdem, "holdem-approved.yaml")
    page = render_html(pack)
    assert '<span class="nb">§&nbsp;553.20(i)</span>&#x27;s &quot;procedures&quot;' in page
    shown = unescape(unheld(page))
    assert 'As § 553.20(i)\'s "procedures" say, contributions end' in shown
    assert "';s" not in shown and '";' not in shown


def test_the_approval_block_counts_the_findings_as_the_cover_does() -> None:
    """The WPT example has two informational findings (§ 677a.12(c), (d) missing from the
    text): the cover counted them, the approval block an officer signs under said "0
    errors, 0 warnings" and left them out, and the Markdown cover said "2 info". Both say
    "2 informational findings"; the waived reasons have room to be written above their
    line."""
    pack = build_pack(EXAMPLES / "wpt-heads-up-holdem.yaml", "wpt-heads-up-holdem.yaml")
    assert pack.counts == {"errors": 0, "warnings": 0, "info": 2}
    page = unescape(render_html(pack))
    block = page.split("class='approval'")[1]
    assert "Findings when prepared: 0 errors, 0 warnings, 2 informational findings" in block
    assert "<div class='field waived'>Findings waived, with the reasons</div>" in block
    memo = render_markdown(pack)
    assert "**0 errors, 0 warnings, 2 informational findings.**" in memo
    approval = memo.split(f"## {HEADINGS['approval']}")[1]
    assert "findings when prepared: 0 errors, 0 warnings, 2 informational findings" in approval
