"""``tabletop tune GAME``: search a content pack's free numbers toward balance targets, or an agent's parameters
against a reference agent or the exact regret (Optuna)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop_core.cli.common import add_where_arguments, check_output, positive
from tabletop_core.errors import OptionError

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers

__all__ = ["add_parser", "agent_tuning_of", "run"]


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    p = sub.add_parser(
        "tune", help="tune a content pack's free numbers toward balance targets, or an agent's parameters"
    )
    p.add_argument("game", help="an installed game (tabletop list)")
    p.add_argument("--targets", metavar="FILE", help="the targets file: [free] and [[target]], or [agent]")
    p.add_argument("--agent", metavar="SPEC", help="tune this agent (its parameters as written are the start)")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=LOW:HIGH[:log]",
        help="a free parameter of --agent (repeatable): a range (whole numbers when both bounds are), or "
        "NAME=A|B|C, one of some words",
    )
    p.add_argument(
        "--against",
        default="heuristic",
        metavar="SPEC|exact",
        help="with --agent: the reference agent in the same seat on the same deals (default heuristic), or exact "
        "(the game's exact regret)",
    )
    p.add_argument("--seat", type=int, default=0, help="with --agent: the seat it plays (default 0)")
    p.add_argument("--measure", choices=("win", "return"), default="win", help="with --agent: what it is judged by")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="with --agent: a game option")
    p.add_argument("--seeds", required=True, metavar="START:END", help="the tuning deals (END excluded)")
    p.add_argument(
        "--held-out",
        metavar="START:END",
        help="for an agent: then measure the start and the tuned agent on these deals (refused when they share "
        "seeds with --seeds)",
    )
    p.add_argument("--trials", type=positive, default=40, help="finished trials the study should hold (default 40)")
    p.add_argument("--out", required=True, metavar="FILE", help="the tuned pack or agent file to write (a .toml)")
    p.add_argument(
        "--storage",
        metavar="URL",
        help="the Optuna storage of the study (default: sqlite:///OUT.optuna.db beside --out); name the same "
        "URL and --study in several processes to tune one study together",
    )
    p.add_argument("--study", default="tabletop-tune", metavar="NAME", help="the study's name in the storage")
    p.add_argument("--seed", type=int, default=0, help="the sampler's seed (default 0)")
    add_where_arguments(p, "each trial's games")
    p.add_argument("--force", action="store_true", help="overwrite --out and its report")
    p.set_defaults(func=run)


def _param_doc(text: str) -> tuple[str, Any]:
    """``NAME=LOW:HIGH[:log]`` or ``NAME=A|B`` as a ``[agent.free]`` entry."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip() or not raw.strip():
        raise OptionError(f"--param {text!r}: write NAME=LOW:HIGH, NAME=LOW:HIGH:log or NAME=A|B")
    if ":" not in raw:
        return name.strip(), [part.strip() for part in raw.split("|")]
    parts = raw.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "log"):
        raise OptionError(f"--param {text!r}: write NAME=LOW:HIGH or NAME=LOW:HIGH:log")
    bounds: list[Any] = []
    for part in parts[:2]:
        try:
            bounds.append(int(part) if part.strip().lstrip("-").isdigit() else float(part))
        except ValueError:
            raise OptionError(f"--param {text!r}: {part!r} is not a number") from None
    return name.strip(), bounds + parts[2:]


def agent_tuning_of(args: argparse.Namespace) -> Any:
    """The agent tuning the command line (or its targets file) describes, or ``None`` for a pack tuning.

    Raises:
        OptionError: both or neither of --targets and --agent, a file for another game, a bad --param.
    """
    from tabletop_core.cli.common import parse_options
    from tabletop_core.design.bots import parse_agent_tuning
    from tabletop_core.design.targets import read_targets_document

    if bool(args.targets) == bool(args.agent):
        raise OptionError("give --targets FILE, or --agent SPEC with --param NAME=LOW:HIGH (one of the two)")
    if args.agent:
        if not args.param:
            raise OptionError("--agent needs at least one --param NAME=LOW:HIGH to tune")
        doc: dict[str, Any] = {
            "game": args.game,
            "options": parse_options(args.set),
            "agent": {
                "spec": args.agent,
                "free": dict(_param_doc(p) for p in args.param),
                "against": args.against,
                "seat": args.seat,
                "measure": args.measure,
            },
        }
        return parse_agent_tuning(doc, "of the command line")
    doc = read_targets_document(args.targets)
    if "agent" not in doc:
        return None
    tuning = parse_agent_tuning(doc, args.targets)
    if tuning.game != args.game:
        raise OptionError(f"--targets {args.targets} is for {tuning.game!r}, not {args.game!r}")
    return tuning


def run(args: argparse.Namespace, out: TextIO) -> int:
    from tabletop_core.cli.common import targets_for, terminal_progress
    from tabletop_core.design.targets import parse_seeds
    from tabletop_core.files import atomic_write_text

    tuning = agent_tuning_of(args)
    seeds = parse_seeds(args.seeds)
    held = parse_seeds(args.held_out) if args.held_out else None
    if tuning is None and held is not None:
        raise OptionError("--held-out measures a tuned agent; certify a pack with tabletop certify")
    if held is not None:
        from tabletop_core.design.bots import held_out

        held_out(seeds, 0, held)  # refused before any game is played
    pack = check_output(args.out, force=args.force, what="--out")
    report = check_output(str(pack.with_suffix(".tune.md")), force=args.force, what="the report")
    data = check_output(str(pack.with_suffix(".tune.json")), force=args.force, what="the report")
    storage = args.storage or default_storage(pack)
    where = {"workers": args.workers, "backend": args.backend, "address": args.address}
    common: dict[str, Any] = {"trials": args.trials, "storage": storage, "study_name": args.study}
    with terminal_progress(out, "tuning", "trials") as progress:
        if tuning is None:
            from tabletop_core.design.tune import tune

            targets = targets_for(args.targets, args.game)
            result: Any = tune(targets, seeds, **common, **where, sampler_seed=args.seed, progress=progress)
        else:
            from tabletop_core.design.bots import tune_agent

            result = tune_agent(tuning, seeds, **common, **where, sampler_seed=args.seed, progress=progress)
    if tuning is None:
        from tabletop_core.design.tune import tuned_pack_text
        from tabletop_core.registry import installed_game

        text = tuned_pack_text(installed_game(args.game), result)
    else:
        from tabletop_core.design.bots import tuned_agent_text

        text = tuned_agent_text(result)
    doc = {**result.to_dict(), "storage": storage, "study": args.study}
    shown = result.report()
    if held is not None:
        from tabletop_core.design.bots import measure_agents

        rows = measure_agents(tuning, [result.spec, result.tuned_spec], held, tuned=seeds, **where)
        doc["held_out"] = {
            "seeds": [held.start, held.stop],
            "agents": [{"spec": s, "loss": loss, "standard_error": se} for s, loss, se in rows],
        }
        shown += f"\nOn the held-out deals {held.start}:{held.stop}:\n\n"
        shown += "| agent | loss | standard error |\n|---|---:|---:|\n"
        shown += "".join(f"| `{s}` | {loss:.4g} | {se:.2g} |\n" for s, loss, se in rows)
    atomic_write_text(pack, text)
    atomic_write_text(report, shown)
    atomic_write_text(data, json.dumps(doc, indent=1) + "\n")
    out.write(shown)
    if tuning is None:
        out.write(
            f"\nwrote {pack} (tuned on deals {seeds.start}:{seeds.stop}), {report} and {data}; the study is in "
            f"{storage}\ncertify it on other deals: tabletop certify {args.game} --pack {pack} --targets "
            f"{args.targets} --seeds {seeds.stop}:{seeds.stop + max(len(seeds), 1000)}\n"
        )
    else:
        out.write(
            f"\nwrote {pack} (the agent `{result.tuned_spec}`, tuned on deals {seeds.start}:{seeds.stop}), {report} "
            f"and {data}; the study is in {storage}\n"
        )
    return 0


def default_storage(pack: Path) -> str:
    """The study's storage when none is named: a SQLite file beside the output file."""
    return f"sqlite:///{pack.with_suffix('.optuna.db').resolve()}"
