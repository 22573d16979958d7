"""Unrest as a picture: a seat's view drawn as SVG (see :mod:`tabletop_core.render`).

The picture shows the round and step, the Missions in play, the row of Districts with their stacks (face-up cards
by value and suit; face-down cards the seat cannot read as card backs marked with the round they were placed; the
Rebellion's own face-down cards face up with a dashed edge, marked "face down"), the Area of Interest, the Blockade
and the District being proved, the liberated Districts, the Rebellion's plan, the Empire's Power tokens (face up or
spent), the hand as the seat may see it (the Rebellion's cards, or as many backs for the Empire), the deck's size
and the destroyed pile. It is drawn from a view only (:func:`unrest.observe`), so it shows nothing the seat may
not know; :func:`truth` draws the whole table, with the deck's cards, and says so.

>>> import unrest
>>> from tabletop_core.render import check_svg
>>> state = unrest.new_game(seed=1)
>>> check_svg(picture(unrest.observe(state, 1)), view_box=VIEW_BOX)
(800.0, 660.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop_core.render import palette as pal
from tabletop_core.render.shapes import badge, banner, panel, paragraph
from tabletop_core.render.svg import Drawing
from unrest.content import CONTENT
from unrest.rules.cards import MISDIRECTION, SUITS, suit_of, value_of
from unrest.state import EMPIRE, LAST_ROUND, POWERS, REBELLION, UnrestState
from unrest.view import HIDDEN, UnrestView, card_words, observe, public_view

__all__ = ["SUIT_COLOURS", "VIEW_BOX", "picture", "truth"]

#: The fixed ``viewBox`` of every Unrest picture.
VIEW_BOX = (800, 660)
_W, _H = VIEW_BOX
#: A card's colour by suit (its value, suit letter and label say it too); Misdirection is grey.
SUIT_COLOURS = (pal.SKY, pal.ORANGE, pal.PURPLE, pal.GREEN)
_SEEN = {
    REBELLION: "the Rebellion's view",
    EMPIRE: "the Empire's view",
    -1: "the public view",
}
_CARD_W, _CARD_H = 58, 22


def picture(view: UnrestView, *, width: int = _W) -> str:
    """The seat's view as SVG text (``width`` pixels wide; the ``viewBox`` stays :data:`VIEW_BOX`).

    ``view`` is :func:`unrest.observe` of a seat, or the public view (``player`` -1).
    """
    return _draw(view, _SEEN.get(view.player, f"seat {view.player}'s view"), width, deck=None)


def truth(state: UnrestState, *, width: int = _W) -> str:
    """The whole table as SVG text: every card face up, the deck's cards listed, said in the picture."""
    view = observe(state, REBELLION)
    deck = tuple(k for k, n in enumerate(state.deck) for _ in range(n))
    return _draw(view, "the whole truth (every card shown)", width, deck=deck, reveal=True)


def public(state: UnrestState, *, width: int = _W) -> str:
    """What both players see, as SVG text (:func:`unrest.view.public_view`)."""
    return picture(public_view(state), width=width)


def _short(kind: int) -> str:
    if kind == MISDIRECTION:
        return "Misdir."
    return f"{value_of(kind)} {SUITS[suit_of(kind)][0]}"


def _card(
    d: Drawing, x: float, y: float, kind: int, *, label: str, face_down: bool = False, w: float = _CARD_W
) -> None:
    """A card: its face (value and suit letter on the suit's colour) or, for ``HIDDEN``, its back."""
    with d.group(label, cls="card"):
        if kind == HIDDEN:
            d.rect(x, y, w, _CARD_H, fill=pal.INK, stroke=pal.INK, rx=3)
            d.rect(x + 3, y + 3, w - 6, _CARD_H - 6, fill="none", stroke=pal.GREY, rx=2, dash="2 2")
            d.text(x + w / 2, y + 15, "back", size=10, anchor="middle", fill=pal.PAPER)
            return
        colour = pal.LIGHT if kind == MISDIRECTION else SUIT_COLOURS[suit_of(kind)]
        d.rect(x, y, w, _CARD_H, fill=colour, stroke=pal.INK, stroke_width=1.2, rx=3, dash="4 2" if face_down else None)
        d.text(x + w / 2, y + 15, _short(kind), size=11, anchor="middle", weight="bold")


def _face(c: object) -> tuple[int, str, bool]:
    """A stack card as ``(kind, words, drawn face down)``."""
    kind = getattr(c, "card", HIDDEN)
    rnd = getattr(c, "round", 0)
    if kind == HIDDEN:
        return HIDDEN, f"a face-down card placed in round {rnd}", False
    revealed = bool(getattr(c, "revealed", True))
    proved = bool(getattr(c, "proved", False))
    how = "proved" if proved else "face up" if revealed else "face down (hidden from the Empire)"
    return kind, f"{card_words(kind)}, {how}, placed in round {rnd}", not revealed


def _draw(v: UnrestView, seen: str, width: int, *, deck: Sequence[int] | None, reveal: bool = False) -> str:
    over = v.winner in (REBELLION, EMPIRE)
    where = f"round {v.round} of {LAST_ROUND}, {v.phase} phase, {v.step} step" + (
        " (Final Encounter)" if v.final else ""
    )
    d = Drawing(_W, _H, title=f"Unrest: {where}; drawn as {seen}")
    banner(d, "Unrest", seen, width=_W, reveal=reveal)
    status = where
    if over:
        status = f"game over: the {'Rebellion' if v.winner == REBELLION else 'Empire'} wins"
    d.text(16, 56, status[0].upper() + status[1:], size=14, weight="bold")
    _missions(d, v)
    _districts(d, v)
    _table(d, v, deck)
    return d.to_svg(width=width)


def _missions(d: Drawing, v: UnrestView) -> None:
    panel(d, 10, 66, 780, 100, "Missions")
    n = max(len(v.missions), 1)
    w = 770 / n
    for j, m in enumerate(v.missions):
        info = CONTENT.missions[m]
        x = 20 + j * w
        with d.group(f"Mission {info.name}: {info.text}"):
            d.rect(x, 88, w - 8, 70, fill=pal.PAPER, stroke=pal.GREY, rx=5)
            d.text(x + 8, 104, info.name, size=12, weight="bold", max_chars=int((w - 16) / 7))
        paragraph(
            d,
            x + 8,
            120,
            info.text,
            chars=int((w - 16) / 6.2),
            size=10,
            max_lines=3,
            fill=pal.MUTED,
            label=f"{info.name}: {info.text}",
        )


def _districts(d: Drawing, v: UnrestView) -> None:
    panel(d, 10, 174, 780, 300, "The row of Districts")
    row = list(v.row)
    n = max(len(row), 1)
    w = min(190.0, 770 / n)
    for j, dist in enumerate(row):
        info = CONTENT.districts[dist]
        x = 20 + j * w
        marks = []
        if dist in v.aoi:
            marks.append("Area of Interest")
        if dist == v.blockade:
            marks.append("Blockade")
        if dist == v.proving:
            marks.append("being proved")
        stack = v.stacks[dist]
        with d.group(
            f"District {info.name}, position {j + 1} of the row"
            + (f" ({', '.join(marks)})" if marks else "")
            + f": {len(stack)} cards"
        ):
            d.rect(
                x,
                196,
                w - 8,
                270,
                fill=pal.PAPER,
                stroke=pal.INK if marks else pal.GREY,
                stroke_width=2 if marks else 1,
                rx=5,
            )
            d.text(x + 8, 213, info.name, size=12, weight="bold", max_chars=int((w - 16) / 7))
            d.text(x + 8, 228, f"{len(stack)} card{'s' if len(stack) != 1 else ''}", size=11, fill=pal.MUTED)
        bx = x + 8
        by = 234.0
        for mark, fill in (("AoI", pal.SKY), ("Blockade", pal.VERMILLION), ("proving", pal.YELLOW)):
            full = {"AoI": "Area of Interest", "proving": "being proved"}.get(mark, mark)
            if full in marks:
                ink = pal.PAPER if fill == pal.VERMILLION else pal.INK
                bx += badge(d, bx, by, mark, label=f"{info.name}: {full}", fill=fill, ink=ink) + 4
        _stack(d, x + 8, 258, w - 24, stack, v.chosen if dist == v.proving else ())
    freed = [(r, k) for k, r in enumerate(v.freed) if r > 0]
    if freed:
        text = "; ".join(f"{CONTENT.districts[k].name} in round {r}" for r, k in sorted(freed))
        paragraph(d, 20, 486, f"Liberated: {text}", chars=120, size=11, max_lines=1, label=f"liberated: {text}")


def _stack(d: Drawing, x: float, y: float, w: float, stack: Sequence[object], chosen: Sequence[int]) -> None:  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    per_row = max(int((w + 4) // (_CARD_W + 4)), 1)
    room = per_row * 7
    shown = list(stack) if len(stack) <= room else list(stack)[: room - 1]
    for i, c in enumerate(shown):
        kind, words, face_down = _face(c)
        if i in chosen:
            words += ", revealed for the proof"
        _card(
            d,
            x + (i % per_row) * (_CARD_W + 4),
            y + (i // per_row) * (_CARD_H + 4),
            kind,
            label=f"card {i + 1} of the stack: {words}",
            face_down=face_down,
        )
    if len(shown) < len(stack):
        rest = len(stack) - len(shown)
        d.text(
            x,
            y + (len(shown) // per_row) * (_CARD_H + 4) + 15,
            f"+{rest} more",
            size=11,
            label=f"{rest} more cards in the stack",
        )


def _table(d: Drawing, v: UnrestView, deck: Sequence[int] | None) -> None:
    panel(d, 10, 496, 250, 158, "The Rebellion's plan")
    for s, p in enumerate(v.plan[:3]):
        y = 520 + s * 30
        if p is None:
            d.text(22, y + 15, f"slot {s + 1}: empty", size=12, fill=pal.MUTED, label=f"plan slot {s + 1}: empty")
            continue
        kind, words, face_down = _face(p)
        d.text(22, y + 15, f"slot {s + 1}:", size=12, label=f"plan slot {s + 1}")
        _card(d, 80, y, kind, label=f"plan slot {s + 1}: {words.split(', placed')[0]}", face_down=face_down)
    panel(d, 270, 496, 250, 158, "The Empire's Power tokens")
    for t, name in enumerate(POWERS):
        up = v.tokens[t]
        y = 520 + t * 30
        with d.group(f"Power token {name}: {'face up (unused)' if up else 'face down (used)'}"):
            d.circle(294, y + 10, 10, fill=pal.BLUE if up else pal.LIGHT, stroke=pal.INK, dash=None if up else "3 2")
            d.text(294, y + 14, name[0], size=11, anchor="middle", weight="bold", fill=pal.PAPER if up else pal.MUTED)
            d.text(312, y + 15, f"{name}: {'face up' if up else 'used'}", size=12)
    panel(d, 530, 496, 260, 158, "Hand, deck, destroyed")
    if v.hand:
        d.text(542, 532, "Hand:", size=12, weight="bold", label=f"the Rebellion's hand: {len(v.hand)} cards")
        for i, k in enumerate(v.hand[:6]):
            _card(d, 586 + (i % 3) * 64, 518 + (i // 3) * 26, k, label=f"in hand: {card_words(k)}")
    else:
        d.text(
            542,
            532,
            f"Hand: {v.hand_size}",
            size=12,
            weight="bold",
            label=f"the Rebellion holds {v.hand_size} cards (hidden)",
        )
        for i in range(min(v.hand_size, 6)):
            _card(d, 610 + (i % 3) * 60, 518 + (i // 3) * 26, HIDDEN, label="a card in the Rebellion's hand", w=54)
    if deck is not None:
        text = "Deck: " + (", ".join(_short(k) for k in sorted(deck)) or "empty")
        paragraph(
            d,
            542,
            586,
            text,
            chars=38,
            size=11,
            max_lines=2,
            label=f"the deck ({len(deck)} cards): " + (", ".join(card_words(k) for k in sorted(deck)) or "empty"),
        )
    else:
        d.text(542, 590, f"Deck: {v.deck_size} cards", size=12, label=f"the deck: {v.deck_size} cards")
    gone = [_face(x) for x in v.destroyed]
    words = ", ".join(w for _, w, _ in gone) or "none"
    shown = ", ".join("back" if k == HIDDEN else _short(k) for k, _, _ in gone) or "none"
    paragraph(d, 542, 622, f"Destroyed: {shown}", chars=38, size=11, max_lines=2, label=f"destroyed cards: {words}")
