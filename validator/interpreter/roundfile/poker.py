"""The round file of a nonbanking Poker game: one round as it ended, each seat's cards and
what it put in the pot, the board, the table's rake, Bad Beat and Kill rules (the contract
in the README, "Poker round files"). A round that cannot have happened (a card twice, a
wrong number of cards, a player still in who put in less than another without being All-in,
a rake over the maximum) is refused, each problem at its place and with the rule it breaks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from validator.cards import CardError, card_str, parse_rank, rank_word
from validator.compiler import Game
from validator.interpreter.roundfile.reading import Reader
from validator.loader import Located, either
from validator.model.notation import format_rate
from validator.money import Cents, cents_figure, dollar_text

if TYPE_CHECKING:  # imported where read: the Poker package loads this module as it loads
    from validator.interpreter.poker.bad_beat import BadBeatRule
    from validator.interpreter.poker.kill import KillRule
    from validator.interpreter.poker.rake import RakeRule

KEYS = ("game", "chip", "button", "seats", "board", "rake", "bad_beat", "kill")
SEAT_KEYS = ("seat", "cards", "contributed", "folded", "all_in")
RAKE_KEYS = ("percent", "levels", "cap", "unit", "time", "by_round")
TIME_KEYS = ("hourly", "every_minutes", "basis")
BAD_BEAT_KEYS = ("contribution", "max", "min_pot", "fund", "qualifying", "payouts")
PAYOUT_KEYS = ("losing_hand", "winning_hand", "table")
KILL_KEYS = ("option", "qualifying_pot", "in_effect")


@dataclass
class SeatRound:
    seat: int
    cards: list[int]
    contributed: Cents
    folded: bool
    all_in: bool
    pointer: str


@dataclass
class PokerRound:
    game: str
    chip: Cents
    seats: list[SeatRound]
    board: list[int]
    button: int | None = None
    rake: RakeRule | None = None
    bad_beat: BadBeatRule | None = None
    kill: KillRule | None = None


def read_poker_round(source: Located | Any, game: Game, within: str = "") -> PokerRound:
    """Read and check a Poker round file against the game's rules: ``source``, the file as
    read (its problems at their lines), or its data alone; ``within``: where it lies in what
    was read (``/round_file`` in a play log's record). Raises ``RoundFileError``."""
    r = Reader(source, within)
    data, d = r.data, game.definition
    if not isinstance(data, dict):
        r.err("", "a round file is a mapping with `game:` and `seats:`")
        r.refuse()
    r.keys("", data, KEYS)
    if data.get("game") != game.id:
        r.err("/game", f"this round is settled as {game.id!r}")
    chip = 100 if data.get("chip") is None else r.cents("/chip", data["chip"], positive=True)
    chip = chip or 100
    seats: list[SeatRound] = []
    raw = data.get("seats")
    if not isinstance(raw, list) or len(raw) < 2:
        r.err("/seats", "a list of at least two seats, each with `cards:` and `contributed:`")
        raw = []
    assert d.players is not None
    if len(raw) > d.table.max_positions:
        r.err(
            "/seats",
            f"{len(raw)} seats: {d.name} is played by at most {d.table.max_positions} players "
            f"[{d.table.cite}]",
        )
    last = 0
    for i, s in enumerate(raw):
        p = f"/seats/{i}"
        s = r.mapping(p, s, "a seat")
        if s is None:
            continue
        r.keys(p, s, SEAT_KEYS)
        number = s.get("seat", last + 1)
        if not isinstance(number, int) or isinstance(number, bool) or number <= last:
            r.err(f"{p}/seat", "seats are numbered 1, 2, … from the dealer's left, increasing")
            number = last + 1
        last = number
        if "contributed" not in s:
            r.err(p, "`contributed:` is required: all the seat put in the pot this round")
        contributed = r.cents(f"{p}/contributed", s.get("contributed", 0))
        if contributed is not None and contributed % chip:
            r.err(f"{p}/contributed", f"not a whole number of {dollar_text(chip)} chips")
        folded = r.flag(f"{p}/folded", s.get("folded"))
        all_in = r.flag(f"{p}/all_in", s.get("all_in"))
        if folded and all_in:
            r.err(p, "a seat is either folded or All-in, not both")
        seats.append(
            SeatRound(
                number, r.cards(f"{p}/cards", s.get("cards")), contributed or 0, folded, all_in, p
            )
        )
    board = r.cards("/board", data.get("board"))
    button = data.get("button")
    if button is not None and (
        not isinstance(button, int) or button not in {s.seat for s in seats}
    ):
        r.err("/button", "the seat number of the player with the button")
        button = None
    rnd = PokerRound(game.id, chip, seats, board, button)
    if "rake" in data and data["rake"] not in (None, "none"):
        rnd.rake = _rake(r, data["rake"], game)
    if data.get("bad_beat") is not None:
        rnd.bad_beat = _bad_beat(r, data["bad_beat"], game)
    if data.get("kill") is not None:
        rnd.kill = _kill(r, data["kill"], game)
    if not r.errors:
        _check_cards(r, rnd, game)
        _check_betting(r, rnd, game)
    if rnd.rake is not None and rnd.rake.rounds is not None:
        _check_rounds(r, rnd, rnd.rake.rounds)
    r.refuse()
    return rnd


def _check_rounds(r: Any, rnd: PokerRound, rounds: tuple[int, ...]) -> None:
    """What each betting round put in (``by_round``) must be what the seats contributed,
    and the uncalled final bet (§ 553.15(d): the largest contribution's excess over the
    next) must lie in the last betting round that put chips in, where it was bet: a round
    of play produces no other. (Rounds after it may put in nothing: cards dealt to players
    All-in.)"""
    put_in = sum(s.contributed for s in rnd.seats)
    if sum(rounds) != put_in:
        r.err(
            "/rake/by_round",
            f"the betting rounds put in {dollar_text(sum(rounds))}; the seats contributed "
            f"{dollar_text(put_in)}",
        )
        return
    uncalled = _uncalled(rnd)
    placed = [(i, put) for i, put in enumerate(rounds, start=1) if put]
    if uncalled > 0 and placed and placed[-1][1] < uncalled:
        number, put = placed[-1]
        r.err(
            "/rake/by_round",
            f"the uncalled final bet of {dollar_text(uncalled)} (§ 553.15(d)) was bet in the "
            f"last betting round that put chips in, betting round {number}, which put in "
            f"{dollar_text(put)}: no round of play puts in these chips",
        )


def round_file(rnd: PokerRound) -> dict[str, Any]:
    """The round as a round file states it, money as round records print it: what ``play``
    writes in each round's record, read back by ``read_poker_round`` to the same round, so
    that ``settle LOG.jsonl --round K`` settles the round ``play`` settled."""
    # a folded hand goes to the discard pile, which a draw may deal again (§ 553.13(g)): a
    # card held twice is written where it is held now, not in the hand folded before
    held = Counter(c for s in rnd.seats for c in s.cards) + Counter(rnd.board)
    seats = [
        {"seat": s.seat, "cards": [card_str(c) for c in s.cards if held[c] == 1 or not s.folded]}
        | {"contributed": cents_figure(s.contributed), "folded": s.folded, "all_in": s.all_in}
        for s in rnd.seats
    ]
    out: dict[str, Any] = {"game": rnd.game, "chip": cents_figure(rnd.chip)}
    out |= {"button": rnd.button, "seats": seats, "board": [card_str(c) for c in rnd.board]}
    if rnd.rake is not None and rnd.rake.kind != "none":
        out["rake"] = _rake_file(rnd.rake)
    if (bb := rnd.bad_beat) is not None:
        amount = format_rate(bb.rate) if bb.rate is not None else _money(bb.amount)
        qualifying = {"hand": bb.hand, "at_least": bb.at_least, "hole_cards": bb.hole_cards}
        if bb.rank_at_least is not None:
            qualifying["rank_at_least"] = rank_word(bb.rank_at_least)
        if bb.beaten_by is not None:
            qualifying["beaten_by"] = bb.beaten_by
        shares = (bb.losing_share, bb.winning_share, bb.table_share)
        out["bad_beat"] = {
            "contribution": amount,
            "max": _money(bb.max),
            "min_pot": cents_figure(bb.min_pot),
            "fund": cents_figure(bb.fund),
            "qualifying": qualifying,
            "payouts": {k: format_rate(x) for k, x in zip(PAYOUT_KEYS, shares, strict=True)},
        }
    if (kill := rnd.kill) is not None:
        pot = cents_figure(kill.qualifying_pot)
        out["kill"] = {"option": kill.option, "qualifying_pot": pot, "in_effect": kill.in_effect}
    return out


def _money(cents: Cents | None) -> str | None:
    return None if cents is None else cents_figure(cents)


def _rake_file(rule: RakeRule) -> dict[str, Any]:
    """A rake rule as a round file states it (``_rake`` reads it)."""
    out: dict[str, Any] = {}
    if rule.kind == "percentage":
        assert rule.rate is not None
        out["percent"] = format_rate(rule.rate)
        if rule.rounds is not None:
            out["by_round"] = [cents_figure(x) for x in rule.rounds]
    elif rule.kind == "incremental":
        out["levels"] = {cents_figure(level): cents_figure(x) for level, x in rule.levels}
    else:
        basis = rule.basis or "per_player"
        hourly, every = _money(rule.hourly), rule.every_minutes
        out["time"] = {"hourly": hourly, "every_minutes": every, "basis": basis}
    for key, cents in (("cap", rule.cap), ("unit", rule.unit)):
        if cents is not None:
            out[key] = cents_figure(cents)
    return out


def _rake(r: Reader, value: Any, game: Game) -> RakeRule | None:
    from validator.interpreter.poker.rake import RakeRule

    rules = game.definition.rake
    assert rules is not None
    v = r.mapping("/rake", value, "the rake (`{percent: 10%, cap: 4}`, `{levels: …}`, `{time: …}`)")
    if v is None:
        return None
    r.keys("/rake", v, RAKE_KEYS)
    kinds = [k for k in ("percent", "levels", "time") if k in v]
    if len(kinds) != 1:
        r.err("/rake", "one of `percent:`, `levels:` or `time:`")
        return None
    cap, unit = (
        r.cents(f"/rake/{k}", v[k], positive=True) if v.get(k) is not None else None
        for k in ("cap", "unit")
    )
    kind = kinds[0]
    if kind == "percent":
        rate = r.rate("/rake/percent", v["percent"])
        pr = rules.percentage
        if rate is not None and pr is not None and pr.max is not None and rate > pr.max:
            r.err(
                "/rake/percent",
                f"a percentage rake may not exceed {format_rate(pr.max)} [{pr.cite}]",
            )
        by_round = None
        if v.get("by_round") is not None:
            rounds = v["by_round"]
            if not isinstance(rounds, list) or not rounds:
                r.err("/rake/by_round", "what each betting round put in the pots, in order")
            else:
                by_round = tuple(
                    r.cents(f"/rake/by_round/{i}", x) or 0 for i, x in enumerate(rounds)
                )
        return RakeRule(
            "percentage",
            rate=rate,
            cap=cap,
            unit=unit,
            per_betting_round=by_round is not None,
            rounds=by_round,
        )
    if kind == "levels":
        levels = r.mapping("/rake/levels", v["levels"], "levels (pot at least: amount taken)")
        out = []
        for level, amount in (levels or {}).items():
            lp = f"/rake/levels/{level}"
            lc = r.cents(lp, level, positive=True)
            ac = r.cents(lp, amount, positive=True)
            if lc is not None and ac is not None:
                out.append((lc, ac))
        return RakeRule("incremental", cap=cap, unit=unit, levels=tuple(sorted(out)))
    t = r.mapping("/rake/time", v["time"], "time charges (`{hourly: 6, every_minutes: 30, …}`)")
    if t is None:
        return None
    r.keys("/rake/time", t, TIME_KEYS)
    hourly = r.cents("/rake/time/hourly", t.get("hourly"), positive=True)
    every = t.get("every_minutes")
    tr = rules.time
    allowed = tr.every_minutes if tr is not None else None
    if not isinstance(every, int) or isinstance(every, bool) or every <= 0:
        r.err("/rake/time/every_minutes", "whole minutes, e.g. 30")
        every = None
    elif allowed is not None and every not in allowed:
        assert tr is not None
        r.err(
            "/rake/time/every_minutes",
            f"time charges are assessed every {either(list(map(str, allowed)))} minutes "
            f"[{tr.cite}]",
        )
    basis = t.get("basis", "per_player")
    if basis not in ("per_player", "per_table"):
        r.err("/rake/time/basis", "per_player or per_table")
        basis = "per_player"
    return RakeRule("time", cap=cap, unit=unit, hourly=hourly, every_minutes=every, basis=basis)


def _bad_beat(r: Reader, value: Any, game: Game) -> BadBeatRule | None:
    from validator.interpreter.poker.bad_beat import HIGH_HANDS_ONLY, BadBeatRule

    d = game.definition
    if d.bad_beat is None:
        r.err("/bad_beat", f"{d.source.chapter} provides for no Bad Beat payout")
        return None
    v = r.mapping("/bad_beat", value, "the table's Bad Beat rules")
    if v is None:
        return None
    r.keys("/bad_beat", v, BAD_BEAT_KEYS)
    for need in ("contribution", "max", "min_pot", "qualifying", "payouts"):
        if need not in v:
            r.err(
                "/bad_beat",
                f"`{need}:` is required: the posted rules state it [{d.bad_beat.rules_cite}]",
            )
    rule: dict[str, Any] = {}
    c = v.get("contribution")
    if isinstance(c, str) and c.strip().endswith("%"):
        rule["rate"] = r.rate("/bad_beat/contribution", c)
    elif c is not None:
        rule["amount"] = r.cents("/bad_beat/contribution", c, positive=True)
    if v.get("max") is not None:
        rule["max"] = r.cents("/bad_beat/max", v["max"], positive=True)
    if v.get("min_pot") is not None:
        rule["min_pot"] = r.cents("/bad_beat/min_pot", v["min_pot"]) or 0
    rule["fund"] = r.cents("/bad_beat/fund", v.get("fund", 0)) or 0
    q = r.mapping("/bad_beat/qualifying", v.get("qualifying", {}), "the qualifying hand")
    if q is not None:
        r.keys(
            "/bad_beat/qualifying",
            q,
            ("hand", "at_least", "rank_at_least", "hole_cards", "beaten_by"),
        )
        hand = q.get("hand", "high")
        high = d.showdown.high if d.showdown is not None else None
        if high is None:
            r.err(
                "/bad_beat/qualifying/hand",
                f"{d.name} ranks low hands only, so has no Bad Beat: {HIGH_HANDS_ONLY}",
            )
        elif hand not in d.hands:
            r.err("/bad_beat/qualifying/hand", f"no hand {hand!r} in {d.id}")
        elif hand != high:
            r.err("/bad_beat/qualifying/hand", f"{HIGH_HANDS_ONLY}: {high}, not {hand}")
        else:
            rule["hand"] = hand
            cats = game.evaluator(hand).ids
            for key in ("at_least", "beaten_by"):  # at_least is required, beaten_by not
                category = q.get(key)
                if category in cats:
                    rule[key] = category
                elif category is not None or key == "at_least":
                    r.err(
                        f"/bad_beat/qualifying/{key}",
                        f"a category of the {hand} hand: {', '.join(cats)}",
                    )
        if q.get("rank_at_least") is not None:
            try:
                rule["rank_at_least"] = parse_rank(q["rank_at_least"])
            except CardError:
                r.err("/bad_beat/qualifying/rank_at_least", "a rank: A K Q J 10 9 … 2")
        hole = q.get("hole_cards")
        if hole is not None:
            if isinstance(hole, bool) or not isinstance(hole, int) or hole < 0:
                r.err("/bad_beat/qualifying/hole_cards", "a count of the player's own cards")
            else:
                rule["hole_cards"] = hole
    pays = r.mapping("/bad_beat/payouts", v.get("payouts", {}), "the payouts, shares of the fund")
    if pays is not None:
        r.keys("/bad_beat/payouts", pays, PAYOUT_KEYS)
        total = Fraction(0)
        for k in PAYOUT_KEYS:
            if k in pays:
                share = r.rate(f"/bad_beat/payouts/{k}", pays[k])
                if share is not None:
                    rule[k.split("_")[0] + "_share"] = share
                    total += share
        if total > 1:
            r.err("/bad_beat/payouts", "the shares come to more than the whole fund")
    return BadBeatRule(**{k: x for k, x in rule.items() if x is not None})


def _kill(r: Reader, value: Any, game: Game) -> KillRule | None:
    from validator.interpreter.poker.kill import KillRule

    betting = game.definition.betting
    assert betting is not None
    if betting.kill is None:
        r.err("/kill", f"{game.definition.name} has no Kill or Half-kill option")
        return None
    v = r.mapping("/kill", value, "the Kill option (`{option: kill, qualifying_pot: 100}`)")
    if v is None:
        return None
    r.keys("/kill", v, KILL_KEYS)
    option = v.get("option")
    if option not in betting.kill.options:
        r.err("/kill/option", f"one of: {', '.join(betting.kill.options)} [{betting.kill.cite}]")
        return None
    pot = r.cents("/kill/qualifying_pot", v.get("qualifying_pot"), positive=True)
    in_effect = r.flag("/kill/in_effect", v.get("in_effect"))
    if pot is None:
        return None
    return KillRule(option, betting.kill.options[option], pot, in_effect)


def _check_cards(r: Reader, rnd: PokerRound, game: Game) -> None:
    d = game.definition
    r.no_card_twice(
        [*((f"{s.pointer}/cards", s.cards) for s in rnd.seats), ("/board", rnd.board)],
        f" ({d.cards.cite})",
    )
    dealt = d.cards.dealt
    per_player = dealt["player"].count
    board_count = dealt["board"].count if "board" in dealt else 0
    common = d.deal.common_card if d.deal else None
    max_common = len(common.streets) if common else 0
    live = [s for s in rnd.seats if not s.folded]
    showdown = len(live) >= 2
    if board_count:
        if len(rnd.board) > board_count or (showdown and len(rnd.board) != board_count):
            r.err(
                "/board",
                f"{len(rnd.board)} board cards: {d.name} deals {board_count} "
                f"[{dealt['board'].cite}]",
            )
    elif len(rnd.board) > max_common:
        r.err(
            "/board",
            f"{d.name} has no community cards"
            + (f"; at most {max_common} common card(s) [{common.cite}]" if common else ""),
        )
    for s in rnd.seats:
        expected = per_player - (len(rnd.board) if max_common else 0)
        n = len(s.cards)
        needs_all = showdown and not s.folded
        if n > expected or (needs_all and n != expected):
            r.err(
                f"{s.pointer}/cards",
                f"{n} cards: a player still in at the showdown has {expected} "
                f"[{dealt['player'].cite}]",
            )


def _uncalled(rnd: PokerRound) -> int:
    """The uncalled final bet (§ 553.15(d)): the largest contribution's excess over the
    next, which no player matched (none with one seat)."""
    ordered = sorted((s.contributed for s in rnd.seats), reverse=True)
    return ordered[0] - ordered[1] if len(ordered) > 1 else 0


def _check_betting(r: Reader, rnd: PokerRound, game: Game) -> None:
    """A player still in who is not All-in has matched every bet: only All-in players may
    have put in less (§ 553.8(b)(4); the house rules' § Wagers (3)(ii)), cited as the
    game's rules cite it."""
    betting = game.definition.betting
    all_in = betting.all_in.cite if betting is not None else "the game's rules"
    top = max(rnd.seats, key=lambda s: s.contributed)
    top_called = top.contributed - _uncalled(rnd)
    live = [s for s in rnd.seats if not s.folded]
    if not live:
        r.err("/seats", "every seat folded: the last player still in wins the pot")
        return
    level = max(min(s.contributed, top_called) for s in live)
    for s in live:
        if not s.all_in and min(s.contributed, top_called) < level:
            r.err(
                f"{s.pointer}/contributed",
                f"seat {s.seat} is still in and not All-in, yet put in "
                f"{dollar_text(s.contributed)}, less than {dollar_text(level)}: a player calls, "
                f"raises, folds or is All-in ({all_in})",
            )
    if top.contributed > top_called:  # a last bet no one matched: no one still in called it
        for s in live:
            if s is not top and not s.all_in:
                r.err(
                    f"{s.pointer}/contributed",
                    f"seat {s.seat} is still in and not All-in, yet did not match the last "
                    f"{dollar_text(top.contributed - top_called)} of seat {top.seat}'s bet: a "
                    f"player calls, raises, folds or is All-in ({all_in})",
                )
    for s in rnd.seats:
        if s.folded and s.contributed > level:
            r.err(
                f"{s.pointer}/contributed",
                f"seat {s.seat} folded after putting in more than any player still in: a bet "
                "is called by a player still in, or it is the last bet and returns uncalled",
            )
