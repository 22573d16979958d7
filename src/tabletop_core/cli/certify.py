"""``tabletop certify GAME --targets FILE --seeds RANGE``: decide each balance target on deals nobody tuned on."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tabletop_core.cli.common import add_where_arguments, check_output, confidence, positive, targets_for
from tabletop_core.errors import OptionError

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers

__all__ = ["add_parser", "run"]

#: The exit status when some target fails or stays undecided (0: every target passes; 2: a usage error).
NOT_CERTIFIED = 1


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    p = sub.add_parser("certify", help="decide each balance target on held-out deals (pass, fail or undecided)")
    p.add_argument("game", help="an installed game (tabletop list)")
    p.add_argument("--targets", required=True, metavar="FILE", help="the targets file")
    p.add_argument("--seeds", required=True, metavar="START:END", help="the held-out deals (END excluded)")
    p.add_argument("--pack", metavar="FILE", help="the content pack to certify (default: the built-in one)")
    p.add_argument("--confidence", type=confidence, default=0.95, help="of the certificate as a whole (default 0.95)")
    p.add_argument("--resamples", type=positive, default=2000, help="bootstrap resamples (default 2000)")
    add_where_arguments(p)
    p.add_argument("--json", metavar="FILE", help="also write the verdicts and their evidence as JSON")
    p.add_argument("--force", action="store_true", help="overwrite the --json file")
    p.set_defaults(func=run)


def _num(x: float) -> str:
    return "-" if math.isnan(x) else "inf" if math.isinf(x) else f"{x:.4g}"


def run(args: argparse.Namespace, out: TextIO) -> int:
    from rich.markup import escape
    from rich.table import Table

    from tabletop_core.cli.report import console
    from tabletop_core.design.certify import certify
    from tabletop_core.design.targets import parse_seeds
    from tabletop_core.files import atomic_write_text

    targets = targets_for(args.targets, args.game)
    seeds = parse_seeds(args.seeds)
    pack = Path(args.pack) if args.pack else None
    if pack is not None and not pack.exists():
        raise OptionError(f"--pack {args.pack}: no such file or folder")
    target = check_output(args.json, force=args.force, what="--json") if args.json else None
    verdicts = certify(
        targets,
        seeds,
        pack=pack,
        confidence=args.confidence,
        resamples=args.resamples,
        workers=args.workers,
        backend=args.backend,
        address=args.address,
    )
    cells = len(targets.cells())
    table = Table(
        title=f"{args.game}, {args.pack or 'built-in pack'}: {len(seeds)} deals ({seeds.start}:{seeds.stop}) in each "
        f"of {cells} cells, {', '.join(targets.agents) or 'the game bots'}"
    )
    for col in ("target", "bounds", "estimate", "interval", "verdict"):
        table.add_column(col, justify="right" if col in ("estimate", "interval") else "left")
    for v in verdicts:
        # a label such as "[difficulty=easy]" is text, not Rich markup
        table.add_row(escape(v.target), v.bounds, _num(v.estimate), f"{_num(v.low)} to {_num(v.high)}", v.verdict)
    con = console(out)
    con.print(table)
    passed = all(v.verdict == "pass" for v in verdicts)
    con.print(
        f"Each bound is one-sided at {1 - (1 - args.confidence) / len(verdicts):.4g} (Bonferroni over the "
        f"{len(verdicts)} targets), resampled by deal: the certificate holds jointly at {args.confidence:g}. "
        + (
            "Certified: every target passes."
            if passed
            else "Not certified: a target fails or more deals would decide it."
        )
    )
    if target is not None:
        doc = {
            "game": args.game,
            "pack": args.pack,
            "targets": args.targets,
            "agents": list(targets.agents),
            "seeds": [seeds.start, seeds.stop],
            "cells": [dict(cell) for cell in targets.cells()],
            "games": len(seeds) * cells,
            "confidence": args.confidence,
            "resamples": args.resamples,
            "certified": passed,
            "verdicts": [v.to_dict() for v in verdicts],
        }
        atomic_write_text(target, json.dumps(doc, indent=1, allow_nan=True) + "\n")
        out.write(f"wrote {target}\n")
    return 0 if passed else NOT_CERTIFIED
