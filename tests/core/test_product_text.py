"""The product's text speaks of the product, not of how it was built.

Docs, the README, the sources, the tests, the examples and the benchmarks are read by users and contributors, who
have no use for the work log behind them: which work period changed what, which tracker entry set a figure to
reach, or who did the work. History goes to ``CHANGELOG.md`` (not scanned here) and to git.

Each rule below is a regular expression over one line of text. The words the rules look for are assembled from
pieces, so that this file does not match itself. ``ALLOWED`` lists the few lines that use one of the words in
another sense, each with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: What is scanned: every text file under these folders (``docs`` only its pages and notebooks), and the README.
FOLDERS = ("src", "tests", "examples", "benchmarks")
DOC_SUFFIXES = frozenset({".md", ".ipynb"})
TEXT_SUFFIXES = frozenset(
    {".py", ".pyi", ".md", ".txt", ".toml", ".json", ".jsonl", ".c", ".h", ".css", ".ipynb", ".cfg", ".yml", ".yaml"}
)
SKIPPED_DIRS = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})

_S = "ses" + "sion"  # the word, in pieces so that this file does not match itself
_ORDINALS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth"
    "|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|[0-9]+(?:st|nd|rd|th)"
)
_ISSUE = "iss" + "ue"
_ENGINEER = "engi" + "neer"
_FOUNDER = "foun" + "der"
_HELPER = "hel" + "per"

#: name -> pattern (case-insensitive), each about one way the text can speak of the work rather than the product.
RULES: dict[str, re.Pattern[str]] = {
    # a work period named by its ordinal or as this, last, next, ... one (the examples are in the self-test below)
    "work period": re.compile(
        rf"\b(?:{_ORDINALS}|this|last|previous|next|earlier|later|same|work|agent|{_HELPER})\s+{_S}s?\b", re.I
    ),
    # work periods by number
    "numbered work period": re.compile(rf"\b{_S}s?\s+[0-9]+\b", re.I),
    # test files and branches named after a work period
    "file named after a work period": re.compile(
        r"\b\w+_s[0-9]+(?:\.py)?\b|\bs[0-9]+-(?:core|unbroken|unrest|runebound\w*)\b", re.I
    ),
    # a tracker entry by number, with or without "#"
    "tracker entry": re.compile(rf"\b{_ISSUE}s?\s*#?[0-9]+", re.I),
    # the tracker entry as the source of a target
    "the tracker's targets": re.compile(
        rf"\bthe\s+{_ISSUE}(?:'s|s')|\bthe\s+{_ISSUE}\s+(?:asks|says|wants|requires|sets|names)\b", re.I
    ),
    # a test named for a numbered point of a tracker entry rather than for what it checks
    "test named for a numbered point": re.compile(r"\btest_(?:point|item|req(?:uirement)?)_?[0-9]+", re.I),
    # the people who built it
    "the builders": re.compile(
        rf"\b{_ENGINEER}s?\b|\bthe\s+{_FOUNDER}s?\b|\bagent\s+{_S}s?\b"
        rf"|\b{_HELPER}s?(?:'s|')?\s+(?:{_S}|work|wrote|did|made|measured|found|ran|tried|changed|owns?)\b",
        re.I,
    ),
}

#: (path relative to the root, rule name, text the matched line contains) -> why the line may stay.
ALLOWED: dict[tuple[str, str, str], str] = {}


def product_files() -> Iterator[Path]:
    """Every file whose text is the product's: the README, the docs' pages, and text files of the code folders."""
    readme = ROOT / "README.md"
    if readme.is_file():
        yield readme
    docs = ROOT / "docs"
    if docs.is_dir():
        yield from sorted(p for p in docs.rglob("*") if p.suffix in DOC_SUFFIXES and _kept(p))
    for folder in FOLDERS:
        base = ROOT / folder
        if base.is_dir():
            yield from sorted(p for p in base.rglob("*") if p.suffix in TEXT_SUFFIXES and _kept(p))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _kept(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return path.is_file() and not any(p in SKIPPED_DIRS or p.endswith(".egg-info") for p in parts)


def hits(path: Path) -> Iterator[tuple[int, str, str, str]]:
    """(line number, rule, matched text, line) for every match in ``path`` that is not allowed."""
    rel = path.relative_to(ROOT).as_posix()
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError:
        return
    for number, line in enumerate(text.splitlines(), 1):
        for name, rule in RULES.items():
            for match in rule.finditer(line):
                if not any(r == rel and n == name and s in line for (r, n, s) in ALLOWED):
                    yield number, name, match.group(0), line


def test_the_scan_reads_the_product() -> None:
    """The scan finds the folders it is meant to read (a moved folder would otherwise pass silently)."""
    scanned = {p.relative_to(ROOT).as_posix() for p in product_files()}
    for expected in ("README.md", "docs/index.md", "src/tabletop_core/flow.py", "tests/core/test_product_text.py"):
        assert expected in scanned, expected
    assert not any(p.startswith("CHANGELOG") for p in scanned)


def test_the_rules_catch_the_work_log_and_spare_the_other_senses() -> None:
    caught = [
        f"the ninth {_S} measured",
        f"Before and after (fifth {_S})",
        f"as in this {_S}",
        f"{_S}s 3-5",
        "see tests/unbroken/test_speed_" + "s9.py",
        "merged from s16" + "-unbroken",
        f"{_ISSUE} 31 asks",
        f"({_ISSUE} #12)",
        f"the {_ISSUE}'s targets",
        f"while four {_ENGINEER}s' work kept the machine busy",
        f"the {_FOUNDER} wanted",
        f"an agent {_S} wrote this",
        f"the Runebound {_HELPER}s wrote out the copies",
        "def test_" + "point_13_a_proof_counts_the_cards() -> None:",
    ]
    spared = [
        f"a {_S} of bots only",  # the command line's saved game (tabletop_core.cli.session)
        f'@pytest.fixture(scope="{_S}")',
        f"start_new_{_S}=True",
        f"async with {_S}maker() as {_S}:",  # a database session
        f"Show a shell {_S} as `sh`",
        "the agent plays every seat",
        "the state's small helpers",
        f"an {_ISSUE} of the game's rules",
        "s0 = do(s0, 'attack')",
        "def test_points_are_scored_at_the_end() -> None:",
    ]
    for text in caught:
        assert any(rule.search(text) for rule in RULES.values()), text
    for text in spared:
        assert not [name for name, rule in RULES.items() if rule.search(text)], text


def test_no_product_text_speaks_of_how_it_was_built() -> None:
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{number}: [{name}] {matched!r}: {line.strip()[:160]}"
        for path in product_files()
        for number, name, matched, line in hits(path)
    ]
    named = RULES["file named after a work period"]
    found += [f"{rel}: [the file's own name]" for rel in map(_relative, product_files()) if named.search(rel)]
    assert not found, f"{len(found)} lines speak of how the product was built:\n" + "\n".join(found)


def test_every_allowed_line_is_still_there() -> None:
    """An allowance whose line is gone is removed, so the list stays the few lines it has reasons for."""
    for rel, name, text in ALLOWED:
        path = ROOT / rel
        assert path.is_file(), rel
        lines = path.read_text("utf-8").splitlines()
        assert any(text in line and RULES[name].search(line) for line in lines), (rel, name, text)
