"""Shell completion of ``tabletop`` (argcomplete): commands, games, a game's options and their values, agents.

Turn it on once per shell with ``eval "$(register-python-argcomplete tabletop)"`` (bash or zsh; put the line in
``~/.bashrc`` to keep it). Completion runs the parser only, never a game, so it answers at once.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["agent_names", "attach", "complete_agents", "complete_games", "complete_options", "option_values"]

#: The destinations of the arguments that name a game, an option, an agent.
GAME_ARGS = ("game", "games")
OPTION_ARGS = ("option", "sets")
AGENT_ARGS = ("vs", "agent", "agents", "ladder")


def complete_games(prefix: str, **_: object) -> list[str]:
    """The installed games whose name starts with ``prefix``."""
    from tabletop_core.registry import available_games

    return [name for name in available_games() if name.startswith(prefix)]


def agent_names() -> tuple[str, ...]:
    """The agent names a spec may start with: the built-in ones, then the installed ones."""
    from tabletop_core.agents.specs import BUILTIN_AGENTS, installed_agents

    return (*BUILTIN_AGENTS, *(name for name in installed_agents() if name not in BUILTIN_AGENTS))


def complete_agents(prefix: str, **_: object) -> list[str]:
    """Agent names (and, for mcts and ismcts, their usual parameters) starting with ``prefix``."""
    names = [*agent_names(), "mcts:iterations=", "mcts:seconds=", "ismcts:iterations=", "ismcts:seconds="]
    return [name for name in names if name.startswith(prefix)]


def option_values(game: Game[Any, Any, Any]) -> dict[str, tuple[str, ...]]:
    """Per option of ``game``, the values completion offers (its allowed values, or none to offer)."""
    import attrs

    from tabletop_core.cli.options import as_typed, choices

    allowed = choices(game)
    kind = game.options_type
    names = [f.name for f in attrs.fields(kind) if f.init] if attrs.has(kind) else list(allowed)
    return {name: tuple(as_typed(v) for v in allowed.get(name, ())) for name in names}


def complete_options(prefix: str, parsed_args: argparse.Namespace | None = None, **_: object) -> list[str]:
    """``KEY=`` for the options of the game already typed, and ``KEY=VALUE`` for the allowed values of ``KEY``."""
    from tabletop_core.registry import load_game

    name = getattr(parsed_args, "game", None)
    if not isinstance(name, str):
        return []
    try:
        game = load_game(name)
    except Exception:  # a game that does not load offers nothing to complete
        return []
    offered = option_values(game)
    key, sep, typed = prefix.partition("=")
    if not sep:
        return [f"{option}=" for option in offered if option.startswith(prefix)]
    done, _sep, last = typed.rpartition(",")  # a list: complete its last item
    head = f"{key}={done}," if done else f"{key}="
    return [head + value for value in offered.get(key, ()) if value.startswith(last)]


def _walk(parser: argparse.ArgumentParser) -> Iterable[argparse.Action]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _walk(sub)
        else:
            yield action


def attach(parser: argparse.ArgumentParser) -> None:
    """Give the game, option and agent arguments of every command their completers, then hand the parser to
    argcomplete: when the shell asks for completions, this prints them and exits; otherwise it does nothing."""
    for action in _walk(parser):
        dest = action.dest
        if dest in GAME_ARGS and not action.option_strings:
            completer: Any = complete_games
        elif dest in OPTION_ARGS:
            completer = complete_options
        elif dest in AGENT_ARGS:
            completer = complete_agents
        else:
            continue
        # argparse.Action declares no ``completer``; argcomplete reads it from the action.
        setattr(action, "completer", completer)  # noqa: B010
    with contextlib.suppress(ImportError):  # completion is a convenience: the command works without argcomplete
        import argcomplete

        argcomplete.autocomplete(parser)
