"""Write the OpenSpiel playthrough of every game and variant (``make playthroughs``).

``python -m tests.adapters.playthroughs.record`` rewrites every ``*.txt`` beside this module (and removes those of
variants no longer tested); ``--check`` only reports which differ. A playthrough is OpenSpiel's
``generate_playthrough.playthrough`` of the game string with a fixed seed, each long line shortened by
:func:`shorten`; the test replays the recorded actions and compares the whole text.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

from open_spiel.python.algorithms import generate_playthrough

from tabletop_core.adapters import openspiel
from tests.adapters.games import Case, cases

__all__ = ["DIRECTORY", "LONG", "actions_of", "main", "playthrough", "playthrough_cases", "shorten"]

DIRECTORY = Path(__file__).resolve().parent
#: Lines longer than this many characters are shortened (tensors that are not all 0/1 print as float lists).
LONG = 2000
_KEEP = 120


def shorten(text: str) -> str:
    """``text`` with each line over :data:`LONG` characters cut to its opening, its length and a SHA-256 digest.

    >>> shorten("a = [" + "0.5, " * 500 + "]").startswith("a = [0.5, 0.5,")
    True
    """
    lines = []
    for line in text.splitlines():
        if len(line) > LONG:
            digest = hashlib.sha256(line.encode()).hexdigest()[:32]
            lines.append(f"{line[:_KEEP]}... ({len(line)} characters, sha256 {digest})")
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def playthrough_cases() -> dict[str, Case]:
    """Every tested (game, variant), by the stem of its playthrough file."""
    out: dict[str, Case] = {}
    seen: dict[str, int] = {}
    for case in cases():
        k = seen.get(case.name, 0)
        seen[case.name] = k + 1
        out[case.name if k == 0 else f"{case.name}-{k}"] = case
    return out


def playthrough(case: Case, actions: list[int] | None = None, *, seed: int = 1) -> str:
    """The (shortened) playthrough of ``case``: random actions from ``seed``, or ``actions`` where given."""
    game = openspiel.load(case.game, **case.options)
    return shorten(generate_playthrough.playthrough(str(game), actions, seed=seed))


def actions_of(text: str) -> tuple[str, list[int]]:
    """The game string and the action ids a playthrough recorded."""
    game = re.search(r"^game: (.*)$", text, re.MULTILINE)
    if game is None:
        raise ValueError("not a playthrough: no 'game:' line")
    return game.group(1), [int(a) for a in re.findall(r"^action: (-?\d+)$", text, re.MULTILINE)]


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or, with ``--check``, compare) every playthrough; return 1 if ``--check`` found a difference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    args = parser.parse_args(argv)
    wanted = playthrough_cases()
    differ = 0
    for stem, case in wanted.items():
        path = DIRECTORY / f"{stem}.txt"
        text = playthrough(case, seed=1 + sum(map(ord, stem)))
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        differ += 1
        print(f"{'differs' if args.check else 'wrote'}: {path.name} ({case.id})")
        if not args.check:
            path.write_text(text, encoding="utf-8")
    for path in sorted(DIRECTORY.glob("*.txt")):
        if path.stem not in wanted:
            differ += 1
            print(f"{'stale' if args.check else 'removed'}: {path.name}")
            if not args.check:
                path.unlink()
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
