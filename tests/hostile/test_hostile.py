"""Every command on the hostile corpus, in-process: no traceback, no hang, exit 0/1/2, every
refusal names its file with line and column, and the money of whatever ``validate``
accepts stays exact (simulate conserves it to the cent; settle pays whole cents).

The corpus is ``tests/hostile/corpus.py``: hand-made inputs, a deterministic sample of
mutations of the shipped files, and hypothesis draws. Its size is bounded so that the whole
module runs well under two minutes on one core; ``HOSTILE_MUTATIONS`` (environment) raises
the sample (``HOSTILE_SEED`` draws another, ``HOSTILE_DRAWN`` more hypothesis examples) for a
longer run.
"""

from __future__ import annotations

import json
import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from hostile.corpus import (
    EXAMPLES,
    Case,
    handmade,
    log_lines,
    round_files,
    sample_mutations,
    submissions,
)
from hostile.runner import Outcome, Tally, run
from validator.loader import LoadError, load_yaml
from validator.model.submission import read_yaml

BANKING = ("four-card-poker", "lunar-poker", "wpt-heads-up-holdem", "high-card-flush")
MUTATIONS = int(os.environ.get("HOSTILE_MUTATIONS", "120"))
DRAWN = int(os.environ.get("HOSTILE_DRAWN", "25"))
SEED = int(os.environ.get("HOSTILE_SEED", "12"))
GAME_OF = {
    p.stem: re.search(r"^game: (\S+)", p.read_text(), re.M).group(1)  # type: ignore[union-attr]
    for p in EXAMPLES.glob("*.yaml")
}


def _game_of(case: Case) -> str:
    stem = case.name.split(".")[0]
    return GAME_OF.get(stem, "four-card-poker")


def _whole_cents(value: str) -> bool:
    try:
        d = Decimal(value)
    except ArithmeticError:
        return False
    return d == d.quantize(Decimal("0.01"))


def run_every_command(case: Case, path: Path, tally: Tally, workdir: Path) -> None:
    """Every command that reads this kind of input, on it; the money invariants where
    ``validate`` accepts it."""
    name = str(path)

    def go(*args: str, located: str | None = name) -> Outcome:
        outcome = run(*args, located=located, named=bool(case.special) or case.whole)
        tally.add(outcome)
        return outcome

    if case.kind == "log":
        go("settle", name, "--round", "1")
        go("settle", name, "--format", "json")
        return
    if case.kind == "round":
        go("settle", name)
        go("settle", name, "--format", "json")
        return
    checked = go("validate", name, "--format", "json")
    go("validate", name, "--format", "sarif")
    go("validate", name, "--format", "markdown")
    go("signage", name)
    go("signage", name, "--format", "html", "--force")
    game = _game_of(case)
    base = EXAMPLES / f"{case.name.split('.')[0]}.yaml"
    if base.is_file():
        go("diff", str(base), name, "--format", "json")
        git = go("diff", path.name, str(base), "0" * 40, "100644", name, "1" * 40, "100644")
        if git.exit_code != 0:  # git stops at a driver that fails: it never may
            tally.problems["wrong exit"] += 1
            tally.examples.append(f"git diff driver exit {git.exit_code}: {name}")
    go("play", game, "--rulesub", name, "--rounds", "1", "--quiet")
    sim = go("simulate", game, "--rulesub", name, "--rounds", "40", "--format", "json")
    if checked.exit_code != 0 or checked.problem:
        return
    # validate accepts it: the money must be exact
    if sim.exit_code == 0 and sim.stdout.startswith("{") and "rake" not in sim.stdout[:200]:
        data = json.loads(sim.stdout)
        if data.get("money_conserved_rounds") != data.get("rounds"):
            tally.problems["money"] += 1
            tally.examples.append(f"money not conserved: {name}")
        for w in data.get("wagers", {}).values():
            if not (_whole_cents(w["handle"]) and _whole_cents(w["player_net"])):
                tally.problems["money"] += 1
                tally.examples.append(f"inexact simulated money: {name}: {w}")
    log = workdir / f"{path.name}.jsonl"
    played = go("play", game, "--rulesub", name, "--rounds", "2", "--log", str(log), "--quiet")
    if played.exit_code == 0 and log.is_file() and game in BANKING:  # Poker logs: no replay
        for k in (1, 2):
            settled = go(
                "settle", str(log), "--round", str(k), "--format", "json", located=str(log)
            )
            amounts = re.findall(r'"(?:amount|net|returned)": "(-?[0-9.]+)"', settled.stdout)
            if settled.exit_code != 0 or not all(_whole_cents(a) for a in amounts):
                tally.problems["money"] += 1
                tally.examples.append(f"settle of a played round: {log} {k}: {settled.stderr}")


def _check(tally: Tally, quiet: bool = False) -> None:
    if not quiet:
        print(tally.summary())  # the counts for the closing note (pytest -s)
    assert not tally.problems, tally.summary() + "\n\n" + "\n\n".join(tally.examples)


@pytest.fixture(scope="module", autouse=True)
def _poker_kernels_compiled() -> None:
    """The Poker kernels compiled (or read from numba's cache) before any command is timed:
    a first run's compile (a minute or more, once per installation) is the process's, not
    a hang on the input read. One round of every nonbanking game, whose tables give the
    kernels each of their argument types."""
    from validator.compiler import all_games
    from validator.interpreter.poker.session import Session
    from validator.interpreter.poker.table import default_setup

    for game in all_games():
        if game.definition.kind == "nonbanking":
            setup = default_setup(game)
            next(Session(game, setup, setup.positions, 0, narrated=False).hands(1))


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Commands run from the project root, as a user's checkout would; inputs in tmp."""
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path


#: The handmade inputs whose size is the attack (a flow list of 250,000 items; aliases that
#: would expand past a billion nodes): every command spends seconds on each, so they run in
#: the full suite only (``slow``).
LARGE = ("wide.yaml", "alias-bomb.yaml")

#: The sample of mutations in parts: the first in the quick subset, every part in the full
#: suite (each mutation in exactly one part), spread over the workers.
PARTS = 3


def _every_command_on(cases: list[Case], here: Path) -> None:
    tally = Tally()
    for case in cases:
        path = case.write(here)
        tally.inputs += 1
        run_every_command(case, path, tally, here)
    _check(tally)


def test_every_command_on_the_handmade_corpus(here: Path) -> None:
    _every_command_on([c for c in handmade() if c.name not in LARGE], here)


@pytest.mark.slow  # seconds per command on each
@pytest.mark.parametrize("name", LARGE)
def test_every_command_on_a_large_handmade_input(here: Path, name: str) -> None:
    _every_command_on([c for c in handmade() if c.name == name], here)


@pytest.mark.parametrize(
    "part", [pytest.param(k, marks=[pytest.mark.slow] if k else []) for k in range(PARTS)]
)
def test_every_command_on_mutations_of_the_shipped_files(here: Path, part: int) -> None:
    _every_command_on(sample_mutations(MUTATIONS, SEED)[part::PARTS], here)


@settings(
    max_examples=DRAWN,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=submissions() | round_files() | log_lines())
def test_every_command_on_drawn_inputs(here: Path, case: Case) -> None:
    tally = Tally()
    path = case.write(here / "drawn") if (here / "drawn").is_dir() else None
    if path is None:
        (here / "drawn").mkdir()
        path = case.write(here / "drawn")
    tally.inputs += 1
    run_every_command(case, path, tally, here)
    path.unlink()
    _check(tally, quiet=True)


# -- one reader: the libyaml fast path and the round-trip loader agree --------------------------


def _read_both(path: Path) -> tuple[object, object]:
    def attempt(reader: object) -> object:
        try:
            loc = reader(path)  # type: ignore[operator]
        except LoadError as e:
            return ("refused", e.line, e.column, e.message)
        return ("read", loc.data, loc.positions, loc.key_positions)

    return attempt(read_yaml), attempt(load_yaml)


@pytest.mark.parametrize(
    ("large", "part"),
    [
        (False, 0),
        *(pytest.param(False, k, marks=pytest.mark.slow) for k in range(1, PARTS)),
        pytest.param(True, None, marks=pytest.mark.slow),
    ],
)
def test_the_fast_reader_and_the_loader_agree_on_the_whole_corpus(
    tmp_path: Path, large: bool, part: int | None
) -> None:
    """``validate`` reads through libyaml when it can; every other command through ruamel.
    On every YAML input of the corpus they read the same values at the same positions, or
    refuse it at the same place with the same message (a tab before ``[`` included). The
    large inputs (seconds each) apart, in the full suite only; the rest in ``PARTS`` parts
    (each input in exactly one), the first in the quick subset, every one in the full suite."""
    cases = [c for c in handmade() + sample_mutations(MUTATIONS * 3) if c.name.endswith(".yaml")]
    for case in cases if part is None else cases[part::PARTS]:
        if case.special or (case.name in LARGE) != large:
            continue
        path = case.write(tmp_path)
        fast, slow = _read_both(path)
        assert fast == slow, case.name
        path.unlink()


# -- the defects of the hostile-input report, one by one --------------------------------------


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def _example(name: str = "four-card-poker") -> str:
    return (EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8")


def test_money_past_the_bound_is_a_finding_not_a_wrapped_simulation(here: Path) -> None:
    """No table takes a $10^12 wager: validate says so at the line (a finding, exit 1),
    play and simulate refuse it with that finding (exit 1), nothing simulates wrapped money."""
    path = _write(here, "big.yaml", _example().replace("min_wager: 10", "min_wager: 1000000000000"))
    checked = run("validate", str(path), "--format", "json")
    assert checked.exit_code == 1
    finding = json.loads(checked.stdout)["findings"][0]
    assert finding["line"] == 9 and "$1,000,000,000" in finding["message"]
    sim = run("simulate", "four-card-poker", "--rulesub", str(path), "--rounds", "10")
    assert sim.exit_code == 1 and f"{path}:9:" in sim.stderr


def test_amounts_inside_the_bound_are_refused_by_simulate_when_they_could_wrap(here: Path) -> None:
    """$900,000,000 wagers are within the bound, but 10,000-to-1 of them over many rounds is
    past the batch engine's exact arithmetic: refused, never wrapped."""
    text = _example().replace(
        "min_wager: 10, max_wager: 500", "min_wager: 900000000, max_wager: 1000000000"
    )
    path = _write(here, "big9.yaml", text)
    assert run("validate", str(path), "--format", "json").exit_code == 0
    sim = run("simulate", "four-card-poker", "--rulesub", str(path), "--rounds", "2000")
    assert sim.exit_code == 2 and "exact arithmetic" in sim.stderr


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ('"٥٠"', "ASCII digits"),
        ('"５０"', "ASCII digits"),
        ("0x10", "ASCII digits"),
        ("0o17", "ASCII digits"),
        ("1_000", "ASCII digits"),
        ("999999999999999999999999999", "27 digits"),
        ("9" * 5000, "5,000 digits"),
    ],
)
def test_money_is_ascii_decimal_dollars_only(here: Path, written: str, problem: str) -> None:
    """A finding at the line (exit 1), or, for an integer no YAML reader should build, a
    refusal at the line (exit 2): never $50 from "٥٠", never a crash on 5,000 digits."""
    path = _write(here, "m.yaml", _example().replace("min_wager: 10", f"min_wager: {written}"))
    out = run("validate", str(path), "--format", "json", located=str(path))
    assert out.exit_code in (1, 2) and not out.problem, out
    said = out.stdout + out.stderr
    assert problem in said
    assert '"line": 9' in said or f"{path}:9:" in said


@pytest.mark.parametrize("date", ["2027-02-30", "0000-01-01", "2027-13-01"])
def test_an_impossible_date_is_refused_at_its_line(here: Path, date: str) -> None:
    path = _write(here, "d.yaml", _example().replace("effective: 2027-01-01", f"effective: {date}"))
    for args in (("validate", str(path)), ("signage", str(path)), ("diff", str(path), str(path))):
        out = run(*args, located=str(path))
        assert not out.problem, out
    out = run("validate", str(path), "--format", "json")
    assert f"'{date}' is no date" in out.stdout and '"line": 8' in out.stdout


def test_min_wager_zero_is_refused_by_validate_and_play_alike(here: Path) -> None:
    """A $0 wager is no wager: settle refuses one, so validate and play refuse the table."""
    path = _write(here, "z.yaml", _example().replace("min_wager: 10", "min_wager: 0"))
    assert run("validate", str(path), "--format", "json").exit_code == 1
    out = run("play", "four-card-poker", "--rulesub", str(path), "--quiet")
    # a submission with errors: its findings, located, and exit 1 (no rounds played)
    assert out.exit_code == 1 and f"{path}:9:" in out.stderr


def test_a_file_names_no_file_outside(here: Path) -> None:
    """``rulesub:`` pointing outside is refused, and nothing of the other file is echoed."""
    secret = here.parent / "secret-outside.yaml"
    secret.write_text("game: four-card-poker\ntop_secret_value: 42\n")
    rnd = (Path("tests/golden/lunar-poker/01-second-combination-example.yaml")).read_text()
    inside = here / "inside"
    inside.mkdir()
    for target in (str(secret), "../../secret-outside.yaml", "../secret-outside.yaml"):
        path = _write(inside, "r.yaml", rnd + f"rulesub: {target}\n")
        out = run("settle", str(path))
        assert out.exit_code == 2, out
        assert "outside" in out.stderr and "top_secret" not in out.stderr + out.stdout
        assert f"{path}:" in out.stderr


def test_a_game_id_is_a_name_never_a_path(here: Path) -> None:
    for game in ("../games/four-card-poker", "/etc/passwd", "x[/]"):
        out = run("play", game, "--quiet")
        assert out.exit_code == 2 and not out.problem
        assert "no game" in out.stderr


def test_play_log_path_with_markup_is_printed_as_written(here: Path) -> None:
    log = here / "x[red]y[bold].jsonl"
    out = run("play", "four-card-poker", "--rounds", "1", "--log", str(log), "--quiet")
    assert out.exit_code == 0 and not out.problem
    assert "x[red]y[bold].jsonl" in out.stdout and log.is_file()
    out = run("play", "four-card-poker", "--log", str(here / "no-dir" / "x[/]y.jsonl"))
    assert out.exit_code == 2 and "cannot write the log" in out.stderr


def test_validate_text_report_prints_markup_in_a_key_as_written(here: Path) -> None:
    path = _write(here, "k.yaml", _example().replace("adjacent_boxes: 2", '"x[/]": 2'))
    out = run("validate", str(path))
    assert out.exit_code == 1 and not out.problem and "x[/]" in out.stdout


def test_settle_rounds_seven_to_three_down_to_the_cent_and_says_so(here: Path) -> None:
    """7 to 3 on $10 is $23.333…: paid $23.33, rounded down to the cent, stated."""
    rnd = here / "r.yaml"
    rnd.write_text(
        "game: four-card-poker\n"
        "seats:\n"
        "  - wagers: {ante: 10, aces_up: 10}\n"
        "    cards: [AS, AH, AD, AC, 2S]\n"
        "    actions: [play 1x]\n"
        "dealer: [3S, 4H, 6D, 8C, 9S, JD]\n"
        f"rulesub: {here / 'sub.yaml'}\n"
    )
    (here / "sub.yaml").write_text(
        _example().replace(
            "adjacent_boxes: 2",
            "adjacent_boxes: 2\ncustom_paytables: {aces_up: {four_of_a_kind: 7 to 3}}",
        )
    )
    # the custom table is a finding (the text of aces_up is not missing): settled as a DRAFT
    out = run("settle", str(rnd), "--format", "json", "--allow-findings")
    assert out.exit_code == 0, out.stderr
    assert "23.33" in out.stdout and "rounded down to the cent" in out.stdout
    assert "23.333" not in out.stdout.replace("$23.333", "")


_HUGE = "9" * 5000


@pytest.mark.parametrize(
    "args",
    [
        ("play", "four-card-poker", "--seed", "-1", "--quiet"),
        ("play", "four-card-poker", "--seed", _HUGE, "--quiet"),
        ("simulate", "four-card-poker", "--rounds", "5", "--seed", "-1"),
        ("simulate", "four-card-poker", "--rounds", "99999999999999999999"),
        ("play", "x[/]", "--quiet"),
        ("play", "four-card-poker", "--strategy", "x[/]", "--quiet"),
        ("games", "show", "[bold]x"),
        ("games", "show", "four-card-poker", "--wager", "x[/]"),
        ("rules", "x[/]"),
        ("odds", "four-card-poker", "--wager", "four_card_progressive", "--meter", "٥٠"),
        ("odds", "four-card-poker", "--wager", "four_card_progressive", "--meter", "1e999"),
        ("odds", "four-card-poker", "--wager", "four_card_progressive", "--meter", _HUGE),
        ("diff", "four-card-poker", "--wager", "aces_up", "--paytable", "A", "--to", "٥"),
        ("diff", "../games/four-card-poker", "--wager", "aces_up", "--paytable", "A", "--to", "C"),
    ],
)
def test_hostile_arguments_are_usage_errors_never_tracebacks(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert not out.problem and out.exit_code == 2, out


# -- issue 24: every input an answer ----------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "refusal"),
    [
        ("play " + _HUGE + "x", "is no multiple"),  # not a ValueError from int()
        ("play ２x", "is no multiple"),  # a full-width 2 is not read as 2x
        ("play ٢x", "is no multiple"),
        ("play -1x", "is no multiple"),
        ("play 1.5x", "is no multiple"),
    ],
    ids=["5000-digits", "full-width", "arabic-indic", "negative", "fraction"],
)
def test_an_action_no_table_takes_is_refused_at_its_own_line(
    here: Path, action: str, refusal: str
) -> None:
    """A multiple is ASCII digits then x; anything else that looks like one is refused,
    exit 2, at the line and column of the action itself (the sixth line of the round)."""
    text = Path("tests/golden/four-card-poker/01-tie-goes-to-player.yaml").read_text()
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "play 1x" in line)
    column = lines[number - 1].index("play 1x") + 1
    rnd = _write(here, "round.yaml", text.replace("play 1x", action))
    for args in (("settle", str(rnd)), ("settle", str(rnd), "--format", "json")):
        out = run(*args, located=str(rnd))
        assert not out.problem and out.exit_code == 2, out
        assert f"{rnd}:{number}:{column}:" in out.stderr and refusal in out.stderr
        assert len(out.stderr) < 600  # 5,000 digits are not echoed back


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("rulesub.toml", 'fail-on = ["warning"]\n', "fail-on: expected one of"),
        ("rulesub.toml", "fail-on = 3\n", "fail-on: expected one of"),
        ("rulesub.toml", "fail-on = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("rulesub.toml", "exclude = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("pyproject.toml", "tool = 1\n", "a table of settings"),
        ("pyproject.toml", "[tool]\nrulesub = [1]\n", "a table of settings"),
    ],
    ids=["fail-on-list", "fail-on-number", "nested-fail-on", "nested-exclude", "tool", "rulesub"],
)
def test_a_hostile_config_is_a_clear_refusal(here: Path, name: str, text: str, said: str) -> None:
    config = _write(here, name, text)
    sub = _write(here, "sub.yaml", _example())
    out = run("validate", "--config", str(config), str(sub))
    assert not out.problem and out.exit_code == 2, out
    assert str(config) in out.stderr and said in out.stderr


def test_markup_in_submission_fields_never_reaches_markdown_as_html(here: Path) -> None:
    """The Markdown review pack and the Markdown report of ``validate`` show every field
    as written: rendered by a CommonMark renderer with HTML allowed, no tag of the
    submission's comes out, whatever backticks or line breaks surround it."""
    markdown_it = pytest.importorskip("markdown_it")
    hostile = {
        "certificate_holder": '"<img src=x onerror=alert(1)> & Co"',
        "facility": '"`<script>alert(2)</script>` &lt;b&gt; Downs"',
    }
    text = _example()
    for key, value in hostile.items():
        text = re.sub(rf"^{key}: .*$", f"{key}: {value}", text, count=1, flags=re.M)
    text += '"a`<iframe src=x>`b": 1\n'  # an unknown key, quoted in a finding and the diff
    sub = _write(here, "<b>pack.yaml", text)
    old = _write(here, "old.yaml", _example())
    documents = {
        "review pack": run("review", str(sub), "--against", str(old), "--format", "markdown"),
        "validate": run("validate", str(sub), "--format", "markdown"),
    }
    renderer = markdown_it.MarkdownIt("commonmark", {"html": True})
    for what, out in documents.items():
        assert not out.problem and out.exit_code in (0, 1), (what, out)
        html = renderer.render(out.stdout).lower()
        for tag in ("<img", "<script", "<iframe", "<b>"):
            assert tag not in html, (what, tag)
        assert "&lt;script&gt;" in html or what == "validate"
    pack = markdown_it.MarkdownIt("commonmark", {"html": True}).render(
        documents["review pack"].stdout
    )
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; Co" in pack
