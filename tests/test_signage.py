"""`rulesub signage`: the signs a table must carry, pinned word for word per game.

The sign text comes from the game files (``sign:`` next to each rule, ``signage:`` listing the
signs); these tests pin, for one submission per game, every line printed and its citation:
§ 641a.2(b)(7) (Four Card Poker payout odds), § 589.2(b)(3), (5)-(7) (Lunar Poker: Options
area, odds, dealer qualification, instant payout), § 677a.2(b)(7)-(9) (Heads-Up Hold 'Em:
odds, Ante returned, payout limit per player per round), § 678a.2(b)(7), (8) (High Card
Flush: odds, dealer qualification, Raise limits by flush length, payout limit).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from validator.cli import app
from validator.compiler import load_game
from validator.model.game import GameDefinition

runner = CliRunner()

FOUR_CARD_POKER = """\
rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
game: four-card-poker
effective: 2027-01-01
table: {positions: 7, min_wager: 10, max_wager: 500}
dealing:
  methods: [manual_shoe]
  shuffler: automated_counting
  decks: 2
  change_every_hours: {manual_shoe: 8}
offered: [four_card_progressive, six_card_bonus]
paytables: {aces_up: C, four_card_progressive: B, four_card_envy_bonus: A, six_card_bonus: D}
progressives:
  four_card_progressive:
    wager_amount: 1
    meters: {primary: {seed: 1000, reseed: 1000, increment: 25%, reserve_increment: 5%}}
equipment: {progressive_system: true, electronic_wagering_system: false}
adjacent_boxes: 2
"""

FOUR_CARD_POKER_SIGNS = """\
Example Downs Racing & Casino · Example Downs
Four Card Poker (58 Pa. Code ch. 641a) · Rules Submission effective 2027-01-01

== Sign 1 of 4: Payout odds ==
Inscribed on the layout, or posted at each table  [§ 641a.2(b)(7)]

Ante Wager pays 1 to 1  [§ 641a.12(a)]

Ante Bonus  [§ 641a.12(b)]
  Hand              Payout
  Four-of-a-kind   25 to 1
  Straight flush   20 to 1
  Three-of-a-kind   2 to 1

Play Wager pays 1 to 1  [§ 641a.12(a)]

Aces Up Wager, Paytable C  [§ 641a.12(c)]
  Hand             Paytable C
  Four-of-a-kind      50 to 1
  Straight flush      40 to 1
  Three-of-a-kind      8 to 1
  Flush                5 to 1
  Straight             4 to 1
  Two pair             3 to 1
  Pair of aces         1 to 1

== Sign 2 of 4: Four-Card Progressive Payout Wager ==
Inscribed on the layout, or posted at each table  [§ 641a.2(b)(7)]

Four-Card Progressive Payout Wager, Paytable B  [§ 641a.12(d)(1)]
  Hand                Paytable B
  Four aces        100% of meter
  Four-of-a-kind       300 for 1
  Straight flush       100 for 1
  Three-of-a-kind       15 for 1
  Progressive meter: starts at $1,000, reset to $1,000 when won  [§ 641a.12(d)(3)]

Four-Card Envy Bonus, Paytable A, $1 Four-Card Progressive Payout Wager
    [§ 641a.12(d)(5)]
  Hand            Paytable A
  Four aces             $100
  Four-of-a-kind         $10
  Straight flush          $5

== Sign 3 of 4: Six Card Bonus Wager ==
Inscribed on the layout, or posted at each table  [§ 641a.2(b)(7)]

Six Card Bonus Wager, Paytable D  [§ 641a.12(h)]
  Hand             Paytable D
  Royal flush      1,000 to 1
  Straight flush     200 to 1
  Four-of-a-kind     100 to 1
  Full house          20 to 1
  Flush               15 to 1
  Straight            10 to 1
  Three-of-a-kind      7 to 1

== Sign 4 of 4: Table limits ==
Posted at each table by the house; no rule requires this sign  [§ 601a.10(a)]

Minimum wager $10

Maximum wager $500
"""

LUNAR_POKER = """\
rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
game: lunar-poker
effective: 2027-01-01
table: {positions: 5, min_wager: 15, max_wager: 1000}
dealing:
  methods: [automated_shoe]
  shuffler: automated_counting
  decks: 1
  change_every_hours: {automated_shoe: 8}
offered: [super]
paytables: {instant_payout: B, super: A}
"""

LUNAR_POKER_SIGNS = """\
Example Downs Racing & Casino · Example Downs
Lunar Poker (58 Pa. Code ch. 589) · Rules Submission effective 2027-01-01
58 Pa. Code ch. 589 was not in force on 2027-01-01: it was rescinded by 46 Pa.B. 5540 \
(August 27, 2016) and replaced by the permanent chapters 58 Pa. Code chs. 668a–676a (not \
encoded here); checked against 58 Pa. Code ch. 589 as encoded [46 Pa.B. 5540]

== Sign 1 of 5: Payout odds ==
Inscribed on the layout, or posted at each table  [§ 589.2(b)(5)]

Ante Wager pays 1 to 1  [§ 589.12(d)]

Instant payout, Paytable B  [§ 589.12(a)]
  Hand            Paytable B
  Royal flush     1,500 to 1
  Straight flush    400 to 1

Bet Wager  [§ 589.12(c)]
  Hand               Payout
  Royal flush      100 to 1
  Straight flush    50 to 1
  Four-of-a-kind    20 to 1
  Full house         7 to 1
  Flush              5 to 1
  Straight           4 to 1
  Three-of-a-kind    3 to 1
  Two pair           2 to 1
  One pair           1 to 1
  Ace-king           1 to 1

== Sign 2 of 5: Super Wager ==
Inscribed on the layout, or posted at each table  [§ 589.2(b)(5)]

Super Wager, Paytable A  [§ 589.12(b)]
  Hand                   Paytable A
  Four-of-a-kind           250 to 1
  Same-colored straight    150 to 1
  Full house               100 to 1
  Flush                     60 to 1
  Straight                  30 to 1
  Three-of-a-kind            8 to 1
  Ace-king                   6 to 1
  Same colored five          2 to 1

== Sign 3 of 5: Dealer qualification and instant payout ==
Inscribed on the layout, or posted at each table  [§ 589.2(b)(6), (7)]

Dealer qualifies with an ace-king or better.  [§ 589.2(b)(6)(i)]

Instant payout for a royal flush or straight flush on the first five cards dealt to the
    player.  [§ 589.2(b)(6)(ii)]

== Sign 4 of 5: Options ==
Inscribed on the layout  [§ 589.2(b)(3)]

Exchange 2-5 cards  [§ 589.2(b)(3)(i)]

Buy a 6th Card  [§ 589.2(b)(3)(ii)]

Force the Dealer  [§ 589.2(b)(3)(iii)]

== Sign 5 of 5: Table limits ==
Posted at each table by the house; no rule requires this sign  [§ 601a.10(a)]

Minimum wager $15

Maximum wager $1,000
"""

WPT_HEADS_UP_HOLDEM = """\
rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
game: wpt-heads-up-holdem
effective: 2027-01-01
table: {positions: 6, min_wager: 10, max_wager: 500}
dealing:
  methods: [manual_shoe]
  shuffler: automated
  decks: 1
  change_every_hours: {manual_shoe: 8}
offered: [trips_plus]
paytables: {trips_plus: B}
custom_paytables:
  bad_beat:
    straight_flush: 500 to 1
    four_of_a_kind: 50 to 1
    full_house: 10 to 1
    flush: 8 to 1
    straight: 5 to 1
adjacent_boxes: 1
payout_limit: "$100,000"
"""

WPT_HEADS_UP_HOLDEM_SIGNS = """\
Example Downs Racing & Casino · Example Downs
World Poker Tour Heads-Up Hold 'Em (58 Pa. Code ch. 677a) · Rules Submission effective 2027-01-01

== Sign 1 of 4: Payout odds ==
Inscribed on the layout, or posted at each table  [§ 677a.2(b)(7)]

Ante Wager pays 1 to 1  [§ 677a.12(a)]

Odds Wager  [§ 677a.12(b)]
  Hand               Payout
  Royal flush      500 to 1
  Straight flush    50 to 1
  Four-of-a-kind    10 to 1
  Full house         3 to 1
  Flush              3 to 2
  Straight           1 to 1
  Three-of-a-kind      Push
  Two pair             Push
  Pair                 Push

Bad Beat on the Odds Wager  [§ 677a.12(c), missing from the regulation text: as stated
    in the Rules Submission]
  Hand              Payout
  Straight flush  500 to 1
  Four-of-a-kind   50 to 1
  Full house       10 to 1
  Flush             8 to 1
  Straight          5 to 1

Raise Wager pays 1 to 1  [§ 677a.12(a)]

== Sign 2 of 4: Trips Plus Wager ==
Inscribed on the layout, or posted at each table  [§ 677a.2(b)(7)]

Trips Plus Wager, Paytable B  [§ 677a.12(e)]
  Hand             Paytable B
  Royal flush        100 to 1
  Straight flush      40 to 1
  Four-of-a-kind      30 to 1
  Full house           8 to 1
  Flush                6 to 1
  Straight             5 to 1
  Three-of-a-kind      3 to 1

== Sign 3 of 4: Dealer qualification and payout limit ==
Inscribed on the layout, or posted at each table  [§ 677a.2(b)(8), (9)]

The Ante Wager will be returned if the dealer does not have a pair or better.
    [§ 677a.2(b)(8)(i)]

Payout limit per player per round of play: $100,000  [§ 677a.2(b)(8)(ii); § 677a.12(f)]

== Sign 4 of 4: Table limits ==
Posted at each table by the house; no rule requires this sign  [§ 601a.10(a)]

Minimum wager $10

Maximum wager $500
"""

HIGH_CARD_FLUSH = """\
rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
game: high-card-flush
effective: 2027-01-01
table: {positions: 6, min_wager: 10, max_wager: 1000}
dealing:
  methods: [automated_shoe]
  shuffler: automated_counting
  decks: 2
  change_every_hours: {automated_shoe: 8}
offered: [flush_bonus, straight_flush_bonus, progressive_jackpot]
paytables: {flush_bonus: D, straight_flush_bonus: A, progressive_jackpot: B}
progressives:
  progressive_jackpot:
    wager_amount: 5
    meters: {primary: {seed: "$30,000", reseed: "$30,000", increment: 20%, reserve_increment: 5%}}
equipment: {progressive_system: true}
adjacent_boxes: 1
payout_limit: 250000
"""

HIGH_CARD_FLUSH_SIGNS = """\
Example Downs Racing & Casino · Example Downs
High Card Flush (58 Pa. Code ch. 678a) · Rules Submission effective 2027-01-01

== Sign 1 of 4: Payout odds ==
Inscribed on the layout, or posted at each table  [§ 678a.2(b)(7)(i), (8)]

Ante Wager pays 1 to 1  [§ 678a.12(a)]

Raise Wager pays 1 to 1  [§ 678a.12(a)]

Flush Bonus Wager, Paytable D  [§ 678a.12(b)]
  Hand              Paytable D
  Seven-card flush    500 to 1
  Six-card flush       50 to 1
  Five-card flush      12 to 1
  Four-card flush       1 to 1

Straight Flush Bonus Wager, Paytable A  [§ 678a.12(c)]
  Hand                       Paytable A
  Seven-card straight flush   8000 to 1
  Six-card straight flush     1000 to 1
  Five-card straight flush     100 to 1
  Four-card straight flush      60 to 1
  Three-card straight flush      7 to 1

== Sign 2 of 4: Progressive Jackpot Wager ==
Inscribed on the layout, or posted at each table  [§ 678a.2(b)(7)(i), (8)]

Progressive Jackpot Wager, Paytable B  [§ 678a.12(d)(1)]
  Hand                          Paytable B
  Seven-card straight flush  100% of meter
  Six-card straight flush     10% of meter
  Five-card straight flush       900 for 1
  Four-card straight flush        50 for 1
  Progressive meter: starts at $30,000, reset to $30,000 when won  [§ 678a.12(d)(3)]

== Sign 3 of 4: Dealer qualification, Raise Wagers and payout limit ==
Inscribed on the layout, or posted at each table  [§ 678a.2(b)(7)(ii)-(iv), (8)]

The dealer qualifies with a three card flush, nine high or pays the Ante Wager and
    pushes the Raise Wager.  [§ 678a.2(b)(7)(ii)]

For Raise Wagers, if a player has:  [§ 678a.2(b)(7)(iii)]

A two, three or four card flush, a player may place a Raise Wager equal to the player's
    Ante Wager.  [§ 678a.2(b)(7)(iii)(A)]

A five card flush, a player may place a Raise Wager up to two times the amount of the
    player's Ante Wager.  [§ 678a.2(b)(7)(iii)(B)]

A six or seven card flush, a player may place a Raise Wager up to three times the amount
    of the player's Ante Wager.  [§ 678a.2(b)(7)(iii)(C)]

Payout limit per player per round of play: $250,000. Winning Progressive Jackpot Wagers
    are not included.  [§ 678a.2(b)(7)(iv); § 678a.12(e)]

== Sign 4 of 4: Table limits ==
Posted at each table by the house; no rule requires this sign  [§ 601a.10(a)]

Minimum wager $10

Maximum wager $1,000
"""

SUBMISSIONS = {
    "four-card-poker": (FOUR_CARD_POKER, FOUR_CARD_POKER_SIGNS),
    "lunar-poker": (LUNAR_POKER, LUNAR_POKER_SIGNS),
    "wpt-heads-up-holdem": (WPT_HEADS_UP_HOLDEM, WPT_HEADS_UP_HOLDEM_SIGNS),
    "high-card-flush": (HIGH_CARD_FLUSH, HIGH_CARD_FLUSH_SIGNS),
}


def write(tmp_path: Path, text: str, name: str = "submission.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def signage(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["signage", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("game", list(SUBMISSIONS))
def test_every_sign_line_and_citation_is_pinned(tmp_path: Path, game: str) -> None:
    """The full signage of one submission per game, worded from the game file and filled
    with the submission's selections: the selected paytables as the chapter prints them
    (N/A rows left off), the payout limit and table limits in dollars, the meters."""
    submission, expected = SUBMISSIONS[game]
    code, out, err = signage(str(write(tmp_path, submission)))
    assert code == 0, err
    assert out == expected


def test_no_cite_prints_the_sign_as_posted(tmp_path: Path) -> None:
    """§ 589.2(b)(6): the printed sign carries the notices, not the citations."""
    code, out, _ = signage(str(write(tmp_path, LUNAR_POKER)), "--no-cite")
    assert code == 0
    assert "§" not in out and "[" not in out and "Sign 1 of" not in out
    notices = out.split("== Dealer qualification and instant payout ==\n")[1].split("\n== ")[0]
    assert [" ".join(p.split()) for p in notices.strip().split("\n\n")] == [
        "Dealer qualifies with an ace-king or better.",
        "Instant payout for a royal flush or straight flush on the first five cards dealt to "
        "the player.",
    ]


def test_payout_limit_line_only_when_established(tmp_path: Path) -> None:
    """§ 677a.2(b)(8)(ii): the payout limit is inscribed "if established by the certificate
    holder"; without one the notice sign keeps the Ante line alone."""
    without = WPT_HEADS_UP_HOLDEM.replace('payout_limit: "$100,000"\n', "")
    assert without != WPT_HEADS_UP_HOLDEM
    code, out, err = signage(str(write(tmp_path, without)), "--no-cite")
    assert code == 0, err
    assert "Payout limit" not in out
    assert "The Ante Wager will be returned if the dealer does not have a pair or better." in out


def test_the_payout_limit_names_an_excluded_wager_only_where_it_is_offered(
    tmp_path: Path,
) -> None:
    """§ 678a.12(e): the limit "shall not include winning Progressive Jackpot Wagers"; a
    table that does not offer the wager posts the limit without naming it."""
    code, out, err = signage(str(write(tmp_path, HIGH_CARD_FLUSH)), "--no-cite")
    assert code == 0, err
    assert (
        "Payout limit per player per round of play: $250,000. Winning Progressive Jackpot "
        "Wagers are not included."
    ) in " ".join(out.split())
    without = (
        HIGH_CARD_FLUSH.replace(", progressive_jackpot]", "]")
        .replace(", progressive_jackpot: B", "")
        .split("progressives:")[0]
        + "adjacent_boxes: 1\npayout_limit: 250000\n"
    )
    code, out, err = signage(str(write(tmp_path, without)), "--no-cite")
    assert code == 0, err
    assert "Payout limit per player per round of play: $250,000. ==" in " ".join(out.split())
    assert "Progressive Jackpot" not in out


def test_signs_for_a_chapter_not_in_force_say_so_on_stderr(tmp_path: Path) -> None:
    """The signs follow the text as encoded; where the effective date finds that text no
    longer the regulation (ch. 589 rescinded by 46 Pa.B. 5540; expired two years after
    43 Pa.B. 7087), the command says so as `validate` does, and still prints them, each
    format carrying the note under its heading (the file written said nothing of it)."""
    code, out, err = signage(str(write(tmp_path, LUNAR_POKER)), "--no-cite")
    assert code == 0 and out
    assert "warning: 58 Pa. Code ch. 589 was not in force on 2027-01-01" in err
    assert "rescinded by 46 Pa.B. 5540" in err
    for fmt in ("text", "markdown", "html", "json"):
        code, out, err = signage(str(write(tmp_path, LUNAR_POKER)), "--format", fmt)
        said = out.replace("\n", " ").replace("&amp;", "&")
        assert code == 0 and "ch. 589 was not in force on 2027-01-01" in said, fmt
        assert "46 Pa.B. 5540" in said, fmt
    # the copy patrons read carries no citation, nor this note: the officer's stderr does
    code, out, err = signage(str(write(tmp_path, LUNAR_POKER)), "--print")
    assert code == 0 and "not in force" not in out and "not in force" in err
    expired = LUNAR_POKER.replace("effective: 2027-01-01", "effective: 2016-01-04")
    code, out, err = signage(str(write(tmp_path, expired)), "--no-cite")
    assert code == 0 and "it expired on 2015-12-07, 2 years after publication" in err
    assert "[43 Pa.B. 7087]" in err and err.count("not in force") == 1
    code, out, err = signage(str(write(tmp_path, LUNAR_POKER)), "--as-of", "2016-01-04")
    assert code == 0 and err.count("not in force") == 1 and "expired on 2015-12-07" in err
    code, out, err = signage(str(write(tmp_path, HIGH_CARD_FLUSH)), "--no-cite")
    assert code == 0 and err == "" and "not in force" not in out


def test_an_optional_wager_not_offered_gets_no_sign(tmp_path: Path) -> None:
    """§ 589.2(b)(5): the odds of the wagers *offered*; the Super Wager is optional."""
    text = LUNAR_POKER.replace("offered: [super]\n", "").replace(", super: A", "")
    code, out, err = signage(str(write(tmp_path, text)), "--no-cite")
    assert code == 0, err
    assert "Super Wager" not in out
    assert "== Payout odds ==" in out


def test_a_submission_with_errors_gets_no_signage(tmp_path: Path) -> None:
    """Paytable Z is none of § 641a.12(c)'s: the errors are printed, nothing else, exit 1."""
    path = write(tmp_path, FOUR_CARD_POKER.replace("aces_up: C", "aces_up: Z"))
    code, out, err = signage(str(path))
    assert code == 1
    assert out == ""
    assert "'Z'" in err and "[§ 641a.12(c)]" in err
    assert "submission.yaml:13:" in err  # the line of `paytables:` with the bad letter


def test_force_prints_a_draft_marked_draft(tmp_path: Path) -> None:
    path = write(tmp_path, FOUR_CARD_POKER.replace("aces_up: C", "aces_up: Z"))
    code, out, _ = signage(str(path), "--force")
    assert code == 0
    assert out.startswith("DRAFT: the Rules Submission has errors; not for posting\n")
    assert "Aces Up Wager: Paytable Z is not one of the chapter's  [§ 641a.12(c)]" in out
    assert "Six Card Bonus Wager, Paytable D" in out
    code, html, _ = signage(str(path), "--force", "--format", "html")
    assert code == 0
    assert html.count('<div class="watermark">DRAFT</div>') == html.count('<section class="sign"')


def test_unreadable_submission_exits_2(tmp_path: Path) -> None:
    code, out, err = signage(str(write(tmp_path, "game: [unclosed\n")))
    assert code == 2
    assert out == ""
    assert "submission.yaml:" in err


def test_markdown_memo(tmp_path: Path) -> None:
    code, out, _ = signage(str(write(tmp_path, FOUR_CARD_POKER)), "--format", "markdown")
    assert code == 0
    assert out.startswith("# Signage: Example Downs Racing & Casino\n")
    assert "## Sign 1 of 4: Payout odds" in out
    assert "**Aces Up Wager, Paytable C** (§ 641a.12(c))" in out
    assert "| Straight flush | 40 to 1 |" in out


def test_html_one_section_per_sign_with_the_casino_name(tmp_path: Path) -> None:
    code, html, _ = signage(str(write(tmp_path, HIGH_CARD_FLUSH)), "--format", "html")
    assert code == 0
    assert html.count('<section class="sign"') == 4
    assert html.count('<div class="casino">Example Downs Racing &amp; Casino · Example Downs') == 4
    assert "break-after: page" in html
    assert "<h1>Dealer qualification, Raise Wagers and payout limit</h1>" in html


def test_out_is_written_whole(tmp_path: Path) -> None:
    out = tmp_path / "signs.html"
    code, stdout, _ = signage(
        str(write(tmp_path, LUNAR_POKER)), "--format", "html", "--out", str(out)
    )
    assert code == 0 and stdout == ""
    assert out.read_text(encoding="utf-8").endswith("</html>\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signs.html", "submission.yaml"]


def test_out_failing_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written whole or not at all: a failure at the rename keeps the file as it was and
    leaves no temporary file behind."""
    out = tmp_path / "signs.txt"
    out.write_text("the old signs\n", encoding="utf-8")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    code, _, err = signage(str(write(tmp_path, LUNAR_POKER)), "--out", str(out))
    assert code == 2
    assert "no space left on the device" in err
    assert out.read_text(encoding="utf-8") == "the old signs\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["signs.txt", "submission.yaml"]


# -- the sign data in the game files --------------------------------------------------------


def _definition(game: str) -> dict:
    import copy

    return copy.deepcopy(load_game(game).located.data)


def test_a_sign_line_must_name_a_rule_with_a_sign() -> None:
    data = _definition("lunar-poker")
    data["signage"]["signs"][2]["lines"].append("/dealer/qualifeis")
    data["signage"]["signs"][2]["lines"].append("/wagers/bet")
    with pytest.raises(ValueError) as e:
        GameDefinition.model_validate(data)
    assert "'/dealer/qualifeis' names nothing in the game file" in str(e.value)
    assert "'/wagers/bet' has no `sign:`" in str(e.value)


def test_every_wager_is_on_a_payout_odds_sign() -> None:
    """§ 641a.2(b)(7): the payout odds "for all permissible wagers offered"."""
    data = _definition("four-card-poker")
    data["signage"]["signs"] = [s for s in data["signage"]["signs"] if s["id"] != "bad_beat_bonus"]
    with pytest.raises(ValueError, match="no sign shows the payout odds of wager 'bad_beat_bonus'"):
        GameDefinition.model_validate(data)


def test_sign_text_names_only_known_figures() -> None:
    data = _definition("wpt-heads-up-holdem")
    data["payout_limit"]["sign"]["text"] = "Payout limit: {payout_limt}"
    with pytest.raises(ValueError, match=r"no figure \{payout_limt\}"):
        GameDefinition.model_validate(data)


@pytest.mark.parametrize(
    ("game", "pointer", "text", "cite"),
    [
        (
            "lunar-poker",
            "/dealer/qualifies",
            "Dealer qualifies with an ace-king or better.",
            "§ 589.2(b)(6)(i)",
        ),
        (
            "wpt-heads-up-holdem",
            "/dealer/qualifies",
            "The Ante Wager will be returned if the dealer does not have a pair or better.",
            "§ 677a.2(b)(8)(i)",
        ),
        (
            "high-card-flush",
            "/dealer/qualifies",
            "The dealer qualifies with a three card flush, nine high or pays the Ante Wager and "
            "pushes the Raise Wager.",
            "§ 678a.2(b)(7)(ii)",
        ),
    ],
)
def test_dealer_notice_sits_with_the_dealer_qualification(
    game: str, pointer: str, text: str, cite: str
) -> None:
    """The notice is data next to the rule it states, worded as the layout section words it."""
    from validator.model.signage import resolve

    node = resolve(load_game(game).definition, pointer)
    assert [(s.text, s.cite) for s in node.sign] == [(text, cite)]


def test_json_gives_every_sign_line_with_its_section(tmp_path: Path) -> None:
    """--format json: every line with the section requiring it; --print the posted words
    (no paytable letter), still with the sections, a proof's data."""
    import json

    path = write(tmp_path, FOUR_CARD_POKER)
    code, out, _ = signage(str(path), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["draft"] is False and data["game"] == "Four Card Poker"
    items = [item for sign in data["signs"] for item in sign["items"]]
    assert all(item["section"].startswith("§") for item in items)
    aces = next(i for i in items if i.get("paytable", "").startswith("Aces Up Wager"))
    assert aces["paytable"] == "Aces Up Wager, Paytable C" and aces["section"] == "§ 641a.12(c)"
    assert {"hand": "Pair of aces", "payout": "1 to 1"} in aces["rows"]
    code, out, _ = signage(str(path), "--format", "json", "--print")
    posted = json.loads(out)
    titles = [i.get("paytable") for s in posted["signs"] for i in s["items"]]
    assert "Aces Up Wager" in titles and not any("Paytable" in (t or "") for t in titles)


@pytest.mark.parametrize("game", list(SUBMISSIONS))
def test_a_citation_never_breaks_after_its_section_sign(tmp_path: Path, game: str) -> None:
    """The terminal text wraps a long line, never between "§" and the section it names: a
    reader finds § 641a.12(d)(5) only whole."""
    submission, _ = SUBMISSIONS[game]
    code, out, err = signage(str(write(tmp_path, submission)))
    assert code == 0, err
    lines = out.splitlines()
    assert not any(line.rstrip().endswith("§") for line in lines)
    cites = [c for line in lines for c in line.split("[")[1:]]
    assert cites and all(c.startswith("§ ") or not c.startswith("§") for c in cites)


def test_the_house_table_limits_are_posted_without_a_section_said_to_require_them(
    tmp_path: Path,
) -> None:
    """§ 641a.2(b) cites § 601a.10(a) for the approval of a table's "layouts, signage and
    equipment"; no sentence held requires the limits posted. The house's limits sign cites
    it once, for the sign; its lines, printed with it beside each as the proofs print "the
    section behind every line", read as required by it. The JSON keeps each line's section."""
    import json

    from validator.review import build_pack, render_html

    path = write(tmp_path, FOUR_CARD_POKER)
    code, text, _ = signage(str(path))
    assert code == 0
    assert "no rule requires this sign  [§ 601a.10(a)]\n\nMinimum wager $10\n" in text
    assert "Maximum wager $500\n" in text and "$500  [" not in text
    _, markdown, _ = signage(str(path), "--format", "markdown")
    assert "\nMinimum wager $10\n" in markdown and "$10 (§" not in markdown
    _, html, _ = signage(str(path), "--format", "html")
    assert '<p class="item notice">Minimum wager $10</p>' in html
    pack = render_html(build_pack(path, path.name))
    assert "<p>Minimum wager $10</p>" in pack and "$10 <span" not in pack
    _, out, _ = signage(str(path), "--format", "json")
    limits = next(s for s in json.loads(out)["signs"] if s["title"] == "Table limits")
    assert [i["section"] for i in limits["items"]] == ["§ 601a.10(a)"] * 2
    assert "§ 641a.12(a)]" in text  # a sign a rule requires keeps its lines' sections
