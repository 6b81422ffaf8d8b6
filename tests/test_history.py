"""The regulation as of a date: each chapter's history with its Bulletin citations, and a
submission checked against the rules in force on its effective date."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.compiler import all_games, load_game
from validator.model.history import BULLETIN, Dated, as_of, in_force

EXAMPLE = PROJECT_ROOT / "rulesubs" / "example" / "poker-holdem.yaml"
runner = CliRunner()


def history(game: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["games", "history", game, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_ch_553_history_adopted_amended_rescinded() -> None:
    """Ch. 553: 40 Pa.B. 1156 (March 6, 2010), amended 40 Pa.B. 5167 (September 11, 2010),
    rescinded by 42 Pa.B. 2686 (May 12, 2012), replaced by ch. 637a."""
    events = history("poker-holdem")
    assert [(e["date"], e["citation"], e["kind"]) for e in events] == [
        ("2010-03-06", "40 Pa.B. 1156", "adopted"),
        ("2010-09-11", "40 Pa.B. 5167", "amended"),
        ("2012-05-12", "42 Pa.B. 2686", "rescinded"),
    ]
    assert set(events[0]) == {
        "date",
        "citation",
        "kind",
        "sections",
        "text",
        "expires",
        "successor",
        "note",
    }
    # the temporary regulations' own term, and the notice whose text is not held, by machine
    assert events[0]["expires"] == "2012-03-06"
    assert [e["text"] for e in events] == ["encoded", "missing", "none"]
    assert "The text this notice gave is not held here." in str(events[1]["note"])
    assert "637a" in str(events[2]["note"]) and "637a" in str(events[2]["successor"])
    assert history("poker-seven-card-stud") == events  # every ch. 553 game shares it


def test_ch_641a_history_from_the_source_notes() -> None:
    """Ch. 641a: 42 Pa.B. 4333 (effective July 7, 2012), 44 Pa.B. 5463 (August 16, 2014),
    44 Pa.B. 7683 (December 13, 2014), 49 Pa.B. 4956 (August 31, 2019)."""
    events = history("four-card-poker")
    assert [(e["date"], e["citation"], e["kind"]) for e in events] == [
        ("2012-07-07", "42 Pa.B. 4333", "adopted"),
        ("2014-08-16", "44 Pa.B. 5463", "amended"),
        ("2014-12-13", "44 Pa.B. 7683", "amended"),
        ("2019-08-31", "49 Pa.B. 4956", "amended"),
    ]
    # § 641a.8 carries no 44 Pa.B. 5463 in its Source note; § 641a.12 all three
    assert "§ 641a.8" not in events[1]["sections"]  # type: ignore[operator]
    assert all("§ 641a.12" in e["sections"] for e in events[1:])  # type: ignore[operator]
    assert all("§ 641a.3" not in e["sections"] for e in events)  # type: ignore[operator]


def test_ch_589_history_rescinded_by_46_pa_b_5540() -> None:
    events = history("lunar-poker")
    assert [(e["date"], e["citation"], e["kind"]) for e in events] == [
        ("2013-12-07", "43 Pa.B. 7087", "adopted"),
        ("2016-08-27", "46 Pa.B. 5540", "rescinded"),
    ]
    assert "668a" in str(events[1]["note"])


@pytest.mark.parametrize("game", ["wpt-heads-up-holdem", "high-card-flush"])
def test_chs_677a_678a_record_the_proposal_and_no_guessed_adoption(game: str) -> None:
    assert history(game) == []
    text = runner.invoke(app, ["games", "history", game]).stdout
    assert "45 Pa.B. 4764" in text and "not found" in text
    assert not re.search(r"`[a-z_]+:`", text), text  # a game file's key is not a person's word


@pytest.mark.parametrize("game", ["wpt-heads-up-holdem", "high-card-flush"])
def test_a_date_before_the_proposal_of_chs_677a_678a_is_refused(game: str, tmp_path: Path) -> None:
    """The preamble: "Notice of the proposed rulemaking was published at 45 Pa.B. 4764
    (August 15, 2015)"; the rulemaking "will become effective upon final-form
    publication", a day the copy leaves blank. So no text of the chapter was in force
    after August 15, 2015: a submission effective 2014-01-01 is an error naming the
    proposal (it passed clean), `--as-of` that day is refused (exit 2), as is the day of
    the proposal itself; a later day is checked against the final-form text, and with
    --show-regulation-notes told that the chapter's date of adoption is not known."""
    from validator.checks.in_force import ADOPTION_UNKNOWN, BEFORE_PROPOSAL

    assert in_force(load_game(game).definition, dt.date(2015, 8, 14)).refused
    assert in_force(load_game(game).definition, dt.date(2015, 8, 15)).refused
    assert not in_force(load_game(game).definition, dt.date(2015, 8, 16)).refused
    example = PROJECT_ROOT / "rulesubs" / "example" / f"{game}.yaml"
    early = tmp_path / "early.yaml"
    early.write_text(example.read_text().replace("effective: 2027-01-01", "effective: 2014-01-01"))
    done = runner.invoke(app, ["validate", str(early), "--format", "json"])
    assert done.exit_code == 1
    found = [
        f for f in json.loads(done.stdout)["findings"] if f["code"] == f"{game}/{BEFORE_PROPOSAL}"
    ]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert "proposed at 45 Pa.B. 4764 (August 15, 2015)" in found[0]["message"]
    on_the_day = tmp_path / "on-the-day.yaml"
    on_the_day.write_text(early.read_text().replace("2014-01-01", "2015-08-15"))
    done = runner.invoke(app, ["validate", str(on_the_day), "--format", "json"])
    codes = {f["code"] for f in json.loads(done.stdout)["findings"]}
    assert f"{game}/{BEFORE_PROPOSAL}" in codes and done.exit_code == 1
    after = tmp_path / "after.yaml"
    after.write_text(early.read_text().replace("2014-01-01", "2015-08-16"))
    done = runner.invoke(app, ["validate", str(after), "--format", "json"])
    codes = {f["code"] for f in json.loads(done.stdout)["findings"]}
    assert f"{game}/{BEFORE_PROPOSAL}" not in codes and f"{game}/{ADOPTION_UNKNOWN}" not in codes
    noted = runner.invoke(
        app, ["validate", str(after), "--format", "json", "--show-regulation-notes"]
    )
    (note,) = [
        f for f in json.loads(noted.stdout)["findings"] if f["code"] == f"{game}/{ADOPTION_UNKNOWN}"
    ]
    assert note["severity"] == "info" and noted.exit_code == 0
    assert (
        "gives no date of adoption: proposed at 45 Pa.B. 4764 (August 15, 2015)" in note["message"]
    )
    for day in ("2015-08-14", "2015-08-15"):
        refused = runner.invoke(app, ["games", "show", game, "--as-of", day])
        assert refused.exit_code == 2 and "45 Pa.B. 4764" in refused.stderr


@pytest.mark.parametrize("game", ["house-seven-card-stud", "house-razz"])
def test_house_procedures_say_they_carry_no_dates(game: str) -> None:
    assert load_game(game).definition.undated
    assert "carry no dates" in runner.invoke(app, ["games", "history", game]).stdout


def test_every_date_cites_the_bulletin_and_every_amended_table_is_dated() -> None:
    """An event or dated value without a Bulletin citation fails; so does a paytable whose
    section has an amendment history but carries no date."""
    for game in all_games():
        d = game.definition
        for e in d.history:
            assert BULLETIN.match(e.citation), (game.id, e)
        amended = {s for e in d.history if e.kind == "amended" for s in e.sections}
        for _, tid, table in d.tables():
            sections = set(re.findall(r"§ \d+a?\.\d+", table.cite))
            if sections & amended:
                assert table.dated is not None, f"{game.id}: {tid} ({table.cite}) has no date"
            for dated in [table.dated, *table.letters_dated.values()]:
                if dated is not None:
                    assert BULLETIN.match(dated.cite), (game.id, tid)


def test_an_uncited_date_is_refused() -> None:
    with pytest.raises(ValidationError, match="Pennsylvania Bulletin citation"):
        Dated.model_validate({"since": "2019-08-31", "cite": "§ 641a.12", "earlier": "none"})


def submission(tmp_path: Path, effective: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^effective: .*$", f"effective: {effective}", text)
    text = re.sub(r"(?m)^(\s*approved:) \d{4}-\d{2}-\d{2}", r"\1 2010-03-06", text)
    path = tmp_path / f"holdem-{effective}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def findings(path: Path, *args: str) -> tuple[int, list[dict[str, object]]]:
    result = runner.invoke(app, ["validate", str(path), "--format", "json", *args])
    data = json.loads(result.stdout)
    return result.exit_code, data["findings"]


def test_poker_effective_2010_06_01_is_clean_against_ch_553_as_adopted(tmp_path: Path) -> None:
    code, found = findings(submission(tmp_path, "2010-06-01"))
    assert (code, found) == (0, [])


def test_poker_effective_2011_06_01_is_told_the_40_pa_b_5167_text_is_not_encoded(
    tmp_path: Path,
) -> None:
    code, found = findings(submission(tmp_path, "2011-06-01"))
    assert code == 0
    [f] = found
    assert f["code"] == "poker-holdem/amendment-not-encoded" and f["severity"] == "info"
    assert "40 Pa.B. 5167" in str(f["message"]) and "sections not known" in str(f["message"])


def test_poker_effective_2027_01_01_is_warned_with_42_pa_b_2686(tmp_path: Path) -> None:
    code, found = findings(submission(tmp_path, "2027-01-01"))
    assert code == 0  # a warning: offices hold filings effective today and later
    [warning] = found
    assert warning["severity"] == "warning" and warning["cite"] == "42 Pa.B. 2686"
    assert "ch. 637a" in str(warning["message"]) and "not encoded" in str(warning["message"])


@pytest.mark.parametrize(
    ("effective", "codes"),
    [
        ("2012-03-05", ["poker-holdem/amendment-not-encoded"]),
        ("2012-03-06", ["poker-holdem/expired"]),
        ("2012-05-11", ["poker-holdem/expired"]),
        ("2012-05-12", ["poker-holdem/not-in-force"]),
    ],
)
def test_ch_553_expired_two_years_after_publication(
    tmp_path: Path, effective: str, codes: list[str]
) -> None:
    """40 Pa.B. 1156 (March 6, 2010), Regulatory Review: "These temporary regulations shall
    expire 2 years after publication in the Pennsylvania Bulletin" (4 Pa.C.S. § 1303A). From
    March 6, 2012 until 42 Pa.B. 2686 rescinded ch. 553 (May 12, 2012) a Poker submission is
    warned that the chapter had expired, as ch. 589's are; the day before, it is still told
    that 40 Pa.B. 5167's wording is not held."""
    code, found = findings(submission(tmp_path, effective))
    assert code == 0  # a warning, as a rescission's
    assert [f["code"] for f in found] == codes
    if codes == ["poker-holdem/expired"]:
        [f] = found
        assert f["severity"] == "warning" and f["cite"] == "40 Pa.B. 1156"
        assert "it expired on 2012-03-06, 2 years after publication" in str(f["message"])


LUNAR = PROJECT_ROOT / "rulesubs" / "example" / "lunar-poker.yaml"


@pytest.mark.parametrize(
    ("effective", "code"),
    [
        ("2015-12-06", None),
        ("2015-12-07", "lunar-poker/expired"),
        ("2016-08-26", "lunar-poker/expired"),
        ("2016-08-27", "lunar-poker/not-in-force"),
    ],
)
def test_ch_589_expired_two_years_after_publication(
    tmp_path: Path, effective: str, code: str | None
) -> None:
    """43 Pa.B. 7087 (December 7, 2013): "These temporary regulations expire 2 years after
    publication in the Pennsylvania Bulletin" (the preamble; the authority to adopt them
    "does not expire", 4 Pa.C.S. § 13A03(b), the regulations do). From December 7, 2015 until
    46 Pa.B. 5540 rescinded the chapter, a submission is warned that it had expired; after,
    that it was rescinded."""
    path = tmp_path / "lunar.yaml"
    text = LUNAR.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^effective: .*$", f"effective: {effective}", text))
    exit_code, found = findings(path)
    assert exit_code == 0  # a warning, as a rescission's
    dated = [f for f in found if f["code"] in ("lunar-poker/expired", "lunar-poker/not-in-force")]
    assert [f["code"] for f in dated] == ([code] if code else [])
    if code == "lunar-poker/expired":
        [f] = dated
        assert f["severity"] == "warning" and f["cite"] == "43 Pa.B. 7087"
        assert "it expired on 2015-12-07, 2 years after publication" in str(f["message"])


def test_an_expiry_is_an_adoptions_and_after_it() -> None:
    from validator.model.history import Event

    base = {"citation": "43 Pa.B. 7087", "text": "encoded"}
    assert Event(date=dt.date(2013, 12, 7), kind="adopted", expires=dt.date(2015, 12, 7), **base)
    for kind, expires in [("amended", dt.date(2015, 12, 7)), ("adopted", dt.date(2013, 12, 7))]:
        with pytest.raises(ValidationError, match="`expires` is an adoption's"):
            Event(date=dt.date(2013, 12, 7), kind=kind, expires=expires, **base)


def test_effective_before_adoption_is_an_error(tmp_path: Path) -> None:
    code, found = findings(submission(tmp_path, "2009-12-31"))
    assert code == 1
    assert any(
        f["code"] == "poker-holdem/before-adoption" and f["cite"] == "40 Pa.B. 1156" for f in found
    )


def test_before_641a_the_error_names_the_temporary_ch_557_it_replaced(tmp_path: Path) -> None:
    """40 Pa.B. 1156 (March 6, 2010) "adopts temporary regulations in Chapters ... 557
    (relating to ... Four Card Poker ...)"; ch. 641a took effect July 7, 2012 (42 Pa.B.
    4333). A Four Card Poker submission effective in 2011 is an error against ch. 641a, and
    the error names the rules in force then, which are not encoded here."""
    example = EXAMPLE.parent / "four-card-poker.yaml"
    text = re.sub(r"(?m)^effective: .*$", "effective: 2011-01-01", example.read_text("utf-8"))
    path = tmp_path / "fcp-2011.yaml"
    path.write_text(text, encoding="utf-8")
    code, found = findings(path)
    assert code == 1
    (error,) = [f for f in found if f["code"] == "four-card-poker/before-adoption"]
    assert str(error["message"]).endswith(
        "effective 2012-07-07; it replaced the temporary Four Card Poker rules of ch. 557 "
        "(40 Pa.B. 1156, March 6, 2010), not encoded here"
    )
    _, holdem = findings(submission(tmp_path, "2009-12-31"))  # ch. 553 replaced no chapter
    (first,) = [f for f in holdem if f["code"] == "poker-holdem/before-adoption"]
    assert "replaced" not in str(first["message"])


def test_validate_as_of_overrides_the_effective_date(tmp_path: Path) -> None:
    _, found = findings(submission(tmp_path, "2010-06-01"), "--as-of", "2013-01-01")
    # after the rescission the warning alone: it names the notice and the successor
    assert [f["code"] for f in found] == ["poker-holdem/not-in-force"]


@pytest.mark.parametrize(
    ("argv", "cite"),
    [
        (["games", "show", "poker-holdem", "--as-of", "2010-03-05"], "40 Pa.B. 1156"),
        (["games", "show", "four-card-poker", "--as-of", "2012-07-06"], "42 Pa.B. 4333"),
        (["diff", "lunar-poker", "--from", "2013-01-01", "--to", "2014-01-01"], "43 Pa.B. 7087"),
        (
            ["odds", "four-card-poker", "--wager", "aces_up", "--as-of", "2012-01-01"],
            "42 Pa.B. 4333",
        ),
        (["par", "four-card-poker", "--as-of", "2012-01-01"], "42 Pa.B. 4333"),
        (["par", str(EXAMPLE), "--as-of", "2010-03-05"], "40 Pa.B. 1156"),
        (["validate", str(EXAMPLE), "--as-of", "2010-03-05"], "40 Pa.B. 1156"),
        (["signage", str(EXAMPLE), "--as-of", "2010-03-05"], "40 Pa.B. 1156"),
        (
            [
                "diff",
                "four-card-poker",
                "--wager",
                "aces_up",
                "--paytable",
                "A",
                "--to",
                "B",
                "--as-of",
                "2012-01-01",
            ],
            "42 Pa.B. 4333",
        ),
    ],
)
def test_as_of_before_adoption_is_refused_with_the_adoption_citation(
    argv: list[str], cite: str
) -> None:
    result = runner.invoke(app, argv)
    assert result.exit_code == 2
    assert cite in result.stderr and "not in force" in result.stderr


def test_as_of_on_the_adoption_day_is_served() -> None:
    result = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", "2012-07-07"])
    assert result.exit_code == 0, result.output
    assert "not encoded" in result.stderr  # § 641a.12 as adopted is not held


def test_in_force_states() -> None:
    d = load_game("four-card-poker").definition
    assert in_force(d, dt.date(2019, 8, 31)).not_encoded == []
    late = in_force(d, dt.date(2014, 9, 1)).not_encoded
    assert [e.citation for e in late] == ["44 Pa.B. 7683", "49 Pa.B. 4956"]


def test_a_paytable_added_by_an_amendment_shows_in_the_regulations_diff() -> None:
    """A letter dated `since` an amendment with `earlier: none` is out of the rules before
    it, and `diff GAME --from --to` shows it added, with its hold."""
    from dataclasses import replace

    from validator.diff.dates import diff_dates

    game = load_game("four-card-poker")
    d = game.definition
    wid, table = d.table_by_id("aces_up")
    new = Dated(since=dt.date(2019, 8, 31), cite="49 Pa.B. 4956", earlier="none")
    table = table.model_copy(update={"letters_dated": {"F": new}})
    wager = d.wagers[wid].model_copy(update={"tables": {"aces_up": table}})
    dated = replace(game, definition=d.model_copy(update={"wagers": {**d.wagers, wid: wager}}))
    assert (
        "F" not in as_of(dated.definition, dt.date(2019, 8, 30)).table_by_id("aces_up")[1].letters
    )
    diff = diff_dates(dated, dt.date(2019, 1, 1), dt.date(2020, 1, 1))
    [added] = [c for c in diff.changes if c.path == "/paytables/aces_up/F"]
    assert (added.old, added.new, added.cite) == (None, "F", "49 Pa.B. 4956")
    assert added.hold_new is not None and added.hold_new.value is not None
    assert [c.path for c in diff.changes if c.path.startswith("/regulation")] == [
        "/regulation/2019-08-31"
    ]
    assert diff_dates(dated, dt.date(2020, 1, 1), dt.date(2021, 1, 1)).changes == []


def test_signage_as_of_before_adoption_prints_no_sign() -> None:
    """--as-of a date before ch. 589's adoption: no rule was in force, so no sign; the date
    is refused (exit 2), as `par` refuses it for the same submission."""
    example = PROJECT_ROOT / "rulesubs" / "example" / "lunar-poker.yaml"
    result = runner.invoke(app, ["signage", str(example), "--as-of", "2013-01-01"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "lunar-poker/before-adoption" in result.stderr and "43 Pa.B. 7087" in result.stderr
    par = runner.invoke(app, ["par", str(example), "--as-of", "2013-01-01"])
    assert par.exit_code == 2 and "43 Pa.B. 7087" in par.stderr


def test_validate_as_of_before_adoption_reports_and_refuses_the_date(tmp_path: Path) -> None:
    """The report names the adopting notice and the exit is 2 (the date asked has no rules
    to check against); the same submission effective before the adoption is a finding,
    exit 1 (issue: "before the chapter's adoption, an error")."""
    code, found = findings(EXAMPLE, "--as-of", "2010-03-05")
    assert code == 2
    [f] = found
    assert f["code"] == "poker-holdem/before-adoption" and f["cite"] == "40 Pa.B. 1156"
    code, _ = findings(submission(tmp_path, "2010-03-05"))
    assert code == 1


def test_diff_from_to_lists_the_notices_between_the_dates_and_says_their_text_is_missing() -> None:
    argv = ["diff", "four-card-poker", "--from", "2014-01-01", "--to", "2015-01-01"]
    result = runner.invoke(app, [*argv, "--format", "json"])
    assert result.exit_code == 0, result.output
    changes = json.loads(result.stdout)["changes"]
    assert [c["path"] for c in changes] == ["/regulation/2014-08-16", "/regulation/2014-12-13"]
    assert all("not held" in c["new"] for c in changes)
    assert "as in force on 2014-01-01 differs" in result.stderr


def test_diff_across_an_amendment_whose_replaced_wording_is_missing_says_so_49_pa_b_4956() -> None:
    """49 Pa.B. 4956 amended § 641a.12 effective August 31, 2019 (the Source note); the
    paytables held are its wording, the one it replaced is not. A diff of the two days
    lists no paytable change, and the memo and the JSON say that is not "nothing changed"
    (not only on stderr)."""
    argv = ["diff", "four-card-poker", "--from", "2019-08-30", "--to", "2019-08-31"]
    for fmt in ("json", "markdown", "text"):
        result = runner.invoke(app, [*argv, "--format", fmt])
        assert result.exit_code == 0, result.output
        said = " ".join(result.stdout.split())
        assert "49 Pa.B. 4956" in said, fmt
        assert "the wording it replaced is not held here: its changes are not all listed" in said
    changes = json.loads(runner.invoke(app, [*argv, "--format", "json"]).stdout)["changes"]
    assert [c["path"] for c in changes] == ["/regulation/2019-08-31"]  # no paytable invented
    later = ["diff", "four-card-poker", "--from", "2019-08-31", "--to", "2020-01-01"]
    assert json.loads(runner.invoke(app, [*later, "--format", "json"]).stdout)["changes"] == []


def test_games_show_as_of_says_the_day_it_shows() -> None:
    """The heading's date is the copy's (ch. 641a as of 2019-08-31); with --as-of the
    rules shown are that day's, and the page says which day."""
    shown = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", "2015-01-01"])
    assert shown.exit_code == 0, shown.output
    assert "Shown as in force on 2015-01-01" in shown.stdout
    # and, on the page itself, that the text of that day is not the one shown (§ 641a.12,
    # amended by 49 Pa.B. 4956 in 2019): a page read alone is not misread as 2015's rules
    said = " ".join(shown.stdout.split())
    assert "as in force on 2015-01-01 differs from the encoded text" in said
    assert "49 Pa.B. 4956" in said
    current = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", "2020-01-01"])
    assert "differs from the encoded text" not in current.stdout
    plain = runner.invoke(app, ["games", "show", "four-card-poker"])
    assert "Shown as in force" not in plain.stdout


def test_an_amendment_not_encoded_cites_the_notices_that_differ_on_the_date() -> None:
    """On 2015-01-01 ch. 641a read as 44 Pa.B. 7683 left it; the encoded text differs from
    it only where 49 Pa.B. 4956 amended it: the note cites that notice alone."""
    result = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", "2015-01-01"])
    assert result.exit_code == 0, result.output
    [note] = [ln for ln in result.stderr.splitlines() if "differs from the encoded text" in ln]
    assert "where 49 Pa.B. 4956 (August 31, 2019) amended it" in note
    assert note.endswith("[49 Pa.B. 4956]")


def test_diff_from_a_later_date_to_an_earlier_is_refused() -> None:
    """49 Pa.B. 4956 (August 31, 2019) amended ch. 641a: from 2020 to 2015 it would read as
    made in that direction, so the dates are refused in that order (exit 2)."""
    argv = ["diff", "four-card-poker", "--from", "2020-01-01", "--to", "2015-01-01"]
    result = runner.invoke(app, argv)
    assert result.exit_code == 2 and result.stdout == ""
    assert "--from 2020-01-01 is after --to 2015-01-01" in result.stderr


def test_dates_are_written_as_dates() -> None:
    result = runner.invoke(app, ["games", "show", "poker-holdem", "--as-of", "May 2011"])
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.stderr


def test_the_shipped_examples_effective_2027_keep_exit_0_with_the_warning() -> None:
    """Offices hold filings effective today and later for every game: the rescission of
    chs. 553 and 589 is a warning on the examples, never a failure."""
    result = runner.invoke(app, ["validate", str(EXAMPLE.parent), "--format", "json"])
    assert result.exit_code == 0, result.output
    warned = {f["code"] for f in json.loads(result.stdout)["findings"]}
    assert {"poker-holdem/not-in-force", "lunar-poker/not-in-force"} <= warned
    assert not any(c.startswith("four-card-poker/") for c in warned)  # ch. 641a in force


def test_games_show_heads_the_chapter_with_its_life() -> None:
    out = runner.invoke(app, ["games", "show", "poker-holdem"], env={"COLUMNS": "300"}).stdout
    assert (
        "In force from March 6, 2010 (40 Pa.B. 1156), temporary regulations expiring March 6, "
        "2012; amended 40 Pa.B. 5167; rescinded by 42 Pa.B. 2686 (May 12, 2012), replaced by "
        "58 Pa. Code ch. 637a (not encoded here)"
    ) in out
    out = runner.invoke(app, ["games", "show", "lunar-poker"], env={"COLUMNS": "300"}).stdout
    assert (
        "In force from December 7, 2013 (43 Pa.B. 7087), temporary regulations expiring "
        "December 7, 2015; rescinded by 46 Pa.B. 5540 (August 27, 2016)"
    ) in out


def test_a_selected_paytable_not_yet_in_force_is_an_error() -> None:
    """A letter a notice added after the effective date is not the rules of that date."""
    from types import SimpleNamespace

    from validator.checks.in_force import findings as date_findings
    from validator.model.submission import load_submission

    d = load_game("four-card-poker").definition
    wid, table = d.table_by_id("aces_up")
    new = Dated(since=dt.date(2019, 8, 31), cite="49 Pa.B. 4956", earlier="none")
    table = table.model_copy(update={"letters_dated": {"C": new}})
    wager = d.wagers[wid].model_copy(update={"tables": {"aces_up": table}})
    facts = SimpleNamespace(
        id="four-card-poker",
        definition=d.model_copy(update={"wagers": {**d.wagers, wid: wager}}),
    )
    example = PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml"
    loaded = load_submission(example, display="x.yaml")
    submission, located = loaded.submission, loaded.located
    assert submission is not None and submission.paytables is not None
    assert submission.paytables["aces_up"] == "C"
    found = date_findings(
        facts, dt.date(2019, 1, 1), "x.yaml", "/effective", 1, 1, submission, located
    )
    [f] = [f for f in found if f.code == "four-card-poker/paytable-not-in-force"]
    assert f.severity == "error" and f.cite == "49 Pa.B. 4956" and f.path == "/paytables/aces_up"
    assert "added by 49 Pa.B. 4956, effective 2019-08-31" in f.message
    later = date_findings(
        facts, dt.date(2020, 1, 1), "x.yaml", "/effective", 1, 1, submission, located
    )
    assert not any(f.code.endswith("/paytable-not-in-force") for f in later)


def test_an_expiry_says_the_term_its_dates_give() -> None:
    """Ch. 589's temporary regulations "expire 2 years after publication" (43 Pa.B. 7087):
    the warning reads the term from the game file's dates, never a term typed in for every
    chapter; dates that give no whole years say only that they ended by their own terms."""
    import datetime as dt

    from validator.checks.in_force import _term

    assert _term(dt.date(2013, 12, 7), dt.date(2015, 12, 7)) == "2 years after publication"
    assert _term(dt.date(2010, 3, 6), dt.date(2011, 3, 6)) == "1 year after publication"
    assert _term(dt.date(2013, 12, 7), dt.date(2015, 6, 1)) == "by their own terms"


@pytest.mark.parametrize(
    ("game", "dates", "paths"),
    [
        # 43 Pa.B. 7087: "These temporary regulations expire 2 years after publication"
        ("lunar-poker", ("2014-01-01", "2016-01-01"), ["/regulation/2015-12-07"]),
        # 40 Pa.B. 1156: amended 2010-09-11, expired 2012-03-06, rescinded 2012-05-12
        (
            "poker-holdem",
            ("2010-03-06", "2012-06-01"),
            ["/regulation/2010-09-11", "/regulation/2012-03-06", "/regulation/2012-05-12"],
        ),
        # from after the expiry: only the rescission is between the dates
        ("poker-holdem", ("2012-04-01", "2012-06-01"), ["/regulation/2012-05-12"]),
    ],
)
def test_diff_from_to_lists_a_temporary_chapters_expiry_in_its_place(
    game: str, dates: tuple[str, str], paths: list[str]
) -> None:
    """A temporary chapter that expires by its own term between the two dates is the
    largest change of all: listed, in date order, with the notice that set the term."""
    argv = ["diff", game, "--from", dates[0], "--to", dates[1], "--format", "json"]
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    changes = json.loads(result.stdout)["changes"]
    assert [c["path"] for c in changes] == paths
    expired = [c["new"] for c in changes if c["new"].startswith("expired on ")]
    assert len(expired) == sum(
        p in ("/regulation/2015-12-07", "/regulation/2012-03-06") for p in paths
    )


def test_signs_and_a_par_sheet_made_as_of_a_day_say_the_day_and_the_chapters_state() -> None:
    """43 Pa.B. 7087: ch. 589's temporary regulations expired on 2015-12-07. Signs and a par
    sheet made `--as-of 2016-01-01` say the day they are as of and that the chapter was not
    in force then, on the document itself, not only on stderr."""
    lunar = str(LUNAR)
    signs = runner.invoke(app, ["signage", lunar, "--as-of", "2016-01-01", "--format", "json"])
    assert signs.exit_code == 0, signs.output
    said = json.loads(signs.stdout)["as_of"]
    # never "the rules of that day" where the encoded text was not the regulation then
    assert said[0] == (
        "Made as of 2016-01-01 from the encoded text, which was not the regulation that day"
    )
    assert "was not in force on 2016-01-01" in said[1] and said[1].endswith("[43 Pa.B. 7087]")
    plain = json.loads(runner.invoke(app, ["signage", lunar, "--format", "json"]).stdout)
    assert "as_of" not in plain
    argv = ["par", lunar, "--as-of", "2016-01-01", "--rounds", "100", "--workers", "1"]
    sheet = runner.invoke(app, [*argv, "--format", "json"])
    assert sheet.exit_code == 0, sheet.output
    notes = json.loads(sheet.stdout)["notes"]
    assert notes[0] == said[0]
    assert any("was not in force on 2016-01-01" in n for n in notes)


def test_a_sign_printed_as_of_a_day_whose_text_is_not_held_is_not_for_posting() -> None:
    """49 Pa.B. 4956 (August 31, 2019) amended ch. 641a; the wording before it is not
    encoded. A finished sign made as of 2016-01-01 would post the 2019 paytables as that
    day's: it is a draft, saying why, and its heading never says "the rules of that day".
    As of a day the encoded text was the regulation, the finished sign is no draft."""
    fcp = str(PROJECT_ROOT / "rulesubs" / "example" / "four-card-poker.yaml")
    printed = runner.invoke(app, ["signage", fcp, "--as-of", "2016-01-01", "--print"])
    assert printed.exit_code == 0, printed.output
    lines = printed.stdout.splitlines()
    assert lines[0] == (
        "DRAFT: the regulation on 2016-01-01 is not the text these signs follow; not for posting"
    )
    assert "49 Pa.B. 4956" in lines[1] and "not encoded here" in lines[1]
    assert "the rules of that day" not in printed.stdout
    assert printed.stdout.count("49 Pa.B. 4956 (August 31, 2019) amended it") == 1
    as_json = runner.invoke(
        app, ["signage", fcp, "--as-of", "2016-01-01", "--print", "--format", "json"]
    )
    assert json.loads(as_json.stdout)["draft"] is True
    current = runner.invoke(app, ["signage", fcp, "--as-of", "2020-01-01", "--print"])
    assert current.exit_code == 0, current.output
    assert "DRAFT" not in current.stdout
    assert "As in force on 2020-01-01: the rules of that day" in current.stdout


def test_a_paytable_a_notice_removed_is_cited_with_the_notice_that_removed_it(
    tmp_path: Path,
) -> None:
    """A game file of one's own dates Aces Up paytable E until 49 Pa.B. 4956 (August 31,
    2019) removed it: a diff across that day cites the removing notice, not the adopting."""
    games = tmp_path / "games"
    shutil.copytree(PROJECT_ROOT / "games", games)
    path = games / "four-card-poker.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = "        paytables:\n          A: {four_of_a_kind: 50 to 1, straight_flush: 30 to 1"
    assert anchor in text
    dated = (
        "        letters_dated:\n"
        '          E: {since: 2012-07-07, cite: "42 Pa.B. 4333", earlier: missing, '
        'until: 2019-08-31, until_cite: "49 Pa.B. 4956"}\n'
    )
    path.write_text(text.replace(anchor, dated + anchor, 1), encoding="utf-8")
    argv = ["--games", str(games), "diff", "four-card-poker", "--from", "2014-01-01"]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from validator.cli import main; main()",
            *argv,
            "--to",
            "2020-01-01",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "RULESUB_NO_CACHE": "1", "COLUMNS": "100"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Aces Up Wager: Paytable E → none  [49 Pa.B. 4956]" in done.stdout


def test_a_chapter_without_dates_says_so_when_asked_for_a_day() -> None:
    """Chs. 677a and 678a take effect "upon final-form publication", whose date the copy
    leaves blank: signs made `--as-of` any day since its proposal (45 Pa.B. 4764, August
    15, 2015) say the text carries no dates, never silently."""
    hcf = str(PROJECT_ROOT / "rulesubs" / "example" / "high-card-flush.yaml")
    signs = runner.invoke(app, ["signage", hcf, "--as-of", "2016-01-01", "--format", "json"])
    assert signs.exit_code == 0, signs.output
    (undated,) = [n for n in json.loads(signs.stdout)["as_of"] if "carries no dates" in n]
    assert undated.startswith("58 Pa. Code ch. 678a carries no dates")
    assert "info: 58 Pa. Code ch. 678a carries no dates" in signs.stderr


def test_diff_from_without_to_says_what_is_missing() -> None:
    result = runner.invoke(app, ["diff", "four-card-poker", "--from", "2019-08-30"])
    assert result.exit_code == 2
    assert "--from 2019-08-30 needs --to DATE" in result.stderr


def test_as_of_a_day_that_does_not_exist_says_so() -> None:
    """February 30 is written as a date should be: the refusal says the day does not
    exist, not that another form was expected."""
    result = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", "2027-02-30"])
    assert result.exit_code == 2
    assert "--as-of '2027-02-30': no such day (day is out of range for month)" in result.stderr
    other = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", "2027-2-3"])
    assert other.exit_code == 2 and "YYYY-MM-DD was expected" in other.stderr


def test_as_of_is_written_yyyy_mm_dd_in_ascii_digits() -> None:
    """Every message asks for YYYY-MM-DD: `20270101` was taken all the same (Python reads
    the basic form too), and Arabic-Indic digits, read by the pattern as digits, answered
    "no such day (Invalid isoformat string: …)", Python's words. Each is told the form."""
    for written in ("20270101", "٢٠٢٧-٠١-٠١", "2027-W01-1"):
        result = runner.invoke(app, ["games", "show", "four-card-poker", "--as-of", written])
        assert result.exit_code == 2, written
        assert "YYYY-MM-DD was expected" in result.stderr and "isoformat" not in result.stderr
