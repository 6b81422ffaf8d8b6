"""Poker Rules Submissions (ch. 553; the 7 Card Stud Game Procedures): each demand the
regulation makes of a Poker table's submission, pinned by its section."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.conftest import run_rulesub
from validator import PROJECT_ROOT
from validator.checks import validate_file
from validator.checks.engine import constraints_for
from validator.compiler import load_game

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
POKER_EXAMPLES = ("poker-holdem", "poker-omaha-hi-lo-8", "house-razz")


def variant(tmp_path: Path, example: str, changes: dict[str, Any]) -> Path:
    """The example with values replaced by JSON pointer (``None`` removes the key)."""
    yaml = YAML()
    data = yaml.load((EXAMPLES / f"{example}.yaml").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    for pointer, value in changes.items():
        parts = pointer.strip("/").split("/")
        node = data
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if value is None:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = value
    path = tmp_path / f"{example}.yaml"
    with path.open("w", encoding="utf-8") as f:
        yaml.dump(data, f)
    return path


def findings(path: Path) -> dict[str, list[Any]]:
    """The findings by code, but the date's: the examples are effective 2027-01-01, after
    42 Pa.B. 2686 rescinded ch. 553, and that warning is tests/test_history.py's."""
    out: dict[str, list[Any]] = {}
    for f in validate_file(path).findings:
        if not f.code.endswith("/not-in-force"):
            out.setdefault(f.code, []).append(f)
    return out


@pytest.mark.parametrize("example", POKER_EXAMPLES)
def test_poker_examples_are_clean(example: str) -> None:
    assert findings(EXAMPLES / f"{example}.yaml") == {}


# -- rake, § 553.15 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "code", "cite"),
    [
        ("types", "rake-types-stated", "§ 553.15(a)(1)"),
        ("methodology", "rake-methodology-stated", "§ 553.15(a)(2)"),
        ("maximum", "rake-maximum-stated", "§ 553.15(a)(3)"),
    ],
)
def test_rake_types_methodology_and_maximum_stated_553_15_a(
    tmp_path: Path, field: str, code: str, cite: str
) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {f"/rake/{field}": None}))
    # with no types stated, the percentage section is of no stated type: a warning too
    also = {"poker-holdem/percentage-rake-unused"} if field == "types" else set()
    assert set(got) == {f"poker-holdem/{code}"} | also
    (finding,) = got[f"poker-holdem/{code}"]
    assert finding.cite == cite and finding.severity == "error"
    assert finding.path == f"/rake/{field}"


@pytest.mark.parametrize(("rate", "ok"), [("10%", True), ("9.5%", True), ("10.01%", False)])
def test_percentage_rake_at_most_10_percent_553_15_b_1(tmp_path: Path, rate: str, ok: bool) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {"/rake/percentage/rate": rate}))
    assert ("poker-holdem/percentage-rake-at-most-10" not in got) == ok
    if not ok:
        (finding,) = got["poker-holdem/percentage-rake-at-most-10"]
        assert f"is {rate}; it must be at most 10%" in finding.message


def test_percentage_rake_states_its_rate_553_15_b_1(tmp_path: Path) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {"/rake/percentage": None}))
    assert list(got) == ["poker-holdem/percentage-rake-stated"]


@pytest.mark.parametrize(
    ("minutes", "ok"), [(20, True), (30, True), (60, True), (15, False), (45, False)]
)
def test_time_charges_every_20_or_30_minutes_553_15_b_3_iii(
    tmp_path: Path, minutes: int, ok: bool
) -> None:
    """§ 553.15(b)(3): "Shall be expressed as an hourly fee" that "May be assessed
    fractionally every 20 or 30 minutes": fractionally, or else once an hour."""
    # the maximum at $6, the hourly fee: no assessment of $6 an hour is over it
    changes = {"/rake/time/every_minutes": minutes, "/rake/maximum": 6}
    path = variant(tmp_path, "poker-omaha-hi-lo-8", changes)
    got = findings(path)
    assert ("poker-omaha-hi-lo-8/time-rake-interval" not in got) == ok
    assert set(got) <= {"poker-omaha-hi-lo-8/time-rake-interval"}


def test_time_charges_state_basis_interval_and_fee_553_15_b_3(tmp_path: Path) -> None:
    got = findings(variant(tmp_path, "poker-omaha-hi-lo-8", {"/rake/time": None}))
    paths = sorted(f.path for f in got["poker-omaha-hi-lo-8/time-rake-stated"])
    assert paths == ["/rake/time/basis", "/rake/time/every_minutes", "/rake/time/hourly_fee"]
    assert list(got) == ["poker-omaha-hi-lo-8/time-rake-stated"]


def test_incremental_rake_states_its_levels_553_15_b_2(tmp_path: Path) -> None:
    path = variant(tmp_path, "poker-holdem", {"/rake/types": ["percentage", "incremental"]})
    assert list(findings(path)) == ["poker-holdem/incremental-rake-stated"]


def test_rake_section_of_a_type_not_used_warns_553_15_a_1(tmp_path: Path) -> None:
    path = variant(tmp_path, "poker-holdem", {"/rake/time": {"basis": "per_table"}})
    got = findings(path)
    assert list(got) == ["poker-holdem/time-rake-unused"]
    assert got["poker-holdem/time-rake-unused"][0].severity == "warning"


def test_ten_percent_is_read_exactly_not_as_a_float() -> None:
    """§ 553.15(b)(1): the bound is the Fraction 1/10, compiled and validated alike."""
    from fractions import Fraction

    from validator.checks.facts import facts_for

    (compiled,) = [
        c for c in facts_for("poker-holdem").constraints if c.id == "percentage-rake-at-most-10"
    ]
    (model,) = [c for c in constraints_for(load_game("poker-holdem")) if c.id == compiled.id]
    assert compiled.value == model.value == Fraction(1, 10)


# -- Ante, Blind Bets, Forced Bet -----------------------------------------------------------


def test_blind_bets_stated_in_holdem_553_11_d(tmp_path: Path) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {"/blinds": None}))
    assert list(got) == ["poker-holdem/blinds-stated"]
    assert got["poker-holdem/blinds-stated"][0].cite == "§ 553.11(d)"


def test_ante_rule_and_amount_stated_553_11_b(tmp_path: Path) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {"/ante": None}))
    assert list(got) == ["poker-holdem/ante-rule-stated"]
    got = findings(variant(tmp_path, "poker-holdem", {"/ante": {"required": True}}))
    assert list(got) == ["poker-holdem/ante-amount-stated"]
    ok = variant(tmp_path, "poker-holdem", {"/ante": {"required": True, "amount": 1}})
    assert findings(ok) == {}


def test_forced_bet_stated_in_stud_553_10_d_and_553_14_d(tmp_path: Path) -> None:
    for game, cite in (
        ("poker-seven-card-stud", "§ 553.10(d)"),
        ("poker-five-card-stud", "§ 553.14(d)"),
    ):
        eight = {"/game": game, "/blinds": None, "/table/positions": 8}
        got = findings(variant(tmp_path, "poker-holdem", eight))
        assert list(got) == [f"{game}/forced-bet-stated"], game
        assert got[f"{game}/forced-bet-stated"][0].cite == cite
        assert findings(variant(tmp_path, "poker-holdem", {**eight, "/forced_bet": 2})) == {}


def test_blinds_in_stud_and_a_forced_bet_in_holdem_warn_553_1(tmp_path: Path) -> None:
    path = variant(tmp_path, "poker-holdem", {"/forced_bet": 2})
    assert list(findings(path)) == ["poker-holdem/forced-bet-not-used"]
    stud = {"/game": "poker-seven-card-stud", "/forced_bet": 2, "/table/positions": 8}
    path = variant(tmp_path, "poker-holdem", stud)
    got = findings(path)
    assert list(got) == ["poker-seven-card-stud/blinds-not-used"]
    assert got["poker-seven-card-stud/blinds-not-used"][0].message.endswith("/blinds is stated")


# -- Kill and Half-kill, § 553.12(m) --------------------------------------------------------


def test_omaha_hi_lo_silent_on_the_kill_option_offers_neither_553_12_b_m(tmp_path: Path) -> None:
    """§ 553.12(b): the Kill or Half-kill option, "if offered, shall be specified"; (m): "If
    the certificate holder elects to use either option" it says which. A submission silent
    on both offers neither and complies: a warning that the silence is read as "none",
    never an error."""
    got = findings(variant(tmp_path, "poker-omaha-hi-lo-8", {"/betting/kill": None}))
    assert list(got) == ["poker-omaha-hi-lo-8/kill-option-stated"]
    (said,) = got["poker-omaha-hi-lo-8/kill-option-stated"]
    assert said.severity == "warning" and "which reads as neither" in said.message
    none = variant(tmp_path, "poker-omaha-hi-lo-8", {"/betting/kill": {"option": "none"}})
    assert findings(none) == {}


@pytest.mark.parametrize("option", ["kill", "half_kill"])
def test_kill_needs_a_qualifying_pot_553_12_m(tmp_path: Path, option: str) -> None:
    path = variant(tmp_path, "poker-omaha-hi-lo-8", {"/betting/kill": {"option": option}})
    got = findings(path)
    assert list(got) == ["poker-omaha-hi-lo-8/qualifying-pot-stated"]
    assert got["poker-omaha-hi-lo-8/qualifying-pot-stated"][0].cite.startswith("§ 553.12(m)")


def test_qualifying_pot_without_an_option_warns_553_12_m(tmp_path: Path) -> None:
    kill = {"option": "none", "qualifying_pot": 60}
    got = findings(variant(tmp_path, "poker-omaha-hi-lo-8", {"/betting/kill": kill}))
    assert list(got) == ["poker-omaha-hi-lo-8/qualifying-pot-unused"]


@pytest.mark.parametrize("game", ["poker-holdem", "poker-omaha", "poker-five-card-draw"])
def test_kill_is_only_omaha_hi_lo_8s_553_12_m(tmp_path: Path, game: str) -> None:
    kill = {"option": "kill", "qualifying_pot": 40}
    changes = {"/game": game, "/betting/kill": kill, "/table/positions": 8}
    assert list(findings(variant(tmp_path, "poker-holdem", changes))) == [
        f"{game}/kill-not-offered"
    ]


# -- raises and the minimum wager, § 553.18 -------------------------------------------------


def test_no_restriction_on_raises_stated_reads_as_none_553_18(tmp_path: Path) -> None:
    """§ 553.18: the Rules Submission "must also include any restrictions with regard to
    the maximum number of raises": with none, the text asks nothing. Silence is a warning
    (read as unlimited), not an error."""
    got = findings(variant(tmp_path, "poker-holdem", {"/betting/max_raises": None}))
    assert list(got) == ["poker-holdem/max-raises-stated"]
    (said,) = got["poker-holdem/max-raises-stated"]
    assert said.severity == "warning" and "reads as no restriction" in said.message
    unlimited = variant(tmp_path, "poker-holdem", {"/betting/max_raises": "unlimited"})
    assert findings(unlimited) == {}


def test_a_table_silent_on_raises_is_played_as_the_finding_says_553_18(tmp_path: Path) -> None:
    """§ 553.18's silence reads as no restriction, but the engines deal a silent table three
    raises a betting round (the tables' default, as under the house procedures): the
    finding says so, and so does every round played and the par sheet, where the finding
    said "unlimited" and the rounds raised three times. Stated, each is played as stated."""
    from validator.interpreter.settings import read_settings
    from validator.par.sheet import played_by_default

    game = load_game("poker-holdem")
    silent = variant(tmp_path, "poker-holdem", {"/betting/max_raises": None})
    (said,) = findings(silent)["poker-holdem/max-raises-stated"]
    assert "played with three raises in each betting round that states no limit" in said.message
    setup = read_settings(game, silent)
    assert setup.stakes.max_raises == 3
    assert setup.defaults == ("3 raises a betting round",)
    narrated = run_rulesub("play", "poker-holdem", "--rulesub", str(silent), "--seats", "3")
    assert narrated.stdout.startswith(played_by_default(setup.defaults).split(",")[0])
    assert "defaults: 3 raises a betting round." in " ".join(narrated.stdout.split())
    for stated, cap in (("unlimited", None), (4, 4)):
        path = variant(tmp_path, "poker-holdem", {"/betting/max_raises": stated})
        setup = read_settings(game, path)
        assert (setup.stakes.max_raises, setup.defaults) == (cap, ())
        narrated = run_rulesub("play", "poker-holdem", "--rulesub", str(path), "--seats", "3")
        assert narrated.stdout.startswith("hand 1")
    # a round's own limit is played where stated: said of the others alone, or not at all
    rounds = {"preflop": 1, "flop": 1, "turn": 1, "river": 1}
    for own, said_of in ((rounds, ()), ({"preflop": 2}, ("3 raises a betting round where",))):
        path = variant(
            tmp_path,
            "poker-holdem",
            {"/betting/max_raises": None, "/betting/max_raises_by_round": own},
        )
        setup = read_settings(game, path)
        assert [d[: len(said_of[0])] for d in setup.defaults] == list(said_of)


def test_raising_the_minimum_by_agreement_553_18(tmp_path: Path) -> None:
    """§ 553.18: the submission "must include provisions specifying the maximum amount that
    the minimum wager can be increased and how the dealer will determine that all of the
    patrons have agreed": required whether or not the certificate holder would allow it."""
    for stated in (None, {"allowed": True}, {"allowed": False}):
        got = findings(variant(tmp_path, "poker-holdem", {"/betting/raised_minimum": stated}))
        assert list(got) == ["poker-holdem/raised-minimum-provisions"]
        assert sorted(f.path for f in got["poker-holdem/raised-minimum-provisions"]) == [
            "/betting/raised_minimum/agreement",
            "/betting/raised_minimum/max_increase",
        ]
        assert {f.cite for f in got["poker-holdem/raised-minimum-provisions"]} == {"§ 553.18"}
    provisions = {"max_increase": 2, "agreement": "every patron says yes to the dealer"}
    path = variant(tmp_path, "poker-holdem", {"/betting/raised_minimum": provisions})
    assert findings(path) == {}


# -- Bad Beat, § 553.20 ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "code"),
    [
        ("max_contribution", "bad-beat-contribution-stated"),
        ("contribution_method", "bad-beat-contribution-stated"),
        ("minimum_pot", "bad-beat-minimum-pot-stated"),
        ("qualifying_hands", "bad-beat-qualifying-stated"),
        ("payouts", "bad-beat-qualifying-stated"),
        ("discontinuation", "bad-beat-discontinuation-stated"),
    ],
)
def test_bad_beat_rules_complete_553_20_b_and_i(tmp_path: Path, field: str, code: str) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {f"/bad_beat/{field}": None}))
    assert list(got) == [f"poker-holdem/{code}"]
    assert got[f"poker-holdem/{code}"][0].severity == "error"


def test_bad_beat_current_amount_for_the_notice_warns_553_20_b(tmp_path: Path) -> None:
    got = findings(variant(tmp_path, "poker-holdem", {"/bad_beat/current_amount": None}))
    assert list(got) == ["poker-holdem/bad-beat-current-amount-stated"]
    assert got["poker-holdem/bad-beat-current-amount-stated"][0].severity == "warning"


@pytest.mark.parametrize(
    ("approved", "ok"),
    [(dt.date(2027, 1, 1), True), (dt.date(2026, 6, 30), True), (dt.date(2027, 1, 2), False)],
)
def test_discontinuation_approved_before_the_payout_is_offered_553_20_i(
    tmp_path: Path, approved: dt.date, ok: bool
) -> None:
    path = variant(tmp_path, "poker-holdem", {"/bad_beat/discontinuation/approved": approved})
    got = findings(path)
    assert ("poker-holdem/bad-beat-discontinuation-approved-first" not in got) == ok
    assert set(got) <= {"poker-holdem/bad-beat-discontinuation-approved-first"}


def test_no_bad_beat_rules_needed_when_not_offered_553_20_a(tmp_path: Path) -> None:
    assert findings(variant(tmp_path, "poker-holdem", {"/bad_beat": {"offered": False}})) == {}
    assert findings(variant(tmp_path, "poker-holdem", {"/bad_beat": None})) == {}
    got = findings(variant(tmp_path, "poker-holdem", {"/bad_beat/offered": None}))
    assert list(got) == ["poker-holdem/bad-beat-offered-stated"]


# -- decks and players ----------------------------------------------------------------------


@pytest.mark.parametrize(("hours", "ok"), [(6, True), (5, True), (7, False)])
def test_decks_changed_at_least_every_6_hours_553_3_b(tmp_path: Path, hours: int, ok: bool) -> None:
    path = variant(tmp_path, "poker-holdem", {"/dealing/change_every_hours": {"hand": hours}})
    got = findings(path)
    assert ("poker-holdem/deck-change-interval" not in got) == ok
    if not ok:
        assert got["poker-holdem/deck-change-interval"][0].cite == "§ 553.3(b)"


@pytest.mark.parametrize(
    ("game", "most", "cite"),
    [
        ("poker-holdem", 10, "§ 553.11(b)"),
        ("poker-omaha-hi-lo-8", 10, "§ 553.12(b)"),
        ("poker-seven-card-stud", 8, "§ 553.10(b)"),
        ("poker-five-card-draw", 8, "§ 553.13(b)"),
        ("poker-five-card-stud", 8, "§ 553.14(b)"),
        ("house-razz", 8, "7CS Procedures § Seven-Card Stud (1)"),
    ],
)
def test_players_per_table_within_the_variants_maximum(
    tmp_path: Path, game: str, most: int, cite: str
) -> None:
    """§ 553.10(b)-§ 553.14(b); 7CS Procedures § Seven-Card Stud (1) (not the 11 of § Poker
    Overview (1): every house game is Stud)."""
    (c,) = [c for c in constraints_for(load_game(game)) if c.id == "max-positions"]
    assert (c.value, c.cite) == (most, cite)
    example = "house-razz" if game.startswith("house") else "poker-holdem"
    over = variant(tmp_path, example, {"/game": game, "/table/positions": most + 1})
    assert f"{game}/max-positions" in findings(over)
    at = variant(tmp_path, example, {"/game": game, "/table/positions": most})
    assert f"{game}/max-positions" not in findings(at)


# -- the house procedures -------------------------------------------------------------------


def test_house_games_apply_none_of_553s_limits(tmp_path: Path) -> None:
    """The 7 Card Stud Game Procedures set no rake rate, time charge, deck change or raise
    rule: a 20% rake every 45 minutes, decks kept 12 hours, is not an error there, and no
    raise rule stated is told only the three-raise default it is played by (info)."""
    path = variant(
        tmp_path,
        "house-razz",
        {
            "/rake/percentage/rate": "20%",
            "/rake/types": ["percentage", "time"],
            "/rake/time": {"basis": "per_table", "every_minutes": 45, "hourly_fee": 10},
            "/dealing/change_every_hours": {"hand": 12},
            "/betting": None,
        },
    )
    got = findings(path)
    assert list(got) == ["house-razz/raise-cap-stated"]
    assert {f.severity for f in got["house-razz/raise-cap-stated"]} == {"info"}


def test_house_rake_unstated_is_a_warning_not_an_error(tmp_path: Path) -> None:
    """7CS Procedures § Poker Overview (4)(vi): 'The dealer shall collect the rake'."""
    got = findings(variant(tmp_path, "house-razz", {"/rake": None}))
    assert list(got) == ["house-razz/rake-stated"]
    assert {f.severity for f in got["house-razz/rake-stated"]} == {"warning"}
    assert len(got["house-razz/rake-stated"]) == 3


def test_constraints_of_shared_rule_files_point_into_them() -> None:
    """A constraint written once in games/include/ is every ch. 553 game's, and its
    position is the shared file's line."""
    game = load_game("poker-five-card-draw-low")
    ids = [c.id for c in game.definition.constraints]
    assert "percentage-rake-at-most-10" in ids and "blinds-stated" in ids
    i = ids.index("percentage-rake-at-most-10")
    pos = game.located.position(f"/constraints/{i}/value")
    text = (PROJECT_ROOT / "games" / "include" / "poker-pa-553.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[pos.line - 1].strip() == "value: 10%"


@pytest.mark.parametrize(
    ("example", "cite"),
    [
        ("poker-holdem", "§ 553.7(b)"),
        ("house-razz", "7CS Procedures § Poker Overview (1)"),
    ],
)
def test_a_table_of_one_position_is_refused_poker_is_played_by_two_players_or_more(
    tmp_path: Path, example: str, cite: str
) -> None:
    """§ 553.7(b): "Poker shall be played by a minimum of two players"; the house procedures'
    Poker Overview (1) alike."""
    code = f"{example}/min-positions"
    [f] = findings(variant(tmp_path, example, {"/table/positions": 1}))[code]
    assert f.severity == "error" and f.cite == cite
    assert code not in findings(variant(tmp_path, example, {"/table/positions": 2}))


def test_the_house_games_cite_only_the_house_procedures(tmp_path: Path) -> None:
    """The 7 Card Stud Game Procedures are another rule source: what a house game says cites
    them, never 58 Pa. Code ch. 553 (the Kill finding, the schema's words)."""
    kill = {"/betting/kill": {"option": "half_kill", "qualifying_pot": 20}}
    found = validate_file(variant(tmp_path, "house-razz", kill)).findings
    assert "house-razz/kill-not-offered" in {f.code for f in found}
    for f in found:
        assert "§ 553" not in f.message and "§ 553" not in (f.cite or ""), f
    for name in ("razz", "seven-card-stud", "seven-card-stud-hi-lo-8"):
        schema = (PROJECT_ROOT / "schemas" / f"rulesub.house-{name}.schema.json").read_text()
        assert "§ 553" not in schema


def test_a_house_round_and_a_house_table_are_refused_citing_the_house_procedures(
    tmp_path: Path,
) -> None:
    """A house round file whose player still in did not match a bet, and a house table whose
    forced wagers outgrow the simulated stacks, are refused citing the procedures' § Wagers
    (3), never § 553.8(b)."""
    from tests.conftest import run_rulesub

    round_file = tmp_path / "round.yaml"
    round_file.write_text(
        "game: house-seven-card-stud-hi-lo-8\nchip: 1\nseats:\n"
        "  - {seat: 1, cards: [AC, 2D, 3H, 4S, 7H, KH, KS], contributed: 10, all_in: true}\n"
        "  - {seat: 2, cards: [TS, 9S, 8D, 7C, 6H, KD, QC], contributed: 29}\n"
        "  - {seat: 3, cards: [QS, QH, QD, 5C, 5D, JC, 9C], contributed: 30}\n"
    )
    out = run_rulesub("settle", str(round_file))
    assert out.returncode == 2 and "did not match the last $1 of seat 3's bet" in out.stderr
    assert "(7CS Procedures § Definitions (All-in, Side pot); § Wagers (3)(ii))" in out.stderr
    assert "§ 553" not in out.stderr
    table = variant(tmp_path, "house-razz", {"/ante/amount": 5000})  # past the maximum wager
    args = ("play", "house-razz", "--rulesub", str(table), "--rounds", "1", "--allow-findings")
    out = run_rulesub(*args)
    assert (
        out.returncode == 2
        and "on the table to be dealt in (7CS Procedures § Wagers (3))" in out.stderr
    )
    assert "§ 553" not in out.stderr


@pytest.mark.parametrize(
    ("levels", "maximum", "ok"),
    [
        ([{"pot": 20, "rake": 1}, {"pot": 40, "rake": 1}], 2, True),  # $2 in all, at most $2
        ([{"pot": 20, "rake": 1}, {"pot": 40, "rake": 2}], 2, False),  # $3 in all
        ([{"pot": 20, "rake": 3}, {"pot": 40, "rake": 3}], 4, False),  # $6 in all
        ([{"pot": 40, "rake": 3}, {"pot": 20, "rake": 3}], 4, False),  # listed highest first
    ],
)
def test_incremental_levels_in_all_at_most_the_maximum_553_15_a_3_b_2(
    tmp_path: Path, levels: list[dict[str, int]], maximum: int, ok: bool
) -> None:
    """§ 553.15(b)(2) takes "incremental amounts", each level's added to those before;
    § 553.15(a)(3) states one "maximum permissible rake". Levels that come to more were
    accepted, and the sign posted "$6 in all; at most $4"."""
    path = variant(
        tmp_path,
        "poker-holdem",
        {
            "/rake/types": ["incremental"],
            "/rake/percentage": None,
            "/rake/incremental": {"levels": levels, "taken": "end_of_round"},
            "/rake/maximum": maximum,
        },
    )
    got = findings(path)
    code = "poker-holdem/incremental-rake-within-maximum"
    assert (code not in got) == ok, got
    if not ok:
        (finding,) = got[code]
        total = sum(level["rake"] for level in levels)
        assert f"take ${total} in all from a pot that reaches $40" in finding.message
        assert f"more than the stated maximum ${maximum}" in finding.message


@pytest.mark.parametrize(("amount", "ok"), [(0, False), ("0.01", True), (1, True)])
def test_an_offered_bad_beat_takes_more_than_nothing_553_20_a_c(
    tmp_path: Path, amount: object, ok: bool
) -> None:
    """§ 553.20(a): the payout is made "from a separate fund created from pot contributions
    required"; (c): the certificate holder "shall extract from each pot … a prescribed
    contribution". A maximum contribution of $0 posted "Up to $0 of each pot"."""
    got = findings(variant(tmp_path, "poker-holdem", {"/bad_beat/max_contribution": amount}))
    assert ("poker-holdem/bad-beat-contribution-more-than-nothing" not in got) == ok, got


@pytest.mark.parametrize(
    "game_id", ["poker-holdem", "poker-omaha-hi-lo-8", "poker-seven-card-stud"]
)
def test_each_check_cites_where_the_text_defines_or_states_it(game_id: str) -> None:
    """The Ante is defined in § 521.1 (the temporary rules' general definitions); § 553.1
    defines the Blind Bet and the Forced Bet but no Ante. "Played by a minimum of two
    players" is § 553.7(b), not § 553.2(a)'s table. A section is cited once: the decks are
    "§ 553.3(a), (d)", never "§ 553.3(a); § 553.3(a), (d)". And an Omaha table is "An
    Omaha … table"."""
    constraints = constraints_for(load_game(game_id))
    cites = {c.id: c.cite for c in constraints}
    assert not [c for c in cites.values() if "553.1 (Ante" in c]
    assert cites["required-ante-more-than-nothing"] == "§ 521.1 (Ante)"
    assert cites["min-positions"] == "§ 553.7(b)"
    assert cites["max-decks"] == "§ 553.3(a), (d)"
    positions = next(c for c in constraints if c.id == "max-positions").message
    assert positions.startswith("An Omaha" if "omaha" in game_id else "A ")


def test_a_percentage_and_an_incremental_rake_together_are_told_not_refused_553_15_b(
    tmp_path: Path,
) -> None:
    """§ 553.15(b): "one or more of the following procedures". A percentage and an
    incremental rake both from the pots comply, and their combination is the methodology's
    words alone (§ 553.15(a)(2)): `validate` says, as information, that no round of the
    table can be settled, played or priced, where it said nothing and `play` then stopped.
    Time charges beside a percentage rake are played; an incremental block the types do not
    list is told as unused, not as combined."""
    code = "poker-holdem/pot-rakes-combined"
    levels = {"levels": [{"pot": 10, "rake": 1}], "taken": "end_of_round"}
    both = variant(
        tmp_path,
        "poker-holdem",
        {"/rake/types": ["percentage", "incremental"], "/rake/incremental": levels},
    )
    got = findings(both)
    assert list(got) == [code]
    assert got[code][0].severity == "info" and got[code][0].cite == "§ 553.15(a)(2), (b)"
    played = run_rulesub("play", "poker-holdem", "--rulesub", str(both), "--seats", "3")
    assert played.returncode == 2 and "how they combine" in played.stderr
    unused = variant(tmp_path, "poker-holdem", {"/rake/incremental": levels})
    assert list(findings(unused)) == ["poker-holdem/incremental-rake-unused"]
    time = {"hourly_fee": 6, "basis": "per_player", "every_minutes": 30}
    beside = variant(
        tmp_path, "poker-holdem", {"/rake/types": ["percentage", "time"], "/rake/time": time}
    )
    assert code not in findings(beside)
    played = run_rulesub("play", "poker-holdem", "--rulesub", str(beside), "--seats", "3")
    assert played.returncode == 0, played.stderr


def test_the_irregularities_supplemented_in_the_submission_are_kept_553_16_q(
    tmp_path: Path,
) -> None:
    """§ 553.16(q): "A certificate holder may clarify and supplement the procedures related
    to irregularities in this section in the certificate holder's Rules Submission". Such a
    submission was refused, its `irregularities` an unknown key; it is accepted, and the
    words are kept."""
    words = "A misdeal is declared by the floorperson; the round is dealt again."
    path = variant(tmp_path, "poker-holdem", {"/irregularities": words})
    assert findings(path) == {}
    from validator.model.submission import load_submission

    loaded = load_submission(path).submission
    assert loaded is not None and loaded.irregularities == words
    # the house procedures give no such leave: kept, with a warning that nothing checks it
    house = findings(variant(tmp_path, "house-razz", {"/irregularities": words}))
    assert list(house) == ["house-razz/no-irregularities-supplement"]
    assert house["house-razz/no-irregularities-supplement"][0].severity == "warning"


def test_a_rake_maximum_of_nothing_is_warned_of_553_15_a_3(tmp_path: Path) -> None:
    """§ 553.15(a)(3): "the amount of maximum permissible rake". A 10% rake to a maximum
    of $0 validated clean and was posted as "10% of each pot and side pot, to a maximum of
    $0 a round of play": a rake that takes nothing. It is a warning; $1 is not."""
    code = "poker-holdem/rake-maximum-more-than-nothing"
    got = findings(variant(tmp_path, "poker-holdem", {"/rake/maximum": 0}))
    assert list(got) == [code] and got[code][0].severity == "warning"
    assert got[code][0].cite == "§ 553.15(a)(3)"
    assert findings(variant(tmp_path, "poker-holdem", {"/rake/maximum": 1})) == {}
