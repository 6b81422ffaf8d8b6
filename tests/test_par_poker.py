"""The house's par sheet of a nonbanking Poker game (§ 553.15 the rake; § 553.20 the Bad Beat
fund): figures agree with the session engine played hand by hand, and the same seed gives
the same figures whatever the number of workers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from validator.cards import parse_card
from validator.cli import app
from validator.compiler import load_game
from validator.interpreter.chunks import LOCAL_CLUSTER, chunk_rng
from validator.interpreter.poker.fast.stream import Stream
from validator.interpreter.poker.session import Session
from validator.interpreter.settings import read_settings
from validator.par import poker
from validator.par.poker import PokerSpec, house_sheet, run_chunk

HOLDEM = Path(__file__).parent.parent / "rulesubs" / "example" / "poker-holdem.yaml"


def test_rake_per_hand_is_the_mean_of_the_sessions_rakes_553_15() -> None:
    """Chunk 0's sums equal an independent session played with the seed alone, as ``play
    --seed 7`` plays it (chunk 0 of seed 7: the same stream), read from its per-hand records
    (rake from pots, Bad Beat contributions and payouts)."""
    spec = PokerSpec("poker-holdem", str(HOLDEM), seed=7, hands=60, hands_per_hour=30, chunk=60)
    sums = run_chunk(spec, 0, 60)
    game = load_game("poker-holdem")
    setup = read_settings(game, HOLDEM)
    session = Session(game, setup, setup.positions, 7)
    rakes = [r.played.settlement.rake.total for r in session.hands(60)]
    assert sums.hands == 60
    assert sums.rake.s == sum(rakes) == session.totals.rake
    assert sums.contributions.s == session.totals.bad_beat_in
    assert sums.payouts.s == session.totals.bad_beat_out
    assert sums.hits == session.totals.bad_beat_hits
    sheet = house_sheet(spec, workers=1)
    mean = Fraction(sum(rakes), 60) / 100
    assert abs(Fraction(sheet["rake"]["per_hand"]["mean"]) - mean) < Fraction(1, 10_000)
    lo, hi = (Fraction(x) for x in sheet["rake"]["per_hand"]["ci95"])
    assert lo <= mean <= hi + Fraction(1, 10_000)
    per_hour = Fraction(sheet["rake"]["per_hour"]["mean"])
    assert abs(per_hour - mean * 30) < Fraction(1, 1_000)


# -- deterministic on any number of workers and through Dask ------------------------------------

SPEC = PokerSpec("poker-holdem", str(HOLDEM), seed=3, hands=240, hands_per_hour=40, chunk=60)


def sheet_json(workers: int | None = None, scheduler: str | None = None) -> str:
    return json.dumps(house_sheet(SPEC, workers, scheduler), indent=2, ensure_ascii=False)


@pytest.fixture(scope="module")
def one_worker() -> str:
    return sheet_json(workers=1)


@pytest.mark.parametrize("workers", [2, 4])
def test_same_seed_same_json_on_any_number_of_workers(one_worker: str, workers: int) -> None:
    """Four chunks of 60 hands, chunk k shuffled from ``SeedSequence(3, spawn_key=(k,))``:
    the same bytes whether one process plays them or two or four do."""
    assert sheet_json(workers=workers) == one_worker
    assert json.loads(one_worker)["hands"] == 240


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[str]:
    """A local Dask cluster of two worker processes, as the banking test starts one; its
    scheduler's address."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, **LOCAL_CLUSTER) as cluster:
        yield cluster.scheduler_address


@pytest.mark.slow  # a local Dask cluster started and a Poker sheet simulated: over 20 s
def test_same_seed_same_json_through_a_local_dask_cluster(
    one_worker: str, dask_cluster: str
) -> None:
    assert sheet_json(scheduler=dask_cluster) == one_worker


def test_chunks_are_sessions_of_their_own(one_worker: str) -> None:
    """The sheet is the sum of its chunks, each dealt from its own SeedSequence: chunk 1
    played alone gives the same sums again, and other hands than chunk 2; another seed gives
    other figures."""
    parts = [run_chunk(SPEC, k, n) for k, n in SPEC.chunks()]
    assert run_chunk(SPEC, 1, 60) == parts[1] != parts[2]
    total = parts[0]
    for p in parts[1:]:
        total += p
    assert total.hands == 240
    sheet = json.loads(one_worker)
    mean = Fraction(total.rake.s, 240 * 100)  # dollars, printed to four places
    assert abs(Fraction(sheet["rake"]["per_hand"]["mean"]) - mean) <= Fraction(1, 20_000)
    other = PokerSpec(**{**SPEC.__dict__, "seed": 4})
    assert house_sheet(other, workers=1) != sheet


def test_par_cli_poker_scheduler_gives_the_same_bytes(dask_cluster: str) -> None:
    """``rulesub par --scheduler ADDRESS`` on a Poker submission: the JSON is byte for byte
    the one a single process prints."""
    args = ["par", str(HOLDEM), "--format", "json", "--rounds", "120", "--seed", "9"]
    one = CliRunner().invoke(app, [*args, "--workers", "1", "--tables", "3"])
    dask = CliRunner().invoke(app, [*args, "--scheduler", dask_cluster, "--tables", "3"])
    assert one.exit_code == dask.exit_code == 0, dask.output
    assert dask.stdout == one.stdout
    assert json.loads(one.stdout)["poker"]["hands"] == 120


# -- a room of tables: --tables N, byte-identical for any number of workers -------------------

ROOM = ["par", str(HOLDEM), "--format", "json", "--rounds", "60", "--seed", "5", "--tables", "4"]


@pytest.fixture(scope="module")
def room_one_worker() -> str:
    r = CliRunner().invoke(app, [*ROOM, "--workers", "1"])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.slow  # worker processes and a local Dask cluster
@pytest.mark.parametrize(
    "how", [["--workers", "2"], ["--workers", "4"], ["--scheduler", "local", "--workers", "2"]]
)
def test_par_tables_same_bytes_on_any_workers_and_a_local_cluster(
    room_one_worker: str, how: list[str]
) -> None:
    """Four tables of 15 hands each, table k shuffled from ``SeedSequence(5, (k,))``: the
    room's figures are the same bytes on one, two or four processes and a local cluster."""
    r = CliRunner().invoke(app, [*ROOM, *how])
    assert r.exit_code == 0, r.output
    assert r.stdout == room_one_worker


def test_par_tables_share_the_hands_and_default_to_the_workers(room_one_worker: str) -> None:
    """The hands are shared among the tables, which play apart (another number of tables
    deals other hands); without ``--tables`` there is one table a worker."""
    poker_sheet = json.loads(room_one_worker)["poker"]
    assert poker_sheet["tables"] == 4 and poker_sheet["hands"] == 60
    args = [a for a in ROOM if a not in ("--tables", "4")]
    two = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert two.exit_code == 0, two.output
    assert json.loads(two.stdout)["poker"]["tables"] == 2
    assert json.loads(two.stdout)["poker"] != poker_sheet


@pytest.mark.slow  # a long run beside its quick kin; the full suite keeps it
def test_par_cli_poker_unreachable_scheduler_exits_2() -> None:
    pytest.importorskip("dask.distributed")
    r = CliRunner().invoke(
        app, ["par", str(HOLDEM), "--rounds", "40", "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert r.exit_code == 2
    assert "Dask scheduler" in r.stderr and "Traceback" not in r.stderr


def test_par_cli_poker_json_extends_the_contract() -> None:
    result = CliRunner().invoke(
        app,
        [
            "par",
            str(HOLDEM),
            "--format",
            "json",
            "--rounds",
            "40",
            "--workers",
            "1",
            "--hands-per-hour",
            "25",
        ],
    )
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    assert {"game", "wagers", "base_game", "progressives"} <= set(sheet)
    poker = sheet["poker"]
    assert poker["hands"] == 40 and poker["hands_per_hour"] == 25
    assert poker["bad_beat"]["qualifying"] == "four_of_a_kind"
    for fmt in ("text", "markdown", "html"):
        out = CliRunner().invoke(
            app, ["par", str(HOLDEM), "--format", fmt, "--rounds", "40", "--workers", "1"]
        )
        assert out.exit_code == 0, out.output
        assert "Bad Beat" in out.output and "an hour" in out.output


OMAHA = HOLDEM.with_name("poker-omaha-hi-lo-8.yaml")


def test_the_house_figures_print_money_one_way_in_the_chapters_words() -> None:
    """Means to the cent, a fund in whole dollars with thousands separated (never
    ``$4.9800`` or ``$24318.0000``), the rake named as § 553.15(b)(1) names it."""
    out = CliRunner().invoke(app, ["par", str(HOLDEM), "--rounds", "40", "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert re.search(r"The percentage rake: \$\d+\.\d\d \(95% \$\d+\.\d\d … ", out.output)
    assert "Bad Beat fund (from $24,318): $" in out.output
    assert "rake (percentage)" not in out.output
    assert not re.search(r"\$[\d,]+\.\d{3}", out.output), "money to the hundredth of a cent"


@pytest.mark.parametrize("rounds", [45, 600])
def test_a_time_charge_is_by_the_clock_not_simulated_553_15_b_3(rounds: int) -> None:
    """The example Omaha submission: $6 an hour from each seated player every 30 minutes,
    at most $3 an assessment (§ 553.15(a)(3), (b)(3)). Nine seated players pay $54 an hour
    whatever the cards, $1.80 a hand at 30 hands an hour: exact, the same for any number of
    hands (45 end no hour; 600 end twenty), with no interval around it."""
    result = CliRunner().invoke(
        app, ["par", str(OMAHA), "--format", "json", "--rounds", str(rounds), "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    rake = json.loads(result.stdout)["poker"]["rake"]
    assert rake["kind"] == "time" and rake["method"] == "exact"
    assert rake["per_hour"] == {"mean": "54.0000", "ci95": ["54.0000", "54.0000"]}
    assert rake["per_hand"] == {"mean": "1.8000", "ci95": ["1.8000", "1.8000"]}
    text = CliRunner().invoke(app, ["par", str(OMAHA), "--rounds", str(rounds), "--workers", "1"])
    # computed, so to the cent, as the figure a hand beside it
    assert "The rake by time charges: $54.00 an hour exactly, $1.80 a hand at 30 hands an hour" in (
        text.output
    )
    assert "from each of 9 seated players, assessed every 30 minutes" in text.output


# -- a Bad Beat dealt on purpose ------------------------------------------------------------


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


#: Hold'em deals one card at a time from the button's left (seat 1, the button at seat 10),
#: twice round, then burns one card before the flop, the turn and the river (§ 553.11).
FIRST = _cards("2H 2C 8C KS 3D 4C 5C 2D 3H 4H")
SECOND = _cards("3C 4D 8D QS 5H 6D AD 6H AC 5D")
BOARD = _cards("2S 9S TS JS 3S 8S 4S 8H")  # burn, flop, burn, turn, burn, river
TOP = FIRST + SECOND + BOARD
BAD_BEAT_DECK = TOP + [c for c in range(52) if c not in TOP]


class StackedShuffle(Stream):
    """A session's random stream whose first words shuffle the deck into these decks, in
    order (each word the place the shuffle swaps from: below its bound, never drawn
    again); the generator's words after them."""

    def __init__(self, seed: int, decks: list[list[int]]) -> None:
        super().__init__(chunk_rng(seed))
        words = [1]  # the index of the next unread word
        for deck in decks:
            pile = list(range(52))
            for i in range(51, 0, -1):
                j = pile.index(deck[i])
                words.append(j)
                pile[i], pile[j] = pile[j], pile[i]
        self.words = np.array(words, dtype=np.int64)


def test_a_bad_beat_dealt_on_purpose_is_paid_as_the_rules_give_553_20(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§ 553.20(a)-(c) under the example submission's rules: $1 from each pot of $20 or more
    after the rake; a Bad Beat is four of a kind, eights or better, both hole cards playing,
    beaten; 50% of the fund to the losing hand, 25% to the winning hand, 25% shared by the
    other players dealt in; the fund $24,318 before the hand.

    The deck is stacked, and the par sheet's own session path plays it (``run_chunk`` and
    ``house_sheet``, one hand, ten seats alternating Tight and Loose). Seat 3 holds 8C 8D,
    seat 4 KS QS, the others small cards with no spade and no card of the board's ranks; the
    board is 9S TS JS, 8S, 8H. Seat 3 makes four eights with both hole cards (8C 8D 8S 8H, J)
    and loses to seat 4's king-high straight flush (9S-KS): no one else can beat or tie
    either hand (the QS and KS are seat 4's, the 7S is not dealt).

    The pot: the Blind Bets $1 and $2; seats 7 and 9 put in $2 and fold on the flop; six
    players see the river, each putting in $2 before the flop, $2 on the flop, $4 on the
    turn and $8 on the river (a bet and three raises): 1 + 2 · 2 + 6 · 16 = $101. The rake is
    10%, $10.10 rounded down to $10, capped at $5; the pot after the rake, $96, is at least
    $20: $1 goes to the fund, now $24,319 = 2,431,900 cents.

    The payouts, of the fund with this hand's contribution, each rounded down to the cent:
    seat 3, 50%: 1,215,950 cents; seat 4, 25%: 607,975; the other eight dealt in (seats 1, 2,
    5-10, folded or not), 25% shared: 607,975 / 8 = 75,996.875, so 75,996 each, 607,968 in
    all. Paid: 1,215,950 + 607,975 + 607,968 = 2,431,893 cents ($24,318.93); the fund after
    the payout keeps the 7 cents the shares leave: 2,431,900 - 2,431,893 = 7.
    """
    made = poker._session

    def stacked(spec: PokerSpec, k: int) -> Session:
        session = made(spec, k)
        session.stream = StackedShuffle(k, [BAD_BEAT_DECK])
        return session

    monkeypatch.setattr(poker, "_session", stacked)
    spec = PokerSpec("poker-holdem", str(HOLDEM), seed=1, hands=1, hands_per_hour=30, chunk=1)
    session = stacked(spec, 0)
    record = next(session.hands(1))
    assert record.played is None  # dealt, bet and settled by the kernels
    assert record.deck == BAD_BEAT_DECK
    assert (record.rake, record.bad_beat_contribution) == (500, 100)
    assert record.bad_beat_hit and record.bad_beat_paid == 2_431_893
    assert record.fund_before == 2_431_800 and record.fund_after == 7
    # the same hand played with the dealer's log kept: each seat's payout, and the kernels'
    # result for each seat the same
    told = made(spec, 0)
    told = Session(told.game, told.setup, len(told.seats), spec.seed_sequence(0), spec.strategy)
    told.stream = StackedShuffle(0, [BAD_BEAT_DECK])
    played = next(told.hands(1)).played
    assert played is not None
    s = played.settlement
    assert sum(p.contributed for p in played.players) == 10_100
    assert s.rake.total == 500
    assert s.bad_beat_contribution == 100
    assert s.bad_beat is not None and s.bad_beat.hit
    assert s.bad_beat.payouts == {3: 1_215_950, 4: 607_975} | {
        seat: 75_996 for seat in (1, 2, 5, 6, 7, 8, 9, 10)
    }
    assert session.totals.net == told.totals.net
    # one Bad Beat, counted once in the session's books whichever seats held its losing hand
    assert told.totals.bad_beat_hits == 1

    sums = run_chunk(spec, 0, 1)  # the par sheet's chunk: the same hand
    assert (sums.hits, sums.payouts.s, sums.contributions.s, sums.rake.s) == (
        1,
        2_431_893,
        100,
        500,
    )
    house = house_sheet(spec, workers=1)
    bb = house["bad_beat"]
    assert bb["hits"] == 1 and bb["one_in_hands"] == 1
    # as printed, one in hands/hits from the counts (``printed.one_in``): 2 in 3 is 1.5
    assert poker.lines(house)[-1].endswith(", one in 1")
    two_in_three = {**house, "hands": 3, "bad_beat": {**bb, "hits": 2}}
    assert poker.lines(two_in_three)[-1].endswith(", one in 1.5")
    assert bb["fund_at_start"] == "24318.0000"
    assert bb["contribution_per_hand"]["mean"] == "1.0000"
    assert bb["paid_per_hand"] == "24318.9300"
    assert bb["fund_growth_per_hand"] == "-24317.9300"
    after = Decimal(bb["fund_at_start"]) + Decimal(bb["fund_growth_per_hand"])
    assert after == Decimal("0.07")


def test_the_sheet_names_the_players_as_the_strategy_file_does() -> None:
    """The players are named as games/strategies/poker.yaml names them (Tight, Loose), never
    by their keys, on the sheet people read; the JSON keeps the keys beside the names."""
    sheet = house_sheet(PokerSpec(**{**SPEC.__dict__, "hands": 20}), workers=1)
    assert sheet["strategy_names"] == {"tight": "Tight", "loose": "Loose"}
    players = next(line for line in poker.lines(sheet) if "players:" in line)
    assert "seat 1 Tight" in players and "tight" not in players.split("players:")[1]


def test_a_poker_sheet_does_not_say_it_prices_paytables() -> None:
    """A Poker game's wagers (the Ante, the Blind Bets) are paid from no paytable: its sheet
    said "paytables: as the submission selects" for a game that has none."""
    from typer.testing import CliRunner

    from validator import PROJECT_ROOT
    from validator.cli import app

    path = PROJECT_ROOT / "rulesubs" / "example" / "poker-omaha-hi-lo-8.yaml"
    for fmt in ("text", "markdown", "html"):
        out = CliRunner().invoke(app, ["par", str(path), "--format", fmt, "--rounds", "200"])
        assert out.exit_code == 0, out.output
        assert "paytables" not in out.stdout.lower(), fmt
