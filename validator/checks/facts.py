"""What the checks need to know of a game, compiled once (``validator/checks/compiled/``).

Loading a game file means parsing its YAML and building the pydantic models of the whole
game (its procedure, signs, rankings): most of a second, on a command that must answer in
half of one. The checks need far less: the game's constraints, its tables (letters, rows,
meters, citations), the categories of the hands a supplied table may pay, and the exact
holds of the chapter's paytables. ``rulesub schema export`` compiles these into one JSON
file per game, beside a digest of the game files they came from; ``facts_for`` reads that
file when the digest still matches, and otherwise compiles the facts from the game itself
(slower, never stale). A test holds the committed files current.

Holds come from the odds engine (``validator.odds``): the hold of each paytable at the
chapter's meter values, with how it moves per dollar of meter (a hold is linear in the
meter: each share of a meter is paid with a fixed probability), so that the hold at the
meter values a submission states is exact without the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from validator import GAMES_DIR
from validator.model.notation import Payout, PayoutKind, parse_payout

FACTS_VERSION = 1
COMPILED_DIR = Path(__file__).resolve().parent / "compiled"
RANKINGS_FILE = "rankings.yaml"

Rows = dict[str, Payout]


@dataclass(frozen=True)
class MeterRule:
    seed: Decimal | None = None  # per unit wagered
    reseed: Decimal | None = None
    seed_at_least: Decimal | None = None
    reseed_at_least: Decimal | None = None
    increment: Fraction | str | None = None  # a rate, "N/A" or "stated"
    reserve_increment: Fraction | str | None = None


@dataclass(frozen=True)
class Hold:
    """A paytable's exact hold at the chapter's meter values, and how it moves with them."""

    hold: Fraction
    basis: str  # "stake" (a wager of its own) or "bonus" (paid on another wager's stake)
    meters: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)
    # meter name → (its value per unit wagered in ``hold``, probability × share it is paid)
    other_reading: Fraction | None = None  # the hold under approved_hold.other_reading

    def at(self, per_unit: dict[str, Fraction]) -> Fraction:
        """The hold with the meters at ``per_unit`` (dollars per unit wagered)."""
        hold = self.hold
        for name, value in per_unit.items():
            if name in self.meters:
                base, weight = self.meters[name]
                hold -= weight * (value - base)
        return hold


@dataclass
class TableFacts:
    id: str
    wager: str
    name: str
    cite: str
    source: str  # "text" | "missing"
    pays_on: str | None
    events: bool
    letters: list[str]
    selectable: bool
    paytable: Rows | None = None
    paytables: dict[str, Rows] | None = None
    by_wager_amount: bool = False
    meters: dict[str, dict[str, MeterRule]] | None = None  # letter (or "*") → meters
    meters_cite: str | None = None
    approved_hold: tuple[Fraction, Fraction, str] | None = None
    other_reading: str | None = None  # the name of approved_hold.other_reading
    optional_payout: bool = False  # a table the certificate holder "may pay", if offered
    paid_when: str = "any"  # "player_lower": only when the player's hand loses
    holds: dict[str, Hold | None] = field(default_factory=dict)  # letter ("" fixed) → hold

    def meters_for(self, letter: str | None) -> dict[str, MeterRule]:
        if self.meters is None:
            return {}
        if letter is not None and letter in self.meters:
            return self.meters[letter]
        return self.meters.get("*", {})

    @property
    def meter_names(self) -> list[str]:
        names: list[str] = []
        for rules in (self.meters or {}).values():
            names += [n for n in rules if n not in names]
        return names


@dataclass
class WagerFacts:
    id: str
    name: str
    optional: bool
    pays: Payout | None
    multiple: int  # the largest multiple of the wager it is sized from (1 if chosen freely)
    tables: list[str]
    against_dealer: bool = False  # settled against the dealer's hand (the base game)


@dataclass
class Category:
    id: str
    name: str
    strength: int  # refinements share their parent's
    any: bool  # the catch-all (high card, no winning hand)
    refines: str | None


@dataclass
class HandFacts:
    id: str
    categories: list[Category]
    # probability that this hand's highest held category is each category (the tables
    # whose text is missing are priced from these): category id → probability
    held: dict[str, Fraction] | None = None

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)


@dataclass
class GameFacts:
    id: str
    name: str
    wagers: dict[str, WagerFacts]
    tables: dict[str, TableFacts]
    hands: dict[str, HandFacts]
    payout_limit_excludes: list[str]
    constraints: tuple[Any, ...]
    digest: str
    _game: Any = None  # the loaded Game, when compiled from it

    def table(self, table_id: str) -> TableFacts:
        return self.tables[table_id]

    def game(self) -> Any:
        if self._game is None:
            from validator.compiler import load_game

            self._game = load_game(self.id)
        return self._game

    def hold(self, table_id: str, letter: str | None) -> Hold | None:
        """The exact hold of one of the chapter's paytables (None: the engine gives none)."""
        table = self.tables[table_id]
        key = letter or ""
        if key not in table.holds:
            table.holds[key] = _engine_hold(self.game(), table, letter)
        return table.holds[key]

    def held_probabilities(self, hand_id: str) -> dict[str, Fraction] | None:
        hand = self.hands[hand_id]
        if hand.held is None:
            hand.held = _engine_held(self.game(), hand_id, hand)
        return hand.held


def known_games(games_dir: Path = GAMES_DIR) -> list[str]:
    """The declared game ids (the game files' names), without loading any."""
    from validator import game_files

    return [p.stem for p in game_files(games_dir)]


# -- compiling from the game --------------------------------------------------------------


def digest(game_id: str, games_dir: Path = GAMES_DIR) -> str:
    """A digest of every file a game is read from: its own, the rankings, the includes."""
    from validator.cache import game_digest

    return game_digest(game_id, games_dir, f"facts {FACTS_VERSION}\n")


def _multiple(wager: Any) -> int:
    if wager.amount is None:
        return 1
    highs = [m for m in [wager.amount.max, *(r.max for r in wager.amount.rules)] if m]
    return max(highs) if highs else (wager.amount.min or 1)


def compile_facts(game: Any, *, with_holds: bool = False) -> GameFacts:
    """The facts of a loaded game; with ``with_holds``, every paytable's hold computed now."""
    from validator.checks.engine import constraints_for

    d = game.definition
    wagers = {
        wid: WagerFacts(
            wid,
            w.name,
            w.optional,
            w.pays.payout if w.pays else None,
            _multiple(w),
            list(w.tables),
            bool(d.settle and wid in d.settle.base_game.wagers),
        )
        for wid, w in d.wagers.items()
    }
    tables: dict[str, TableFacts] = {}
    for wid, tid, t in d.tables():
        meters = None
        if t.meters is not None:
            meters = {}
            if t.meters.all is not None:
                meters["*"] = {n: _meter_rule(r) for n, r in t.meters.all.items()}
            for letter, rules in (t.meters.paytables or {}).items():
                meters[letter] = {n: _meter_rule(r) for n, r in rules.items()}
        ah = t.approved_hold
        tables[tid] = TableFacts(
            id=tid,
            wager=wid,
            name=t.name,
            cite=t.cite,
            source=t.source,
            pays_on=t.pays_on,
            events=t.events is not None,
            letters=list(t.letters),
            selectable=t.selectable,
            paytable=dict(t.paytable) if t.paytable is not None else None,
            paytables={k: dict(v) for k, v in t.paytables.items()} if t.paytables else None,
            by_wager_amount=t.by_wager_amount is not None,
            meters=meters,
            meters_cite=t.meters.cite if t.meters else None,
            approved_hold=(ah.low, ah.high, ah.cite) if ah else None,
            other_reading=ah.other_reading.name if ah and ah.other_reading else None,
            optional_payout=t.optional_payout,
            paid_when=t.paid_when,
        )
    hands: dict[str, HandFacts] = {}
    for hid in d.hands:
        ev = game.evaluator(hid)
        hands[hid] = HandFacts(
            hid,
            [
                Category(c.id, c.name, ev.strength(c.id), c.shape == "any", c.refines)
                for c in ev.categories
            ],
        )
    facts = GameFacts(
        id=d.id,
        name=d.name,
        wagers=wagers,
        tables=tables,
        hands=hands,
        payout_limit_excludes=list(d.payout_limit.excludes) if d.payout_limit else [],
        constraints=constraints_for(game),
        digest=digest(d.id, game.path.parent),
        _game=game,
    )
    if with_holds:
        for tid, t in tables.items():
            if t.source == "missing":
                if t.pays_on is not None:
                    facts.held_probabilities(t.pays_on)
                continue
            letters: list[str | None] = [*t.letters] if t.letters else [None]
            for letter in letters:
                facts.hold(tid, letter)
    return facts


def _meter_rule(r: Any) -> MeterRule:
    return MeterRule(
        r.seed, r.reseed, r.seed_at_least, r.reseed_at_least, r.increment, r.reserve_increment
    )


def _engine() -> Any:
    from validator.checks.hold import odds_engine

    return odds_engine()


def _engine_hold(game: Any, table: TableFacts, letter: str | None) -> Hold | None:
    odds = _engine()
    if odds is None or table.source == "missing" or table.events:
        return None
    try:
        result = odds.exact_odds(game, table.id, letter)
    except (odds.OddsError, KeyError, ValueError):
        return None
    rows = table.paytables[letter] if table.paytables and letter else (table.paytable or {})
    probability = {c.category: c.probability for c in result.categories}
    meters: dict[str, tuple[Fraction, Fraction]] = {}
    for m in result.meters:
        weight = sum(
            (
                probability.get(cat, Fraction(0)) * p.share
                for cat, p in rows.items()
                if p.kind is PayoutKind.METER and p.meter == m.name
            ),
            Fraction(0),
        )
        meters[m.name] = (m.per_unit, weight)
    other = result.other_reading_hold
    return Hold(
        Fraction(result.hold),
        str(result.basis),
        meters,
        Fraction(other) if other is not None else None,
    )


def _engine_held(game: Any, hand_id: str, hand: HandFacts) -> dict[str, Fraction] | None:
    odds = _engine()
    if odds is None:
        return None
    rows = {c.id: "1 to 1" for c in hand.categories if not c.any}
    try:
        result = odds.odds_for_rows(game, hand_id, rows)
    except (odds.OddsError, KeyError, ValueError):
        return None
    return {c.category: c.probability for c in result.categories}


# -- the compiled file ----------------------------------------------------------------------


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def _rate(x: Fraction | str | None) -> str | None:
    return x if isinstance(x, str) or x is None else f"rate:{x}"


def _money(x: Decimal | None) -> str | None:
    return None if x is None else str(x)


def _rows(rows: Rows | None) -> dict[str, str] | None:
    return None if rows is None else {k: v.text for k, v in rows.items()}


def facts_to_json(f: GameFacts) -> dict[str, Any]:
    from validator.model.constraints import dump_constraints

    def meter(r: MeterRule) -> dict[str, Any]:
        return {
            "seed": _money(r.seed),
            "reseed": _money(r.reseed),
            "seed_at_least": _money(r.seed_at_least),
            "reseed_at_least": _money(r.reseed_at_least),
            "increment": _rate(r.increment),
            "reserve_increment": _rate(r.reserve_increment),
        }

    def hold(h: Hold | None) -> dict[str, Any] | None:
        if h is None:
            return None
        return {
            "hold": str(h.hold),
            "basis": h.basis,
            "meters": {n: [str(a), str(b)] for n, (a, b) in h.meters.items()},
            "other_reading": str(h.other_reading) if h.other_reading is not None else None,
        }

    return {
        "facts_version": FACTS_VERSION,
        "digest": f.digest,
        "id": f.id,
        "name": f.name,
        "payout_limit_excludes": f.payout_limit_excludes,
        "wagers": {
            w.id: {
                "name": w.name,
                "optional": w.optional,
                "pays": w.pays.text if w.pays else None,
                "multiple": w.multiple,
                "tables": w.tables,
                "against_dealer": w.against_dealer,
            }
            for w in f.wagers.values()
        },
        "tables": {
            t.id: {
                "wager": t.wager,
                "name": t.name,
                "cite": t.cite,
                "source": t.source,
                "pays_on": t.pays_on,
                "events": t.events,
                "letters": t.letters,
                "selectable": t.selectable,
                "paytable": _rows(t.paytable),
                "paytables": (
                    {k: _rows(v) for k, v in t.paytables.items()} if t.paytables else None
                ),
                "by_wager_amount": t.by_wager_amount,
                "meters": (
                    {k: {n: meter(r) for n, r in v.items()} for k, v in t.meters.items()}
                    if t.meters is not None
                    else None
                ),
                "meters_cite": t.meters_cite,
                "approved_hold": (
                    [str(t.approved_hold[0]), str(t.approved_hold[1]), t.approved_hold[2]]
                    if t.approved_hold
                    else None
                ),
                "other_reading": t.other_reading,
                "optional_payout": t.optional_payout,
                "paid_when": t.paid_when,
                "holds": {k: hold(v) for k, v in sorted(t.holds.items())},
            }
            for t in f.tables.values()
        },
        "hands": {
            h.id: {
                "categories": [[c.id, c.name, c.strength, c.any, c.refines] for c in h.categories],
                "held": {k: str(v) for k, v in h.held.items()} if h.held is not None else None,
            }
            for h in f.hands.values()
        },
        "constraints": dump_constraints(f.constraints),
    }


def facts_from_json(data: dict[str, Any]) -> GameFacts:
    def rows(r: dict[str, str] | None) -> Rows | None:
        return None if r is None else {k: parse_payout(v) for k, v in r.items()}

    def rate(x: str | None) -> Fraction | str | None:
        return Fraction(x[5:]) if isinstance(x, str) and x.startswith("rate:") else x

    def money(x: str | None) -> Decimal | None:
        return None if x is None else Decimal(x)

    def meter(m: dict[str, Any]) -> MeterRule:
        return MeterRule(
            money(m["seed"]),
            money(m["reseed"]),
            money(m["seed_at_least"]),
            money(m["reseed_at_least"]),
            rate(m["increment"]),
            rate(m["reserve_increment"]),
        )

    def hold(h: dict[str, Any] | None) -> Hold | None:
        if h is None:
            return None
        return Hold(
            Fraction(h["hold"]),
            h["basis"],
            {n: (Fraction(a), Fraction(b)) for n, (a, b) in h["meters"].items()},
            Fraction(h["other_reading"]) if h.get("other_reading") is not None else None,
        )

    tables = {}
    for tid, t in data["tables"].items():
        ah = t["approved_hold"]
        tables[tid] = TableFacts(
            id=tid,
            wager=t["wager"],
            name=t["name"],
            cite=t["cite"],
            source=t["source"],
            pays_on=t["pays_on"],
            events=t["events"],
            letters=t["letters"],
            selectable=t["selectable"],
            paytable=rows(t["paytable"]),
            paytables=(
                {k: rows(v) or {} for k, v in t["paytables"].items()}
                if t["paytables"] is not None
                else None
            ),
            by_wager_amount=t["by_wager_amount"],
            meters=(
                {k: {n: meter(m) for n, m in v.items()} for k, v in t["meters"].items()}
                if t["meters"] is not None
                else None
            ),
            meters_cite=t["meters_cite"],
            approved_hold=(Fraction(ah[0]), Fraction(ah[1]), ah[2]) if ah else None,
            other_reading=t.get("other_reading"),
            optional_payout=bool(t.get("optional_payout")),
            paid_when=t.get("paid_when", "any"),
            holds={k: hold(v) for k, v in t["holds"].items()},
        )
    return GameFacts(
        id=data["id"],
        name=data["name"],
        wagers={
            wid: WagerFacts(
                wid,
                w["name"],
                w["optional"],
                parse_payout(w["pays"]) if w["pays"] else None,
                w["multiple"],
                w["tables"],
                bool(w.get("against_dealer")),
            )
            for wid, w in data["wagers"].items()
        },
        tables=tables,
        hands={
            hid: HandFacts(
                hid,
                [Category(*c) for c in h["categories"]],
                {k: Fraction(v) for k, v in h["held"].items()} if h["held"] is not None else None,
            )
            for hid, h in data["hands"].items()
        },
        payout_limit_excludes=data["payout_limit_excludes"],
        constraints=construct_constraints(data["constraints"]),
        digest=data["digest"],
    )


#: Every attribute a constraint of any kind has; what the compiled file leaves out is None.
_CONSTRAINT_ATTRIBUTES = (
    "id",
    "kind",
    "cite",
    "severity",
    "message",
    "hint",
    "note",
    "when",
    "field",
    "fields",
    "choices",
    "values",
    "value",
    "than",
    "methods_field",
    "hours",
    "cites",
    "table",
    "at_least",
    "pays_every",
    "except_hands",
)
_WHEN_ATTRIBUTES = ("offered", "field", "in_", "contains", "stated")


def construct_constraints(items: list[dict[str, Any]]) -> tuple[Any, ...]:
    """Constraints from the data ``dump_constraints`` wrote, as plain objects that read like
    the models (``validator.model.constraints``): the compiled facts were validated when
    compiled, and building the models' validators at every start costs more than the rest
    of validating a submission."""
    from types import SimpleNamespace

    from validator.model.notation import parse_money, parse_rate

    def value(v: Any) -> Any:
        if isinstance(v, str) and v.lstrip().startswith("$"):
            return parse_money(v)
        if isinstance(v, str) and v.rstrip().endswith("%"):
            return parse_rate(v)
        return v

    out = []
    for item in items:
        fields = {name: item.get(name) for name in _CONSTRAINT_ATTRIBUTES}
        if item.get("when") is not None:
            when = dict(item["when"])
            when["in_"] = [value(v) for v in when.pop("in")] if "in" in when else None
            if when.get("contains") is not None:
                when["contains"] = value(when["contains"])
            fields["when"] = SimpleNamespace(**{k: when.get(k) for k in _WHEN_ATTRIBUTES})
        if fields["value"] is not None:
            fields["value"] = value(fields["value"])
        if fields["values"] is not None:
            fields["values"] = [value(v) for v in fields["values"]]
        if fields["kind"] == "max_interval":
            fields["cites"] = fields["cites"] or {}
        if fields["kind"] == "payout_limit_floor":
            fields["at_least"] = parse_money(fields["at_least"])
        c = SimpleNamespace(**fields)
        if fields["kind"] == "max_interval":
            c.pointers = [c.field, c.methods_field]
        elif fields["kind"] != "equals_table":
            c.pointers = [c.field] if c.field is not None else list(c.fields or ())
        out.append(c)
    return tuple(out)


def render_facts(f: GameFacts) -> str:
    return json.dumps(facts_to_json(f), indent=1, ensure_ascii=False) + "\n"


_FACTS: dict[tuple[str, Path], GameFacts] = {}


def facts_for(game_id: str, games_dir: Path = GAMES_DIR) -> GameFacts:
    """The checks' facts of a game: compiled when current, else from the game file."""
    key = (game_id, games_dir)
    if key in _FACTS:
        return _FACTS[key]
    path = COMPILED_DIR / f"{game_id}.json"
    facts: GameFacts | None = None
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if (
            isinstance(data, dict)
            and data.get("facts_version") == FACTS_VERSION
            and data.get("digest") == digest(game_id, games_dir)
        ):
            facts = facts_from_json(data)
    if facts is None:
        from validator.compiler import load_game

        facts = compile_facts(load_game(game_id, games_dir))
    _FACTS[key] = facts
    return facts
