"""A hostile corpus: every input format of rulesub, broken on purpose.

Three sources of inputs, each a ``Case`` (the bytes of one file, or a file that is no
regular file at all):

- ``handmade()``: one input per known way to break a reader: impossible dates, huge and
  tiny numbers, non-ASCII digits, hex, octal and underscored integers, markup in keys and
  values, control characters, UTF-16 and Latin-1 text, deep nesting, huge lists, paths that
  lead outside, FIFOs and devices;
- ``mutations()``: every shipped example submission, round file and play log with one field
  replaced by each hostile value (``HOSTILE_VALUES``, written as raw YAML source, so that
  the parser meets them as a user would write them);
- the hypothesis strategies ``submissions()``, ``round_files()`` and ``log_lines()``,
  which draw a field of a format and a value for it from ``hostile_values()``, uncapped:
  any date, any integer (up to 6,000 digits), any text (control characters, markup,
  bidirectional marks), any nesting.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from validator import PROJECT_ROOT

EXAMPLES = PROJECT_ROOT / "rulesubs" / "example"
GOLDEN = PROJECT_ROOT / "tests" / "golden"


@dataclass(frozen=True)
class Case:
    """One input: ``name`` is its file name (its suffix tells the format), ``data`` its
    bytes; ``special`` makes it a FIFO, a device, a directory or a link instead."""

    name: str
    data: bytes = b""
    kind: str = "submission"  # submission | round | log
    special: str = ""  # "" | fifo | device | directory | dangling | outside_link
    whole: bool = False  # refused as a whole (not UTF-8 at all): named, with no line

    def write(self, directory: Path) -> Path:
        import os

        path = directory / self.name
        if self.special == "fifo":
            os.mkfifo(path)
        elif self.special == "device":
            path.symlink_to("/dev/zero")
        elif self.special == "directory":
            path.mkdir()
        elif self.special == "dangling":
            path.symlink_to(directory / "no-such-file.yaml")
        else:
            path.write_bytes(self.data)
        return path


# -- hostile values, as YAML source ------------------------------------------------------------

HOSTILE_VALUES: tuple[str, ...] = (
    # dates no calendar has, and the edges of the calendar
    "2027-02-30",
    "0000-01-01",
    "2027-13-01",
    "9999-12-31",
    "'2027-02-30'",
    "2027-02-28T25:00:00",
    # huge and tiny numbers
    "1e12",
    "1000000000000",
    "999999999999999999999999999",
    "9" * 5000,
    "-1",
    "0",
    "0.001",
    "1e-9",
    ".inf",
    "-.nan",
    '"$1,000,000,000,000"',
    '"$10.505"',
    '"$0.01"',
    # digits that are not ASCII, integers that are not decimal
    '"٥٠"',
    '"５０"',
    '"$５０"',
    "٥٠",
    "0x10",
    "0o17",
    "0b101",
    "1_000",
    "010",
    "+10",
    # markup and control characters in text
    '"x[/]y"',
    "'[bold]x[/bold]'",
    '"[/]"',
    '"[link=http://example.invalid]x[/link]"',
    '"\\e[31mred\\e[0m"',
    '"a\\u202eb"',
    '"bell\\a"',
    '"\\0"',
    '"' + "x" * 20000 + '"',
    # structures where a scalar belongs, and the reverse
    "[a, [b]]",
    "{a: 1}",
    "[" * 60 + "]" * 60,
    "&a [*a]",
    "!!python/object:os.system x",
    "null",
    "~",
    "''",
    "true",
    # rates and payouts
    '"33.333%"',
    '"1e3%"',
    '"100000%"',
    '"-5%"',
    '"٥%"',
    '"7 to 3"',
    '"1000000000 to 1"',
    '"1 to 0"',
    '"3 for 5"',
    # paths
    '"../../../../etc/passwd"',
    '"/etc/passwd"',
    '"~/.ssh/id_rsa"',
    '"x[/]/y.yaml"',
)


def _replace_value(text: str, key: str, raw: str) -> str | None:
    """``text`` with the value of the first ``key:`` (block or flow style) replaced by the
    raw YAML source ``raw``; ``None`` when the key is not in the text."""
    m = re.search(rf"(^|[{{,\s])({re.escape(key)}:[ \t]*)", text, re.MULTILINE)
    if m is None:
        return None
    start = m.end()
    rest = text[start:]
    if rest.startswith(("{", "[")):  # a flow collection: replace it whole
        depth, end = 0, 0
        for i, c in enumerate(rest):
            depth += c in "{["
            depth -= c in "}]"
            if depth == 0:
                end = i + 1
                break
    else:
        end = len(re.match(r"[^,}\]\n#]*", rest).group().rstrip())  # type: ignore[union-attr]
    return text[:start] + raw + rest[end:]


SUBMISSION_KEYS = (
    "game",
    "rulesub",
    "effective",
    "facility",
    "certificate_holder",
    "positions",
    "min_wager",
    "max_wager",
    "decks",
    "methods",
    "offered",
    "aces_up",
    "paytables",
    "wager_amount",
    "seed",
    "increment",
    "reserve_increment",
    "payout_limit",
    "adjacent_boxes",
    "blinds",
    "maximum",
    "rate",
    "current_amount",
)
ROUND_KEYS = (
    "game",
    "rulesub",
    "ante",
    "cards",
    "actions",
    "dealer",
    "deck",
    "community",
    "super",
    "contributed",
    "paytables",
)


def example_submissions() -> list[Path]:
    return sorted(EXAMPLES.glob("*.yaml"))


def golden_rounds() -> list[Path]:
    return sorted(p for p in GOLDEN.rglob("*.yaml") if not p.name.endswith(".expected.yaml"))


def play_log_line(game: str = "lunar-poker") -> dict:
    """One round as ``rulesub play --log`` writes it (a record shape, fixed here)."""
    return {
        "round": 1,
        "game": game,
        "seed": 1,
        "strategy": "basic",
        "paytables": {"instant_payout": "A", "super": "A"},
        "seats": [
            {
                "seat": 1,
                "wagers": {"ante": 10, "super": 10},
                "cards": ["8S", "9S", "TS", "7S", "9H"],
                "actions": ["bet"],
            }
        ],
        "dealer": ["3H", "5S", "6C", "7H", "JS"],
        "deck": ["2S", "5H", "8C", "4D", "8D", "AH", "JD"],
    }


def handmade() -> list[Case]:
    """One input per known way to break a reader."""
    fcp = (EXAMPLES / "four-card-poker.yaml").read_text(encoding="utf-8")
    cases = [
        Case("fifo.yaml", special="fifo"),
        Case("zero.yaml", special="device"),
        Case("dir.yaml", special="directory"),
        Case("dangling.yaml", special="dangling"),
        Case("fifo.jsonl", kind="log", special="fifo"),
        Case("empty.yaml", b""),
        Case("bom.yaml", b"\xef\xbb\xbf" + fcp.encode()),
        Case("utf16.yaml", fcp.encode("utf-16"), whole=True),
        Case("utf16be.yaml", fcp.encode("utf-16-be"), whole=True),
        Case("latin1.yaml", fcp.replace("Example Downs", "Café Downs").encode("latin-1")),
        Case("nul.yaml", fcp.encode().replace(b"rulesub: 1", b"rulesub: 1\x00")),
        Case("crlf.yaml", fcp.replace("\n", "\r\n").encode()),
        Case("tab-before-flow.yaml", fcp.replace("offered: [", "offered:\t[").encode()),
        Case(
            "tab-after-colon.yaml", fcp.replace("adjacent_boxes: 2", "adjacent_boxes:\t2").encode()
        ),
        Case("deep-flow.yaml", ("a: " + "[" * 100_000 + "]" * 100_000 + "\n").encode()),
        Case("deep-block.yaml", "".join(f"{' ' * i}k{i}:\n" for i in range(400)).encode()),
        Case("wide.yaml", ("a: [" + ",".join(["1"] * 250_000) + "]\n").encode()),
        Case("big.yaml", b"a: " + b"x" * 1_000_001 + b"\n"),
        Case("alias-bomb.yaml", _alias_bomb().encode()),
        Case("many-docs.yaml", b"---\na: 1\n---\nb: 2\n"),
        Case("markup-key.yaml", fcp.replace("adjacent_boxes: 2", '"x[/]": 2').encode()),
        Case("markup-game.yaml", fcp.replace("game: four-card-poker", 'game: "[/]"').encode()),
        Case("path-game.yaml", fcp.replace("game: four-card-poker", "game: ../../etc/x").encode()),
        Case(
            "list-offered.yaml", fcp.replace("offered: [", "offered: [[six_card_bonus], ").encode()
        ),
        Case("huge-min.yaml", fcp.replace("min_wager: 10", "min_wager: 1000000000000").encode()),
        Case("zero-min.yaml", fcp.replace("min_wager: 10", "min_wager: 0").encode()),
    ]
    log = play_log_line()
    cases += [
        Case("utf16.jsonl", (json.dumps(log) + "\n").encode("utf-16"), "log", whole=True),
        Case(
            "latin1.jsonl",
            (json.dumps(log, ensure_ascii=False) + "\n")
            .replace("basic", "basíc")
            .encode("latin-1"),
            "log",
        ),
        Case("deep.jsonl", ("[" * 100_000 + "]" * 100_000 + "\n").encode(), "log"),
        Case("digits.jsonl", ('{"round": ' + "9" * 5000 + "}\n").encode(), "log"),
        Case(
            "outside.jsonl", (json.dumps({**log, "rulesub": "/etc/passwd"}) + "\n").encode(), "log"
        ),
        Case(
            "dotdot.jsonl",
            (json.dumps({**log, "rulesub": "../../../../etc/hosts"}) + "\n").encode(),
            "log",
        ),
        Case(
            "nan.jsonl",
            (json.dumps(log).replace('"ante": 10', '"ante": NaN') + "\n").encode(),
            "log",
        ),
        Case(
            "two.jsonl",
            (json.dumps(log) + "\n" + json.dumps({**log, "round": 2}) + "\n").encode(),
            "log",
        ),
        Case("garbage.jsonl", b"{not json\n", "log"),
    ]
    rnd = (GOLDEN / "lunar-poker" / "01-second-combination-example.yaml").read_text()
    fcp_round = (GOLDEN / "four-card-poker" / "01-tie-goes-to-player.yaml").read_text()
    cases += [
        Case("outside-rulesub.yaml", (rnd + "rulesub: /etc/passwd\n").encode(), "round"),
        Case(
            "dotdot-rulesub.yaml", (rnd + "rulesub: ../../../../etc/hostname\n").encode(), "round"
        ),
        Case(
            "game-path.yaml",
            rnd.replace("game: lunar-poker", "game: ../games/lunar-poker").encode(),
            "round",
        ),
        *(
            Case(f"action-{label}.yaml", fcp_round.replace("play 1x", action).encode(), "round")
            for label, action in ACTIONS.items()
        ),
        Case(
            "seven-to-three.yaml",
            rnd.replace(
                "paytables: {super: A, instant_payout: A}",
                "paytables: {super: A, instant_payout: A}\n",
            ).encode(),
            "round",
        ),
    ]
    return cases


#: Actions a round file may hold that no table takes: each refused at its own line.
ACTIONS = {
    "huge-multiple": "play " + "9" * 5000 + "x",
    "full-width-digit": "play ２x",
    "arabic-indic-digit": "play ٢x",
    "negative-multiple": "play -1x",
    "fraction-multiple": "play 1.5x",
    "underscored-multiple": "play 1_0x",
    "markup": "play [/]x",
}


def _alias_bomb() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    return "\n".join(lines) + "\n"


def _mutation_sites(values: tuple[str, ...]) -> Iterator[tuple[Path, str, int, str]]:
    """Where ``mutations`` replaces a value, in its order: each file, key (one the file
    holds) and value's index, with the file's kind."""
    files = [(p, "submission", SUBMISSION_KEYS) for p in example_submissions()]
    files += [(p, "round", ROUND_KEYS) for p in golden_rounds()]
    for path, kind, keys in files:
        text = path.read_text(encoding="utf-8")
        for key in keys:
            if _replace_value(text, key, "") is not None:
                for i in range(len(values)):
                    yield path, key, i, kind


def _mutation(site: tuple[Path, str, int, str], values: tuple[str, ...]) -> Case:
    path, key, i, kind = site
    out = _replace_value(path.read_text(encoding="utf-8"), key, values[i])
    assert out is not None
    if kind == "round":
        return Case(f"{path.parent.name}.{path.stem}.{key}.{i}.yaml", out.encode("utf-8"), kind)
    return Case(f"{path.stem}.{key}.{i}.yaml", out.encode("utf-8"))


def mutations(values: tuple[str, ...] = HOSTILE_VALUES) -> Iterator[Case]:
    """Each example submission and golden round with one field replaced by each value."""
    for site in _mutation_sites(values):
        yield _mutation(site, values)


def sample_mutations(n: int, seed: int = 12) -> list[Case]:
    """``n`` mutations, half of submissions and half of round files, drawn at random from
    every file, field and value (deterministic for a seed): the draw made among the places
    of every mutation, and only the mutations drawn written out."""
    import random

    every = list(_mutation_sites(HOSTILE_VALUES))
    rng = random.Random(seed)
    rng.shuffle(every)
    subs = [site for site in every if site[3] == "submission"][: n - n // 2]
    rounds = [site for site in every if site[3] == "round"][: n // 2]
    return [_mutation(site, HOSTILE_VALUES) for site in subs + rounds]


# -- hypothesis strategies ----------------------------------------------------------------------


def _yaml_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a YAML double-quoted scalar


def _digits() -> st.SearchStrategy[str]:
    """Integers of up to 6,000 digits, as source text (hypothesis itself cannot print an
    ``int`` past Python's 4,300-digit conversion limit)."""
    return st.tuples(st.integers(1, 6000), st.sampled_from("-123456789")).map(
        lambda t: (t[1] if t[1] != "-" else "-9") + "0" * t[0]
    )


def hostile_values() -> st.SearchStrategy[str]:
    """A value as YAML source, drawn with no caps that would hide a defect."""
    return st.one_of(
        st.sampled_from(HOSTILE_VALUES),
        st.dates(min_value=__import__("datetime").date(1, 1, 1)).map(lambda d: f"{d:%Y-%m-%d}"),
        st.tuples(st.integers(0, 9999), st.integers(0, 99), st.integers(0, 99)).map(
            lambda t: f"{t[0]:04d}-{t[1]:02d}-{t[2]:02d}"
        ),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        _digits(),
        st.decimals(allow_nan=True, allow_infinity=True).map(lambda d: _yaml_str(f"${d}")),
        st.fractions().map(lambda f: _yaml_str(f"{f.numerator} to {f.denominator}")),
        st.text(max_size=200).map(_yaml_str),
        st.text(alphabet="[]/bold$%0123456789٥５,._-x ", max_size=40).map(_yaml_str),
        st.recursive(
            st.sampled_from(["1", "a", "null", "[]", "{}"]),
            lambda inner: st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
            max_leaves=80,
        ),
    )


@st.composite
def submissions(draw: st.DrawFn) -> Case:
    path = draw(st.sampled_from(example_submissions()))
    text = path.read_text(encoding="utf-8")
    key = draw(st.sampled_from([k for k in SUBMISSION_KEYS if re.search(rf"\b{k}:", text)]))
    out = _replace_value(text, key, draw(hostile_values()))
    assert out is not None
    return Case(f"{path.stem}.yaml", out.encode("utf-8"))


@st.composite
def round_files(draw: st.DrawFn) -> Case:
    path = draw(st.sampled_from([p for p in golden_rounds() if "poker/" not in str(p)]))
    text = path.read_text(encoding="utf-8")
    keys = [k for k in ROUND_KEYS if re.search(rf"\b{k}:", text)]
    out = _replace_value(text, draw(st.sampled_from(keys)), draw(hostile_values()))
    assert out is not None
    return Case(f"{path.stem}.yaml", out.encode("utf-8"), "round")


@st.composite
def log_lines(draw: st.DrawFn) -> Case:
    """A play log whose one record has one field replaced, in one of several encodings."""
    record: dict = play_log_line()
    field = draw(st.sampled_from(["rulesub", "game", "seats", "dealer", "deck", "round", "seed"]))
    value = draw(
        st.one_of(
            st.sampled_from(["/etc/passwd", "../../x.yaml", "x[/]", "", "٥٠"]).map(json.dumps),
            _digits(),
            st.text(max_size=100).map(lambda t: json.dumps(t, ensure_ascii=False)),
            st.recursive(
                st.none() | st.integers() | st.text(max_size=3),
                lambda c: st.lists(c, max_size=3),
                max_leaves=30,
            ).map(json.dumps),
        )
    )
    record[field] = "\x00VALUE\x00"
    text = json.dumps(record, ensure_ascii=False).replace('"\\u0000VALUE\\u0000"', value) + "\n"
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    return Case(
        "log.jsonl", text.encode(encoding, errors="replace"), "log", whole=encoding == "utf-16"
    )
