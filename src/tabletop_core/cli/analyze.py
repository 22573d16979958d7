"""``tabletop analyze``: a study of a game (seat advantage, length, branching, skill ladder, luck, drama,
restricted play) written as Markdown, PNG plots and JSON."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tabletop_core.cli.common import ALLOW_IMPORT_HELP, parse_options
from tabletop_core.errors import OptionError

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers

#: The largest ``--reading`` file read (a page of Markdown).
MAX_READING_BYTES = 1 << 20


def _budgets(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"budgets must read like 10,30,90, not {text!r}") from None
    if len(values) < 1 or min(values) < 1:
        raise argparse.ArgumentTypeError(f"budgets must be positive iteration counts, not {text!r}")
    return values


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    from tabletop_core.analysis.study import DEFAULT_BUDGETS, SECTIONS

    cmd = sub.add_parser("analyze", help="study a game: seat advantage, length, ladder, luck, drama, restricted play")
    cmd.add_argument("game", help="an installed game, or module:ATTR")
    cmd.add_argument(
        "--agents",
        nargs="+",
        metavar="SPEC",
        help="the studied agents: one spec for every seat or one per seat (default heuristic); "
        "SPEC as for simulate (random, first, heuristic, mcts:iterations=50, ismcts, module:Class)",
    )
    cmd.add_argument("--games", type=int, default=300, help="base games (default 300)")
    cmd.add_argument("--ladder-games", type=int, default=20, help="deals per ladder condition (default 20)")
    cmd.add_argument(
        "--budgets",
        type=_budgets,
        default=DEFAULT_BUDGETS,
        help=f"search iterations of the ladder's MCTS/ISMCTS (default {','.join(map(str, DEFAULT_BUDGETS))})",
    )
    cmd.add_argument("--ladder", nargs="+", metavar="SPEC", help="the ladder's agents instead of the default")
    cmd.add_argument("--allow-import-agent", action="store_true", help=ALLOW_IMPORT_HELP)
    cmd.add_argument("--drama-games", type=int, default=20, help="games that estimate their win chances (default 20)")
    cmd.add_argument("--drama-points", type=int, default=12, help="win-chance estimates per game (default 12)")
    cmd.add_argument(
        "--drama-rollouts",
        type=int,
        default=8,
        help="rollouts per estimate (default 8; below 32 the report warns that noise dominates)",
    )
    cmd.add_argument(
        "--luck-replicates",
        type=int,
        default=2,
        help="games of each ladder deal and condition, each with its own agent seed (default 2)",
    )
    cmd.add_argument("--restrict-games", type=int, default=100, help="games per restricted item (default 100)")
    cmd.add_argument(
        "--restrictions", metavar="MODULE:ATTR", default="", help="a restriction hook other than the game's"
    )
    cmd.add_argument("--sections", nargs="+", choices=SECTIONS, help="compute only these sections")
    cmd.add_argument("--seed", type=int, default=0, help="the study's seed")
    cmd.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    cmd.add_argument("--reading", type=Path, help="a Markdown file included as the report's reading")
    cmd.add_argument("--workers", type=int, default=1, help="worker processes, or Ray CPUs (default 1)")
    cmd.add_argument("--backend", choices=("local", "ray"), default="local", help="local process pool, or Ray")
    cmd.add_argument("--address", help="the Ray cluster to join (default: start a local Ray instance)")
    cmd.add_argument("--out", required=True, metavar="DIR", help="the report's folder (a new or empty one, or --force)")
    cmd.add_argument(
        "--force", action="store_true", help="replace an earlier study's files in DIR (analysis.json, report.md, ...)"
    )
    cmd.add_argument("--no-traces", action="store_true", help="do not write each game's trace (DIR/games.jsonl)")
    cmd.add_argument(
        "--rewrite",
        action="store_true",
        help="play nothing: recompute DIR's report from its analysis.json and games.jsonl (with --reading)",
    )
    cmd.add_argument("--quiet", action="store_true", help="no progress lines")
    cmd.set_defaults(func=run)


def check_out(folder: str, *, force: bool) -> None:
    """Check, before a game is played, that the study can be written to ``folder``: a folder (or nothing yet) in a
    writable folder, which holds no earlier study's files unless ``force`` says to replace them.

    Raises:
        OptionError: naming the folder and what is in the way.
    """
    from tabletop_core.analysis.report import PLOTS
    from tabletop_core.cli.common import check_output

    out = Path(folder)
    if os.path.lexists(out) and not out.is_dir():
        raise OptionError(f"--out {folder}: not a folder; name a folder for the study")
    if not out.is_dir():
        parent = out.parent
        while not parent.is_dir() and parent != parent.parent:  # the study makes the missing folders
            parent = parent.parent
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OptionError(f"--out {folder}: the folder {parent} is not writable")
        return
    names = ("analysis.json", "games.jsonl", "report.md", *PLOTS.values())
    earlier = [name for name in names if os.path.lexists(out / name)]
    if earlier and not force:
        shown = ", ".join(earlier[:4]) + (", ..." if len(earlier) > 4 else "")
        raise OptionError(
            f"--out {folder}: holds an earlier study ({shown}); give --force to replace it, or another folder"
        )
    for name in names:  # each file the study writes: a folder in the way, or a folder that cannot take it
        check_output(str(out / name), force=True, what="--out")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Plan, play and write the report."""
    from tabletop_core.analysis.report import write_report
    from tabletop_core.analysis.study import SECTIONS, Study, run_study
    from tabletop_core.cli.simulate import _Plain

    reading = ""
    if args.reading is not None:
        from tabletop_core.files import read_regular

        reading = read_regular(args.reading, max_bytes=MAX_READING_BYTES).decode("utf-8", "replace")
    if args.rewrite:
        from tabletop_core.analysis.report import rewrite_report

        # What analysis.json names is trusted only as far as this command line repeats it (see rewrite_report).
        paths = rewrite_report(
            args.out,
            reading=reading,
            traces=not args.no_traces,
            game=args.game,
            restrictions=args.restrictions,
            allow_import=bool(args.allow_import_agent),
        )
        if not args.quiet:
            out.write(f"rewrote {', '.join(p.name for p in paths)} in {args.out}\n")
        return 0
    study = Study.build(
        args.game,
        args.agents,
        games=args.games,
        budgets=args.budgets,
        ladder=args.ladder,
        options=parse_options(args.option or []),
        ladder_games=args.ladder_games,
        drama_games=args.drama_games,
        drama_points=args.drama_points,
        drama_rollouts=args.drama_rollouts,
        restrict_games=args.restrict_games,
        luck_replicates=args.luck_replicates,
        restrictions=args.restrictions,
        seed=args.seed,
        allow_import=bool(args.allow_import_agent),
        sections=tuple(args.sections or SECTIONS),
    )
    check_out(args.out, force=bool(getattr(args, "force", False)))  # before a game is played
    if not args.quiet:
        out.write(f"{args.game}: agents {', '.join(study.agents)}; ladder {', '.join(study.ladder)} -> {args.out}\n")
    try:
        result, traces = run_study(
            study,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            progress=None if args.quiet else _Plain(out),
        )
    except ImportError as exc:
        raise OptionError(f"analyze needs the sim extra (SciPy, statsmodels): {exc}") from exc
    paths = write_report(result, args.out, traces=() if args.no_traces else traces, reading=reading)
    if not args.quiet:
        out.write(
            f"{result['games_played']} games in {result['seconds']:.1f} s; wrote {', '.join(p.name for p in paths)}\n"
        )
    return 0
