"""``rulesub games show`` for nonbanking Poker: the deal street by street, betting, showdown,
rake and Bad Beat, each with its citation, and how the game differs from the same game in
another rule source (its ``counterparts``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from validator.compiler import Game, load_game
from validator.loader import either
from validator.model.notation import format_money, format_rate
from validator.model.poker import BadBeat, Rake, Showdown
from validator.model.registry import load_card_orders


@dataclass(frozen=True)
class Fact:
    """One rule of a Poker game in words, with its citation: what ``games show`` prints and
    what two rule sources are compared on."""

    label: str
    value: str
    cite: str | None = None


def _order_text(g: Game, order_id: str) -> str:
    order = load_card_orders(g.path.parent)[order_id]
    ace = "the ace highest" if order.ranks[0] == 14 else "the ace below the 2"
    return f"{ace}; equal ranks by suit, " + " > ".join(order.suits)


def poker_facts(g: Game) -> list[Fact]:
    """The game's rules in words, each with its citation: the table and the deal, the
    betting, the showdown, then what the house takes."""
    d = g.definition
    assert d.showdown and d.rake
    return [
        *_table_facts(g),
        *_betting_facts(g),
        *_showdown_facts(g, d.showdown),
        *_house_facts(d.rake, d.bad_beat),
    ]


def _table_facts(g: Game) -> list[Fact]:
    d = g.definition
    assert d.players and d.deal
    out = [
        Fact("Players at a Poker table", f"{d.players.min} to {d.players.max}", d.players.cite),
        Fact("Players at this game's table", f"at most {d.table.max_positions}", d.table.cite),
    ]
    ch = d.cards.change_every_hours
    out.append(
        Fact("Deck change", f"at least every {ch.any} hours", ch.cite)
        if ch and ch.any
        else Fact("Deck change", "not stated")
    )
    first = {
        "dealer_left": "the first player to the dealer's left, clockwise",
        "button_left": "the player to the button's left, clockwise",
    }[d.deal.first]
    out.append(Fact("Dealing starts with", first, d.deal.cite))
    if d.deal.button:
        placed = {
            "first_right_of_dealer": "the first player to the dealer's right",
            "high_card": "a player chosen by a single card dealt",
        }
        out.append(
            Fact(
                "Button",
                f"placed before {either([placed[p] for p in d.deal.button.placed])}; "
                "moves clockwise after each round",
                d.deal.button.cite,
            )
        )
    cc = d.deal.common_card
    out.append(
        Fact(
            "Common card (deck runs short)",
            "on "
            + either([d.deal.streets[s].in_sentence for s in cc.streets])
            + f"; burn cards shuffled when {cc.shuffle_burns_when_left} card or none is left",
            cc.cite,
        )
        if cc
        else Fact("Common card (deck runs short)", "none")
    )
    return out


def _betting_facts(g: Game) -> list[Fact]:
    d = g.definition
    assert d.deal and d.betting
    b = d.betting
    out: list[Fact] = []
    if b.forced_bet:
        fb = b.forced_bet
        out.append(
            Fact(
                "Forced Bet",
                f"the {fb.by} up-card ({_order_text(g, fb.card_order)})",
                fb.cite,
            )
        )
    if b.first_to_act:
        ranking = g.rankings[b.first_to_act.ranking]
        best = "lowest" if ranking.low else "highest ranking"
        out.append(
            Fact(
                "First to act on later streets",
                f"the {best} hand showing ({ranking.name}); ties: nearest the dealer's left",
                b.first_to_act.cite,
            )
        )
    out.append(Fact("Actions", ", ".join(b.actions), b.cite))
    out.append(
        Fact(
            "Table stakes", "only the chips on the table when the round began", b.table_stakes.cite
        )
    )
    out.append(
        Fact("All-in", "wins only what he contributed to; side pots for the rest", b.all_in.cite)
    )
    if b.check_raise:
        cr = b.check_raise
        text = "allowed" + (" unless posted otherwise" if cr.unless_posted else "")
        out.append(Fact("Raise after checking", text if cr.allowed else "not allowed", cr.cite))
    lim = b.limits
    stated = ["posted minimum and maximum wagers"]
    if lim.max_raises_stated:
        stated.append("the maximum number of raises (Rules Submission and sign)")
    if lim.min_raised_by_agreement:
        stated.append("the minimum raised by all patrons' agreement, up to a stated amount")
    out.append(Fact("Limits", "; ".join(stated), lim.cite))
    if b.split_limit:
        sl = b.split_limit
        pair = (
            f"an open pair on {d.deal.streets[sl.open_pair_street].in_sentence} allows the upper"
            if sl.open_pair == "upper" and sl.open_pair_street
            else "an open pair does not affect the limit"
        )
        out.append(
            Fact(
                "Split limit",
                f"lower limit, upper from {d.deal.streets[sl.upper_from].in_sentence}; {pair}",
                sl.cite,
            )
        )
    else:
        out.append(Fact("Split limit", "none stated"))
    if b.kill:
        opts = ", ".join(
            f"{k.replace('_', '-')}: limits ×{_mult(m)}" for k, m in b.kill.options.items()
        )
        out.append(Fact("Kill / Half-kill", f"{opts}, after an entire qualifying pot", b.kill.cite))
    return out


def _showdown_facts(g: Game, sd: Showdown) -> list[Fact]:
    d = g.definition
    out: list[Fact] = []
    pot = {
        "high": "the highest high hand",
        "low": "the best low hand",
        "high_low": "split between the highest high hand and the best low hand",
    }[sd.pot]
    out.append(Fact("The pot goes to", pot, sd.cite))
    for part in ("high", "low"):
        hid = getattr(sd, part)
        if hid:
            hand = d.hands[hid]
            ranking = g.rankings[hand.ranking]
            qual = ""
            if hand.qualifier:
                q = ranking.qualifiers[hand.qualifier]
                top = f", no card above {q.max_rank}" if q.max_rank else ""
                cat = next(c for c in ranking.categories if c.id == q.at_least)
                best = ranking.low is not None and cat.any  # a low's best: no pair
                least = cat.name.lower() if best else f"at least {cat.name.lower()}"
                qual = f"; must qualify: {hand.qualifier.replace('_', ' ')} ({least}{top})"
            made = g.hand_text(hid, qualifier=False)
            out.append(Fact(f"{part.capitalize()} hand", f"{made}{qual}", hand.cite))
    if sd.no_qualifying_low:
        out.append(
            Fact(
                "No qualifying low", "the high hand takes the entire pot", sd.no_qualifying_low.cite
            )
        )
    out.append(Fact("Ties", "divided equally", sd.ties.cite))
    oc = sd.odd_chips
    ties = {
        "highest_card_by_suit": "the highest card by suit",
        "lowest_card_by_suit": "the lowest card (the ace lowest) by suit",
    }
    odd = []  # only the parts this game's pot has
    if sd.pot == "high_low":
        odd.append(f"a split pot's excess to the {oc.pot_excess_to} hand")
    if sd.pot in ("high", "high_low"):
        odd.append(f"tied high hands: {ties[oc.high_ties]}")
    if sd.pot in ("low", "high_low"):
        odd.append(f"tied low hands: {ties[oc.low_ties]}")
    suits = " > ".join(load_card_orders(g.path.parent)[oc.card_order].suits)
    out.append(Fact("Odd chip", "; ".join(odd) + f"; suits {suits}", oc.cite))
    out.append(
        Fact("Odd chip cap", format_money(oc.cap) if oc.cap is not None else "none", oc.cite)
    )
    out.append(
        Fact(
            "Showdown order",
            "the player who made the final wager first, then clockwise; "
            + ("a losing hand may be conceded" if sd.order.concede else "every hand is shown"),
            sd.order.cite,
        )
    )
    return out


def _house_facts(rake: Rake, bb: BadBeat | None) -> list[Fact]:
    out: list[Fact] = []
    kinds = []
    if rake.percentage:
        mx = f" up to {format_rate(rake.percentage.max)}" if rake.percentage.max else ""
        kinds.append(f"a percentage{mx} of each pot")
    if rake.incremental:
        kinds.append("incremental amounts at pot levels")
    if rake.time:
        kinds.append(
            "time charges per "
            + either([x.replace("per_", "") for x in rake.time.basis])
            + " every "
            + either([str(m) for m in rake.time.every_minutes])
            + " minutes"
        )
    out.append(
        Fact(
            "Rake",
            either(kinds)
            if kinds
            else "collected by the dealer; type, rate and maximum not regulated",
            rake.stated_cite or rake.cite,
        )
    )
    if rake.stated:
        out.append(
            Fact("Rake stated in the Rules Submission", ", ".join(rake.stated), rake.stated_cite)
        )
    out.append(
        Fact("Uncalled final bet", "not raked", rake.uncalled_bet.cite)
        if rake.uncalled_bet
        else Fact("Uncalled final bet", "not stated")
    )
    out.append(
        Fact(
            "Bad Beat payout",
            "optional: a contribution after the rake from each pot to a separate fund; posted "
            "rules; a discontinuation procedure approved first",
            bb.cite,
        )
        if bb
        else Fact("Bad Beat payout", "not provided")
    )
    return out


def _mult(m: Any) -> str:
    return str(m.numerator) if m.denominator == 1 else f"{float(m):g}"


def _fact_lines(facts: list[Fact]) -> list[Text]:
    lines = []
    for f in facts:
        t = Text()
        t.append(f"{f.label}: ", style="bold")
        t.append(f.value)
        if f.cite:
            t.append(f" [{f.cite}]", style="dim")
        lines.append(t)
    return lines


def _streets(g: Game) -> RichTable:
    d = g.definition
    assert d.deal
    rt = RichTable(title="The deal, street by street", title_justify="left", header_style="bold")
    for col in ("Street", "Burn", "Cards", "Blind Bets", "Betting opens", "Limit", "Cite"):
        rt.add_column(col, overflow="fold")
    opens = {
        "forced_bet": "Forced Bet (up-card)",
        "left_of_blinds": "left of the Blind Bets",
        "left_of_button": "left of the button",
        "showing": "best hand showing",
    }
    for street in d.deal.streets.values():
        cards = [
            f"{r.rounds} {r.face} to {'each player' if r.to == 'player' else 'the board'}"
            for r in street.deal
        ]
        if street.draw:
            cards.append(
                "the draw, discards reshuffled if short"
                if street.draw.reshuffle_discards
                else "the draw"
            )
        bt = street.betting
        rt.add_row(
            street.name,
            str(street.burn or ""),
            "; ".join(cards),
            (street.blinds or "").replace("_", " "),
            opens[bt.opens] if bt else "",
            bt.limit if bt else "",
            street.cite,
        )
    return rt


def render_poker(out: Console, g: Game) -> None:
    d = g.definition
    facts = poker_facts(g)
    items: list[Any] = []
    if d.extends:
        items.append(Text(f"Shared rules from games/include/: {', '.join(d.extends)}", style="dim"))
    shown_above = {"Deck change"}  # in the "Table and cards" panel
    items += [_streets(g), *_fact_lines([f for f in facts if f.label not in shown_above])]
    out.print(Panel(Group(*items), title="Poker (nonbanking)", title_align="left"))
    for other_id in d.counterparts:
        other = load_game(other_id, g.path.parent)
        theirs = {f.label: f for f in poker_facts(other)}
        rt = RichTable(header_style="bold", show_lines=True)
        rt.add_column("Rule", overflow="fold")
        rt.add_column(f"{d.id} ({d.source.chapter})", overflow="fold")
        rt.add_column(f"{other.id} ({other.definition.source.chapter})", overflow="fold")
        differ = 0
        for f in facts:
            t = theirs.get(f.label, Fact(f.label, "not stated"))
            if f.value != t.value:
                differ += 1
                rt.add_row(
                    f.label,
                    f.value + (f" [{f.cite}]" if f.cite else ""),
                    t.value + (f" [{t.cite}]" if t.cite else ""),
                )
        title = f"Where the rule sources differ: {d.id} and {other.id}"
        body: Any = rt if differ else Text("No difference in the rules compared.")
        out.print(Panel(body, title=title, title_align="left"))
