"""The documents agree with each other and with the record: the web view compares a filing
only with one that was approved; a file's path stays a path; the web's PDFs are the
command line's; `odds` never cuts a figure; every document gives one verdict on the
Board's stated hold of a progressive."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
import warnings
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from store_db import (
    EXAMPLES,
    amended,
    store_clock,  # noqa: F401 (the store's clock, for the tests that name it)
)
from typer.testing import CliRunner
from webtools import FLAWED, HOLDER, Office, make_office, signed_in

from validator.cli import app as cli

warnings.filterwarnings("ignore", message=".*httpx.*")


FCP = EXAMPLES / "four-card-poker.yaml"
HCF = EXAMPLES / "high-card-flush.yaml"
LUNAR = EXAMPLES / "lunar-poker.yaml"
ON = dt.date(2026, 12, 20)
PRINTS = shutil.which("chromium") is not None and shutil.which("pdftotext") is not None


client_of = signed_in  # the name these tests read


@pytest.fixture
def office(tmp_path: Path) -> Office:
    return make_office(tmp_path)


def waived(recorded: Any) -> dict[str, str]:
    """Each error finding of a recorded filing waived, with a reason."""
    return {f["code"]: "the office's test" for f in recorded.findings if f["severity"] == "error"}


# -- 1. the approved baseline ------------------------------------------------------------------


@pytest.mark.usefixtures("store_clock")  # decided on a fixed date
def test_the_web_compares_a_filing_only_with_one_that_was_approved(office: Office) -> None:
    """An approval supersedes the approved filing and replaces the holder's earlier pending
    one of the same date: both name the new one in ``superseded_by``, but only the first
    was ever approved. The diff and the pack compare with it, never with the replaced one."""
    store, tmp = office.store, office.tmp
    first = store.record(FCP, "cas").id
    store.approve(first, "rev", on=ON)
    later = ("effective: 2027-01-01", "effective: 2027-03-01")
    pending = store.record(amended(FLAWED / "fcp-paytables.yaml", tmp / "p.yaml", later), "cas")
    filed = store.record(amended(FLAWED / "fcp-equipment.yaml", tmp / "e.yaml", later), "cas")
    new = filed.id
    store.approve(new, "rev", on=ON, waive=waived(filed))
    assert store.get(pending.id).status == "replaced"
    assert store.get(pending.id).superseded_by == new == store.get(first).superseded_by
    rev = client_of(office, "rev")
    for page in ("diff", "review"):
        shown = unescape(rev.get(f"/submissions/{new}/{page}").text)
        assert f"approved #{first} " in shown, page
        assert f"#{pending.id} " not in shown, page


@pytest.mark.usefixtures("store_clock")
def test_a_filing_that_replaced_a_never_approved_one_is_compared_with_nothing(
    office: Office,
) -> None:
    """The audit's case: the same holder files two, the second is approved with waivers;
    the first was never approved, so there is no approved filing to compare with."""
    store = office.store
    first = store.record(FLAWED / "fcp-paytables.yaml", "cas").id
    filed = store.record(FLAWED / "fcp-equipment.yaml", "cas")
    second = filed.id
    store.approve(second, "rev", on=ON, waive=waived(filed))
    assert store.get(first).status == "replaced"
    rev = client_of(office, "rev")
    review = re.sub(r"<[^>]+>", " ", rev.get(f"/submissions/{second}/review").text)
    said = " ".join(unescape(review).split())
    assert "Compared with nothing: it superseded no approved submission" in said
    for page in ("diff", "review"):
        assert f"approved #{first}" not in unescape(rev.get(f"/submissions/{second}/{page}").text)


def test_a_pending_filing_with_nothing_in_force_says_why_nothing_is_compared(
    office: Office,
) -> None:
    """A filing awaiting its decision is compared with the approval in force on its
    effective date; with none, the cover and the changes section say so in the same words
    (the facility, the game by its chapter's name and the day), never a bare "nothing"."""
    rev = client_of(office, "rev")
    page = rev.get(f"/submissions/{office.ids['example']}/review").text
    said = " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())
    why = (
        "no approval of Example Downs, High Card Flush was in force on 2027-01-01, "
        "its effective date"
    )
    assert f"Compared with nothing: {why}" in said
    assert f"Not compared: {why}." in said


# -- 3. a file's path, and a par sheet a filing cannot have ------------------------------------


def test_a_files_path_in_a_message_stays_as_written() -> None:
    """``in_words`` names a field by its JSON pointer; the place of a problem,
    ``/srv/…/file.yaml:11:22``, is a file's path and keeps its words."""
    from validator.diff.names import in_words

    path = str((FLAWED / "fcp-paytables.yaml").resolve())
    said = in_words(None, f"{path}:11:22: /paytables/aces_up: no paytable 'G'")
    assert said.startswith(f"{path}:11:22: ")
    assert "/paytables/aces_up" not in said and "paytable: no paytable 'G'" in said
    assert in_words(None, "see /tmp/x/filed.yaml") == "see /tmp/x/filed.yaml"
    # a value the filer wrote, quoted, is as written: '/opt/shufflemaster' read as a field
    # was "'Opt shufflemaster'" in the memo and the pack
    quoted = "/dealing/shuffler: '/opt/shufflemaster' is not a shuffler"
    assert in_words(None, quoted) == "Dealing shuffler: '/opt/shufflemaster' is not a shuffler"


def test_the_review_pack_names_an_absolute_path_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rulesub review /abs/path.yaml --format markdown`, run outside the file's folder:
    the par sheet's problem names its line, never a path (the cover names the file)."""
    monkeypatch.chdir(tmp_path)
    path = (FLAWED / "fcp-paytables.yaml").resolve()
    out = tmp_path / "pack.md"
    no_store = str(tmp_path / "none.sqlite3")
    args = ["review", str(path), "--format", "markdown", "--out", str(out), "--db", no_store]
    CliRunner().invoke(cli, args)
    found = re.search(r"No par sheet: (.*)", out.read_text(encoding="utf-8"))
    assert found
    assert found.group(1).startswith("line 11: "), found.group(1)
    assert str(tmp_path) not in found.group(1) and "error " not in found.group(1)


def test_a_par_sheet_pdf_a_filing_cannot_have_is_a_page_in_words(office: Office) -> None:
    """No par sheet can be made for a filing selecting a paytable the chapter has not: the
    PDF's address answers 422 (not 503, which says the server cannot print) with the reason
    in words, the field by its name, not its JSON pointer."""
    sid = office.store.record(FLAWED / "fcp-paytables.yaml", "cas").id
    answer = client_of(office, "rev").get(f"/submissions/{sid}/par?format=pdf")
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("text/html")
    shown = unescape(answer.text)
    assert "No par sheet:" in shown and "no paytable 'G'" in shown
    assert "/paytables/aces_up" not in shown and "Aces Up paytable" in shown


# -- 4, 5. the web's PDFs are the command line's -----------------------------------------------


def test_the_webs_par_sheet_pdf_is_identified_as_the_commands(office: Office) -> None:
    """The par sheet the web prints carries the identification block `rulesub par FILE
    --format pdf` prints: made by the same function, from the stored bytes."""
    from validator.review.cover import identification
    from validator.web import office as web_office

    sid = office.ids["example"]
    printed: list[str] = []

    def pdf_answer(html, name, what):  # type: ignore[no-untyped-def]
        printed.append(html if isinstance(html, str) else html())
        return b"%PDF-1.4 printed", None

    mp = pytest.MonkeyPatch()
    mp.setattr(web_office, "pdf_answer", pdf_answer)
    try:
        answer = client_of(office, "rev").get(f"/submissions/{sid}/par?format=pdf")
    finally:
        mp.undo()
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    (html,) = printed
    facts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", unescape(html)))
    stored = office.store.get(sid).content
    ident = identification(HCF, "high-card-flush")
    assert ident["sha256"] == hashlib.sha256(stored).hexdigest()
    assert facts["Certificate holder"] == ident["certificate_holder"] == HOLDER
    for label, key in (
        ("Facility", "facility"),
        ("Effective date", "effective"),
        ("Submission sha256", "sha256"),
        ("Regulation version", "regulation_version"),
    ):
        assert facts[label] == ident[key], label
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", facts["Prepared on"])


@pytest.mark.slow  # printed twice, as the command prints it: once to find its pages
@pytest.mark.skipif(not PRINTS, reason="printing needs Debian's chromium and pdftotext")
def test_the_webs_review_pack_pdf_gives_its_contents_page_numbers(office: Office) -> None:
    """The contents of the pack the web prints give the page each section starts on, as
    `rulesub review --format pdf`'s do; and each section does start there."""
    from validator.review import SECTIONS
    from validator.review.pdf import opening, page_texts

    answer = client_of(office, "rev").get(f"/submissions/{office.ids['example']}/review?format=pdf")
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    pages = [p for p in page_texts(answer.content) or [] if p.strip()]
    cover = " ".join(pages[0].split())
    assert "Contents" in cover
    for _, heading in SECTIONS[1:]:
        found = re.search(rf"{re.escape(heading)} (\d+)", cover)
        assert found, f"{heading}: no page number in the contents"
        assert opening(pages[int(found.group(1)) - 1]) == heading


# -- 6. odds at 80 columns -------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 50])
@pytest.mark.parametrize("example", [LUNAR, HCF])
def test_odds_never_cuts_a_figure(tmp_path: Path, example: Path, columns: int) -> None:
    """`rulesub odds GAME --rulesub FILE --out FILE` at 80 columns (and narrower): every
    figure whole (a hold, a hit frequency, a deviation, the Board's stated hold), no cut
    marked "…"; the tables by the chapter's names."""
    game = "lunar-poker" if example == LUNAR else "high-card-flush"
    run = CliRunner().invoke
    out = tmp_path / "odds.txt"
    args = ["odds", game, "--rulesub", str(example)]
    done = run(cli, [*args, "--out", str(out)], env={"COLUMNS": str(columns)})
    assert done.exit_code == 0, done.output
    text = out.read_text(encoding="utf-8")
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= columns
    flat = " ".join(text.split())
    data = json.loads(run(cli, [*args, "--format", "json"], env={"COLUMNS": "200"}).stdout)
    assert data
    for r in data:
        assert f"{float(Fraction(r['hold_exact'])) * 100:.4f}%" in text, r["table"]
        assert f"{float(Fraction(r['hit_frequency_exact'])) * 100:.4f}%" in text
        assert f"{r['std_dev']:.4f}" in text
        ah = r["approved_hold"]
        if ah:  # as printed, both ends to the same places (13% is the preamble's "13.0%")
            from validator.model.notation import stated_range

            assert all(end in text for end in stated_range(ah["from"], ah["to"]).split("–"))
    from validator.compiler import load_game

    names = {t: table.name for _, t, table in load_game(game).definition.tables()}
    for r in data:  # a name may wrap in its cell: word by word
        assert all(word in flat for word in names[r["table"]].split()), names[r["table"]]
        assert r["table"] not in flat or columns > 100, r["table"]  # its id is for JSON


# -- 7. one verdict on the Board's stated hold of a progressive ---------------------------------


def test_every_document_gives_one_verdict_on_a_progressives_stated_hold() -> None:
    """High Card Flush's Progressive Jackpot: the preamble states one hold, 23%, at no
    meter. The par sheet (text, markdown, printed), its published figures, the review
    pack's math and `odds` print it as one figure and say the hold moves with the meter;
    none calls it outside the range. A table of fixed odds outside its range still is."""
    from validator.par.render import html_report, markdown, text
    from validator.review import build_pack, render_html

    pack = build_pack(HCF, "high-card-flush.yaml")
    assert pack.par is not None
    odds = CliRunner().invoke(
        cli, ["odds", "high-card-flush", "--rulesub", str(HCF)], env={"COLUMNS": "200"}
    )
    documents = {
        "par text": text(pack.par),
        "par markdown": markdown(pack.par),
        "par printed": unescape(re.sub(r"<[^>]+>", " ", html_report(pack.par))),
        "review pack": unescape(re.sub(r"<[^>]+>", " ", render_html(pack))),
        "odds": odds.stdout,
    }
    for name, shown in documents.items():
        flat = " ".join(shown.split())
        assert "23%–23%" not in flat and "23% – 23%" not in flat, name
        said = [m.group(0) for m in re.finditer(r"23%[^;.]{0,120}", flat)]
        assert said, name
        assert all("outside" not in s.lower() and "differs" not in s for s in said), (name, said)
        assert any("moves with the meter" in s for s in said), (name, said)
    review = " ".join(documents["review pack"].split())
    assert "Board's stated range 6.6%–13.0%: OUTSIDE" in review  # Straight Flush Bonus C


@pytest.mark.usefixtures("store_clock")
def test_the_command_lines_pack_of_a_recorded_filing_compares_what_the_webs_does(
    office: Office,
) -> None:
    """Two copies of one filing's pack, the command line's and the web's, state one
    comparison: an approved filing is compared with the approval it superseded, never with
    itself; the first approval with nothing. A superseded filing's decision says from when
    (it is in force until then)."""
    store, tmp = office.store, office.tmp
    first = store.record(HCF, "cas").id
    store.approve(first, "rev", on=ON)
    later = amended(HCF, tmp / "later.yaml", ("effective: 2027-01-01", "effective: 2027-05-01"))
    second = store.record(later, "cas").id
    store.approve(second, "rev", on=ON)
    web = unescape(client_of(office, "rev").get(f"/submissions/{second}/review").text)

    def pack(path: Path) -> str:
        argv = ["review", str(path), "--against", "approved", "--format", "markdown"]
        result = CliRunner().invoke(cli, [*argv, "--db", office.db])
        assert result.exit_code == 0, result.output
        return result.stdout

    said = pack(later)
    assert f"approved \\#{first} (high-card-flush.yaml" in said
    assert f"approved #{first} (high-card-flush.yaml" in web
    assert f"approved \\#{second}" not in said
    original = pack(HCF)  # the first approval: nothing before it
    assert "Not compared: it superseded no approved submission." in original
    assert f"superseded by \\#{second} from 2027-05-01" in original
    diffed = CliRunner().invoke(cli, ["diff", "--against", "approved", str(HCF), "--db", office.db])
    assert diffed.exit_code == 2
    assert "as recorded, it superseded no approved submission" in diffed.stderr


@pytest.mark.usefixtures("store_clock")
def test_a_file_for_another_holders_facility_is_compared_with_none_of_its_filings(
    office: Office,
) -> None:
    """`record` refuses a filing for a facility another certificate holder holds
    (``rulesub/facility-of-another-holder``); `review` and `diff` against the approved
    refuse it too (exit 1, nothing written), never showing that holder's approved filing
    as its "before"."""
    store, tmp = office.store, office.tmp
    theirs = store.record(FCP, "cas").id
    store.approve(theirs, "rev", on=ON)
    rival = amended(
        FCP,
        tmp / "rival.yaml",
        (f"certificate_holder: {HOLDER}", "certificate_holder: Rival Gaming LLC"),
    )
    out = tmp / "pack.md"
    for argv in (
        ["review", str(rival), "--against", "approved", "--out", str(out)],
        ["diff", "--against", "approved", str(rival)],
    ):
        result = CliRunner().invoke(cli, [*argv, "--db", office.db])
        assert result.exit_code == 1, argv
        assert "belongs to another certificate holder" in result.stderr
        assert f"approved #{theirs}" not in result.output
    assert not out.exists()


@pytest.mark.usefixtures("store_clock")
def test_a_finding_the_approval_waived_is_said_waived_at_the_finding(office: Office) -> None:
    """An approved filing's pack is the record of what was approved: an error the approval
    waived says so where it is listed and beside the count, not only in the approval block;
    its filing's own request to waive is not offered as still undecided."""
    store = office.store
    filed = store.record(FLAWED / "hcf-payout-limit.yaml", "cas")
    store.approve(
        filed.id, "rev", on=ON, waive={"high-card-flush/payout-limit-floor": "the Board's letter"}
    )
    for fmt in ("markdown", "html"):
        argv = ["review", str(FLAWED / "hcf-payout-limit.yaml"), "--format", fmt]
        result = CliRunner().invoke(cli, [*argv, "--db", office.db])
        said = unescape(result.stdout)
        assert "1 error (each waived by the approval)" in said, fmt
        assert "Waived by the approval (rev): the Board's letter" in said, fmt
        assert "Each error is waived by the approval" in said, fmt
    before = CliRunner().invoke(
        cli, ["review", str(FLAWED / "fcp-paytables.yaml"), "--format", "markdown"]
    )
    assert "waived by the approval" not in before.stdout.lower()


def test_a_progressives_hold_is_said_at_its_seed_wherever_it_is_summed_up(tmp_path: Path) -> None:
    """§ 641a.12(d): the Four-Card Progressive's hold is its meter's; 49.6783% is the hold
    with the meter at its $1,000 seed, not the hold over the meter's life. The pack's
    summary and the par sheet's table of every wager say so beside the figure, as the High
    Card Flush progressive's rows already did."""
    pack = CliRunner().invoke(cli, ["review", str(FCP), "--format", "markdown"]).stdout
    row = next(line for line in pack.splitlines() if "Four-Card Progressive Payout" in line)
    assert "Paytable B, with the meter at its seed" in row and "49.6783%" in row
    out = tmp_path / "par.html"
    made = CliRunner().invoke(cli, ["par", str(FCP), "--format", "html", "--out", str(out)])
    assert made.exit_code == 0, made.output
    summary = re.sub(r"<[^>]+>", "|", out.read_text().split("House edge of every wager")[1])
    cells = [c.strip() for c in summary.split("|") if c.strip()]
    at = cells.index("Four-Card Progressive Payout Wager, Paytable B")
    assert cells[at + 1 : at + 3] == [
        "49.6783%",
        "exact, with the meter at its seed, before the Four-Card Envy Bonus it also pays "
        "(not priced)",
    ]
    aces = cells.index("Aces Up Wager, Paytable C")
    assert cells[aces + 2] == "exact"


def test_a_bonus_the_base_game_pays_is_never_summed_beside_it(tmp_path: Path) -> None:
    """§ 641a.12(b): the Ante Bonus is paid on the Ante Wager, whatever the dealer's hand,
    and the base game's rows (Ante and Play Wagers) settle it: its nets of 24 and 29 units
    are a straight flush's and four of a kind's bonus. The table of every wager listed it
    as a wager beside them, which an officer adding the rows counts twice: it says it is
    already in the base game. Lunar Poker's Bet Wager, settled in the base game (§ 589.12(c))
    but without a paytable of its own, is "in the base game above", not "not priced"."""
    out = tmp_path / "par.html"
    made = CliRunner().invoke(cli, ["par", str(FCP), "--format", "html", "--out", str(out)])
    assert made.exit_code == 0, made.output
    data = json.loads(CliRunner().invoke(cli, ["par", str(FCP), "--format", "json"]).stdout)
    (optimal,) = [s for k, s in data["base_game"]["strategies"].items() if k == "optimal"]
    assert {24, 29} <= {r["net"] for r in optimal["result_distribution"]}
    summary = re.sub(r"<[^>]+>", "|", out.read_text().split("House edge of every wager")[1])
    cells = [c.strip() for c in summary.split("|") if c.strip()]
    bonus = cells.index("Ante Bonus")
    assert cells[bonus + 2].endswith("; already in the base game above")
    made = CliRunner().invoke(
        cli, ["par", str(LUNAR), "--format", "html", "--out", str(out), "--rounds", "2000"]
    )
    assert made.exit_code == 0, made.output
    summary = re.sub(r"<[^>]+>", "|", out.read_text().split("House edge of every wager")[1])
    cells = [c.strip() for c in summary.split("|") if c.strip()]
    bet = cells.index("Bet Wager")
    assert cells[bet + 1] == "in the base game above"
    assert cells[bet + 2].startswith("not priced alone: ")
    assert cells[cells.index("Instant payout, Paytable B") + 2].endswith("base game above")
    # a table of a base wager (§ 677a.12(c), the Bad Beat on the Odds Wager) alike
    wpt = EXAMPLES / "wpt-heads-up-holdem.yaml"
    made = CliRunner().invoke(
        cli, ["par", str(wpt), "--format", "html", "--out", str(out), "--rounds", "2000"]
    )
    assert made.exit_code == 0, made.output
    summary = re.sub(r"<[^>]+>", "|", out.read_text().split("House edge of every wager")[1])
    cells = [c.strip() for c in summary.split("|") if c.strip()]
    assert cells[cells.index("Bad Beat on the Odds Wager") + 1] == "in the base game above"


def test_a_par_sheet_says_on_its_first_page_that_its_chapter_was_not_in_force(
    tmp_path: Path,
) -> None:
    """43 Pa.B. 7087: ch. 589's temporary rules "expire 2 years after publication", and the
    example's filing takes effect in 2027. The printed sheet named the chapter "as of
    2013-12-07" on page 1 and said only on its last page that it was not in force; the
    identification block says it, beside the chapter, once. The JSON keeps it among the
    notes, and with the identification."""
    out = tmp_path / "par.html"
    made = CliRunner().invoke(
        cli, ["par", str(LUNAR), "--format", "html", "--out", str(out), "--rounds", "2000"]
    )
    assert made.exit_code == 0, made.output
    page = unescape(out.read_text(encoding="utf-8"))
    facts = page.split("<dl class=facts>")[1].split("</dl>")[0]
    assert "<dt>In force</dt><dd>" in facts and "was not in force on 2027-01-01" in facts
    assert page.count("was not in force on 2027-01-01") == 1
    data = json.loads(
        CliRunner().invoke(cli, ["par", str(LUNAR), "--format", "json", "--rounds", "2000"]).stdout
    )
    (said,) = data["identification"]["in_force"]
    assert said in data["notes"]
    for fmt, first_section in (("text", "\n=="), ("markdown", "\n## ")):
        sheet = (
            CliRunner().invoke(cli, ["par", str(LUNAR), "--format", fmt, "--rounds", "2000"]).stdout
        )
        assert sheet.count("was not in force on 2027-01-01") == 1, fmt
        assert sheet.index("was not in force") < sheet.index(first_section), fmt


def test_the_par_sheet_reports_a_dealers_qualifying_only_where_the_game_has_one() -> None:
    """Ch. 641a has the dealer's hand compared in every round (no qualifying hand): the par
    sheet printed "dealer qualifies 100.0000%" for it. Ch. 678a's dealer qualifies with a
    three-card flush, nine high (§ 678a.11(d)): 75.3637%, as printed."""
    fcp = CliRunner().invoke(cli, ["par", str(FCP)])
    assert fcp.exit_code == 0 and "dealer qualifies" not in fcp.stdout
    hcf = CliRunner().invoke(cli, ["par", str(HCF)])
    assert "dealer qualifies 75.3637%" in hcf.stdout


def test_a_wagers_edge_says_what_it_also_pays_and_no_figure_prices_641a_12_g_3(
    tmp_path: Path,
) -> None:
    """§ 641a.1, § 641a.12(g)(3): the Magic Card and Lucky Bonus are paid "to a player who
    placed a Five Card Hand Bonus Wager". Offered, they are not priced (the table game
    system draws them), and the wager's 60.8382% edge is the paytable's alone: the sheet
    says so beside the figure, in every format, where it read as the wager's whole edge.
    Not offered, the figure stands alone."""
    example = (FCP.parent / "four-card-poker-five-card.yaml").read_text(encoding="utf-8")
    offered = re.search(r"^offered: \[(.*)\]$", example, re.M)
    assert offered is not None
    both = tmp_path / "magic.yaml"
    both.write_text(
        example.replace(offered.group(0), f"offered: [{offered.group(1)}, magic_card_lucky_bonus]")
    )
    said = "before the Magic Card and Lucky Bonus it also pays (not priced)"
    for fmt in ("text", "markdown", "html", "json"):
        out = CliRunner().invoke(cli, ["par", str(both), "--format", fmt]).stdout
        if fmt == "json":
            bonus = next(
                w
                for w in json.loads(out)["wagers"].values()
                if w["wager"] == "five_card_hand_bonus"
            )
            assert bonus["not_in_figure"] == ["Magic Card and Lucky Bonus"]
            continue
        assert said in unescape(out), fmt
    alone = CliRunner().invoke(cli, ["par", str(FCP.parent / "four-card-poker-five-card.yaml")])
    assert "Magic Card" not in alone.stdout


def test_no_par_sheet_names_the_game_as_its_chapter_does() -> None:
    """Where a pack has no par sheet it says why, each problem at its line: "'acesup' is no
    table of four-card-poker" named the game by its file's id, where the Findings of the
    same pack write "Four Card Poker"."""
    pack = (
        CliRunner()
        .invoke(cli, ["review", str(FLAWED / "fcp-limits-and-keys.yaml"), "--format", "markdown"])
        .stdout
    )
    said = next(line for line in pack.splitlines() if line.startswith("No par sheet:"))
    assert "'ante' is no optional wager of Four Card Poker" in said
    assert "'acesup' is no table of Four Card Poker" in said
    assert "four-card-poker" not in said


def test_a_poker_packs_summary_sends_no_one_to_an_empty_section() -> None:
    """A Hold'em pack's summary said the house earns the rake "(the Par sheet)", where the
    pack's Par sheet section holds no figure (its house figures are simulated, never in a
    pack): the summary says the pack holds none, and the section where they are made."""
    pack = (
        CliRunner()
        .invoke(cli, ["review", str(EXAMPLES / "poker-holdem.yaml"), "--format", "markdown"])
        .stdout
    )
    said = next(line for line in pack.splitlines() if line.startswith("No wager of the house"))
    assert "(the Par sheet)" not in said
    assert "This pack holds no figure of what it earns" in said
    assert pack.count("the full par sheet") == 1  # said once, in the Par sheet section


def test_the_par_sheet_names_a_wager_as_the_pack_and_the_chapter_do() -> None:
    """§ 641a.12(c), (f), (h) pay "Aces Up Wagers", "Bad Beat Wagers", "Six Card Bonus
    Wagers": the par sheet named their tables "Aces Up, Paytable C" beside the pack's math,
    which says "Aces Up Wager: Paytable C". A wager's own table is named by the wager; a
    table of its own (the Ante Bonus) by its name. The JSON's `name` stays the table's, and
    `wager_name` is added."""
    out = CliRunner().invoke(cli, ["par", str(FCP)]).stdout
    heads = [line for line in out.splitlines() if line.startswith("== ")]
    assert "== Aces Up Wager, Paytable C [§ 641a.12(c)] ==" in heads
    assert "== Six Card Bonus Wager, Paytable D [§ 641a.12(h)] ==" in heads
    assert "== Ante Bonus [§ 641a.12(b)] ==" in heads
    data = json.loads(CliRunner().invoke(cli, ["par", str(FCP), "--format", "json"]).stdout)
    aces = data["wagers"]["aces_up"]
    assert (aces["name"], aces["wager_name"]) == ("Aces Up", "Aces Up Wager")
