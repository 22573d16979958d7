"""What ``tabletop COMMAND --help`` says: a description in the player's words and examples that run as shown.

Each command keeps its arguments' help beside its arguments; the description and the examples of every command
are here, in one place, so that they read as one voice and a test can check every one of them.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers

__all__ = ["COMMAND_HELP", "apply"]

#: Per command: its description (a first sentence that stands alone, then any detail) and its examples.
COMMAND_HELP: dict[str, tuple[str, tuple[str, ...]]] = {
    "list": (
        "List the installed games: the name the other commands take, the title, the players and whether any "
        "information is hidden.",
        ("tabletop list",),
    ),
    "options": (
        "List a game's options: each one's type, default, allowed values, an example and what it changes. Give "
        "them to play, check, simulate, analyze and compare as --option KEY=VALUE; a list takes comma-separated "
        "values.",
        ("tabletop options unbroken", "tabletop play unbroken --option difficulty=hard --option character=hunter"),
    ),
    "demo": (
        "Watch the game's own bots play a seeded game of every installed title (or of the titles named), printed "
        "move by move with every hidden card shown.",
        ("tabletop demo", "tabletop demo unrest --seed 3", "tabletop demo --quiet"),
    ),
    "play": (
        "Play a game at the table: you take a seat and bots take the others. A one-player game seats you; in a "
        "game of several seats you take seat 0 unless --seat names another. Without a terminal to play from, or "
        "with --bots, bots play every seat and the game is printed.",
        (
            "tabletop play unbroken --seed 1 --record game.json",
            "tabletop play unrest --seat Empire --vs ismcts:seconds=1",
            "tabletop play runebound_coop --option heroes=Elian,Lissa --seat Lissa",
            "tabletop play unrest --bots --seed 4 --record game.json",
        ),
    ),
    "resume": (
        "Go on with a game saved at the table (by save, quit, the end of input or Ctrl-C), from the move where it "
        "stopped.",
        ("tabletop resume tabletop-unrest-0.json", "tabletop resume saved.json --record game.json"),
    ),
    "replay": (
        "Replay a recorded or saved game: every move with its description, the table after any move, a walk "
        "forward and back, or one HTML page. A replay shows what the file's own seat saw; a record of bots only in "
        "a game with hidden information needs --seat, and the whole truth takes --reveal.",
        (
            "tabletop replay game.json",
            "tabletop replay game.json --at 14",
            "tabletop replay game.json --step",
            "tabletop replay game.json --html game.html",
        ),
    ),
    "check": (
        "Check that a game keeps the game protocol: seeded random games, each state checked (copies, JSON, legal "
        "and illegal moves, what each seat may see). It prints what it covered, or the first failure with its "
        "seed and step.",
        ("tabletop check unrest --games 20", "tabletop check unbroken --option difficulty=hard --deep-every 5"),
    ),
    "simulate": (
        "Play many seeded games between bots, on worker processes or a Ray cluster, and save each result as it "
        "finishes. Run the same command again to go on with a stopped run; tabletop report reads the results.",
        (
            "tabletop simulate unrest --games 200",
            "tabletop simulate unrest --agent heuristic --agent random --games 200 --workers 2 --out results",
            "tabletop simulate unbroken --option difficulty=hard --agent mcts:iterations=100 --games 50",
        ),
    ),
    "report": (
        "Print the tables of a simulation's results (win rates with intervals, by agent and by seat, ratings) and "
        "write its plots; --html writes one results page as well.",
        ("tabletop report results", "tabletop report results --html results.html --no-plots"),
    ),
    "analyze": (
        "Study a game with bots: the seats' advantage, game length, branching, a ladder of search budgets, luck "
        "against skill, drama and restricted play. It writes a report, its tables and plots into --out.",
        (
            "tabletop analyze runebound_coop --games 100 --out analysis",
            "tabletop analyze unrest --sections seats length --games 50 --out analysis",
        ),
    ),
    "serve": (
        "Run the game server: a lobby, matches between people and bots with invite links, pages that update as "
        "moves are made, and a database that keeps every match (needs the server extra).",
        ("tabletop serve", "tabletop serve --host 0.0.0.0 --port 8080 --database sqlite:///matches.db"),
    ),
    "compare": (
        "Play two or more variants of a game (content packs, options, agents) on the same deals and report, per "
        "measure, each variant against the first: the paired difference with its interval, and its p-value "
        "adjusted for the many comparisons (Holm, Benjamini-Hochberg). Given one variant, the unchanged game is "
        "the baseline.",
        (
            "tabletop compare unbroken --pack tougher-kobold.toml --games 400",
            "tabletop compare unbroken --set difficulty=hard --measure win --measure lethality:",
            "tabletop compare unrest --agents heuristic --agents ismcts:iterations=50 --games 100",
        ),
    ),
    "tune": (
        "Search the numbers a targets file marks free (never one the rulebook prints) for a content pack that "
        "meets its balance targets on the tuning deals, and write that pack with a report of every change. The "
        "study is kept in an Optuna storage, so an interrupted run resumes and several processes can share it "
        "(needs the design extra). With --agent SPEC and --param NAME=LOW:HIGH (or a targets file with an [agent] "
        "table) it tunes an agent's parameters instead: against a reference agent in the same seat on the same "
        "deals, or against the game's exact regret (--against exact), and writes the tuned agent's spec.",
        (
            "tabletop tune unbroken --targets targets.toml --seeds 0:400 --trials 40 --out tuned.toml",
            "tabletop tune unbroken --targets targets.toml --seeds 0:400 --out tuned.toml --workers 2",
            "tabletop tune unrest --agent ismcts:iterations=100 --param exploration=0.1:3:log --seeds 0:100 "
            "--out ismcts.toml",
            "tabletop tune runebound_coop --targets bot.toml --seeds 0:40 --held-out 1000:1100 --out bot-tuned.toml",
        ),
    ),
    "certify": (
        "Decide each balance target of a targets file on held-out deals: pass, fail, or undecided (more deals "
        "would decide it), each by a bootstrap bound, jointly at the stated confidence. A pack that tune wrote is "
        "refused on the deals it was tuned on. Exits 0 when every target passes, 1 when not.",
        (
            "tabletop certify unbroken --targets targets.toml --seeds 10000:12000",
            "tabletop certify unbroken --pack tuned.toml --targets targets.toml --seeds 10000:12000 --json cert.json",
        ),
    ),
}


def _epilog(examples: tuple[str, ...]) -> str:
    return "examples:\n" + "\n".join(f"  {example}" for example in examples)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """The description wrapped to the page, the examples kept as written (one per line)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return super()._fill_text(text, width, indent)
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent)


def apply(sub: Subparsers) -> None:
    """Give every command of the subparsers action ``sub`` its description and examples."""
    for name, parser in sub.choices.items():
        description, examples = COMMAND_HELP[name]
        parser.description = description
        parser.epilog = _epilog(examples)
        parser.formatter_class = _Formatter
