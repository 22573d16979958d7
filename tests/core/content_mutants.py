"""Mutants of a shipped content file, for the content tests: every kind of damage at sampled places.

A mutant deletes a key, gives a value the wrong type, adds an unknown key, nests a value one level too deep or too
shallow, empties a string, puts a number out of range or duplicates an array's element. :func:`check_mutants`
loads each one and asserts the loader either accepts it or raises a located ``ContentError``, never anything else.
"""

from __future__ import annotations

import copy
import random
import tomllib
from collections.abc import Callable, Iterator
from typing import Any

import tomli_w

from tabletop_core.errors import ContentError

Path = tuple[str | int, ...]
#: Every kind of damage a mutant does.
KINDS = ("delete", "retype", "extra", "nest", "unnest", "empty", "range", "duplicate")


def _paths(node: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    if path:
        yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))


def _retyped(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return "a list"
    return ["a table"]


def _damage(kind: str, value: Any) -> tuple[bool, Any]:
    """Whether ``kind`` applies to ``value``, and the value it becomes (``delete`` removes it instead)."""
    is_list, is_table = isinstance(value, list), isinstance(value, dict)
    if kind == "delete":
        return True, None
    if kind == "retype":
        return True, _retyped(value)
    if kind == "extra":
        return is_table, {**value, "unexpected_key": 1} if is_table else None
    if kind == "nest":
        return True, {"value": value} if is_list else [value]
    if kind == "unnest":
        return is_list and bool(value), value[0] if is_list and value else None
    if kind == "empty":
        return isinstance(value, str), ""
    if kind == "range":
        return type(value) is int, -1 if value else 10**9
    if kind == "duplicate":
        return is_list and bool(value), [*value, copy.deepcopy(value[0])] if is_list and value else None
    raise ValueError(kind)


def mutants(text: str, kind: str, count: int, seed: int = 0) -> list[tuple[str, str]]:
    """Up to ``count`` mutants of the TOML ``text`` of one ``kind``, at places sampled with ``seed``: (where, text)."""
    doc = tomllib.loads(text)
    places = [(p, v) for p, v in _paths(doc) if _damage(kind, v)[0]]
    rng = random.Random(f"{seed}:{kind}")
    chosen = places if len(places) <= count else rng.sample(places, count)
    out = []
    for path, value in chosen:
        mutant = copy.deepcopy(doc)
        parent: Any = mutant
        for step in path[:-1]:
            parent = parent[step]
        _, new = _damage(kind, value)
        if kind == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = new
        out.append((f"{kind} at {'.'.join(map(str, path))}", tomli_w.dumps(mutant)))
    return out


def check_mutants(
    texts: list[tuple[str, str]], load: Callable[[str], Any], accepted: Callable[[Any], None] | None = None
) -> tuple[int, int]:
    """Load each mutant; only a located ``ContentError`` may escape. ``accepted`` checks what loads.

    Returns:
        how many mutants were refused and how many accepted.
    """
    refused = 0
    for where, text in texts:
        try:
            value = load(text)
        except ContentError as exc:
            assert all(isinstance(x, str) and x for x in (exc.file, exc.entry, exc.field, exc.problem)), where
            refused += 1
            continue
        except Exception as exc:  # any other exception is the bug this check exists to find
            raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
        if accepted is not None:
            try:
                accepted(value)
            except Exception as exc:  # an accepted pack must play
                raise AssertionError(f"{where} was accepted but fails: {type(exc).__name__}: {exc}") from exc
    return refused, len(texts) - refused
