"""rulesub: table-game regulations as data.

The import package is ``validator``; the distribution and the command are ``rulesub``.

The game files and schemas are package data: an installed rulesub (a wheel, ``pip install
.``, pipx, the pre-commit hook) carries them under ``validator/_data/``; a source checkout
reads them from its own ``games/`` and ``schemas/``. ``RULESUB_GAMES_DIR`` (or ``rulesub
--games DIR``) points at a tree of game files of one's own.
"""

import os
from pathlib import Path

from validator.errors import RulesubError

__version__ = "0.3.0"

#: Where the package lives; in a source checkout, its parent holds ``games/``, ``schemas/``
#: and ``rulesubs/``.
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def packaged(name: str) -> Path:
    """A data directory the package carries (``games``, ``schemas``), else the checkout's.

    An installed package is a directory on disk, so its data is found beside this file at no
    cost; ``importlib.resources`` (slow to import) is asked only where neither is a plain
    directory (a package imported from an archive).
    """
    beside = Path(__file__).resolve().parent / "_data" / name
    if beside.is_dir():
        return beside
    checkout = PROJECT_ROOT / name
    if checkout.is_dir():
        return checkout
    from importlib import resources

    carried = resources.files("validator").joinpath("_data", name)
    return Path(str(carried))


#: The declared games shipped with rulesub.
SHIPPED_GAMES_DIR = packaged("games")
#: The declared games in use; ``RULESUB_GAMES_DIR`` points elsewhere (a game file under review).
GAMES_DIR = Path(os.environ.get("RULESUB_GAMES_DIR") or SHIPPED_GAMES_DIR)
#: The schemas shipped with rulesub (read only: ``rulesub schema export`` writes where told).
SCHEMAS_DIR = packaged("schemas")

#: Not a game: the shared hand rankings beside the game files.
RANKINGS_FILE = "rankings.yaml"


class NoGamesError(RulesubError):
    """The games directory holds no game file: every command would answer about nothing."""


def game_files(games_dir: Path | None = None) -> list[Path]:
    """The game files of ``games_dir`` (default: the games in use), sorted; at least one."""
    where = games_dir or GAMES_DIR
    found = (
        sorted(p for p in where.glob("*.yaml") if p.name != RANKINGS_FILE) if where.is_dir() else []
    )
    if not found:
        raise NoGamesError(
            f"no game files (*.yaml) in {where}; point --games or RULESUB_GAMES_DIR at a "
            "directory of game files, or leave both unset for the games rulesub ships"
        )
    return found
