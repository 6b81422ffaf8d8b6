"""`rulesub signage` for a Poker table (ch. 553): the limits and raise cap (§ 553.18), the
Ante and Blind Bets (§ 553.12(b), (d)), the rake (§ 553.15(c)), the Bad Beat notice with its
current amount (§ 553.20(b)) and the Omaha Kill sign (§ 553.12(m)), worded in the game's
rule files and filled from the submission."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from validator import PROJECT_ROOT
from validator.cli import app
from validator.compiler import load_game
from validator.signage.build import build_signage
from validator.signage.checked import check_submission

runner = CliRunner()

OMAHA = """\
rulesub: 1
certificate_holder: Example Downs Racing & Casino
facility: Example Downs
game: poker-omaha-hi-lo-8
effective: 2027-01-01
table: {positions: 10, min_wager: 4, max_wager: 8}
dealing: {methods: [hand], shuffler: automated_counting, decks: 2, change_every_hours: {hand: 6}}
deck_rotation: {alternated_every_round: true}
ante: {required: true, amount: "$0.50"}
blinds: [2, 4]
betting:
  max_raises: 3
  raised_minimum: {allowed: false, max_increase: 0, agreement: no increase is agreed}
  kill: {option: kill, qualifying_pot: 40}
rake:
  types: [percentage, incremental]
  methodology: 10% of each pot up to $30, then $4 at $40 and $1 more at $50; at most $5.
  maximum: 5
  percentage: {rate: 10%, taken: per_betting_round}
  incremental:
    levels: [{pot: 40, rake: 4}, {pot: 50, rake: 1}]
    taken: as_levels_reached
bad_beat:
  offered: true
  max_contribution: 1
  contribution_method: $1 from each pot of $15 or more
  minimum_pot: 15
  qualifying_hands: aces full of tens or better beaten
  qualifying: {at_least: full_house, rank_at_least: A}
  payouts: 50% to the losing hand, 25% to the winning hand, 25% shared by the table
  shares: {losing_hand: 50%, winning_hand: 25%, table: 25%}
  current_amount: "$12,500.50"
  box: true
  discontinuation: {approved: 2026-10-01, method: terminate_contributions}
"""

OMAHA_SIGNS = [
    (
        ("limits", "Wagers and limits", "§ 553.18", "sign"),
        [
            ("Minimum wager $4; maximum wager $8", "§ 553.18"),
            ("No more than 3 raises in a betting round", "§ 553.18"),
            ("Ante: $0.50", "§ 553.12(b)"),
            ("Blind Bets: $2, $4", "§ 553.12(d)"),
        ],
    ),
    (
        ("rake", "Rake", "§ 553.15(c)", "sign"),
        [
            (
                "Rake: 10% of each pot and side pot, to a maximum of $5 a round of play",
                "§ 553.15(b)(1), (c)",
            ),
            (
                "Rake by pot level reached: $4 at $40, $1 more at $50 ($5 in all); at most $5"
                " a round of play",
                "§ 553.15(b)(2), (c)",
            ),
            (  # § 553.15(c): the rake "to be collected", in the filing's own words
                "How the rake is calculated: 10% of each pot up to $30, then $4 at $40 and $1 "
                "more at $50; at most $5.",
                "§ 553.15(a)(2), (c)",
            ),
        ],
    ),
    (
        ("bad_beat", "Bad Beat payout", "§ 553.20(b)", "sign"),
        [
            (
                "This table offers a Bad Beat payout: aces full of tens or better beaten",
                "§ 553.20(b)",
            ),
            ("Bad Beat payout: the current amount is displayed in the Poker area", "§ 553.20(b)"),
            (
                "Bad Beat payouts: 50% to the losing hand, 25% to the winning hand, 25% shared "
                "by the table",
                "§ 553.20(b)(3)",
            ),
            (
                "Up to $1 of each pot of $15 or more is contributed to the Bad Beat payout, after "
                "the rake; the Bad Beat payout rules are posted in the Poker room",
                "§ 553.20(b)(1), (2), (c)",
            ),
            (  # § 553.20(b)(1): "the method of calculation for any contributed amount"
                "How the contribution is calculated: $1 from each pot of $15 or more",
                "§ 553.20(b)(1)",
            ),
        ],
    ),
    (
        ("kill", "Kill or Half-kill option", "§ 553.12(m)", "sign"),
        [
            ("Kill option in use: the minimum value of a qualifying pot is $40", "§ 553.12(m)"),
            (
                "When one player wins an entire qualifying pot, the limits of the next hand are "
                "twice the posted limits ($8 to $16) until a pot is split between a high hand and "
                "a low hand or is less than the qualifying pot",
                "§ 553.1 (Kill option, Half-kill option)",
            ),
        ],
    ),
]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "submission.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def signs(path: Path, game: str) -> list[tuple[tuple[str, ...], list[tuple[str, str]]]]:
    checked = check_submission(path)
    assert checked.errors == []
    built = build_signage(load_game(game), checked.submission)
    return [
        ((s.id, s.title, s.cite, s.placement), [(i.text, i.cite) for i in s.items])
        for s in built.signs
    ]


def test_every_omaha_hi_lo_sign_line_and_citation_is_pinned(tmp_path: Path) -> None:
    """§ 553.18, § 553.12(b), (d), (m), § 553.15(c), § 553.20(b): the Kill doubles the $4-$8
    limits to $8-$16 (§ 553.1 Kill option)."""
    assert signs(write(tmp_path, OMAHA), "poker-omaha-hi-lo-8") == OMAHA_SIGNS


def test_half_kill_raises_the_limits_by_one_half_553_1(tmp_path: Path) -> None:
    text = OMAHA.replace("option: kill,", "option: half_kill,")
    kill = dict(signs(write(tmp_path, text), "poker-omaha-hi-lo-8"))[OMAHA_SIGNS[3][0]]
    assert kill[0][0] == "Half-kill option in use: the minimum value of a qualifying pot is $40"
    assert "the posted limits increased by one-half ($6 to $12)" in kill[1][0]


def test_no_kill_sign_and_no_bad_beat_notice_where_neither_is_used(tmp_path: Path) -> None:
    """§ 553.12(m) ("if the certificate holder elects"); § 553.20(b) (a table "that offers")."""
    text = OMAHA.replace("option: kill, qualifying_pot: 40", "option: none")
    text = text.split("bad_beat:")[0] + "bad_beat: {offered: false}\n"
    ids = [s[0][0] for s in signs(write(tmp_path, text), "poker-omaha-hi-lo-8")]
    assert ids == ["limits", "rake"]


def test_time_charge_sign_553_15_b_3_and_c(tmp_path: Path) -> None:
    text = OMAHA.split("rake:")[0] + (
        "rake:\n  types: [time]\n  methodology: $6 an hour per table\n  maximum: 3\n"
        "  time: {basis: per_table, every_minutes: 20, hourly_fee: 6}\n"
    )
    rake = dict(signs(write(tmp_path, text), "poker-omaha-hi-lo-8"))[
        ("rake", "Rake", "§ 553.15(c)", "sign")
    ]
    assert rake == [
        (
            "Time charge: $6 an hour per table, assessed every 20 minutes",
            "§ 553.15(b)(3), (c)",
        ),
        ("How the rake is calculated: $6 an hour per table", "§ 553.15(a)(2), (c)"),
    ]


def test_unlimited_raises_put_no_raise_line_on_the_sign_553_18(tmp_path: Path) -> None:
    text = OMAHA.replace("max_raises: 3", "max_raises: unlimited")
    limits = dict(signs(write(tmp_path, text), "poker-omaha-hi-lo-8"))[OMAHA_SIGNS[0][0]]
    assert [t for t, _ in limits if "raises" in t] == []


def test_the_command_prints_the_poker_signs(tmp_path: Path) -> None:
    result = runner.invoke(app, ["signage", "--no-cite", str(write(tmp_path, OMAHA))])
    assert result.exit_code == 0, result.stderr
    out = " ".join(result.stdout.split())
    for title in ("Wagers and limits", "Rake", "Bad Beat payout", "Kill or Half-kill option"):
        assert f"== {title} ==" in out
    # § 553.20(b): the live amount is the meter's, never a number printed on the sign
    assert "Bad Beat payout: the current amount is displayed in the Poker area" in out
    assert "12,500" not in out
    assert "§" not in out


def test_house_razz_signs_cite_the_house_procedures(tmp_path: Path) -> None:
    """7CS Procedures § Wagers (4): the limits bind; the procedures have no rake sign, and
    require no sign in terms, so the limits sign is the house's, never said "required".
    Razz's Forced Bet is made by the high card, by suit ((12)(iii)), not the lowest up-card
    of the high game ((3)): its sign cites both."""
    from validator import PROJECT_ROOT

    got = signs(PROJECT_ROOT / "rulesubs" / "example" / "house-razz.yaml", "house-razz")
    assert got == [
        (
            ("limits", "Wagers and limits", "7CS Procedures § Wagers (4)", "house_sign"),
            [
                ("Minimum wager $5; maximum wager $10", "7CS Procedures § Wagers (4)"),
                (  # unstated, played split as the procedures deal it: posted so
                    "Limits: split limit: the minimum wager, then the maximum wager from fifth "
                    "street",
                    "7CS Procedures § Wagers (4); § Seven-Card Stud (12)(iv)",
                ),
                ("Ante: $1", "7CS Procedures § Wagers (2)(i); § Seven-Card Stud (1)"),
                ("Forced Bet: $2", "7CS Procedures § Seven-Card Stud (3), (4), (12)(iii)"),
            ],
        )
    ]


# -- what the game's rules say a table posts or states (each field read by the signs) --------


def _built(tmp_path: Path, text: str, game: Any = None) -> Any:
    checked = check_submission(write(tmp_path, text))
    return build_signage(game or load_game("poker-omaha-hi-lo-8"), checked.submission)


def _with(game: Any, path: str, **values: Any) -> Any:
    """The game with one rule's fields changed (the rule at ``path``, dotted)."""
    names = path.split(".")
    nodes = [game.definition]
    for name in names:
        nodes.append(getattr(nodes[-1], name))
    node = nodes[-1].model_copy(update=values)
    for parent, name in zip(reversed(nodes[:-1]), reversed(names), strict=True):
        node = parent.model_copy(update={name: node})
    return replace(game, definition=node)


PER_PLAYER = OMAHA.split("rake:")[0] + (
    "rake:\n  types: [time]\n  methodology: $6 an hour per player\n  maximum: 3\n"
    "  time: {basis: per_player, every_minutes: 30, hourly_fee: 6}\n"
)


def test_a_per_player_time_charge_assesses_inactive_players_553_15_b_3_i(
    tmp_path: Path,
) -> None:
    """§ 553.15(b)(3)(i): "If taken on a per-player basis, inactive players seated at the
    table shall also be assessed": the sign says so where the rule
    (`inactive_players_assessed`) does, and not where a game's rule does not."""
    rake = ("rake", "Rake", "§ 553.15(c)", "sign")
    lines = dict(signs(write(tmp_path, PER_PLAYER), "poker-omaha-hi-lo-8"))[rake]
    assert lines == [
        (
            "Time charge: $6 an hour per player, inactive seated players included, assessed "
            "every 30 minutes",
            "§ 553.15(b)(3), (c)",
        ),
        ("How the rake is calculated: $6 an hour per player", "§ 553.15(a)(2), (c)"),
    ]
    game = _with(load_game("poker-omaha-hi-lo-8"), "rake.time", inactive_players_assessed=False)
    built = _built(tmp_path, PER_PLAYER, game)
    assert [i.text for s in built.signs if s.id == "rake" for i in s.items] == [
        "Time charge: $6 an hour per player, assessed every 30 minutes",
        "How the rake is calculated: $6 an hour per player",
    ]


def test_an_hourly_fee_needs_the_limits_it_is_based_on_553_15_b_3_ii(tmp_path: Path) -> None:
    """§ 553.15(b)(3)(ii): the fee is "based on the minimum and maximum wagering limits"
    (`hourly_by_limits`): a submission stating no limits is told so above the signs."""
    text = PER_PLAYER.replace("positions: 10, min_wager: 4, max_wager: 8", "positions: 10")
    built = _built(tmp_path, text)
    assert any("hourly fee based on the table's minimum and maximum" in p for p in built.problems)
    assert not _built(tmp_path, PER_PLAYER).problems
    game = _with(load_game("poker-omaha-hi-lo-8"), "rake.time", hourly_by_limits=False)
    assert not any("hourly fee" in p for p in _built(tmp_path, text, game).problems)


def test_the_kill_states_its_qualifying_pot_553_1(tmp_path: Path) -> None:
    """§ 553.1 (Qualifying pot): "an amount established by the certificate holder"
    (`qualifying_pot_stated`): a Kill without one is said above the signs, in text."""
    text = OMAHA.replace("kill: {option: kill, qualifying_pot: 40}", "kill: {option: kill}")
    built = _built(tmp_path, text)
    assert [p for p in built.problems if "qualifying pot" in p] == [
        "the Kill option is used, but no qualifying pot is stated "
        "[§ 553.1 (Kill option, Half-kill option, Qualifying pot); § 553.12(b), (m)]"
    ]
    from validator.signage.render import UNSTATED, render_text

    assert render_text(built).startswith(f"{UNSTATED}\n  the Kill option is used")
    game = _with(load_game("poker-omaha-hi-lo-8"), "betting.kill", qualifying_pot_stated=False)
    assert not _built(tmp_path, text, game).problems
    # a game whose Kill has no qualifying pot stated prints no qualifying pot figure
    kill = next(s for s in _built(tmp_path, OMAHA, game).signs if s.id == "kill")
    assert not any("qualifying pot is $40" in i.text for i in kill.items)


def test_the_bad_beat_rules_posted_address_each_item_553_20_b(tmp_path: Path) -> None:
    """§ 553.20(b)(1)-(3) (`rules_posted`): the posted Bad Beat payout rules state the most
    contributed from each pot, the minimum pot, and the qualifying hands and payouts: what
    the submission leaves out is said above the signs."""
    text = OMAHA.replace("  minimum_pot: 15\n", "")
    problems = _built(tmp_path, text).problems
    assert problems == (
        "the Bad Beat payout rules posted must state the minimum pot for a contribution "
        "[§ 553.20(b)(1)-(3)]",
    )
    game = _with(load_game("poker-omaha-hi-lo-8"), "bad_beat", rules_posted=[])
    assert _built(tmp_path, text, game).problems == ()


def test_limits_not_posted_leave_the_limits_sign_off_553_18(tmp_path: Path) -> None:
    """§ 553.18 (`posted`): the minimum and maximum wagers are posted; a rule saying they
    are not leaves their lines off."""
    assert next(s.id for s in _built(tmp_path, OMAHA).signs) == "limits"
    game = _with(load_game("poker-omaha-hi-lo-8"), "betting.limits", posted=False)
    assert "limits" not in [s.id for s in _built(tmp_path, OMAHA, game).signs]


def test_the_signs_name_their_rule_source_its_jurisdiction_and_date(tmp_path: Path) -> None:
    """The rule source (`jurisdiction`, `as_of`) in the memo and under each printed sign."""
    built = _built(tmp_path, OMAHA)
    assert built.source == load_game("poker-omaha-hi-lo-8").source_line
    assert "(PA)" in built.source
    from validator.signage.render import render_markdown

    assert f"Rule source: {built.source}" in render_markdown(built)
    assert load_game("four-card-poker").source_line == "58 Pa. Code ch. 641a (PA), as of 2019-08-31"
    assert load_game("high-card-flush").source_line.endswith("(PA)")  # no date stated


def test_a_split_limit_sign_says_an_open_pair_brings_the_upper_limit_to_fourth_street(
    tmp_path: Path,
) -> None:
    """7CS Procedures § Seven-Card Stud (12)(iv): the lower limit "until fifth, sixth, and
    seventh street are dealt, unless a pair hits on fourth street and the upper limit
    thereafter" (the game file's reading for Stud High and Hi-Lo; Razz's own exception: "The
    presence of an open pair will not affect the limit"). The sign posts what the dealer
    applies."""
    from validator import PROJECT_ROOT

    razz = (PROJECT_ROOT / "rulesubs" / "example" / "house-razz.yaml").read_text()
    razz = razz.replace(
        "max_raises: 3", "max_raises: 3\n  structure: split\n  upper_from: fifth_street"
    )
    assert "structure: split" in razz
    hilo = razz.replace("game: house-razz", "game: house-seven-card-stud-hi-lo-8")
    lines = {}
    for game, text in (("house-razz", razz), ("house-seven-card-stud-hi-lo-8", hilo)):
        got = signs(write(tmp_path, text), game)
        lines[game] = [t for _, items in got for t, _ in items if "split limit" in t]
    open_pair = ", or from fourth street when any player's up-cards show a pair there"
    assert lines["house-seven-card-stud-hi-lo-8"] == [
        "Limits: split limit: the minimum wager, then the maximum wager from fifth street"
        + open_pair
    ]
    assert lines["house-razz"] == [
        "Limits: split limit: the minimum wager, then the maximum wager from fifth street"
    ]
    # a submission that leaves `upper_from` out plays the game file's fifth street: the
    # sign says so (it stopped at "then the maximum wager")
    silent = razz.replace("\n  upper_from: fifth_street", "")
    got = signs(write(tmp_path, silent), "house-razz")
    assert [t for _, items in got for t, _ in items if "split limit" in t] == lines["house-razz"]


def test_a_table_without_an_ante_posts_that_rule_553_11_b() -> None:
    """§ 553.11(b): "The rule governing the placement of an Ante and the amount of the Ante,
    if any, shall be ... posted on a sign at each Poker table": a submission offering no
    Ante (the example Hold'em, ``ante: {required: false}``) posts "Ante: none"."""
    from validator import PROJECT_ROOT

    holdem = PROJECT_ROOT / "rulesubs" / "example" / "poker-holdem.yaml"
    result = runner.invoke(app, ["signage", str(holdem)])
    assert result.exit_code == 0, result.stderr
    assert "Ante: none  [§ 553.11(b)]" in result.stdout


def test_the_game_is_named_as_its_section_writes_it_553_11() -> None:
    """§ 553.11 ("Hold'em Poker; procedures …", "the game of Hold'em Poker") and the chapter
    elsewhere write "Hold'em"; only § 553.9(a)(2)'s list writes "Hold 'em". The game is named
    as its own section names it, "Poker" left off as for its siblings (Five-card Stud)."""
    assert load_game("poker-holdem").definition.name == "Hold'em"
    from validator import PROJECT_ROOT

    holdem = PROJECT_ROOT / "rulesubs" / "example" / "poker-holdem.yaml"
    result = runner.invoke(app, ["signage", str(holdem)])
    assert "Hold'em (58 Pa. Code ch. 553" in result.stdout and "Hold 'em" not in result.stdout


def test_the_rake_sign_carries_the_methodology_that_takes_less_553_15_c(tmp_path: Path) -> None:
    """§ 553.15(c): "A sign describing the type and amount of rake to be collected". The
    Hold'em example rounds down to $1 and returns an uncalled final bet before the rake: a
    sign of the rate and maximum alone would overstate it, so the filing's methodology,
    in its own words, is on the sign under them."""
    example = PROJECT_ROOT / "rulesubs" / "example" / "poker-holdem.yaml"
    rake = dict(signs(example, "poker-holdem"))[("rake", "Rake", "§ 553.15(c)", "sign")]
    texts = [t for t, _ in rake]
    assert texts[0] == "Rake: 10% of each pot and side pot, to a maximum of $5 a round of play"
    assert texts[1].startswith("How the rake is calculated: 10% of the pot and of each side pot")
    assert "rounded down to the nearest $1" in texts[1]
    assert "an uncalled final bet is returned before the rake" in texts[1]
    assert "\n" not in texts[1] and "  " not in texts[1]


def test_a_split_limit_the_game_file_plays_is_posted_unstated() -> None:
    """7CS Procedures § Seven-Card Stud (12)(iv): the lower limit bets to fourth street, the
    upper from fifth. The Razz example states no structure and is played so, but its sign
    posted only "Minimum wager $5; maximum wager $10", which reads as a spread limit; it
    posts the split the rounds play. A flop game silent on it, spread, posts none."""
    examples = PROJECT_ROOT / "rulesubs" / "example"
    razz = examples / "house-razz.yaml"
    assert "structure" not in razz.read_text(encoding="utf-8")
    lines = [text for _, items in signs(razz, "house-razz") for text, _ in items]
    assert (
        "Limits: split limit: the minimum wager, then the maximum wager from fifth street" in lines
    )
    holdem = [
        text
        for _, items in signs(examples / "poker-holdem.yaml", "poker-holdem")
        for text, _ in items
    ]
    assert not [t for t in holdem if t.startswith("Limits:")]


def test_the_bad_beat_method_is_posted_on_one_line(tmp_path: Path) -> None:
    """§ 553.20(b)(1): "the method of calculation for any contributed amount", in the
    filing's words: written as a YAML block it kept the file's line breaks on the sign,
    where the rake's methodology beside it is set on one line."""
    text = OMAHA.replace(
        "  contribution_method: $1 from each pot of $15 or more\n",
        "  contribution_method: |-\n    $1 from each pot\n    of $15 or more\n",
    )
    assert text != OMAHA
    built = _built(tmp_path, text)
    lines = [i.text for s in built.signs for i in s.items if hasattr(i, "text")]
    assert "How the contribution is calculated: $1 from each pot of $15 or more" in lines
