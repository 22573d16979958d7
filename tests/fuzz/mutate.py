"""Mutations of JSON documents: what a hostile or corrupted saved state, record or pack looks like.

Each mutation takes the parsed document and a place in it (a path of keys and indices) and returns a new
document; the fuzz tests draw places and mutations with hypothesis, the field-by-field test walks every place.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["MUTATIONS", "Path", "get", "mutate", "paths", "put"]

Path = tuple[str | int, ...]


def paths(doc: Any, at: Path = ()) -> Iterator[Path]:
    """Every place in ``doc`` (the root first, then depth first)."""
    yield at
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*at, i))


def get(doc: Any, at: Path) -> Any:
    """The value at ``at``."""
    for k in at:
        doc = doc[k]
    return doc


def put(doc: Any, at: Path, value: Any) -> Any:
    """A copy of ``doc`` with ``value`` at ``at`` (the root when ``at`` is empty)."""
    if not at:
        return value
    out = copy.deepcopy(doc)
    get(out, at[:-1])[at[-1]] = value
    return out


def _numbers(v: Any) -> list[Any]:
    if type(v) is not int:
        return []
    return [v + 1, v - 1, -1, -v, 0, 2**31, 2**53, -(2**53), 10**7, v + 0.5, float(v)]


def _types(v: Any) -> list[Any]:
    return [None, True, "1", str(v)[:20], [v], {"x": v}, 1.5]


def _lists(v: Any) -> list[Any]:
    if type(v) is not list or not v:
        return [[]] if type(v) is list else []
    out = [v[:-1], v[1:], [*v, v[-1]], [v[0], *v], v[::-1], [], v * 3]
    if len(v) > 1:
        swapped = list(v)
        swapped[0], swapped[-1] = swapped[-1], swapped[0]
        out.append(swapped)
    return out


def _objects(v: Any) -> list[Any]:
    if type(v) is not dict:
        return []
    out: list[Any] = [{**v, "extra": 1}, {}]
    for k in v:
        out.append({x: y for x, y in v.items() if x != k})
    if "$type" in v:
        out += [{**v, "$type": "foreign.tag"}, {**v, "$type": None}]
    return out


def _strings(v: Any) -> list[Any]:
    if type(v) is not str:
        return []
    return ["", v + "x", v.upper(), "default", "/dev/zero", "x" * 5000, v[: len(v) // 2]]


def _deep(v: Any) -> list[Any]:
    nested: Any = v
    for _ in range(40):
        nested = [nested]
    return [nested, [0] * 200_000]


#: Mutation families, by name: each gives the replacements it makes for a value.
MUTATIONS: dict[str, Callable[[Any], list[Any]]] = {
    "numbers": _numbers,
    "types": _types,
    "lists": _lists,
    "objects": _objects,
    "strings": _strings,
    "deep": _deep,
}


def mutate(doc: Any, at: Path, family: str, pick: int) -> Any | None:
    """``doc`` with the value at ``at`` replaced by replacement ``pick`` (modulo their number) of ``family``,
    or ``None`` when the family makes no replacement for that value."""
    options = MUTATIONS[family](get(doc, at))
    if not options:
        return None
    return put(doc, at, options[pick % len(options)])


def envelope_mutants(text: str) -> list[str]:
    """The document with its envelope broken: another format or version, truncated text, wrong encodings."""
    doc = json.loads(text)
    out = [text[: len(text) // 2], text[:-1], text + "x", "", "null", "[]", text.replace('"', "'", 1)]
    for key, value in (("format", "other"), ("version", 2), ("version", "1"), ("version", True), ("type", "x")):
        if key in doc:
            out.append(json.dumps({**doc, key: value}))
    out.append(json.dumps({k: v for k, v in doc.items() if k != "version"}))
    return out
