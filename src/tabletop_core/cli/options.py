"""``tabletop options``: every option of a game, with its type, default, allowed values and meaning."""

from __future__ import annotations

import argparse
import re
from typing import Any, TextIO

import attrs
from rich.table import Table

from tabletop_core.cli.common import make_console
from tabletop_core.registry import available_games, load_game

__all__ = ["allowed_values", "describe_options"]


def add_parser(sub: Any) -> None:
    """Register the command."""
    opt = sub.add_parser("options", help="list a game's options", description=__doc__)
    opt.add_argument("game", help=f"the game ({', '.join(available_games())}, or module:ATTR)")
    opt.set_defaults(func=run)


def allowed_values(validator: Any) -> tuple[Any, ...] | None:
    """The values an ``attrs.validators.in_`` validator allows (looking inside ``and_`` and lists), else None."""
    if validator is None:
        return None
    options = getattr(validator, "options", None)
    if options is not None and not callable(options):
        return tuple(options)
    inner = getattr(validator, "_validators", None) or (validator if isinstance(validator, list | tuple) else ())
    for v in inner:
        found = allowed_values(v)
        if found is not None:
            return found
    return None


def _docs(cls: type) -> dict[str, str]:
    """The ``Attributes:`` section of a Google-style class docstring: name -> description."""
    doc = cls.__doc__ or ""
    section = doc.partition("Attributes:")[2]
    out: dict[str, str] = {}
    name = ""
    for line in section.splitlines():
        m = re.match(r"^\s{4,8}(\w+)(?: \([^)]*\))?: (.*)$", line)
        if m:
            name = m.group(1)
            out[name] = m.group(2).strip()
        elif name and line.strip() and line.startswith(" " * 9):
            out[name] += " " + line.strip()
        elif not line.strip() and name:
            name = ""
    return {k: re.sub(r":\w+:`~?([^`]*)`", r"\1", v).replace("``", "") for k, v in out.items()}


def describe_options(game: Any) -> list[tuple[str, str, str, str, str]]:
    """Each option of ``game``: name, type, default, allowed values ('' when any value of its type) and meaning."""
    cls = game.options_type
    docs = _docs(cls)
    rows = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        default = field.default
        factory = getattr(default, "factory", None)  # an attrs.Factory default
        if callable(factory):
            default = factory()
        shown = "(required)" if default is attrs.NOTHING else repr(default)
        allowed = allowed_values(field.validator)
        kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", str(field.type))
        rows.append(
            (field.name, str(kind), shown, ", ".join(map(repr, allowed)) if allowed else "", docs.get(field.name, ""))
        )
    return rows


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the options as a table."""
    game = load_game(args.game)
    table = Table(title=f"options of {args.game} (tabletop play {args.game} --option KEY=VALUE)", title_justify="left")
    for column in ("option", "type", "default", "allowed", "meaning"):
        table.add_column(column, overflow="fold")
    for row in describe_options(game):
        table.add_row(*row)
    make_console(out).print(table, soft_wrap=False)
    return 0
