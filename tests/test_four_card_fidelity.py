"""Four Card Poker (ch. 641a) as the chapter writes it, from the user's side: rounds that
settle to the dollar with `rulesub settle`, submissions that validate or not."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_rulesub

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "golden" / "four-card-poker"
EXAMPLE = ROOT / "rulesubs" / "example" / "four-card-poker.yaml"


def _settle(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "round.yaml"
    path.write_text(text, encoding="utf-8")
    out = run_rulesub("settle", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


FOUR_ACES = """\
game: four-card-poker
{head}
seats:
  - wagers: {{ante: 10, four_card_progressive: 1}}
    cards: [AS, AH, AD, AC, 2D]
    actions: [play 3x]
dealer: [3C, 5D, 7H, 9S, JC, KD]
"""


def test_a_paytable_named_in_a_round_file_brings_its_own_meter(tmp_path: Path) -> None:
    """§ 641a.12(d)(3): paytable B's meter is $1,000 for 1 at 25% (reserve 5%), A's $5,000
    for 1 at 29%. The round naming B and the round taking B from a Rules Submission both pay
    B's meter (the first was once paid A's); naming A pays A's."""
    by_round = _settle(tmp_path, FOUR_ACES.format(head="paytables: {four_card_progressive: B}"))
    by_rulesub = _settle(tmp_path, FOUR_ACES.format(head=f"rulesub: {EXAMPLE}"))
    a = _settle(tmp_path, FOUR_ACES.format(head="paytables: {four_card_progressive: A}"))
    for data in (by_round, by_rulesub):
        w = data["seats"][0]["wagers"]["four_card_progressive"]
        assert w["net"] == "999.25", w["reason"]  # $1,000 + 25% of $1, less the $1 wager
    assert a["seats"][0]["wagers"]["four_card_progressive"]["net"] == "4999.29"


def test_every_five_card_progressive_paytable_settles_with_its_meters(tmp_path: Path) -> None:
    """§ 641a.12(e)(1), (3): paytables B-D pay mega and major jackpots, C and D a minor one
    (they once failed with `five_card_progressive/minor`). A royal flush wins the mega
    jackpot, $10,000 for 1 plus the round's increment (B 11%, C 9%, D 10%)."""
    for letter, rate in (("A", "21"), ("B", "11"), ("C", "09"), ("D", "10")):
        data = _settle(
            tmp_path,
            f"""\
game: four-card-poker
paytables: {{five_card_progressive: {letter}}}
seats:
  - wagers: {{ante: 10, five_card_progressive: 1}}
    cards: [AH, KH, QH, JH, TH]
    actions: [play 3x]
dealer: [2C, 3D, 4C, 8D, JD, QC]
""",
        )
        w = data["seats"][0]["wagers"]["five_card_progressive"]
        assert w["net"] == f"9999.{rate}", (letter, w["reason"])
