"""rulesub: table-game regulations as data.

The import package is ``validator``; the distribution and the command are ``rulesub``.
"""

import os
from pathlib import Path

__version__ = "0.1.0"

#: The project's root: ``games/``, ``schemas/`` and ``rulesubs/`` live here.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: The declared games; ``RULESUB_GAMES_DIR`` points elsewhere (a game file under review).
GAMES_DIR = Path(os.environ.get("RULESUB_GAMES_DIR") or PROJECT_ROOT / "games")
SCHEMAS_DIR = PROJECT_ROOT / "schemas"
