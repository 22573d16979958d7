"""``tabletop tune GAME --targets FILE``: search a content pack's free numbers toward balance targets (Optuna)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tabletop_core.cli.common import add_where_arguments, check_output, positive, targets_for

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    p = sub.add_parser("tune", help="tune a content pack's free numbers toward balance targets")
    p.add_argument("game", help="an installed game whose content is TOML (tabletop list)")
    p.add_argument("--targets", required=True, metavar="FILE", help="the targets file (free fields and targets)")
    p.add_argument("--seeds", required=True, metavar="START:END", help="the tuning deals (END excluded)")
    p.add_argument("--trials", type=positive, default=40, help="finished trials the study should hold (default 40)")
    p.add_argument("--out", required=True, metavar="PACK", help="the tuned pack file to write (a .toml)")
    p.add_argument(
        "--storage",
        metavar="URL",
        help="the Optuna storage of the study (default: sqlite:///PACK.optuna.db beside --out); name the same "
        "URL and --study in several processes to tune one study together",
    )
    p.add_argument("--study", default="tabletop-tune", metavar="NAME", help="the study's name in the storage")
    p.add_argument("--seed", type=int, default=0, help="the sampler's seed (default 0)")
    add_where_arguments(p, "each trial's games")
    p.add_argument("--force", action="store_true", help="overwrite --out and its report")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from tabletop_core.cli.common import terminal_progress
    from tabletop_core.design.targets import parse_seeds
    from tabletop_core.design.tune import tune, tuned_pack_text
    from tabletop_core.files import atomic_write_text
    from tabletop_core.registry import installed_game

    targets = targets_for(args.targets, args.game)
    game = installed_game(args.game)
    seeds = parse_seeds(args.seeds)
    pack = check_output(args.out, force=args.force, what="--out")
    report = check_output(str(pack.with_suffix(".tune.md")), force=args.force, what="the report")
    data = check_output(str(pack.with_suffix(".tune.json")), force=args.force, what="the report")
    storage = args.storage or default_storage(pack)
    with terminal_progress(out, "tuning", "trials") as progress:
        result = tune(
            targets,
            seeds,
            trials=args.trials,
            storage=storage,
            study_name=args.study,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            sampler_seed=args.seed,
            progress=progress,
        )
    atomic_write_text(pack, tuned_pack_text(game, result))
    atomic_write_text(report, result.report())
    atomic_write_text(data, json.dumps({**result.to_dict(), "storage": storage, "study": args.study}, indent=1) + "\n")
    out.write(result.report())
    out.write(
        f"\nwrote {pack} (tuned on deals {seeds.start}:{seeds.stop}), {report} and {data}; the study is in "
        f"{storage}\ncertify it on other deals: tabletop certify {args.game} --pack {pack} --targets {args.targets} "
        f"--seeds {seeds.stop}:{seeds.stop + max(len(seeds), 1000)}\n"
    )
    return 0


def default_storage(pack: Path) -> str:
    """The study's storage when none is named: a SQLite file beside the pack."""
    return f"sqlite:///{pack.with_suffix('.optuna.db').resolve()}"
