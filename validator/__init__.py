"""rulesub: table-game regulations as data.

The import package is ``validator``; the distribution and the command are ``rulesub``.
"""

from pathlib import Path

__version__ = "0.1.0"

#: The project's root: ``games/``, ``schemas/`` and ``rulesubs/`` live here.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = PROJECT_ROOT / "games"
SCHEMAS_DIR = PROJECT_ROOT / "schemas"
