"""Declared tensor layouts: sizes, slices in order, views that write through, refusal of bad declarations."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_core.tensor import TensorLayout

LAYOUT = TensorLayout((("player", (2,)), ("district", (5, 12)), ("flag", (1,))))


def test_layout_sizes_and_slices_follow_the_declared_order() -> None:
    assert LAYOUT.size == 63 and LAYOUT.shape == (63,)
    assert LAYOUT.slices == {"player": slice(0, 2), "district": slice(2, 62), "flag": slice(62, 63)}
    assert LAYOUT.shapes["district"] == (5, 12)
    assert LAYOUT.describe().splitlines() == ["player[2]: [0, 2)", "district[5, 12]: [2, 62)", "flag[1]: [62, 63)"]


def test_views_are_reshaped_and_write_into_the_one_tensor() -> None:
    tensor, views = LAYOUT.new()
    assert tensor.dtype == np.float32 and tensor.shape == (63,)
    assert views["district"].shape == (5, 12)
    views["district"][3, 7] = 1.0
    views["flag"][0] = 2.0
    assert tensor[2 + 3 * 12 + 7] == 1.0 and tensor[62] == 2.0 and tensor.sum() == 3.0
    assert np.shares_memory(views["district"], tensor)
    assert LAYOUT.piece(tensor, "district")[3, 7] == 1.0
    # Every element belongs to exactly one piece.
    covered = np.zeros(LAYOUT.size, dtype=int)
    for piece in LAYOUT.slices.values():
        covered[piece] += 1
    assert (covered == 1).all()


def test_views_refuse_an_array_of_another_shape() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        LAYOUT.views(np.zeros(62, dtype=np.float32))
    with pytest.raises(ValueError, match="does not fit"):
        LAYOUT.piece(np.zeros((63, 1), dtype=np.float32), "flag")
    with pytest.raises(KeyError):
        LAYOUT.piece(LAYOUT.zeros(), "nope")


@pytest.mark.parametrize(
    "pieces",
    [
        (),
        (("a", (2,)), ("a", (3,))),
        (("a", (0,)),),
        (("a", ()),),
        (("a", (2.0,)),),
        (("", (1,)),),
        (("a", (True,)),),
    ],
)
def test_layout_refuses_bad_declarations(pieces: tuple[tuple[str, tuple[int, ...]], ...]) -> None:
    with pytest.raises(ValueError, match="tensor layout"):
        TensorLayout(pieces)


def test_layout_dtype_is_declared() -> None:
    assert TensorLayout((("a", (2,)),), np.float64).zeros().dtype == np.float64
