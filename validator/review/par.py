"""The par sheet of the submission under review: ``validator.par``'s, exact figures only.

A review pack is made on request (``rulesub review``, a page of the web view), so it
computes no simulation: every wager's house edge and the progressives are counted hand by
hand, and the base game is given exactly where rulesub derives it from the rules (High Card
Flush: the optimal strategy and every declared one; the long count is kept in the user's
cache, so it is made once per game version). The strategies only a simulation could price
are named, with the command that simulates them (``rulesub par FILE``).

The sheet is made when a section first reads it (``ReviewPack.par``): the web view's
diff, math and signs pages never wait for it. One sheet is made at a time in a process:
the exact count is long, and a second request for the same pack waits for the first.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

#: What every par section states about its figures: a banking game's, then a nonbanking's.
METHOD = (
    "Exact figures only, made with this pack: each wager's house edge counted hand by hand "
    "(its return table is under Paytable math), the base game where rulesub derives it from "
    "the rules, the progressives against their meters. No figure here is simulated; the "
    "full par sheet adds the simulated strategies, each with its 95% interval."
)
#: (a nonbanking sheet's own note says which figures the full sheet simulates)
NONBANKING_METHOD = "Exact figures only, made with this pack: no figure here is simulated."


def method(banking: bool) -> str:
    """What the pack's par section states about its figures."""
    return METHOD if banking else NONBANKING_METHOD


_ONE_AT_A_TIME = threading.Lock()


@dataclass
class ParInput:
    """What the sheet is made from: the compiled game, the submission's table settings
    (``validator.interpreter.settings.TableSettings``) and the name the pack shows."""

    game: Any  # validator.compiler.Game
    config: Any  # validator.interpreter.settings.TableSettings
    display: str
    workers: int | None = 1


class LazyPar:
    """The par sheet, made on first reading, once."""

    def __init__(self, given: ParInput | None, problem: str | None = None) -> None:
        self._given = given
        self._sheet: dict[str, Any] | None = None
        self.problem = problem

    def sheet(self) -> dict[str, Any] | None:
        """The sheet (``validator.par.sheet.build``'s JSON), or ``None`` with ``problem``
        saying why there is none."""
        with _ONE_AT_A_TIME:
            if self._sheet is None and self._given is not None:
                self._sheet = made(self._given)
                self._given = None
        return self._sheet


def made(given: ParInput) -> dict[str, Any]:
    from validator.par.sheet import ParRequest, build

    return build(
        ParRequest(given.game, given.config, given.display, workers=given.workers, simulate=False)
    )


def par_input(game: Any, path: Any, display: str, workers: int | None) -> LazyPar:
    """The submission's table settings read now (its file may be a temporary one), the
    sheet made later; a submission whose settings cannot be used has none, and says why."""
    from validator.errors import ConfigError
    from validator.interpreter.settings import read_settings
    from validator.loader import LoadError

    try:
        config = read_settings(game, path)
    except ConfigError as e:  # each at its line, in the pack's words: no file, no code
        return LazyPar(None, "; ".join(_at_line(err) for err in e.errors))
    except LoadError as e:
        return LazyPar(None, _shown(str(e), path, display))
    return LazyPar(ParInput(game, config, display, workers))


def _at_line(err: Any) -> str:
    """One problem as a page says it: its line and what is wrong, without the file (the
    cover names it) or the finding's code (``error rulesub/unknown-key``)."""
    from validator.loader import LoadError

    if not isinstance(err, LoadError):
        return str(err)
    return f"line {err.line}: {re.sub(r'^(error|warning) [a-z0-9-]+/[a-z0-9-]+ ', '', err.message)}"


def _shown(message: str, path: Any, display: str) -> str:
    """A message about the file, naming it as the pack does (not its temporary copy)."""
    return message.replace(str(path), display)
