"""The vocabulary registry: every word a game file may speak, one entry each.

A word is a ranking primitive (``flush: 4``), a procedure step (``step: deal``), a condition
key (``when: {dealer_qualifies: false}``), a table feature (``envy:``), a constraint kind
(``kind: at_least``) or a Poker word (``opens: forced_bet``, ``rake: {percentage: …}``,
``kill: {options: {half_kill: 1.5}}``). Its entry (``Word``) carries the kind, the model
field it corresponds to (its schema), its explanation and, where the words of its kind are
general, the reason it stands in the vocabulary though no game uses it.

What a word *does* lives in the engines, which sit above the models: each engine registers
its meaning of a word with ``@meaning(engine, kind, word…)`` on the function that carries
it, and dispatches through ``meaning_of(kind, word, engine)``, so the scalar engine and the
batch engine read the same entry. An engine that does not handle a word says so in the
entry (``none={engine: reason}``), never by leaving a gap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from validator.errors import RulesubError

KindId = Literal[
    "ranking primitive", "step", "condition", "table feature", "constraint kind", "poker word"
]
Engine = Literal["scalar", "batch", "checks", "odds", "show", "kernels"]

#: what each engine is, as the reference names it
ENGINES: dict[str, str] = {
    "scalar": "the scalar engine (settle, play): one round or hand at a time, exact",
    "batch": "the batch engine (simulate, par): many rounds at once over numpy arrays",
    "checks": "the Rules Submission checks (validate): one evaluator per constraint kind",
    "odds": "the exact odds (odds, diff, par): enumeration of a wager's hands",
    "show": "the rules as listed (games show)",
    "kernels": "the Poker kernels (simulate, par): rounds of a Poker session dealt, bet and "
    "settled by numba-compiled code",
}


@dataclass(frozen=True)
class Kind:
    id: KindId
    title: str
    #: the engines that handle this kind of word: each needs a meaning or a stated none
    engines: tuple[Engine, ...]
    about: str


KINDS: dict[str, Kind] = {}


def _kind(k: Kind) -> Kind:
    KINDS[k.id] = k
    return k


RANKING_PRIMITIVE = _kind(
    Kind(
        "ranking primitive",
        "Ranking primitives",
        ("scalar", "batch"),
        "What a hand category is made of, in `games/rankings.yaml`: one shape per category "
        "(`of_a_kind`, `flush`, `straight`, …), the modifiers that narrow it (`min_rank`, "
        "`suited`, `suit`, `refines`) and the ranking's own rules (`ace_low`, `low`, "
        "`tiebreak`, `qualifiers`). The scalar evaluator finds the best combination of one "
        "hand; the batch evaluator tells the category of many hands at once.",
    )
)
STEP = _kind(
    Kind(
        "step",
        "Procedure steps",
        ("scalar", "batch"),
        "The round of a banking game as its chapter deals it: `procedure:` is a list of "
        "steps, each `step: <word>` with its citation, run in order by both round engines.",
    )
)
CONDITION = _kind(
    Kind(
        "condition",
        "Condition keys",
        ("scalar", "batch"),
        "The keys of a `when:` (a settlement row, a step's `players:`, an option's "
        "`available:`, a strategy row): every key given must hold. The scalar engine also "
        "says why a row applied, from the same entry.",
    )
)
TABLE_FEATURE = _kind(
    Kind(
        "table feature",
        "Table features",
        ("scalar", "batch"),
        "What a wager's paytable (`wagers.<w>.tables.<t>`) may say beyond its rows: the hand "
        "it pays on, events, Envy Bonuses, meters, the Board's hold range. Some are read by "
        "the round engines, others only by the checks, the odds or the signs; each entry "
        "says which.",
    )
)
CONSTRAINT_KIND = _kind(
    Kind(
        "constraint kind",
        "Constraint kinds",
        ("checks",),
        "What the regulation demands of a Rules Submission (`constraints:`), from a closed "
        "vocabulary: each kind is one evaluator of the checks; a finding's code is "
        "`<game>/<constraint id>`.",
    )
)

POKER_WORD = _kind(
    Kind(
        "poker word",
        "Poker words",
        ("scalar", "kernels"),
        "The words of a nonbanking Poker game file for who opens a street's betting "
        "(`betting: {opens: …}`), the kinds of rake a certificate holder may take (`rake:`) "
        "and the Kill's options (`betting.kill.options`). The scalar settlement (`play`, "
        "`settle`) and the Poker kernels (`play`, `simulate`, `par`) each register their "
        "meaning; who opens a street only the kernels, which deal and bet every round.",
    )
)

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Word:
    kind: KindId
    word: str
    #: the pydantic model the word is a field of (or the step's model), by its dotted
    #: name (imported when asked for: ``model``), and the field
    model_name: str
    field: str
    #: what the word does; ``None``: the model's docstring says it (constraint kinds)
    explanation_text: str | None
    #: an example as a game file writes it; by default the first use found in games/
    example: str | None = None
    #: why the word is in the vocabulary though no game file uses it (a general word)
    general: str | None = None
    #: engines of the kind that do not handle this word, and why
    none: dict[str, str] = _field(default_factory=dict)
    #: engine -> the function carrying the word's meaning (registered by the engines)
    meanings: dict[str, Callable[..., Any]] = _field(default_factory=dict)
    #: other functions that read the word (commands beyond the kind's engines)
    readers: dict[str, list[Callable[..., Any]]] = _field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.word)

    @property
    def model(self) -> type[BaseModel]:
        module, _, name = self.model_name.rpartition(".")
        model: type[BaseModel] = getattr(importlib.import_module(module), name)
        return model

    @property
    def explanation(self) -> str:
        return " ".join((self.explanation_text or self.model.__doc__ or "").split())

    @property
    def schema(self) -> str:
        """The model field, as ``module.Model.field``."""
        return f"{self.model_name}.{self.field}"

    def meaning(self, engine: str) -> Callable[..., Any]:
        try:
            return self.meanings[engine]
        except KeyError:
            why = self.none.get(engine, "no meaning is registered")
            raise LookupError(f"{self.kind} {self.word!r} has no {engine} meaning: {why}") from None


class UnknownWord(RulesubError, LookupError):
    """A registration or a lookup names a word the vocabulary does not have."""


REGISTRY: dict[tuple[str, str], Word] = {}


def word(
    kind: Kind,
    name: str,
    model: str,
    explanation: str | None,
    *,
    field: str | None = None,
    example: str | None = None,
    general: str | None = None,
    none: dict[str, str] | None = None,
) -> Word:
    """Declare a word (validator/vocabulary/words.py declares them all)."""
    w = Word(
        kind.id,
        name,
        model,
        field if field is not None else name,
        " ".join(explanation.split()) if explanation is not None else None,
        example,
        general,
        dict(none or {}),
    )
    if w.key in REGISTRY:
        raise ValueError(f"{kind.id} {name!r} is declared twice")
    REGISTRY[w.key] = w
    return w


def entry(kind: str, name: str) -> Word:
    try:
        return REGISTRY[(kind, name)]
    except KeyError:
        known = ", ".join(w for k, w in REGISTRY if k == kind)
        raise UnknownWord(
            f"no {kind} {name!r} in the vocabulary; the {kind}s are: {known}"
        ) from None


def words(kind: str | None = None) -> Iterator[Word]:
    return (w for w in REGISTRY.values() if kind is None or w.kind == kind)


def meaning(engine: Engine | tuple[Engine, ...], kind: str, *names: str) -> Callable[[F], F]:
    """Register the decorated function as ``engine``'s meaning of each word named (or, for an
    engine outside the kind's, as a reader of it). The function is returned unchanged."""
    engines = (engine,) if isinstance(engine, str) else engine

    def register(fn: F) -> F:
        for name in names:
            w = entry(kind, name)
            for e in engines:
                if e not in KINDS[kind].engines:
                    if fn not in w.readers.setdefault(e, []):
                        w.readers[e].append(fn)
                    continue
                if e in w.none:
                    raise ValueError(f"{kind} {name!r}: the entry says {e} does not handle it")
                w.meanings[e] = fn
        return fn

    return register


def meaning_of(kind: str, name: str, engine: str) -> Callable[..., Any]:
    """The function carrying ``engine``'s meaning of a word: how the engines dispatch."""
    return entry(kind, name).meaning(engine)
