"""``tabletop options``: every option of a game, with its type, default, allowed values, an example and meaning."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from typing import TYPE_CHECKING, Any, TextIO

import attrs
from rich.table import Table

from tabletop_core.cli.common import make_console
from tabletop_core.game import _in_choices
from tabletop_core.registry import available_games, load_game

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers
    from tabletop_core.game import Game

__all__ = ["allowed_values", "as_typed", "choices", "describe_options", "example_value", "explained", "listed"]


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    opt = sub.add_parser("options", help="list a game's options")
    opt.add_argument("game", help=f"the game ({', '.join(available_games())}, or module:ATTR)")
    opt.set_defaults(func=run)


def allowed_values(validator: object) -> tuple[Any, ...] | None:
    """The values an ``attrs.validators.in_`` validator allows (looking inside ``and_`` and lists), else None."""
    return _in_choices(validator)


def choices(game: Game[Any, Any, Any]) -> dict[str, tuple[Any, ...]]:
    """The values each option of ``game`` allows (:meth:`~tabletop_core.game.Game.option_choices`)."""
    found = getattr(game, "option_choices", None)
    return dict(found()) if callable(found) else {}


def explained(game: Game[Any, Any, Any]) -> dict[str, tuple[str, Any]]:
    """The options ``game`` explains itself, for those whose values are no short list of choices (a range of
    numbers, lists of lists of names): per option, how its values are written and an example value. A game gives
    them with :meth:`~tabletop_core.game.Game.option_help` (an object that only follows the game protocol, without
    the method, explains none)."""
    found = getattr(game, "option_help", None)
    return dict(found()) if callable(found) else {}


def as_typed(value: object) -> str:
    """A value as it is typed after ``--option KEY=``: words bare, lists comma-separated, the rest as JSON.

    >>> as_typed("hard"), as_typed(("Elian", "Corbin")), as_typed(False), as_typed(None), as_typed(""), as_typed(())
    ('hard', 'Elian,Corbin', 'false', 'null', '""', '[]')
    """
    if isinstance(value, str) and value and value.strip() == value and "," not in value:
        return value
    if isinstance(value, tuple | list) and value and all(isinstance(v, str) and v and "," not in v for v in value):
        return ",".join(value)
    return json.dumps(value, separators=(",", ":"))


#: Types as the player reads them.
_KIND_WORDS = {
    "str": "text",
    "bool": "true or false",
    "int": "whole number",
    "float": "number",
    "tuple[str, ...]": "list of names",
    "tuple[tuple[str, ...], ...]": "list of name lists (JSON)",
    "tuple[tuple[str, ...], ...] | None": "list of name lists (JSON), or null",
}


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


def listed(allowed: tuple[Any, ...]) -> str:
    """Allowed values as they are typed, a run of four or more whole numbers as ``low to high``.

    >>> listed(("easy", "hard")), listed((0, 1, 2, 3, 4)), listed((1, 2)), listed((False, True))
    ('easy, hard', '0 to 4', '1, 2', 'false, true')
    """
    numbers = [v for v in allowed if type(v) is int]
    if len(numbers) == len(allowed) >= 4 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{numbers[0]} to {numbers[-1]}"
    return ", ".join(map(as_typed, allowed))


def example_value(default: object, allowed: tuple[Any, ...]) -> Any:
    """A value to show as an example: for a list of names, the default's first name and another allowed one (so
    the example shows the comma form); otherwise the first allowed value other than the default, else the default.

    >>> example_value(("Elian", "Corbin"), ("Corbin", "Elian", "Laurel of Bloodwood", "Lissa"))
    ('Elian', 'Lissa')
    >>> example_value("normal", ("easy", "normal", "hard")), example_value(3, ())
    ('easy', 3)
    """
    if isinstance(default, tuple) and all(isinstance(v, str) for v in (*default, *allowed)) and allowed:
        others = [v for v in allowed if v not in default]
        plain = [v for v in others if " " not in v] or others
        return (*default[:1], *plain[:1]) if default else allowed[:2]
    others = [v for v in allowed if v != default]
    return others[0] if others else default


def describe_options(game: Game[Any, Any, Any]) -> list[tuple[str, str, str, str, str, str]]:
    """Each option of ``game``: name, type, default, allowed values, an example ``KEY=VALUE`` and meaning; values as
    they are typed on the command line. The allowed values are the option's choices
    (:meth:`~tabletop_core.game.Game.option_choices`), or how the game says its values are written (``option_help``,
    see :func:`explained`), or else any value of its type."""
    cls = game.options_type
    docs = _docs(cls)
    allowed_by_name = choices(game)
    notes = explained(game)
    rows = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        default = field.default
        factory = getattr(default, "factory", None)  # an attrs.Factory default
        if callable(factory):
            default = factory()
        shown = "(required)" if default is attrs.NOTHING else as_typed(default)
        allowed = tuple(allowed_by_name.get(field.name, ()))
        kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", str(field.type))
        words = _KIND_WORDS.get(str(kind), str(kind))
        if field.name in notes:
            how, value = notes[field.name]
        else:
            how, value = (listed(allowed) if allowed else f"any {words}"), example_value(default, allowed)
        example = shlex.quote(f"{field.name}={shown if value is attrs.NOTHING else as_typed(value)}")
        rows.append((field.name, words, shown, how, example, docs.get(field.name, "")))
    return rows


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the options as a table."""
    game = load_game(args.game)
    title = f"options of {args.game} (tabletop play {args.game} --option KEY=VALUE; a list: a,b,c)"
    table = Table(title=title, title_justify="left")
    for column in ("option", "type", "default", "allowed", "example", "meaning"):
        table.add_column(column, overflow="fold")
    for row in describe_options(game):
        table.add_row(*row)
    make_console(out).print(table, soft_wrap=False)
    return 0
