"""`rulesub games list` and `rulesub games show`, as a compliance officer runs them."""

from __future__ import annotations

import json
import re

import pytest
from conftest import GAME_IDS, run_rulesub
from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.model.game import GameDefinition

runner = CliRunner()


def invoke(*args: str, width: int = 200):
    return runner.invoke(app, list(args), env={"COLUMNS": str(width)}, catch_exceptions=False)


def squash(text: str) -> str:
    """The text with table rules and runs of blanks collapsed, one line per row."""
    lines = []
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃]", line) if c.strip()]
        lines.append(" | ".join(cells))
    return "\n".join(lines)


# -- games list ---------------------------------------------------------------------------------


def test_list_names_every_game() -> None:
    result = invoke("games", "list", width=80)
    assert result.exit_code == 0
    out = squash(result.stdout)
    for game_id in GAME_IDS:  # ids are printed whole even on an 80-column terminal
        assert re.search(rf"^{re.escape(game_id)} \|", out, re.M), game_id


def test_list_json() -> None:
    result = invoke("games", "list", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert isinstance(rows, list)
    by_id = {r["id"]: r for r in rows}
    assert set(GAME_IDS) <= set(by_id)
    assert {i: (by_id[i]["name"], by_id[i]["chapter"]) for i in GAME_IDS} == {
        "four-card-poker": ("Four Card Poker", "58 Pa. Code ch. 641a"),
        "lunar-poker": ("Lunar Poker", "58 Pa. Code ch. 589"),
        "wpt-heads-up-holdem": ("World Poker Tour Heads-Up Hold 'Em", "58 Pa. Code ch. 677a"),
        "high-card-flush": ("High Card Flush", "58 Pa. Code ch. 678a"),
    }
    # wagers and paytables as the chapters count them: Four Card Poker has 8 wagers
    assert by_id["four-card-poker"]["wagers"] == 8
    assert by_id["lunar-poker"]["wagers"] == 3
    # Aces Up A-F, 4-card progressive A-B, Envy 2x2, 5-card A-D, Envy 2, Bad Beat A-B,
    # ante bonus, Five Card Hand Bonus, Magic/Lucky, Six Card Bonus A-E
    assert by_id["four-card-poker"]["paytables"] == 6 + 2 + 4 + 4 + 2 + 2 + 1 + 1 + 1 + 5


# -- games show: reads like § 641a.12 -------------------------------------------------------------


@pytest.fixture(scope="module")
def four_card_text() -> str:
    result = invoke("games", "show", "four-card-poker")
    assert result.exit_code == 0, result.stderr
    return squash(result.stdout)


def test_show_aces_up_tables_a_to_f(four_card_text: str) -> None:
    """§ 641a.12(c): hands as rows, paytables A-F as columns."""
    t = four_card_text
    header = "Hand | Paytable A | Paytable B | Paytable C | Paytable D | Paytable E | Paytable F"
    assert header in t
    after = t[t.index("Aces Up (table id aces_up") :]
    rows = [
        "Four-of-a-kind | 50 to 1 | 50 to 1 | 50 to 1 | 50 to 1 | 50 to 1 | 50 to 1",
        "Straight flush | 30 to 1 | 30 to 1 | 40 to 1 | 40 to 1 | 30 to 1 | 40 to 1",
        "Three-of-a-kind | 9 to 1 | 7 to 1 | 8 to 1 | 8 to 1 | 8 to 1 | 7 to 1",
        "Flush | 6 to 1 | 6 to 1 | 5 to 1 | 6 to 1 | 6 to 1 | 5 to 1",
        "Straight | 4 to 1 | 5 to 1 | 4 to 1 | 4 to 1 | 4 to 1 | 4 to 1",
        "Two pair | 2 to 1 | 2 to 1 | 3 to 1 | 2 to 1 | 2 to 1 | 3 to 1",
        "Pair of aces | 1 to 1 | 1 to 1 | 1 to 1 | 1 to 1 | 1 to 1 | 1 to 1",
    ]
    positions = [after.index(r) for r in rows]
    assert positions == sorted(positions), "rows in the chapter's order"
    assert "[§ 641a.12(c)]" in after.splitlines()[0]


def test_a_seed_that_is_a_floor_is_not_titled_per_unit_wagered(four_card_text: str) -> None:
    """§ 678a.12(d)(3): High Card Flush's meter is seeded at "at least $30,000", a sum, where
    Four Card Poker's seeds are "for 1" (§ 641a.12(d)(3)): only the second is per unit."""
    assert "Seed, reseed and rate of progression (per unit wagered)" in four_card_text
    flush = squash(invoke("games", "show", "high-card-flush").stdout)
    assert "Initial amount (primary) | at least $30,000" in flush
    assert "Seed, reseed and rate of progression\n" in flush + "\n"
    assert "rate of progression (per unit wagered)" not in flush


def test_show_progressive_meters(four_card_text: str) -> None:
    """§ 641a.12(d)(3), (e)(3), (g)(4): seed/reseed per unit, primary and reserve."""
    t = four_card_text
    for line in [
        "Seed (primary) | $5,000 for 1 | $1,000 for 1",
        "Reseed (primary) | $5,000 for 1 | $1,000 for 1",
        "Increment (primary) | 29% | 25%",
        "Reserve increment (primary) | N/A | 5%",
        "Seed (mega) | N/A | $10,000 for 1 | $10,000 for 1 | $10,000 for 1",
        "Seed (minor) | N/A | N/A | $250 for 1 | $250 for 1",
        "Increment (major) | N/A | 10% | 7% | 8%",
        "Seed (primary) | $10,000 for 1",
        "Reserve increment (primary) | 8%",
        "Meters: as above [§ 641a.12(d)(3)]",
        "Meters: as above [§ 641a.12(e)(3)]",
        "Meters: as above [§ 641a.12(g)(4)]",
    ]:
        assert line in t, line
    assert "the amount on the meter when it is the player's turn to be paid [§ 641a.12(d)(4)]" in t


def test_show_envy_bonus_tables(four_card_text: str) -> None:
    """§ 641a.12(d)(5) by the wager amount and paytable; § 641a.12(e)(5) by amount."""
    t = four_card_text
    heads = [f"${amount} wager, Paytable {letter}" for amount in (1, 5) for letter in "AB"]
    assert " | ".join(["Hand", *heads]) in t
    assert "Four aces | $100 | $100 | $500 | $500" in t
    assert "Four-of-a-kind | $10 | $25 | $50 | $125" in t
    assert "Straight flush | $5 | N/A | $25 | N/A" in t
    assert "Hand | $1 wager | $5 wager" in t
    assert "Royal flush | $1,000 | $5,000" in t
    assert "Straight flush | $300 | $1,500" in t
    assert "never one's own or the dealer's [§ 641a.11(c)(5)(v)(A)]" in t


def test_show_table_and_cards(four_card_text: str) -> None:
    t = four_card_text
    assert "Positions: no more than 7 [§ 641a.2(a)]" in t
    assert (
        "Deck change at least every: 4 h dealt by hand; 8 h from a manual or automated "
        "dealing shoe [§ 641a.3(c)]"
    ) in t
    assert "Six-card royal flush—diamonds | 200,000 to 1" in t
    assert "Four-of-a-kind | 25,000 to 1 | 10,000 to 1" in t  # Bad Beat § 641a.12(f)


def test_show_names_hands_by_their_cards_not_their_ids(four_card_text: str) -> None:
    """§ 641a.11(c): the hands as the chapter speaks of them, the player's and the dealer's
    Four Card Poker hands, the dealer's five-card hand of the first five cards, and the
    losing hand the Bad Beat Bonus pays on (§ 641a.11(c)(6)); never the game file's ids."""
    t = four_card_text
    assert "Hand: Four Card Poker hand, best 4 of the player's cards [§ 641a.11(c)(2)]" in t
    assert "Hand: Four Card Poker hand, best 4 of the dealer's cards [§ 641a.11(c)]" in t
    assert (
        "Hand: Five-card Poker hand, best 5 of the dealer's cards (the first 5 dealt) "
        "[§ 641a.11(c)(7)]"
    ) in t
    assert "Hand: Four Card Poker hand, the lower of the player's and the dealer's" in t
    # § 641a.11(c)(8): the Six Card Bonus card "combining it with the player's five cards":
    # all six, no choice among them (it read "best 6 of the player's cards + …"); a hand of
    # all the cards dealt is said so (the player's five for the Five Card Hand Bonus)
    assert "the player's cards and the Six Card Bonus card [§ 641a.11(c)(8)]" in t
    assert "best 6 of" not in t
    assert "Hand: Five-card Poker hand, the player's cards [§ 641a.11(c)(5), (7)]" in t
    for hand_id in ("player_four", "dealer_four", "dealer_five", "losing_four"):
        assert hand_id not in t


def test_show_aces_up_is_offered_at_every_table_not_the_base_game(four_card_text: str) -> None:
    """§ 641a.7(d)(2): a player may play solely against the posted paytable with an Aces Up
    Wager; it is no option of the Rules Submission, and it is not the base game (the Ante
    and Play Wagers against the dealer, § 641a.7(d)(1))."""
    t = four_card_text
    assert "Wager: offered at every table [§ 641a.7(d)(2)]" in t
    assert "Wager: optional (if specified in the Rules Submission) [§ 641a.7(d)(4)]" in t
    assert "base game" not in t


def test_show_stud_common_card_is_not_a_deal_of_no_cards() -> None:
    """§ 553.10(h): the common card is dealt only when the deck runs short; the table's
    cards say so, not "0 card(s)", and the high hand is made with it (§ 553.10(i))."""
    result = invoke("games", "show", "poker-seven-card-stud")
    assert result.exit_code == 0, result.stderr
    t = " ".join(result.stdout.replace("│", " ").split())
    assert "0 card(s)" not in t
    assert "Common card: none in the regular deal; one card face up in the centre" in t
    assert "High hand: High Poker hand, best 5 of the player's cards + the common card" in t


def test_show_the_raise_by_flush_length_in_words_678a_11_b() -> None:
    """§ 678a.11(b)(1)-(3): a Raise Wager of up to three times the Ante Wager with a flush of
    six cards or more, two times with five, once with two to four; each said by the hand
    and the wager's names, never the game file's ids."""
    result = invoke("games", "show", "high-card-flush", "--wager", "raise")
    assert result.exit_code == 0, result.stderr
    t = squash(result.stdout)
    assert (
        "when the player's hand is Six-card flush or better: up to 3x the Ante Wager "
        "[§ 678a.11(b)(3)]"
    ) in t
    assert "when the player's hand is Two-card flush or better: 1x the Ante Wager" in t
    assert "player_flush" not in t


def test_show_fits_an_80_column_terminal() -> None:
    """On a narrow terminal the paytables split into groups of whole columns (as the
    chapter prints A-C and D-F); no figure is cut."""
    result = invoke("games", "show", "four-card-poker", "--wager", "aces_up", width=80)
    assert result.exit_code == 0
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    assert "…" not in result.stdout
    t = squash(result.stdout)
    assert "Pair of aces | 1 to 1 | 1 to 1 | 1 to 1 | 1 to 1" in t
    for letter in "ABCDEF":
        assert f"Paytable {letter}" in t


@pytest.mark.parametrize(
    ("game_id", "lines"),
    [
        (
            "lunar-poker",
            [
                "Royal flush | 1,500 to 1 | 1,500 to 1 | 1,500 to 1 | 1,200 to 1",
                "Dealer qualifies with: Ace-king or better [§ 589.11(e)]",
            ],
        ),
        (
            "wpt-heads-up-holdem",
            ["Flush | 3 to 2", "regulation text of this table is missing", "Payout limit"],
        ),
        (
            "high-card-flush",
            [
                "Seven-card flush | 300 to 1 | 100 to 1 | 200 to 1 | 500 to 1",
                "Seven-card straight flush | 8000 to 1 | 1,000 to 1",
                "Initial amount (primary) | at least $30,000",
            ],
        ),
    ],
)
def test_show_other_games(game_id: str, lines: list[str]) -> None:
    result = invoke("games", "show", game_id)
    assert result.exit_code == 0, result.stderr
    t = squash(result.stdout)
    for line in lines:
        assert line in t, line


def test_show_one_wager() -> None:
    result = invoke("games", "show", "four-card-poker", "--wager", "bad_beat_bonus")
    assert result.exit_code == 0
    t = squash(result.stdout)
    assert "Bad Beat Bonus (table id bad_beat_bonus" in t
    # § 641a.7(d)(6): optional; the key a submission offers it by, apart from the words
    assert "Wager: optional (if specified in the Rules Submission) [§ 641a.7(d)(6)]" in t
    assert "Key in a Rules Submission: bad_beat_bonus" in t
    assert "Aces Up" not in t and "Positions:" not in t and "Six Card Bonus" not in t


POKER_GAMES = sorted(
    p.stem
    for p in (PROJECT_ROOT / "games").glob("*.yaml")
    if p.stem.startswith(("poker-", "house-"))
)


@pytest.mark.parametrize("game_id", POKER_GAMES)
def test_every_key_shown_is_one_a_submission_may_write(game_id: str) -> None:
    """The key `games show` names for each forced wager of a Poker game is one the game's
    submission schema knows (Hold'em's Blind Bets are stated under `blinds:`, not under the
    wager's id)."""
    from validator import SCHEMAS_DIR

    schema = json.loads((SCHEMAS_DIR / f"rulesub.{game_id}.schema.json").read_text("utf-8"))
    known = set(schema["properties"])
    result = invoke("games", "show", game_id)
    assert result.exit_code == 0, result.stderr
    shown = re.findall(r"Key in a Rules Submission: (\w+)", squash(result.stdout))
    assert shown and set(shown) <= known, set(shown) - known


def test_the_low_qualifier_is_said_in_the_chapters_words() -> None:
    """§ 553.12(k): the winning low-hand "may not contain a pair ... or a nine, 10, jack, queen
    or king": shown as no pair and no card above 8, never by the category's id."""
    result = invoke("games", "show", "poker-omaha-hi-lo-8")
    t = squash(result.stdout)
    assert "must qualify: eight or better (no pair, no card above 8)" in t
    assert "no_pair" not in t


# -- --format json ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_show_json_round_trips(games, game_id: str) -> None:
    """The whole normalized definition: read back, it is the same definition."""
    result = invoke("games", "show", game_id, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert GameDefinition.model_validate(data) == games[game_id].definition


def test_show_json_cells_are_the_printed_notation(games, four_card_text: str) -> None:
    result = invoke("games", "show", "four-card-poker", "--format", "json")
    data = json.loads(result.stdout)
    for wid, wager in data["wagers"].items():
        for tid, table in wager.get("tables", {}).items():
            live = games["four-card-poker"].definition.wagers[wid].tables[tid]
            for letter, rows in (table.get("paytables") or {}).items():
                assert rows == {k: p.text for k, p in live.paytables[letter].items()}
                for text in rows.values():
                    assert text in four_card_text
    aces_up = data["wagers"]["aces_up"]["tables"]["aces_up"]["paytables"]
    assert aces_up["C"]["two_pair"] == "3 to 1"
    meters = data["wagers"]["four_card_progressive"]["tables"]["four_card_progressive"]["meters"]
    assert meters["paytables"]["A"]["primary"]["seed"] == "$5,000 for 1"
    assert meters["paytables"]["B"]["primary"]["reserve_increment"] == "5%"


def test_show_json_one_wager() -> None:
    result = invoke(
        "games", "show", "high-card-flush", "--wager", "flush_bonus", "--format", "json"
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["id"], data["wager"]) == ("high-card-flush", "flush_bonus")
    assert data["tables"]["flush_bonus"]["paytables"]["D"] == {
        "seven_card_flush": "500 to 1",
        "six_card_flush": "50 to 1",
        "five_card_flush": "12 to 1",
        "four_card_flush": "1 to 1",
    }


# -- mistakes: exit 2, did you mean, no traceback --------------------------------------------------


def test_unknown_game() -> None:
    result = invoke("games", "show", "four-card-pokr")
    assert result.exit_code == 2
    assert "no game 'four-card-pokr' (did you mean 'four-card-poker'?)" in result.stderr
    assert result.stdout == ""


def test_unknown_wager() -> None:
    result = invoke("games", "show", "four-card-poker", "--wager", "acesup")
    assert result.exit_code == 2
    assert "no wager 'acesup' (did you mean 'aces_up'?)" in result.stderr
    assert "its wagers are: ante, play, aces_up" in result.stderr


def test_unknown_game_from_a_fresh_process() -> None:
    done = run_rulesub("games", "show", "lunar-pokre", "--format", "json")
    assert done.returncode == 2
    assert "did you mean 'lunar-poker'?" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_show_prints_the_rule_sources_jurisdiction_and_date() -> None:
    """`games show` heads a game with its chapter, jurisdiction and the date its copy is
    current to (`source.jurisdiction`, `source.as_of`)."""
    r = invoke("games", "show", "four-card-poker")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0].endswith("58 Pa. Code ch. 641a (PA), as of 2019-08-31")


def test_games_show_counts_decks_and_cards_in_words() -> None:
    """§ 678a.3(a): "one deck of cards … and two cover cards" was shown "Decks: 1, 2 cover
    card(s)", which reads as one or two decks; the counts are words now."""
    from typer.testing import CliRunner

    from validator.cli import app

    shown = CliRunner().invoke(app, ["games", "show", "high-card-flush"], env={"COLUMNS": "200"})
    assert "Decks: 1 deck and 2 cover cards [§ 678a.3(a)]" in shown.stdout
    assert "Dealt to each player: 7 cards [" in shown.stdout and "card(s)" not in shown.stdout
    shown = CliRunner().invoke(app, ["games", "show", "four-card-poker"], env={"COLUMNS": "200"})
    assert "Decks: 1 deck and 1 cover card [§ 641a.3(a)]" in shown.stdout
    assert "Dealt to the dealer: 6 cards, card 6 face up [§ 641a.8(d)]" in shown.stdout


def test_a_table_whose_text_is_missing_claims_no_selection() -> None:
    """§ 677a.12(c), (d) are missing from the copy (MISSING.md): whether the certificate
    holder selects among several Bad Beat or Pocket Bonus tables is not known, and `games
    show` no longer says the table is "selected by the certificate holder"; a table the
    chapter prints among several still says so."""
    out = squash(invoke("games", "show", "wpt-heads-up-holdem").stdout)
    bad_beat = out.split("(table id bad_beat", 1)[1].split("§", 1)[0]
    assert "selected by the certificate holder" not in bad_beat
    trips = out.split("(table id trips_plus", 1)[1].split("§", 1)[0]
    assert "selected by the certificate holder" in trips
