"""Ch. 553 as the chapter writes it, worked by hand: the time charge under the stated rake
maximum (§ 553.15), raise caps that agree (§ 553.18), "pot" for the Bad Beat contribution
(§ 553.20(c)) and the Kill (§ 553.12(m)) read the same way, and the Kill's options."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import run_rulesub
from validator.compiler import load_game
from validator.interpreter.poker.rake import RakeRule, a_period, time_charges
from validator.interpreter.poker.session import Session, summary
from validator.interpreter.settings import read_settings

EXAMPLES = Path(__file__).parent.parent / "rulesubs" / "example"
OMAHA = EXAMPLES / "poker-omaha-hi-lo-8.yaml"
HOLDEM = EXAMPLES / "poker-holdem.yaml"


def _variant(tmp_path: Path, source: Path, *edits: tuple[str, str]) -> Path:
    text = source.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / source.name
    path.write_text(text, encoding="utf-8")
    return path


def _findings(path: Path) -> dict[str, dict]:
    out = run_rulesub("validate", str(path), "--format", "json")
    return {f["code"]: f for f in json.loads(out.stdout)["findings"]}


# -- § 553.1: the mandatory wagers -----------------------------------------------------------


def test_a_mandatory_wager_of_nothing_is_an_error_and_a_stated_one_is_played_553_1(
    tmp_path: Path,
) -> None:
    """§ 553.1: a Blind Bet is "a mandatory wager", a Forced Bet "a wager which is required
    to start the wagering", an Ante "the wager that a player may be required to make": each
    an amount of money. A $0 one is an error at its line (a Blind Bet at its place in the
    list); a stated Forced Bet is played as stated, never replaced by the default (a $0 one
    was, and its sign posted "Forced Bet: $0"). Nor is one more than the table's maximum
    wager (§ 553.18; the house procedures' Wagers (4))."""
    holdem = EXAMPLES / "poker-holdem.yaml"
    no_blind = _variant(tmp_path, holdem, ("blinds: [1, 2]", "blinds: [0, 2]"))
    found = _findings(no_blind)["poker-holdem/mandatory-wagers-more-than-nothing"]
    assert found["severity"] == "error" and "/blinds/0 is $0" in found["message"]
    assert found["line"] == no_blind.read_text().splitlines().index("blinds: [0, 2]") + 1
    # § 553.18: the maximum wager posted binds them too: a $100 Blind Bet at a $2-$4 table
    over = _variant(tmp_path, holdem, ("blinds: [1, 2]", "blinds: [2, 100]"))
    said = json.loads(run_rulesub("validate", str(over), "--format", "json").stdout)
    within = [
        f["path"]
        for f in said["findings"]
        if f["code"] == "poker-holdem/mandatory-wagers-within-the-maximum"
    ]
    assert within == ["/blinds/1"]
    # § 553.11(b): "may be required to place an Ante ... the amount of the Ante, if any":
    # an Ante not required may state $0; one required may not
    for required, refused in (("false", False), ("true", True)):
        stated = f"ante: {{required: {required}, amount: 0}}"
        ante = _variant(tmp_path, holdem, ("ante: {required: false}", stated))
        codes = _findings(ante)
        assert ("poker-holdem/required-ante-more-than-nothing" in codes) == refused, required
        assert "poker-holdem/mandatory-wagers-more-than-nothing" not in codes
    razz = EXAMPLES / "house-razz.yaml"
    house = load_game("house-razz")
    for stated, played in (("0", 0), ("3", 300)):
        path = _variant(tmp_path, razz, ("forced_bet: 2", f"forced_bet: {stated}"))
        codes = _findings(path)
        assert ("house-razz/mandatory-wagers-more-than-nothing" in codes) == (played == 0)
        assert read_settings(house, path, allow_findings=True).stakes.forced_bet == played


def test_a_half_kill_hand_is_named_a_half_kill_553_1() -> None:
    """§ 553.1 names two options: the Kill (limits twice the posted) and the Half-kill (one
    and a half times). A hand played under the Half-kill was headed "limits ×3/2 (Kill)"."""
    said = run_rulesub(
        "play",
        "poker-omaha-hi-lo-8",
        "--rulesub",
        str(EXAMPLES / "poker-omaha-hi-lo-8.yaml"),
        "--seed",
        "1",
        "--rounds",
        "4",
        "--seats",
        "4",
    ).stdout
    assert "limits ×3/2 (Half-kill)" in said and "(Kill)" not in said


def test_the_bad_beat_hand_is_shown_before_it_is_paid_553_20_f(tmp_path: Path) -> None:
    """§ 553.16(d) lets a losing hand be discarded unshown, but § 553.20(f): "Each Bad Beat
    Poker hand shall be verified by the Poker shift supervisor prior to awarding the Bad
    Beat payout". A Bad Beat's losing hand is shown at the showdown, in every round that
    pays one; it was conceded unshown and paid $501."""
    easy = _variant(
        tmp_path,
        EXAMPLES / "poker-holdem.yaml",
        (
            "qualifying: {at_least: four_of_a_kind, rank_at_least: 8, hole_cards: 2}",
            "qualifying: {at_least: two_pair}",
        ),
    )
    game = load_game("poker-holdem")
    session = Session(game, read_settings(game, easy), 4, 1)
    paid = 0
    for record in session.hands(12):
        played = record.played
        assert played is not None
        bb = played.settlement.bad_beat
        if bb is not None and bb.hit:
            paid += 1
            assert bb.losing and set(bb.losing) <= set(played.shown), record.number
            assert not set(bb.losing) & set(played.conceded)
    assert paid >= 2


def test_a_hint_describes_the_field_where_it_is_not_another_of_its_name(tmp_path: Path) -> None:
    """A key's name can mean two things: the deck change `hand` (hours when dealt by hand)
    is not the Bad Beat's `hand`, the Bad Beat's `offered` not the optional wagers', a level's
    `rake` not the table's rake. Each problem's hint describes the field where it is; a
    level without its amount is an error (a table could take nothing from it, and its sign
    was dropped); a list is asked for without another field's example."""
    holdem = EXAMPLES / "poker-holdem.yaml"
    cases = {
        ("change_every_hours: {hand: 6}", "change_every_hours: {hand: 0}"): (
            "/dealing/change_every_hours/hand",
            "hours between deck changes when dealt by hand",
        ),
        ("offered: true", "offered: sometimes"): (
            "/bad_beat/offered",
            "true where the table offers a Bad Beat payout",
        ),
        ("blinds: [1, 2]", "blinds: one"): ("/blinds", "write a list (each Blind Bet in order"),
        (
            "percentage: {rate: 10%, taken: end_of_round}",
            "percentage: {rate: 10%, taken: end_of_round}\n  incremental: {levels: [{pot: 20}]}",
        ): ("/rake/incremental/levels/0/rake", "the amount taken when the pots reach the level"),
    }
    for edit, (pointer, hint) in cases.items():
        path = _variant(tmp_path, holdem, edit)
        said = run_rulesub("validate", str(path), "--format", "json")
        found = [f for f in json.loads(said.stdout)["findings"] if f.get("path") == pointer]
        assert found and found[0]["severity"] == "error", (pointer, said.stdout[:400])
        assert hint in found[0]["hint"], found[0]


def test_the_deck_change_is_said_as_ch_553_says_it_553_3_b(tmp_path: Path) -> None:
    """§ 553.3(b): "All decks opened for use on a Poker table shall be changed at least every
    6 hours", whatever the dealing: the finding says so once, naming no shoe (the chapter
    provides for none), where it listed hand, manual shoe and automated shoe."""
    late = _variant(
        tmp_path,
        EXAMPLES / "poker-holdem.yaml",
        ("change_every_hours: {hand: 6}", "change_every_hours: {hand: 7}"),
    )
    found = _findings(late)["poker-holdem/deck-change-interval"]
    assert found["message"].startswith("The decks shall be changed at least every 6 hours:")
    assert "shoe" not in found["message"]


# -- § 553.15: the time charge and the maximum permissible rake ------------------------------


def test_a_time_charge_over_the_stated_maximum_is_an_error_553_15_a_3_b_3(
    tmp_path: Path,
) -> None:
    """§ 553.15(a)(3): the submission states "The amount of maximum permissible rake";
    (b)(3): "A rake based on time charges" is a rake. $8 an hour assessed every 30 minutes
    takes $4 a player at each assessment, over a stated $2 maximum: an error. The example's
    $6 an hour every 30 minutes ($3) under its $3 maximum is clean."""
    code = "poker-omaha-hi-lo-8/time-charge-within-maximum"
    assert code not in _findings(OMAHA)
    over = _variant(
        tmp_path,
        OMAHA,
        ("  maximum: 3\n", "  maximum: 2\n"),
        ("hourly_fee: 6}", "hourly_fee: 8}"),
    )
    found = _findings(over)[code]
    assert found["severity"] == "error"
    assert found["cite"] == "§ 553.15(a)(3), (b)(3)"
    assert "$4 from each player" in found["message"] and "maximum $2" in found["message"]


def test_a_rake_and_time_charges_are_both_taken_whatever_their_order_553_15_b(
    tmp_path: Path,
) -> None:
    """§ 553.15(b): "A certificate holder may use one or more of the following procedures".
    A submission listing a percentage rake and time charges has both taken, in either
    order: the pots raked in play as with the percentage alone, the time charges from the
    stacks at each period's end, the par sheet's figures the same for both orders, with
    the time charges' exact part named. Only the first listed was played."""
    example = EXAMPLES / "poker-holdem.yaml"
    time = "  time: {basis: per_player, every_minutes: 30, hourly_fee: 6}\n"
    orders = {}
    for types in ("[percentage, time]", "[time, percentage]"):
        text = example.read_text(encoding="utf-8").replace(
            "  types: [percentage]\n", f"  types: {types}\n"
        )
        path = tmp_path / f"both-{len(orders)}.yaml"
        path.write_text(text.replace("rake:\n", "rake:\n" + time), encoding="utf-8")
        setup = read_settings(load_game("poker-holdem"), path)
        assert setup.rules.rake is not None and setup.rules.rake.kind == "percentage"
        assert setup.rules.charged_by_time is not None
        session = Session(load_game("poker-holdem"), setup, 4, 1, narrated=False)
        records = list(session.hands(16))  # 30 hands an hour: a period ends at hand 15
        assert sum(r.rake for r in records) > 0
        assert records[14].time_charges == {seat: 300 for seat in (1, 2, 3, 4)}
        said = run_rulesub("par", str(path), "--rounds", "60", "--workers", "1", "--format", "json")
        assert said.returncode == 0, said.stderr
        par = json.loads(said.stdout)
        orders[types] = par["poker"]["rake"]
    first, second = orders.values()
    assert first == second and first["kind"] == "percentage"
    assert Decimal(first["time_charges"]["per_hour"]["mean"]) == 60  # $6 × 10 seats


def test_every_assessment_takes_at_most_the_maximum_553_15_a_3() -> None:
    """The engines' one reading of it (``play``, ``simulate``): per player, $8 an hour every
    30 minutes with a $2 maximum takes $2 from each player at each period, never $4: 15
    hands at 30 an hour is one period. Per table, $10 an hour every 20 minutes is $3.33⅓ a
    period, capped at $2.50 and shared by two players: $1.25 each a period, paid in $1
    chips, $1 each at every period: the fractions carried into a second chip would take $2
    each, $4 from the table, past the $2.50 maximum at that assessment. Per player, $5 an
    hour every 30 minutes with a $2.50 maximum is $2 each time in $1 chips, never $3. The
    par sheet's exact figure is what is taken (``rake.a_period``). Uncapped, the table's
    $3.33⅓ would make $1.66⅔ each and take $1, then $2, at the first two periods."""
    per_player = RakeRule("time", cap=200, hourly=800, every_minutes=30, basis="per_player")
    assert time_charges(per_player, 0, 30, 15, [1, 2], 100) == {1: 200, 2: 200}
    assert time_charges(per_player, 1, 30, 30, [1, 2], 100) == {1: 200, 2: 200}
    per_table = RakeRule("time", cap=250, hourly=1000, every_minutes=20, basis="per_table")
    periods = [time_charges(per_table, k, 30, 10 * (k + 1), [1, 2], 100) for k in range(4)]
    assert periods == [{1: 100, 2: 100}] * 4
    assert a_period(per_table, 100, 2) == 100
    halves = RakeRule("time", cap=250, hourly=500, every_minutes=30, basis="per_player")
    periods = [time_charges(halves, k, 30, 15 * (k + 1), [1], 100) for k in range(4)]
    assert periods == [{1: 200}] * 4 and a_period(halves, 100, 1) == 200
    assert a_period(replace(halves, cap=None), 100, 1) == 250  # $2, $3, …: $2.50 a period
    uncapped_table = RakeRule("time", hourly=1000, every_minutes=20, basis="per_table")
    assert time_charges(uncapped_table, 1, 30, 20, [1, 2], 100) == {1: 200, 2: 200}
    uncapped = RakeRule("time", hourly=800, every_minutes=30, basis="per_player")
    assert time_charges(uncapped, 0, 30, 15, [1], 100) == {1: 400}


@pytest.mark.parametrize("narrated", [True, False])
def test_play_and_simulate_charge_at_most_the_maximum_553_15_a_3(
    tmp_path: Path, narrated: bool
) -> None:
    """`play` (each hand narrated) and `simulate` (blocks of hands in the kernel), under a
    submission stating $8 an hour every 30 minutes and a $2 maximum: 120 hands at 30 an
    hour is 4 hours, 8 periods of $2 (not $4) for each of 4 players = $64."""
    path = _variant(
        tmp_path, OMAHA, ("  maximum: 3\n", "  maximum: 2\n"), ("hourly_fee: 6}", "hourly_fee: 8}")
    )
    game = load_game("poker-omaha-hi-lo-8")
    session = Session(game, read_settings(game, path), 4, seed=2, narrated=narrated)
    for _ in session.hands(120):
        pass
    assert summary(session, 30)["rake"]["time_charges"] == "64"


# -- § 553.18: raise caps ---------------------------------------------------------------------


def test_raise_caps_that_contradict_each_other_are_an_error_553_18(tmp_path: Path) -> None:
    """§ 553.18: the sign states "any restriction on the maximum number of raises permitted
    in a round of betting". `max_raises: 3` and four raises before the flop post two limits
    for one betting round: an error. A round allowed fewer, or any cap under "unlimited",
    agrees."""
    code = "poker-holdem/raise-caps-agree"
    more = _variant(
        tmp_path,
        HOLDEM,
        ("  max_raises: 3\n", "  max_raises: 3\n  max_raises_by_round: {preflop: 4, flop: 2}\n"),
    )
    found = _findings(more)[code]
    assert found["severity"] == "error" and found["cite"] == "§ 553.18"
    assert found["path"] == "/betting/max_raises_by_round/preflop"
    for agreeing in (
        "  max_raises: 3\n  max_raises_by_round: {preflop: 2}\n",
        "  max_raises: unlimited\n  max_raises_by_round: {preflop: 4}\n",
    ):
        fine = _variant(tmp_path, HOLDEM, ("  max_raises: 3\n", agreeing))
        assert code not in _findings(fine)


# -- § 553.12(m): the Kill's options -------------------------------------------------------------


def test_an_unknown_kill_option_is_refused_citing_553_12_m(tmp_path: Path) -> None:
    """§ 553.12(m): "the certificate holder may use either the Half-kill or Kill option".
    A quarter kill is no option of the chapter: an error citing the section (and no warning
    that reads the refused word as "neither")."""
    path = _variant(tmp_path, OMAHA, ("option: half_kill", "option: quarter_kill"))
    found = _findings(path)
    refused = found["poker-omaha-hi-lo-8/kill-option-known"]
    assert refused["severity"] == "error" and refused["cite"] == "§ 553.12(m)"
    assert "quarter_kill" in refused["message"]
    assert "rulesub/bad-value" not in found
    assert "poker-omaha-hi-lo-8/qualifying-pot-unused" not in found


# -- "pot": each pot of the round, a side pot being one -------------------------------------------

BAD_BEAT_ROUND = """\
game: poker-holdem
seats:
  - {{seat: 1, cards: [AS, AH], contributed: {all_in}, all_in: true}}
  - {{seat: 2, cards: [KS, KH], contributed: 50}}
  - {{seat: 3, cards: [QS, QH], contributed: 50}}
board: [3C, 8D, 9H, JC, 4S]
rake: none
bad_beat:
  contribution: 1
  max: 1
  min_pot: 20
  fund: 1000
  qualifying: {{at_least: four_of_a_kind}}
  payouts: {{losing_hand: 50%, winning_hand: 25%, table: 25%}}
"""


def _settle(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "round.yaml"
    path.write_text(text, encoding="utf-8")
    out = run_rulesub("settle", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_bad_beat_contribution_comes_from_each_pot_a_side_pot_being_one_553_20_c(
    tmp_path: Path,
) -> None:
    """§ 553.20(c): "extract from each pot … a prescribed contribution"; § 553.1: "Side
    pot—A separate pot formed when one or more players are All-in". $1 from each pot of
    $20 or more. Seat 1 All-in for $25, seats 2 and 3 $50: a $75 main pot (aces win, $74)
    and a $50 side pot (kings win, $49): $2 contributed. All-in for $45: a $135 main pot and
    a $10 side pot, under the minimum: $1 contributed, the side pot paid whole."""
    got = _settle(tmp_path, BAD_BEAT_ROUND.format(all_in=25))
    assert [p["bad_beat_contribution"] for p in got["pots"]] == ["1", "1"]
    assert got["bad_beat"]["contribution"] == "2"
    assert {s["seat"]: s["award"] for s in got["seats"]} == {1: "74", 2: "49", 3: "0"}
    got = _settle(tmp_path, BAD_BEAT_ROUND.format(all_in=45))
    assert [p["bad_beat_contribution"] for p in got["pots"]] == ["1", "0"]
    assert {s["seat"]: s["award"] for s in got["seats"]} == {1: "134", 2: "10", 3: "0"}


KILL_ROUND = """\
game: poker-omaha-hi-lo-8
seats:
  - {{seat: 1, cards: [9C, 9D, 5S, 6H], contributed: {all_in}, all_in: true}}
  - {{seat: 2, cards: [AS, AD, 7C, 7D], contributed: 100}}
  - {{seat: 3, cards: [QS, QD, 8C, 3S], contributed: 100}}
board: [KC, KD, 9H, 9S, 2C]
rake: none
kill: {{option: kill, qualifying_pot: 100, in_effect: false}}
"""


def test_the_kill_reads_each_pot_a_side_pot_being_one_553_12_m(tmp_path: Path) -> None:
    """§ 553.1 (Kill option): "when one player wins an entire qualifying pot"; (Side pot):
    "A separate pot". No low can be made (one board card of eight or under). Seat 1 All-in
    for $50 scoops the $150 main pot with four nines while seat 2 takes the $100 side pot:
    seat 1 won an entire qualifying pot, the Kill is on. All-in for $20: the $60 main pot is
    under the $100 qualifying pot, but seat 2 scoops the $160 side pot, an entire qualifying
    pot: the Kill is on again."""
    got = _settle(tmp_path, KILL_ROUND.format(all_in=50))
    assert [p["amount"] for p in got["pots"]] == ["150", "100"]
    assert got["kill"]["in_effect_next_hand"] is True
    assert "seat 1 won all of the $150 main pot" in got["kill"]["reason"]
    got = _settle(tmp_path, KILL_ROUND.format(all_in=20))
    assert [p["amount"] for p in got["pots"]] == ["60", "160"]
    assert got["kill"]["in_effect_next_hand"] is True
    assert "seat 2 won all of the $160 side pot 1" in got["kill"]["reason"]


@pytest.mark.parametrize(
    "game_id", ["house-seven-card-stud", "house-razz", "poker-seven-card-stud", "poker-holdem"]
)
def test_who_made_the_final_wager_shows_first_on_whatever_street_553_16_d(game_id: str) -> None:
    """§ 553.16(d) (and the house procedures' General Operating Rules (4)): "The player
    initiating the final wager shall be the first player to show his hand at the
    showdown". The final wager is the round of play's last: a later street checked
    around makes none, so the player who last bet or raised (or posted the Blind Bet or
    Forced Bet no one raised) shows first. Shown from every round's operations: the last
    such seat, where still in, is the first to show. House 7 Card Stud, seed 6, two
    seats: seat 2 bets on fourth street, both check on, seat 2 shows first (seat 1 did,
    the first to the dealer's left, as if no wager had been made)."""
    game = load_game(game_id)
    session = Session(game, read_settings(game, None), 4, seed=11)
    checked = 0
    for record in session.hands(60):
        operations = record.to_json()["operations"]
        assert isinstance(operations, list)
        final, level, folded = None, 0, set()
        for op in operations:
            if op["op"] == "street":
                level = 0
            elif op["op"] in ("post_blind", "post_forced_bet"):
                amount = float(op["amount"])
                if amount > level:
                    final, level = op["seat"], amount
            elif op["op"] in ("bet", "raise"):
                final, level = op["seat"], float("inf")
            elif op["op"] == "fold":
                folded.add(op["seat"])
        shown = [op["seat"] for op in operations if op["op"] in ("show", "concede")]
        if len(shown) >= 2 and final is not None and final not in folded:
            assert shown[0] == final, (record.number, final, shown)
            checked += 1
    assert checked >= 10
    said = run_rulesub("play", "house-seven-card-stud", "--seed", "6", "--seats", "2")
    assert "Seventh street betting: seat 1 check; seat 2 check" in said.stdout
    assert "showdown: seat 2 shows; seat 1 shows" in said.stdout


def test_a_house_table_plays_the_raise_cap_its_submission_states(tmp_path: Path) -> None:
    """The house procedures set no raise cap (Wagers (4): actions bind within "the minimum
    and maximum wager limits"): a house submission states its table's rule, a number or
    `unlimited`, and is played so; where it is silent the tables' default of three raises
    is played (the game file's note), so that a round of eight players ends."""
    house = load_game("house-razz")
    example = EXAMPLES / "house-razz.yaml"
    assert read_settings(house, example).stakes.max_raises == 3  # as stated
    for stated, played in (("5", 5), ("unlimited", None)):
        path = _variant(tmp_path, example, ("  max_raises: 3\n", f"  max_raises: {stated}\n"))
        assert read_settings(house, path).stakes.max_raises == played
    silent = _variant(tmp_path, example, ("betting:\n  max_raises: 3\n", ""))
    assert read_settings(house, silent).stakes.max_raises == 3
    note = house.definition.betting.limits.note  # type: ignore[union-attr]
    assert note is not None and "three raises a betting round" in note


def test_unlimited_raising_at_a_rich_table_ends_and_is_logged_whole(tmp_path: Path) -> None:
    """A house submission may cap no raise (`max_raises: unlimited`; 7CS Procedures §
    Wagers (4): actions bind within the table's wager limits alone), and a table's stacks
    grow without bound over a session (§ 553.8(b)(4): table stakes; the losers buy in
    again). Eight seats of 5,000 upper bets each, loose players raising to them: every
    betting round ends (the turns it may take are counted from the chips the players can
    reach, not a fixed 10,000) and every round's operations are logged whole (over
    12,000 of them in a round here, past a fixed 8,192), simulated and played alike,
    with the same rounds either way."""
    house = load_game("house-razz")
    unlimited = _variant(
        tmp_path, EXAMPLES / "house-razz.yaml", ("  max_raises: 3\n", "  max_raises: unlimited\n")
    )
    setup = read_settings(house, unlimited)
    assert setup.stakes.max_raises is None and setup.stakes.upper is not None
    rich = 5_000 * setup.stakes.upper.max_bet
    outcomes = []
    for narrated in (False, True):
        session = Session(house, setup, 8, 7, narrated=narrated)
        session.stacks = {seat: rich for seat in session.seats}
        records = list(session.hands(40))
        assert [r.number for r in records] == list(range(1, 41))
        outcomes.append((session.stacks, [r.rake for r in records]))
        if narrated:
            logged = [r.played.operations or [] for r in records if r.played is not None]
            assert max(len(ops) for ops in logged) > 8_192  # raising went on, and was said
            raises = max(sum(line.count("raise") for line in r.played.log) for r in records)
            assert raises > 1_000
    assert outcomes[0] == outcomes[1]


def test_a_house_submission_need_not_state_deck_changes(tmp_path: Path) -> None:
    """The house procedures regulate "neither the rake … nor how often decks are changed"
    (the game file's source note): a house submission without `change_every_hours`
    validates clean, and its editor schema does not ask for it. Ch. 553 sets a change
    every 6 hours (§ 553.3(b)): there the key is still required."""
    house = _variant(
        tmp_path, EXAMPLES / "house-razz.yaml", ("  change_every_hours: {hand: 8}\n", "")
    )
    done = run_rulesub("validate", str(house), "--format", "json")
    assert done.returncode == 0, done.stdout
    holdem = _variant(
        tmp_path, EXAMPLES / "poker-holdem.yaml", ("  change_every_hours: {hand: 6}\n", "")
    )
    done = run_rulesub("validate", str(holdem), "--format", "json")
    assert done.returncode == 1
    codes = {(f["code"], f["path"]) for f in json.loads(done.stdout)["findings"]}
    assert ("rulesub/missing-key", "/dealing/change_every_hours") in codes
    schemas = Path(__file__).parent.parent / "schemas"

    def dealing_required(game: str) -> list[str]:
        schema = json.loads((schemas / f"rulesub.{game}.schema.json").read_text())
        return schema["properties"]["dealing"]["required"]

    assert "change_every_hours" not in dealing_required("house-razz")
    assert "change_every_hours" in dealing_required("poker-holdem")
