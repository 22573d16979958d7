"""The core's picture toolkit: escaping, labels on everything that carries information, a fixed viewBox, a palette
that colour-blind readers can tell apart, and the leak check comparing pictures of twin worlds."""

from __future__ import annotations

import itertools

import attrs
import numpy as np
import pytest

from tabletop_core.leakcheck import LEAK, LeakError
from tabletop_core.render import Drawing, SvgError, check_svg, esc
from tabletop_core.render.palette import SERIES
from tabletop_core.render.shapes import paragraph, track, wrap
from tabletop_core.testing.kuhn import CARDS, Kuhn, KuhnState, KuhnView
from tests.core.test_leakcheck import _leak_checks


def test_text_is_escaped_in_content_and_attributes() -> None:
    d = Drawing(100, 40, title='<b>"x" & y</b>')
    d.text(5, 20, "<script>alert('x')</script> & more")
    svg = d.to_svg()
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&amp; more" in svg
    check_svg(svg)
    assert esc("a\x00b<") == "ab&lt;"


def test_an_unlabelled_shape_is_refused_when_drawn_and_when_checked() -> None:
    d = Drawing(100, 40, title="t")
    with pytest.raises(SvgError, match="label"):
        d.rect(0, 0, 10, 10, fill="#000")
    bare = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" aria-label="t"><title>t</title><rect/></svg>'
    with pytest.raises(SvgError, match="unlabelled <rect>"):
        check_svg(bare)


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        ("<svg", "not well-formed"),
        ('<svg xmlns="http://www.w3.org/2000/svg" aria-label="t"><title>t</title></svg>', "no viewBox"),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5"></svg>', "no title"),
        ("<html/>", "not an SVG"),
    ],
)
def test_check_svg_names_what_is_wrong(svg: str, message: str) -> None:
    with pytest.raises(SvgError, match=message):
        check_svg(svg)


def test_a_fixed_view_box_is_checked_and_the_width_scales_the_height() -> None:
    d = Drawing(800, 600, title="t")
    svg = d.to_svg(width=400)
    assert 'width="400" height="300"' in svg
    assert check_svg(svg, view_box=(800, 600)) == (800.0, 600.0)
    with pytest.raises(SvgError, match="fixed"):
        check_svg(svg, view_box=(800, 700))
    with pytest.raises(ValueError, match="width"):
        d.to_svg(width=0)


def test_a_track_and_a_paragraph_carry_their_whole_fact_as_a_label() -> None:
    d = Drawing(400, 100, title="t")
    track(d, 0, 0, "Food", 3, 8, colour="#009E73")
    paragraph(d, 0, 40, "a long sentence that will not fit on one short line at all", chars=12, max_lines=2)
    svg = d.to_svg()
    assert 'aria-label="Food 3 of 8"' in svg
    assert 'aria-label="a long sentence that will not fit on one short line at all"' in svg
    assert wrap("a long sentence", 6) == ["a long", "sentence"]
    check_svg(svg)


def _linear(c: str) -> np.ndarray:
    rgb = np.array([int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _lab(lin: np.ndarray) -> np.ndarray:
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ np.clip(lin, 0, 1) / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


#: Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
_CVD = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


@pytest.mark.parametrize("vision", ["normal", *_CVD])
def test_the_series_colours_stay_apart_under_colour_blindness(vision: str) -> None:
    matrix = np.eye(3) if vision == "normal" else np.array(_CVD[vision])
    labs = [_lab(matrix @ _linear(c)) for c in SERIES]
    closest = min(float(np.linalg.norm(a - b)) for a, b in itertools.combinations(labs, 2))
    assert closest > 12, f"two series colours are {closest:.1f} apart (CIE76) under {vision}"


# ----- the leak check compares pictures ------------------------------------------------------------------------


@attrs.frozen
class _DrawnView(KuhnView):
    """A Kuhn view that draws itself, with the opponent's card planted in the picture (``hint`` is left out of the
    view's equality, so only the picture shows it)."""

    hint: str = attrs.field(default="", eq=False)

    def svg(self, *, width: int = 100) -> str:
        d = Drawing(100, 20, title=f"Kuhn, card {self.card}{self.hint}")
        return d.to_svg(width=width)


class PictureLeak(Kuhn):
    """Kuhn poker whose picture (alone of all readings) shows the opponent's card."""

    def observe(self, state: KuhnState, player: int) -> KuhnView:
        view = super().observe(state, player)
        hint = ""
        if len(state.hands) == 2:
            hint = f", opponent {CARDS[state.hands[1 - player]]}"
        return _DrawnView(view.player, view.card, view.history, hint)

    def render(self, state: KuhnState, player: int | None = None) -> str:
        return Kuhn.render(self, state, player)


def test_the_leak_check_compares_the_pictures_of_twin_worlds() -> None:
    with pytest.raises(LeakError) as info:
        _leak_checks(PictureLeak(), games=30, seed=11)
    assert (info.value.check, info.value.field) == (LEAK, "picture"), str(info.value)
