"""Declared tensor layouts: an observation or information-state tensor as named pieces with shapes, not offsets.

A game declares its tensor once, as OpenSpiel's Python observers do: a :class:`TensorLayout` of ``(name, shape)``
pieces in order. The layout gives the flat shape for the spec, each piece's slice of the flat vector, and named,
reshaped views into one array, so filling a tensor reads ``views["district"][d, card] = 1.0`` and no offset is
counted by hand. Adding a piece moves nothing else by hand either.

>>> layout = TensorLayout((("player", (2,)), ("card", (3,)), ("bets", (3, 2))))
>>> layout.size, layout.shape, layout.slices["bets"]
(11, (11,), slice(5, 11, None))
>>> tensor, views = layout.new()
>>> views["player"][1] = 1.0
>>> views["bets"][2, 0] = 1.0
>>> tensor.tolist()
[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from math import prod

import attrs
import numpy as np

__all__ = ["TensorLayout"]

Piece = tuple[str, tuple[int, ...]]


def _as_pieces(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    return tuple((name, tuple(shape)) if isinstance(shape, list) else (name, shape) for name, shape in pieces)


def _check_pieces(_inst: object, _attr: object, pieces: tuple[Piece, ...]) -> None:
    names = [name for name, _ in pieces]
    if not pieces or len(set(names)) != len(names):
        raise ValueError(f"tensor layout: pieces must be non-empty with distinct names, not {names}")
    for name, shape in pieces:
        if not isinstance(name, str) or not name:
            raise ValueError(f"tensor layout: piece name {name!r} is not a non-empty string")
        if not isinstance(shape, tuple) or not shape or any(type(d) is not int or d < 1 for d in shape):
            raise ValueError(f"tensor layout: piece {name!r} has shape {shape!r}; dimensions are positive ints")


@attrs.frozen
class TensorLayout:
    """A flat float tensor made of named pieces, each with its own shape, laid out in the order given.

    Attributes:
        pieces: ``(name, shape)`` pairs in layout order; names distinct, dimensions positive.
        dtype: the element type of :meth:`zeros` (float32, the protocol's tensor type).
        size: the flat length (the sum of the pieces' sizes).
        shape: ``(size,)``, what the game's spec declares as the tensor shape.
        slices: each piece's slice of the flat vector.
        shapes: each piece's shape.
    """

    pieces: tuple[Piece, ...] = attrs.field(converter=_as_pieces, validator=_check_pieces)
    dtype: type[np.floating] = np.float32
    size: int = attrs.field(init=False)
    shape: tuple[int] = attrs.field(init=False)
    slices: Mapping[str, slice] = attrs.field(init=False, repr=False, eq=False)
    shapes: Mapping[str, tuple[int, ...]] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        slices: dict[str, slice] = {}
        start = 0
        for name, shape in self.pieces:
            end = start + prod(shape)
            slices[name] = slice(start, end)
            start = end
        object.__setattr__(self, "size", start)
        object.__setattr__(self, "shape", (start,))
        object.__setattr__(self, "slices", slices)
        object.__setattr__(self, "shapes", dict(self.pieces))

    def zeros(self) -> np.ndarray:
        """A new flat tensor of zeros of :attr:`shape`."""
        return np.zeros(self.size, dtype=self.dtype)

    def views(self, array: np.ndarray) -> dict[str, np.ndarray]:
        """Named views of ``array``, each reshaped to its piece's shape; writing into a view writes ``array``.

        Raises:
            ValueError: when ``array`` is not a flat array of :attr:`size` elements.
        """
        if array.shape != self.shape:
            raise ValueError(f"tensor layout: array of shape {array.shape} does not fit layout shape {self.shape}")
        return {name: array[self.slices[name]].reshape(shape) for name, shape in self.pieces}

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zero tensor and its named views: ``tensor, views = LAYOUT.new()``, fill ``views``, return ``tensor``."""
        tensor = self.zeros()
        return tensor, self.views(tensor)

    def piece(self, array: np.ndarray, name: str) -> np.ndarray:
        """One named view of ``array`` (reading a single piece without building them all)."""
        if array.shape != self.shape:
            raise ValueError(f"tensor layout: array of shape {array.shape} does not fit layout shape {self.shape}")
        return array[self.slices[name]].reshape(self.shapes[name])

    def describe(self) -> str:
        """The layout as text, one piece per line with its offset range (for docs and debugging)."""
        return "\n".join(
            f"{name}{list(shape)}: [{self.slices[name].start}, {self.slices[name].stop})" for name, shape in self.pieces
        )
