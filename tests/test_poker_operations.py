"""A round's operation log (``fast.operations``): the dealing kernel appends every deal,
burn, reshuffle, post and action when the log is on and writes nothing when it is off;
``play``'s narration and round records are read from it (``fast.narrate``), the same as
the reference engine (``table.Hand``) writes them."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from tests.poker_dealer import deal_and_bet
from tests.poker_oracle.session import ReferenceSession
from validator.cli.poker_rounds import log_line
from validator.compiler import load_game
from validator.interpreter.poker.fast import operations as ops
from validator.interpreter.poker.fast.program import compile_program
from validator.interpreter.poker.session import Session
from validator.interpreter.poker.table import default_setup, strategies
from validator.interpreter.settings import read_settings
from validator.money import to_cents

EXAMPLES = Path(__file__).parent.parent / "rulesubs" / "example"

GAMES = [
    "poker-holdem",
    "poker-omaha-hi-lo-8",
    "poker-five-card-draw",
    "poker-five-card-draw-low",
    "house-seven-card-stud",
    "house-razz",
    "poker-five-card-stud",
]


def _records(
    game_id: str, seats: int, seed: int, rounds: int, reference: bool, strategy: str | None = None
) -> list[str]:
    """The session's round records (``--log`` lines) and narration, the rounds dealt by
    the kernel or (``reference``) by ``table.Hand``, the operations left out."""
    game = load_game(game_id)
    kind = ReferenceSession if reference else Session
    session = kind(game, default_setup(game), seats, seed=seed, strategy=strategy)
    out = []
    for record in session.hands(rounds):
        assert record.played is not None
        assert (record.played.operations is None) == reference
        record.played.operations = None
        out.append(log_line(record.to_json()))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_play_reads_the_same_rounds_from_the_log_as_the_reference_engine(game_id: str) -> None:
    """Every key of a round record and every line of the narration (the streets' cards,
    the betting lines, the Forced Bet's reason, the draw, the showdown) read from the
    kernel's operation log is what ``table.Hand`` writes for the same seed."""
    seats = 8 if "stud" in game_id or "razz" in game_id else 6
    kernel = _records(game_id, seats, 5, 60, reference=False)
    assert kernel == _records(game_id, seats, 5, 60, reference=True)


@pytest.mark.parametrize(
    "game_id", ["house-seven-card-stud", "poker-seven-card-stud", "poker-five-card-draw"]
)
def test_the_common_card_the_reshuffles_and_all_ins_read_from_the_log(game_id: str) -> None:
    """Eight loose players: the Stud common card dealt when the deck runs short, the burn
    cards shuffled for it (§ 553.10(h)), the discard pile reshuffled for a draw (§
    553.13(g)(2)), players All-in (§ 553.8(b)(4)): every line and key as the reference
    engine writes them."""
    kernel = _records(game_id, 8, 3, 40, reference=False, strategy="loose")
    assert kernel == _records(game_id, 8, 3, 40, reference=True, strategy="loose")
    text = "".join(kernel)
    assert "All-in" in text
    if "stud" in game_id:
        assert "a common card for every player" in text
        assert "the burn cards are shuffled to deal the common card" in text
    else:
        assert "the discard pile is reshuffled for seat" in text


@pytest.mark.parametrize("game_id", ["poker-five-card-draw", "poker-five-card-draw-low"])
def test_a_drawing_player_is_never_dealt_his_own_discard(game_id: str) -> None:
    """§ 553.13(g): "Each discarded card shall be replaced by the dealer with a new card";
    where the deck runs short the discard pile is reshuffled (g)(2), without the cards of
    the player now drawing: eight loose players, read from the kernel's operation log."""
    game = load_game(game_id)
    session = Session(game, default_setup(game), 8, seed=3, strategy="loose")
    reshuffled = 0
    for record in session.hands(60):
        assert record.played is not None and record.played.operations is not None
        discarded: dict[int, set[str]] = {}
        for op in record.to_json()["operations"]:  # type: ignore[union-attr]
            if op["op"] == "discard":
                discarded.setdefault(op["seat"], set()).add(op["card"])
            elif op["op"] == "reshuffle" and op.get("seat") in discarded:
                reshuffled += 1
            elif op["op"] == "deal" and op.get("seat") in discarded:
                assert op["card"] not in discarded[op["seat"]], (record.number, op)
    assert reshuffled > 0, "no draw ran the deck short: the test checks nothing"


def _holdem_round() -> dict[str, object]:
    game = load_game("poker-holdem")
    session = Session(game, default_setup(game), 3, seed=1)
    record = next(session.hands(1))
    return record.to_json()


def test_a_holdem_round_logs_its_operations_in_the_order_done() -> None:
    """The record's ``operations``: the Blind Bets before the deal (§ 553.11(d)), the
    street's cards one round at a time from the button's left, then the betting; the
    board's cards after their burn (§ 553.11(g)); the showdown; the button moved
    clockwise (§ 553.11(c)(3))."""
    rnd = _holdem_round()
    operations = rnd["operations"]
    assert isinstance(operations, list)
    names = [o["op"] for o in operations]
    assert names[:3] == ["street", "post_blind", "post_blind"]
    assert operations[0] == {"op": "street", "street": 0, "betting": 1}
    assert operations[1] == {
        "op": "post_blind",
        "seat": 1,
        "amount": "1",
        "blind": 0,
        "all_in": 0,
    }
    assert operations[2] == {
        "op": "post_blind",
        "seat": 2,
        "amount": "2",
        "blind": 1,
        "all_in": 0,
    }
    deals = [o for o in operations[3:9]]
    assert [o["seat"] for o in deals] == [1, 2, 3, 1, 2, 3]
    assert all(o["op"] == "deal" and o["face_up"] == 0 for o in deals)
    cards = {s["seat"]: s["cards"] for s in rnd["seats"]}  # type: ignore[union-attr]
    for seat, held in cards.items():
        dealt = [o["card"] for o in operations if o["op"] == "deal" and o.get("seat") == seat]
        assert dealt == held
    board = [o["card"] for o in operations if o["op"] == "deal" and "seat" not in o]
    assert board == rnd["board"]
    burns = [k for k, o in enumerate(operations) if o["op"] == "burn"]
    for k in burns:  # a burn, then the board's cards
        assert operations[k + 1]["op"] == "deal" and "seat" not in operations[k + 1]
    put = {}
    for o in operations:
        if o["op"] in ("post_blind", "call", "bet", "raise"):
            put[o["seat"]] = put.get(o["seat"], 0) + float(o["amount"])
    assert put == {
        s["seat"]: float(s["contributed"]) for s in rnd["seats"] if float(s["contributed"])
    }  # type: ignore[union-attr]
    assert names[-1] == "move_button" and operations[-1]["seat"] == 1


def test_the_log_off_writes_nothing_and_changes_no_round() -> None:
    """The same round dealt with the log on and off: the same cards, chips and keys; off,
    no row is written."""
    game = load_game("house-seven-card-stud")
    setup = default_setup(game)
    name = strategies(game).seats_alternate[0]
    table = compile_program(game, setup, dict.fromkeys(range(1, 8), name))
    rng = np.random.default_rng(4)
    for _ in range(50):
        deck = rng.permutation(52).astype(np.int64)
        stacks = np.full(7, 20_000, dtype=np.int64)
        off = deal_and_bet(table, deck, stacks, 1)
        log = ops.new_log(True)
        on = deal_and_bet(table, deck, stacks, 1, log=log)
        assert off is not None and on is not None
        assert off.logged == 0 and on.logged > 0
        assert (off.contributed == on.contributed).all() and (off.cards == on.cards).all()
        assert (off.high == on.high).all() and off.round_put == on.round_put


def test_a_log_that_overflows_is_refused() -> None:
    log = ops.new_log(True)[:2]
    n = 0
    for _ in range(3):
        n = ops.log_op(log, n, ops.CHECK, 0, 0, 0, 0)
    with pytest.raises(ValueError, match="holds 2 operations; 3 were done"):
        ops.operations_json(log, n, [1])


def test_a_rules_submission_round_reads_the_same_from_the_log() -> None:
    """Under the example Omaha hi-lo-8 submission (the Kill, § 553.12(m); the rake, §
    553.15) the records read from the log are the reference engine's."""
    game = load_game("poker-omaha-hi-lo-8")
    setup = read_settings(game, EXAMPLES / "poker-omaha-hi-lo-8.yaml")
    lines = []
    for kind in (Session, ReferenceSession):
        session = kind(game, setup, 6, seed=2)
        out = []
        for record in session.hands(60):
            assert record.played is not None
            record.played.operations = None
            out.append(log_line(record.to_json()))
        lines.append(out)
    assert lines[0] == lines[1]


@pytest.mark.parametrize("game_id", ["poker-holdem", "poker-omaha-hi-lo-8", "house-razz"])
def test_a_round_records_its_settlement_operations_as_its_figures(game_id: str) -> None:
    """§ 553.15(b), (d), § 553.8(b)(4): the settlement kernel's operations in a round's
    record add up to the record's own figures: the pots formed are its pots, the rake taken
    its rake, each seat's pots awarded and uncalled bet returned its award; every award goes
    to a seat eligible for that pot; the settlement comes after the showdown and before the
    button moves (a Stud table has no button)."""
    game = load_game(game_id)
    session = Session(game, default_setup(game), 6, seed=11)
    settled = 0
    for record in session.hands(60):
        assert record.played is not None and record.played.operations is not None
        entries = record.played.operations
        names = [e["op"] for e in entries]
        data = record.to_json()
        pots = [e for e in entries if e["op"] == "form_pot"]
        assert [e["amount"] for e in pots] == data["pots"]
        raked = sum(to_cents(Decimal(e["amount"])) for e in entries if e["op"] == "take_rake")
        assert raked == to_cents(Decimal(data["rake"]))
        eligible = {e["pot"]: e["eligible"] for e in pots}
        for seat in data["seats"]:
            got = sum(
                to_cents(Decimal(e["amount"]))
                for e in entries
                if e["op"] in ("award_pot", "return_uncalled") and e.get("seat") == seat["seat"]
            )
            assert got == to_cents(Decimal(seat["award"])), (record.number, seat["seat"])
        for e in entries:
            if e["op"] == "award_pot":
                assert e["seat"] in eligible[e["pot"]]
        first = names.index("form_pot")
        assert all(n not in ("show", "concede") for n in names[first:])
        assert (names[-1] == "move_button") == (data["button"] is not None)  # Stud: none
        settled += 1
    assert settled == 60


@pytest.mark.parametrize("game_id", ["house-seven-card-stud", "poker-holdem"])
def test_the_side_pots_are_awarded_before_the_main_pot(game_id: str) -> None:
    """§ 553.7(e)(6)(ii): "Prior to pushing the pot to the winner … the dealer shall … Award
    all side pots"; the house procedures' Poker Overview (4)(v): "All side pots shall be
    awarded before the dealer awards the pot in the center of the poker table". Eight loose
    players go All-in often: in every round of several pots the awards run from the
    outermost side pot to the main pot, each after the pots are formed and raked."""
    game = load_game(game_id)
    session = Session(game, default_setup(game), 8, seed=11, strategy="loose")
    several = 0
    for record in session.hands(60):
        assert record.played is not None and record.played.operations is not None
        done = record.to_json()["operations"]  # type: ignore[index]
        formed = [op["pot"] for op in done if op["op"] == "form_pot"]  # type: ignore[index]
        awarded = [op["pot"] for op in done if op["op"] == "award_pot"]  # type: ignore[index]
        if len(formed) < 2:
            continue
        several += 1
        order = list(dict.fromkeys(awarded))  # a split pot is awarded in parts, one after another
        assert order == sorted(formed, reverse=True), (record.number, awarded)
        names = [op["op"] for op in done]  # type: ignore[index]
        assert names.index("award_pot") > max(i for i, n in enumerate(names) if n == "form_pot")
    assert several > 0, "no round of several pots: the test checks nothing"
