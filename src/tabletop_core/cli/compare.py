"""``tabletop compare GAME``: variants (packs, options, agents) played on the same deals, measure by measure."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop_core.cli.common import (
    add_where_arguments,
    check_output,
    confidence,
    non_negative,
    parse_options,
    positive,
)
from tabletop_core.errors import OptionError

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers
    from tabletop_core.design.compare import Comparison, Variant
    from tabletop_core.game import Game

__all__ = ["add_parser", "print_comparison", "run", "variants_of"]

EXAMPLE = """examples:
  tabletop compare unbroken --pack tougher-kobold.toml --games 400
  tabletop compare unbroken --set difficulty=normal --set difficulty=hard --measure win --measure lethality:
  tabletop compare unrest --agents heuristic --agents ismcts:iterations=50 --games 100"""


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    p = sub.add_parser(
        "compare",
        help="play variants (packs, options, agents) on the same deals and compare them measure by measure",
        description="Play two or more variants of a game on the same deals (the same seeds for chance and for the "
        "agents) and report, per measure, each variant's value against the first, the paired difference with its "
        "bootstrap interval, the paired test's p-value and its Holm and Benjamini-Hochberg adjustments. Given one "
        "variant, the unchanged game is the baseline.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help="an installed game (tabletop list)")
    p.add_argument(
        "--pack",
        action="append",
        default=[],
        metavar="FILE",
        help="a variant playing this content pack ('default' for the built-in one); repeat for more",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="sets",
        help="a variant with this option changed; repeat for more",
    )
    p.add_argument(
        "--agents",
        action="append",
        default=[],
        metavar="SPEC",
        help="a variant with this agent in every seat, or 'SEAT=SPEC;SEAT=SPEC'; repeat for more",
    )
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="an option of every variant")
    p.add_argument("--games", type=positive, default=200, help="deals each variant plays (default 200)")
    p.add_argument("--seed", type=non_negative, default=0, help="the comparison's seed (default 0)")
    p.add_argument(
        "--measure",
        action="append",
        default=[],
        metavar="NAME",
        help="only this measure (a name, or a prefix ending in ':'); repeat for more",
    )
    p.add_argument("--confidence", type=confidence, default=0.95, help="of every interval (default 0.95)")
    add_where_arguments(p)
    p.add_argument("--json", metavar="FILE", help="also write the whole comparison as JSON")
    p.add_argument("--force", action="store_true", help="overwrite the --json file")
    p.set_defaults(func=run)


def _agents_variant(text: str, game: Game[Any, Any, Any]) -> Variant:
    from tabletop_core.agents.specs import resolve_seat, seat_names
    from tabletop_core.design.compare import Variant

    state = game.initial_state(game.make_options())
    names = seat_names(game, state)
    head = text.split(";", 1)[0].partition("=")[0].strip()
    if ";" in text or (":" not in head and head in {*names, *map(str, range(len(names)))}):
        specs: dict[int, str] = {}
        for part in text.split(";"):
            seat, _, spec = part.partition("=")
            specs[resolve_seat(seat.strip(), names)] = spec.strip()
        missing = [names[s] for s in range(len(names)) if s not in specs]
        if missing:
            raise OptionError(f"--agents {text!r}: no agent for {', '.join(missing)}")
        agents = tuple(specs[s] for s in range(len(names)))
    else:
        agents = (text,) * len(names)
    return Variant(text, agents=agents)


def variants_of(args: argparse.Namespace, game: Game[Any, Any, Any]) -> list[Variant]:
    """The variants the options name (the unchanged game first when only one is named)."""
    from tabletop_core.design.compare import Variant

    out: list[Variant] = []
    for pack in args.pack:
        if pack == "default":
            out.append(Variant("default"))
            continue
        path = Path(pack)
        if not path.exists():
            raise OptionError(f"--pack {pack}: no such file or folder")
        out.append(Variant(path.name, (("pack", path),)))
    for text in args.sets:
        out.append(Variant(text, tuple(parse_options([text]).items())))
    for text in args.agents:
        out.append(_agents_variant(text, game))
    if len(out) == 1:
        out.insert(0, Variant("unchanged"))
    if len(out) < 2:
        raise OptionError("name at least one variant: --pack FILE, --set KEY=VALUE or --agents SPEC")
    return out


def _num(x: float | None, digits: int = 3) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}g}"


def print_comparison(result: Comparison, out: TextIO) -> None:
    """The comparison's tables, one per variant after the first."""
    from rich.table import Table

    from tabletop_core.cli.report import console

    con = console(out)
    alpha = 1 - result.confidence
    base = result.variants[0].label
    for variant, rows, cut in zip(result.variants[1:], result.rows_by_variant, result.incomplete[1:], strict=True):
        t = Table(title=f"{variant.label} against {base}: {result.games} paired deals, seed {result.seed}")
        for col in (
            "measure",
            base,
            variant.label,
            "difference",
            f"{100 * result.confidence:g}% interval",
            "test",
            "p",
            "Holm",
            "BH",
            "",
        ):
            t.add_column(col, justify="left" if col in ("measure", "test") else "right")
        for r in rows:
            called = r.p_holm is not None and r.p_holm < alpha
            t.add_row(
                r.measure,
                _num(r.a),
                _num(r.b),
                _num(r.diff),
                "-" if r.low is None else f"{_num(r.low)} to {_num(r.high)}",
                r.test,
                _num(r.p, 2),
                _num(r.p_holm, 2),
                _num(r.p_bh, 2),
                "differs" if called else "",
            )
        con.print(t)
        if cut or result.incomplete[0]:
            con.print(f"{cut + result.incomplete[0]} games hit the length limit; their deals are left out")
    con.print(
        f"Paired: every variant played deal d with the same agent and chance seeds. 'differs' marks a Holm-adjusted "
        f"p below {alpha:g} across the {len(result.rows)} measures shown; a measure of few games says 'too few deals'."
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    from tabletop_core.design.compare import compare
    from tabletop_core.files import atomic_write_text
    from tabletop_core.registry import installed_game

    target = check_output(args.json, force=args.force, what="--json") if args.json else None
    game = installed_game(args.game)
    result = compare(
        args.game,
        variants_of(args, game),
        games=args.games,
        seed=args.seed,
        options=parse_options(args.option),
        confidence=args.confidence,
        workers=args.workers,
        backend=args.backend,
        address=args.address,
        measures=args.measure or None,
    )
    print_comparison(result, out)
    if target is not None:
        atomic_write_text(target, json.dumps(result.to_dict(), indent=1, sort_keys=True) + "\n")
        out.write(f"wrote {target}\n")
    return 0
