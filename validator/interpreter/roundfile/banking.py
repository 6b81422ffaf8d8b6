"""The round file of a banking game: each seat's wagers, cards and decisions, the dealer's
cards, the community cards, the next cards of the deck (the contract in the package's
docstring and the README, "Round files")."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from validator.interpreter.actions import parse_action
from validator.interpreter.errors import RoundError
from validator.interpreter.roundfile.reading import Reader, RoundFileError
from validator.loader import Located, did_you_mean, load_yaml
from validator.model.notation import NotationError, parse_money

KNOWN_KEYS = (
    "game",
    "rulesub",
    "paytables",
    "seats",
    "dealer",
    "community",
    "deck",
    "table_system",
    "meters",
    "irregularity",
    "round",
    "seed",
    "strategy",
    "deck_order",
    "result",
    "draft",
)
SEAT_KEYS = ("seat", "wagers", "cards", "actions")
_NO_STAKE = "a wager is more than $0"


@dataclass
class SeatSpec:
    number: int
    wagers: dict[str, Decimal]  # spot -> stake
    cards: list[int]
    actions: list[str]
    pointer: str = ""


@dataclass
class RoundSpec:
    game: str
    seats: list[SeatSpec]
    dealer: list[int]
    community: list[int]
    deck: list[int]
    rulesub: Path | None = None
    paytables: dict[str, str] = field(default_factory=dict)
    table_system: dict[str, tuple[str, int]] = field(default_factory=dict)
    meters: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    irregularity: str | None = None
    located: Located | None = None

    def position(self, pointer: str) -> tuple[str, int, int]:
        if self.located is None:
            return ("<round>", 1, 1)
        pos = self.located.position(pointer)
        return (str(self.located.path), pos.line, pos.column)


def shipped() -> tuple[Path, ...]:
    """Where a round file or a play log may name a Rules Submission beside its own folder
    and the working directory: the shipped games and example submissions."""
    from validator import GAMES_DIR, PROJECT_ROOT

    return (GAMES_DIR, PROJECT_ROOT / "rulesubs")


def read_round(
    path: Path | str,
    data: Any | None = None,
    located: Located | None = None,
    rulesub: Path | None = None,
) -> RoundSpec:
    """Read a round file (YAML or one JSON line). Raises ``LoadError`` / ``RoundFileError``.
    ``rulesub``: the Rules Submission the user names for it, in place of the one the file
    names (which is then not read)."""
    loc = located or load_yaml(path)
    if data is not None:
        loc.data = data
    r = Reader(loc)
    d = loc.data
    if not isinstance(d, dict):
        r.err("", "a round file is a mapping with `game:` and `seats:`")
        raise RoundFileError(r.errors)
    r.keys("", d, KNOWN_KEYS, listed=False)
    game = d.get("game")
    if not isinstance(game, str):
        r.err("/game", "the game's id is required, e.g. `game: four-card-poker`")
    else:
        from validator.model.registry import GAME_ID, game_ids, shown_name

        known = game_ids()
        if not GAME_ID.fullmatch(game) or game not in known:
            hint = did_you_mean(game, known) if len(game) <= 64 else ""
            r.err("/game", f"no game {shown_name(game)}{hint}; the games are: {', '.join(known)}")
            raise RoundFileError(r.errors)
    seats: list[SeatSpec] = []
    raw_seats = d.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        r.err("/seats", "a list of seats is required, each with `wagers:` and `cards:`")
        raw_seats = []
    last = 0
    for i, s in enumerate(raw_seats):
        p = f"/seats/{i}"
        if not isinstance(s, dict):
            r.err(p, "a seat is a mapping with `wagers:`, `cards:` and `actions:`")
            continue
        r.keys(p, s, SEAT_KEYS, listed=False)
        number = s.get("seat", last + 1)
        if not isinstance(number, int) or isinstance(number, bool) or number <= last:
            r.err(f"{p}/seat", "seats are numbered 1, 2, … from the dealer's left, in order")
            number = last + 1
        last = number
        wagers: dict[str, Decimal] = {}
        raw_w = s.get("wagers")
        if not isinstance(raw_w, dict) or not raw_w:
            r.err(f"{p}/wagers", "the seat's wagers are required, e.g. `wagers: {ante: 10}`")
            raw_w = {}
        for wid, amount in raw_w.items():
            wp = f"{p}/wagers/{wid}"
            if isinstance(amount, dict):
                for side, a in amount.items():
                    if side not in ("player", "dealer"):
                        r.err(f"{wp}/{side}", "a wager on a hand is on `player` or `dealer`")
                        continue
                    m = r.money(f"{wp}/{side}", a, _NO_STAKE)
                    if m is not None:
                        wagers[wid if side == "player" else f"{wid}.dealer"] = m
            else:
                m = r.money(wp, amount, _NO_STAKE)
                if m is not None:
                    wagers[str(wid)] = m
        actions = s.get("actions") or []
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            r.err(f"{p}/actions", "actions are a list of words like [play 3x] or [fold]")
            actions = []
        for i, action in enumerate(actions):
            try:
                parse_action(action)
            except RoundError as e:  # refused at its own line, before any card is dealt
                r.err(f"{p}/actions/{i}", str(e))
        seats.append(
            SeatSpec(number, wagers, r.cards(f"{p}/cards", s.get("cards")), list(actions), p)
        )
    spec = RoundSpec(
        game=game if isinstance(game, str) else "",
        seats=seats,
        dealer=r.cards("/dealer", d.get("dealer")),
        community=r.cards("/community", d.get("community")),
        deck=r.cards("/deck", d.get("deck")),
        located=loc,
    )
    if rulesub is not None:  # the user's own choice: read from wherever it lies
        spec.rulesub = rulesub
    elif d.get("rulesub") is not None:
        from validator.loader import PathRefused, named_path

        try:
            spec.rulesub = named_path(Path(path or "round.yaml"), d["rulesub"], also=shipped())
        except PathRefused as e:
            r.err("/rulesub", f"{e}; name the submission yourself with --rulesub FILE")
        else:
            if not spec.rulesub.is_file():
                r.err("/rulesub", "no Rules Submission file at that path")
    pts = d.get("paytables") or {}
    if not isinstance(pts, dict):
        r.err("/paytables", "paytables are a mapping like {aces_up: C}")
    else:
        spec.paytables = {str(k): str(v) for k, v in pts.items()}
    draws, progressive, positions = _game_parts(spec.game)
    _table_system(r, d.get("table_system"), draws, positions, spec)
    meters = d.get("meters") or {}
    if not isinstance(meters, dict):
        r.err(
            "/meters",
            "the meters are a mapping, e.g. `meters: {five_card_progressive: {mega: 12000}}`",
        )
        meters = {}
    for t, ms in meters.items():
        names = progressive.get(str(t))
        if names is None:
            tables = list(progressive)
            r.err(
                f"/meters/{t}",
                f"no progressive table {str(t)!r}{did_you_mean(str(t), tables)}; "
                f"the game's: {', '.join(tables) or 'none'}",
            )
            continue
        if not isinstance(ms, dict):
            r.err(
                f"/meters/{t}", f"a mapping of the table's meters ({', '.join(names)}) to amounts"
            )
            continue
        for n, v in ms.items():
            if str(n) not in names:
                r.err(
                    f"/meters/{t}/{n}",
                    f"no meter {str(n)!r}{did_you_mean(str(n), names)}; the table's: "
                    f"{', '.join(names)}",
                )
                continue
            m = _meter_money(r, f"/meters/{t}/{n}", v)
            if m is not None:
                spec.meters.setdefault(str(t), {})[str(n)] = m
    irr = d.get("irregularity")
    if irr is not None:
        spec.irregularity = str(irr)
    r.no_card_twice(
        [
            *((f"{s.pointer}/cards", s.cards) for s in spec.seats),
            ("/dealer", spec.dealer),
            ("/community", spec.community),
            ("/deck", spec.deck),
        ],
        _deck_cite(spec.game),
    )
    r.refuse()
    return spec


def _meter_money(r: Reader, pointer: str, value: Any) -> Decimal | None:
    if isinstance(value, str) and "." in value and len(value) <= 32:
        whole, _, part = value.partition(".")
        if len(part) > 2 and part.isascii() and part.isdigit():  # meters keep micro-dollars
            try:
                return parse_money(whole) + Decimal(f"0.{part[:6]}")
            except NotationError:
                pass
    try:
        return parse_money(value)
    except NotationError as e:
        r.err(pointer, f"a meter amount like 5000 or '5123.45': {e}")
        return None


def _game_parts(game_id: str) -> tuple[dict[str, str], dict[str, list[str]], int]:
    """What a round file may name of the game: its table game system's draws (each a
    ``card`` or a ``position``), its progressive tables' meters by table, and its betting
    positions."""
    from validator.compiler import load_game

    try:
        d = load_game(game_id).definition
    except Exception:  # an unknown game is reported with its own finding
        return {}, {}, 0
    meters = {t: table.meters.names for _, t, table in d.tables() if table.meters is not None}
    return d.system_draws(), meters, d.table.max_positions


def _table_system(
    r: Reader, ts: Any, draws: dict[str, str], positions: int, spec: RoundSpec
) -> None:
    """The table game system's draws: a card where the game draws a card (the Magic Card,
    § 641a.1), a seat or ``dealer`` where it draws a position (the Lucky Bonus)."""
    if ts is None:
        return
    if not isinstance(ts, dict):
        r.err(
            "/table_system", "the table game system's draws are a mapping, e.g. `{magic_card: 7H}`"
        )
        return
    for k, v in ts.items():
        p, kind = f"/table_system/{k}", draws.get(str(k))
        if kind is None:
            r.err(
                p,
                f"the game's table game system draws no {str(k)!r}"
                f"{did_you_mean(str(k), list(draws))}; it draws: "
                f"{', '.join(f'{n} (a {w})' for n, w in draws.items()) or 'nothing'}",
            )
        elif kind == "position":
            if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= positions:
                spec.table_system[str(k)] = ("position", v)
            elif str(v).lower() == "dealer":
                spec.table_system[str(k)] = ("position", 0)
            else:
                r.err(
                    p,
                    f"{k} draws a position: a betting position (1 to {positions}) or `dealer`",
                )
        else:
            c = r.card(p, v) if not isinstance(v, int) or isinstance(v, bool) else None
            if c is not None:
                spec.table_system[str(k)] = ("card", c)
            elif isinstance(v, int):
                r.err(p, f"{k} draws a card, like 7H, not a position")


def _deck_cite(game_id: str) -> str:
    """The section that has the game dealt from one deck (cited when a card shows twice)."""
    from validator.compiler import load_game

    try:
        return f" ({load_game(game_id).definition.cards.cite})"
    except Exception:  # an unknown game is reported when the round is settled
        return ""
