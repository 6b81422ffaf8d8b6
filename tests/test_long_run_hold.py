"""A progressive's change in the long run: the diff and the review pack give the hold with
the increments and reseeds the meter pays back counted, before and after, beside the hold
with the meter at its seed.

The hold at the seed leaves out what the meter pays back later, so a lower rate of
progression moves it not at all while the players' return falls by the whole difference
of the rates. The figures are worked out here from the cards: the High Card Flush
Progressive Jackpot Wager's hands counted by the longest run of one suit among seven
cards, the ace high only (§ 678a.6(a)), paid as § 678a.12(d)(1) Paytable A states.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from html import unescape
from math import comb
from pathlib import Path

from tests.test_diff import HIGH_CARD_FLUSH
from validator.compiler import load_game
from validator.diff import diff_submissions
from validator.model.submission import load_submission

OLD = HIGH_CARD_FLUSH  # $1 wager; seed and reseed $30,000; a rate of 20%


def longest_straight_flush() -> dict[int, int]:
    """Seven-card hands by the length of their longest straight flush (0: none of 3 or
    more), the ace high only: each suit's ranks as a set of 13, the longest run of
    consecutive ranks in it, over every split of the seven cards among the four suits."""
    by_size: dict[int, dict[int, int]] = {}
    for mask in range(1 << 13):
        ranks = [r for r in range(13) if mask >> r & 1]
        run = longest = 0
        for r in range(13):
            run = run + 1 if mask >> r & 1 else 0
            longest = max(longest, run)
        runs = by_size.setdefault(len(ranks), {})
        runs[longest] = runs.get(longest, 0) + 1
    out: dict[int, int] = {}
    for split in itertools.product(range(8), repeat=4):
        if sum(split) != 7:
            continue
        for runs in itertools.product(*(by_size[n].items() for n in split)):
            ways = 1
            for _, count in runs:
                ways *= count
            best = max(length for length, _ in runs)
            key = best if best >= 3 else 0
            out[key] = out.get(key, 0) + ways
    return out


#: § 678a.12(d)(1) Paytable A: "for 1" pays the stake's worth in it; the meter rows (seven
#: cards: 100% of the meter, six: 10%) are paid from the meter
FIXED_FOR_ONE = {5: 250, 4: 40, 3: 3}


def long_run_return(increment: Fraction, reseed: int, wager: int = 1) -> Fraction:
    """The return per unit in the long run: the fixed rows, the increment, and a reseed
    put on the meter at each hit of the whole of it (a seven-card straight flush)."""
    counts = longest_straight_flush()
    total = comb(52, 7)
    fixed = sum(Fraction(counts[n] * pays, total) for n, pays in FIXED_FOR_ONE.items())
    return fixed + increment + Fraction(counts[7], total) * reseed / wager


def test_the_counts_are_the_cards() -> None:
    """Seven straight runs of seven ranks (2-8 to 8-A), in four suits: 28 hands."""
    counts = longest_straight_flush()
    assert sum(counts.values()) == comb(52, 7)
    assert counts[7] == 28


def _diff(tmp_path: Path, new_text: str) -> object:
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(OLD, encoding="utf-8")
    new.write_text(new_text, encoding="utf-8")
    game = load_game("high-card-flush")
    return diff_submissions(game, load_submission(old).submission, load_submission(new).submission)


def test_a_lower_rate_moves_no_hold_at_the_seed_and_five_points_in_the_long_run_678a_12_d_3(
    tmp_path: Path,
) -> None:
    """§ 678a.12(d)(3): "The rate of progression for the meter ... must be in the
    certificate holder's Rules Submission". From 20% to 15%, the meter at its $30,000 seed
    holds the same, and the players' return in the long run falls by exactly 5 points."""
    result = _diff(tmp_path, OLD.replace("increment: 20%", "increment: 15%"))
    (change,) = [c for c in result.changes if c.has_hold]  # type: ignore[attr-defined]
    assert change.path.endswith("/increment")
    assert change.hold_old.value == change.hold_new.value  # at the seed: no move
    assert change.hold_old.long_run == long_run_return(Fraction(20, 100), 30000)
    assert change.hold_new.long_run == long_run_return(Fraction(15, 100), 30000)
    assert change.long_run_delta == Fraction(5, 100)


def test_a_seed_reseed_and_rate_change_in_the_long_run_against_the_cards(tmp_path: Path) -> None:
    """A higher seed lowers the hold at the seed; the rate from 20% to 15% and a reseed of
    $35,000 raise it in the long run: the figures are the cards' own."""
    new = OLD.replace(
        "seed: 30000, reseed: 30000, increment: 20%", "seed: 40000, reseed: 35000, increment: 15%"
    )
    result = _diff(tmp_path, new)
    (change,) = [c for c in result.changes if c.has_hold]  # type: ignore[attr-defined]
    assert change.hold_new.value < change.hold_old.value  # at the seed: better for players
    old_return = long_run_return(Fraction(20, 100), 30000)
    new_return = long_run_return(Fraction(15, 100), 35000)
    assert (change.hold_old.long_run, change.hold_new.long_run) == (old_return, new_return)
    assert change.long_run_delta == old_return - new_return > 0  # in the long run: worse


def test_the_par_sheet_and_the_diff_give_one_long_run_return(tmp_path: Path) -> None:
    """The par sheet's long-run return of each submission is the diff's, to the fraction."""
    from typer.testing import CliRunner

    from validator.cli import app

    new = OLD.replace("increment: 20%", "increment: 12.5%").replace(
        "paytables: {flush_bonus: A, progressive_jackpot: A}",
        "paytables: {flush_bonus: B, progressive_jackpot: A}",
    )
    result = _diff(tmp_path, new)
    (change,) = [c for c in result.changes if c.has_hold and c.has_long_run]  # type: ignore[attr-defined]
    import json

    runner = CliRunner()
    for name, hold in (("old.yaml", change.hold_old), ("new.yaml", change.hold_new)):
        out = runner.invoke(
            app, ["par", str(tmp_path / name), "--format", "json", "--rounds", "200"]
        )
        assert out.exit_code == 0, out.output
        (sheet,) = json.loads(out.stdout)["progressives"].values()
        assert Fraction(sheet["long_run_return_exact"]) == hold.long_run


def test_the_diff_says_both_figures_and_what_each_counts(tmp_path: Path) -> None:
    """The text and the memo give the hold at the seed with what it leaves out, and the
    hold in the long run with the return to players; the JSON gives the long run beside
    the hold (``long_run_hold_percent``)."""
    import json

    from typer.testing import CliRunner

    from validator.cli import app

    (tmp_path / "old.yaml").write_text(OLD, encoding="utf-8")
    (tmp_path / "new.yaml").write_text(OLD.replace("20%", "15%"), encoding="utf-8")
    files = [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")]
    old_hold = 1 - long_run_return(Fraction(20, 100), 30000)
    new_hold = 1 - long_run_return(Fraction(15, 100), 30000)
    shown = f"{float(old_hold * 100):.4f}% → {float(new_hold * 100):.4f}% (+5.0000 percentage"
    for fmt in ("text", "markdown"):
        out = CliRunner().invoke(app, ["diff", *files, "--format", fmt])
        said = " ".join(out.stdout.replace("\\", "").split())
        assert "the increments it pays back later are not counted: the long-run hold" in said
        assert (
            f"Hold in the long run (the increments and reseeds it pays back counted): {shown}"
            in said
        )
        assert "return to players" in said
    data = json.loads(CliRunner().invoke(app, ["diff", *files, "--format", "json"]).stdout)
    (change,) = [c for c in data["changes"] if c["long_run_hold_percent"]]
    figures = change["long_run_hold_percent"]
    assert figures["old"] == float(old_hold * 100) and figures["new"] == float(new_hold * 100)
    assert abs(figures["delta"] - 5.0) < 1e-9


def test_the_review_pack_summary_gives_the_long_run_and_names_the_file_compared(
    tmp_path: Path,
) -> None:
    """The summary an officer reads first gives the Progressive Jackpot Wager twice, each
    saying what it counts; the pack compared with a file given says so, never "the
    approved submission", which nothing shows it to be."""
    from validator.review import build_pack, render_html

    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(OLD, encoding="utf-8")
    new.write_text(OLD.replace("20%", "15%"), encoding="utf-8")
    pack = build_pack(new, "new.yaml", old, str(old))
    html = render_html(pack)
    said = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    assert "Progressive Jackpot Wager, with the meter at its seed" in said
    long_run = 1 - long_run_return(Fraction(20, 100), 30000)
    assert (
        "Progressive Jackpot Wager, in the long run (increments and reseeds counted) "
        f"{float(long_run * 100):.4f}%"
    ) in said
    assert "Hold in the long run (the increments and reseeds it pays back counted)" in said
    assert "Changes against the file given" in said
    assert "Changes against the approved submission" not in said
    assert "old.yaml (a file given, not the approval on record)" in said
    pack.approved = object()  # the store's approval on record, compared with
    assert "Changes against the approved submission" in render_html(pack)


def test_a_seed_changed_with_the_reseed_and_rate_never_owns_their_long_run(
    tmp_path: Path,
) -> None:
    """§ 678a.12(d)(3): the meter's initial amount, its reset amount and its rate of
    progression. The long run counts the reseeds and the increments (``long_run_return``),
    never the seed, which is on the meter once. Changed together, the seed's line carried
    the whole long-run move, and an officer read that a larger seed raised the hold by
    almost five points; the move is the rate's, less the reseed's. The line says which
    values move it, and the JSON lists them; the seed alone moves none of it."""
    import json

    from typer.testing import CliRunner

    from validator.cli import app

    together = OLD.replace(
        "seed: 30000, reseed: 30000, increment: 20%", "seed: 50000, reseed: 50000, increment: 15%"
    )
    seed_alone = OLD.replace("seed: 30000, reseed: 30000", "seed: 50000, reseed: 30000")
    with_reserve = seed_alone.replace("increment: 20%}", "increment: 20%, reserve_increment: 5%}")
    assert together != OLD and seed_alone != OLD and with_reserve != seed_alone
    (tmp_path / "old.yaml").write_text(OLD, encoding="utf-8")
    before = 1 - long_run_return(Fraction(20, 100), 30000)
    after = 1 - long_run_return(Fraction(15, 100), 50000)
    cases = ((together, ["reseed", "rate of progression"]), (seed_alone, []), (with_reserve, []))
    for text, moved in cases:  # a reserve rate that moves nothing is never said to
        (tmp_path / "new.yaml").write_text(text, encoding="utf-8")
        files = [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")]
        out = CliRunner().invoke(app, ["diff", *files, "--format", "json"])
        (change,) = [c for c in json.loads(out.stdout)["changes"] if c["long_run_hold_percent"]]
        assert change["path"].endswith("/seed")
        figures = change["long_run_hold_percent"]
        assert figures["moved_by"] == moved
        assert figures["old"] == float(before * 100)
        if not moved:  # the seed leaves the long run where it was
            assert figures["delta"] == 0
            continue
        assert figures["new"] == float(after * 100)
        said = " ".join(CliRunner().invoke(app, ["diff", *files]).stdout.split())
        assert (
            "Hold in the long run, which the seed leaves and the reseed and the rate of "
            "progression move (the increments and reseeds it pays back counted)"
        ) in said
