"""A small SVG builder: escaped text, a fixed ``viewBox``, and a text alternative on everything that carries
information.

A :class:`Drawing` is built by one function and thrown away (it is a local builder, not shared state). Every shape or
text is either inside a labelled group (:meth:`Drawing.group`: ``role="img"``, ``aria-label`` and a ``<title>``,
which browsers show as a tooltip and screen readers read), labelled itself (``label=``), or marked decorative
(``decor=True``: ``aria-hidden="true"``). A shape with none of the three is refused when it is added, so a picture
cannot carry an unlabelled fact; :func:`check_svg` checks a finished picture the same way.

>>> d = Drawing(200, 40, title="A track")
>>> with d.group("Food 3 of 8"):
...     d.rect(0, 0, 60, 20, fill="#009E73")
...     d.text(70, 15, "Food 3/8")
>>> svg = d.to_svg(width=400)
>>> check_svg(svg)
(200.0, 40.0)
>>> 'aria-label="Food 3 of 8"' in svg and 'width="400"' in svg
True
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

__all__ = ["SVG_NS", "Drawing", "SvgError", "check_svg", "esc"]

SVG_NS = "http://www.w3.org/2000/svg"
#: The font stack of every picture: installed fonts only (a picture loads nothing).
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_SHAPES = ("rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


class SvgError(ValueError):
    """A picture breaks the rules of :func:`check_svg` (not XML, no fixed ``viewBox``, an unlabelled shape)."""


def esc(text: object) -> str:
    """``text`` as XML character data or an attribute value: ``& < > " '`` escaped, control characters dropped."""
    s = _CONTROL.sub("", str(text))
    return (
        s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    )


def _num(x: float) -> str:
    if not math.isfinite(x):
        raise ValueError(f"a coordinate must be finite, not {x!r}")
    return f"{x:.1f}".removesuffix(".0")


class Drawing:
    """An SVG picture of ``width`` by ``height`` units (its ``viewBox``), titled ``title``.

    Args:
        width: the ``viewBox`` width (pictures keep it fixed per game, so they line up in a replay).
        height: the ``viewBox`` height.
        title: the whole picture's text alternative (its ``<title>`` and ``aria-label``).
        background: the page colour behind everything.
    """

    def __init__(self, width: float, height: float, *, title: str, background: str = "#ffffff") -> None:
        self.width, self.height, self.title = float(width), float(height), title
        self._parts: list[str] = []
        self._labelled = 0
        self.rect(0, 0, width, height, fill=background, decor=True)

    # ----- structure -------------------------------------------------------------------------------------------

    @contextmanager
    def group(self, label: str, *, cls: str = "") -> Iterator[None]:
        """A labelled group: everything drawn inside carries ``label`` as its text alternative."""
        klass = f' class="{esc(cls)}"' if cls else ""
        self._parts.append(f'<g role="img" aria-label="{esc(label)}"{klass}><title>{esc(label)}</title>')
        self._labelled += 1
        try:
            yield
        finally:
            self._labelled -= 1
            self._parts.append("</g>")

    def _attrs(self, label: str | None, decor: bool, kind: str) -> str:
        if label is not None:
            return f' role="img" aria-label="{esc(label)}"'
        if decor:
            return ' aria-hidden="true"'
        if not self._labelled:
            raise SvgError(f"a {kind} outside a labelled group needs label= or decor=True")
        return ""

    def _leaf(self, kind: str, geometry: str, style: str, label: str | None, decor: bool, body: str = "") -> None:  # noqa: PLR0917  # coordinates come first and positional, as in SVG
        attrs = self._attrs(label, decor, kind)
        title = f"<title>{esc(label)}</title>" if label is not None else ""
        if title or body:
            self._parts.append(f"<{kind} {geometry}{style}{attrs}>{title}{body}</{kind}>")
        else:
            self._parts.append(f"<{kind} {geometry}{style}{attrs}/>")

    @staticmethod
    def _paint(fill: str, stroke: str | None, stroke_width: float, dash: str | None, opacity: float | None) -> str:
        out = f' fill="{esc(fill)}"'
        if stroke is not None:
            out += f' stroke="{esc(stroke)}" stroke-width="{_num(stroke_width)}"'
        if dash:
            out += f' stroke-dasharray="{esc(dash)}"'
        if opacity is not None:
            out += f' opacity="{_num(opacity)}"'
        return out

    # ----- shapes ----------------------------------------------------------------------------------------------

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float = 1,
        rx: float = 0,
        dash: str | None = None,
        opacity: float | None = None,
        label: str | None = None,
        decor: bool = False,
    ) -> None:
        """A rectangle (``rx``: rounded corners; ``dash``: a dashed outline)."""
        geo = f'x="{_num(x)}" y="{_num(y)}" width="{_num(max(w, 0))}" height="{_num(max(h, 0))}"'
        if rx:
            geo += f' rx="{_num(rx)}"'
        self._leaf("rect", geo, self._paint(fill, stroke, stroke_width, dash, opacity), label, decor)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float = 1,
        dash: str | None = None,
        label: str | None = None,
        decor: bool = False,
    ) -> None:
        """A circle."""
        geo = f'cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}"'
        self._leaf("circle", geo, self._paint(fill, stroke, stroke_width, dash, None), label, decor)

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: str = "#000000",
        stroke_width: float = 1,
        dash: str | None = None,
        label: str | None = None,
        decor: bool = False,
    ) -> None:
        """A straight line."""
        geo = f'x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}"'
        self._leaf("line", geo, self._paint("none", stroke, stroke_width, dash, None), label, decor)

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float = 1,
        label: str | None = None,
        decor: bool = False,
    ) -> None:
        """A closed polygon through ``points``."""
        geo = 'points="' + " ".join(f"{_num(x)},{_num(y)}" for x, y in points) + '"'
        self._leaf("polygon", geo, self._paint(fill, stroke, stroke_width, None, None), label, decor)

    def path(
        self,
        d: str,
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float = 1,
        label: str | None = None,
        decor: bool = False,
    ) -> None:
        """A path (``d`` is path data written by the caller's code, never by input)."""
        self._leaf("path", f'd="{esc(d)}"', self._paint(fill, stroke, stroke_width, None, None), label, decor)

    def text(
        self,
        x: float,
        y: float,
        content: object,
        *,
        size: float = 14,
        anchor: str = "start",
        weight: str = "normal",
        fill: str = "#1a1a1a",
        italic: bool = False,
        max_chars: int | None = None,
        label: str | None = None,
        decor: bool = False,
    ) -> None:
        """Text at baseline ``(x, y)``; ``max_chars`` cuts it with an ellipsis (the label keeps the whole text).

        Text outside a labelled group is its own label unless ``label`` or ``decor`` says otherwise.
        """
        s = str(content)
        shown = s if max_chars is None or len(s) <= max_chars else s[: max(max_chars - 1, 1)] + "\u2026"
        if label is None and not decor and not self._labelled:
            label = s
        geo = f'x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" text-anchor="{esc(anchor)}"'
        style = f' font-family="{FONT}" fill="{esc(fill)}"'
        if weight != "normal":
            style += f' font-weight="{esc(weight)}"'
        if italic:
            style += ' font-style="italic"'
        self._leaf("text", geo, style, label, decor, body=esc(shown))

    # ----- output ----------------------------------------------------------------------------------------------

    def to_svg(self, *, width: int | None = None) -> str:
        """The SVG text; ``width`` sets the displayed width in pixels (the height follows the ``viewBox``)."""
        if self._labelled:
            raise SvgError("a group is still open")
        w = float(width) if width is not None else self.width
        if not (math.isfinite(w) and w > 0):
            raise ValueError(f"width must be a positive number of pixels, not {width!r}")
        h = w * self.height / self.width
        head = (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_num(self.width)} {_num(self.height)}" '
            f'width="{_num(w)}" height="{_num(h)}" role="img" aria-label="{esc(self.title)}">'
            f"<title>{esc(self.title)}</title>"
        )
        return head + "".join(self._parts) + "</svg>"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def check_svg(text: str, *, view_box: tuple[float, float] | None = None) -> tuple[float, float]:
    """Check a picture: well-formed XML, an ``<svg>`` root with a ``viewBox`` (equal to ``view_box`` if given) and a
    title, and every shape or text labelled (``aria-label`` or ``<title>`` on it or on an enclosing group) or
    marked decorative (``aria-hidden``). Returns the ``viewBox`` size.

    Raises:
        SvgError: naming the first rule broken.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise SvgError(f"not well-formed XML: {exc}") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise SvgError(f"the root is {root.tag!r}, not an SVG element")
    box = (root.get("viewBox") or "").split()
    if len(box) != 4:
        raise SvgError("the picture has no viewBox")
    size = (float(box[2]), float(box[3]))
    if view_box is not None and size != (float(view_box[0]), float(view_box[1])):
        raise SvgError(f"viewBox {size} is not the fixed {view_box}")
    if root.find(f"{{{SVG_NS}}}title") is None or not root.get("aria-label"):
        raise SvgError("the picture has no title")

    def walk(node: ET.Element, labelled: bool) -> None:
        for child in node:
            tag = _local(child.tag)
            if tag == "title":
                if not (child.text or "").strip():
                    raise SvgError("an empty <title>")
                continue
            here = labelled or child.get("aria-hidden") == "true" or bool(child.get("aria-label"))
            here = here or child.find(f"{{{SVG_NS}}}title") is not None
            if tag in _SHAPES and not here:
                raise SvgError(f"an unlabelled <{tag}> ({dict(child.attrib)!r:.120})")
            walk(child, here)

    walk(root, False)
    return size
