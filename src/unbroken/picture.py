"""Unbroken as a picture: the player's view drawn as SVG (see :mod:`tabletop_core.render`).

The picture shows the Levels, the resource tracks (Time, Food, the three Effort categories and the other
resources), the weapon stack with the active weapon's attacks, the skills, the conditions (this Level's and the
next's), the Display's revealed encounters and offered skills, and the monster sheet with its Armor and Health and
its Combat Actions table (the row rolled marked). Unbroken hides nothing but future chance, so every seat's view is
the whole truth and the picture says so.

>>> import unbroken
>>> from tabletop_core.render import check_svg
>>> svg = picture(unbroken.observe(unbroken.new_game(seed=1), 0))
>>> check_svg(svg, view_box=VIEW_BOX)
(800.0, 720.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop_core.render import palette as pal
from tabletop_core.render.shapes import badge, banner, card, panel, track
from tabletop_core.render.svg import Drawing
from unbroken.notation import RES_NAMES
from unbroken.rules.scoring import score, title
from unbroken.state import CAPS, CUNNING, EFFORT, FOOD, LAST_LEVEL, METAL, RESOURCES, TIME, TREASURE, WOOD, State
from unbroken.view import View

__all__ = ["VIEW_BOX", "picture", "truth"]

#: The fixed ``viewBox`` of every Unbroken picture.
VIEW_BOX = (800, 720)
_W, _H = VIEW_BOX
_EFFORT_COLOURS = (pal.SKY, pal.BLUE, pal.PURPLE)
_OTHER = ((CUNNING, pal.VERMILLION), (WOOD, pal.GREEN), (METAL, pal.GREY), (TREASURE, pal.YELLOW))


def picture(view: View, *, width: int = _W) -> str:
    """The player's view as SVG text (``width`` pixels wide; the ``viewBox`` stays :data:`VIEW_BOX`)."""
    return _draw(view.state, "the player's view (nothing is hidden)", width, reveal=False)


def truth(state: State, *, width: int = _W) -> str:
    """The whole table as SVG text: the same as the player's view, since Unbroken hides nothing."""
    return _draw(state, "the whole truth (nothing is hidden)", width, reveal=True)


def _draw(s: State, seen: str, width: int, *, reveal: bool) -> str:
    pack = s.pack
    character = pack.character(s.options.character).name
    where = f"Level {s.level}, {s.pos.phase} phase, {s.pos.step} step" if s.level <= LAST_LEVEL else "after Level 4"
    d = Drawing(_W, _H, title=f"Unbroken: {character} ({s.options.difficulty}), {where}; drawn as {seen}")
    banner(d, f"Unbroken: {character}, {s.options.difficulty}", seen, width=_W, reveal=reveal)
    _levels(d, s)
    _tracks(d, s)
    _gear(d, s)
    _display(d, s)
    _monster(d, s)
    _outcome(d, s)
    return d.to_svg(width=width)


def _levels(d: Drawing, s: State) -> None:
    d.text(16, 58, f"{s.pos.phase} phase, {s.pos.step} step; Ability Uses {s.uses}", size=13, fill=pal.MUTED)
    for lv in range(1, LAST_LEVEL + 1):
        x = 420 + (lv - 1) * 92
        state = "current" if lv == s.level else "done" if lv < s.level else "to come"
        with d.group(f"Level {lv}: {state}"):
            d.rect(
                x,
                42,
                84,
                24,
                fill=pal.BLUE if lv == s.level else pal.LIGHT if lv < s.level else pal.PAPER,
                stroke=pal.INK,
                rx=4,
                dash=None if lv >= s.level else "3 2",
            )
            ink = pal.PAPER if lv == s.level else pal.INK
            d.text(
                x + 42,
                59,
                f"Level {lv}" + (" \u2713" if lv < s.level else ""),
                size=13,
                anchor="middle",
                weight="bold",
                fill=ink,
            )


def _tracks(d: Drawing, s: State) -> None:
    panel(d, 10, 76, 390, 270, "Display: resources")
    y = 104
    track(d, 22, y, "Time", s.amount(TIME), CAPS[TIME], colour=pal.ORANGE, cell=20)
    y += 24
    track(d, 22, y, "Food", s.amount(FOOD), CAPS[FOOD], colour=pal.GREEN, cell=20)
    y += 30
    d.text(22, y + 8, "Effort (a higher category pays for a lower)", size=12, fill=pal.MUTED)
    y += 16
    for r, colour in zip(EFFORT, _EFFORT_COLOURS, strict=True):
        cell = 11 if CAPS[r] > 10 else 20
        track(d, 22, y, RES_NAMES[RESOURCES[r]], s.amount(r), CAPS[r], colour=colour, cell=cell)
        y += 24
    y += 8
    for r, colour in _OTHER:
        track(d, 22, y, RES_NAMES[RESOURCES[r]], s.amount(r), CAPS[r], colour=colour, cell=20)
        y += 24


def _list(  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    d: Drawing, x: float, y: float, w: float, rows: int, items: Sequence[tuple[str, str, str]], empty: str
) -> None:
    """Cards in a column, ``(title, detail, label)`` each; past ``rows`` a labelled "+N more"."""
    if not items:
        d.text(x, y + 14, empty, size=12, fill=pal.MUTED, italic=True)
        return
    shown = items if len(items) <= rows else items[: rows - 1]
    for i, (name, detail, label) in enumerate(shown):
        card(d, x, y + i * 26, w, 23, name + (f" \u2014 {detail}" if detail else ""), label=label, bold=False)
    if len(shown) < len(items):
        rest = items[len(shown) :]
        d.text(
            x,
            y + len(shown) * 26 + 15,
            f"+{len(rest)} more: " + ", ".join(t for t, _, _ in rest),
            size=11,
            max_chars=int(w / 6.4),
            label="also: " + "; ".join(lb for _, _, lb in rest),
        )


def _gear(d: Drawing, s: State) -> None:
    pack = s.pack
    panel(d, 410, 76, 380, 270, "Weapon stack, skills, conditions")
    weapon = pack.weapon(s.weapon)
    attacks = "; ".join(f"{a.name} {a.kind} {a.power}" for a in weapon.attacks)
    under = [pack.weapon(w).name for w in s.weapons[:-1]]
    with d.group(
        f"active weapon {weapon.name} ({weapon.tier}); attacks: {attacks}"
        + (f"; beneath it: {', '.join(under)}" if under else "")
    ):
        for k in range(min(len(s.weapons) - 1, 3)):
            d.rect(422 + 4 * (3 - k), 98 + 4 * (3 - k) - 12, 356, 40, fill=pal.LIGHT, stroke=pal.GREY, rx=5)
        d.rect(422, 98, 356, 40, fill=pal.PAPER, stroke=pal.INK, stroke_width=2, rx=5)
        d.text(432, 114, f"Weapon: {weapon.name}", size=13, weight="bold")
        d.text(432, 131, attacks, size=11, fill=pal.MUTED, max_chars=58)
        if under:
            d.text(770, 114, f"{len(under)} beneath", size=11, anchor="end", fill=pal.MUTED)
    d.text(422, 158, "Skills", size=12, weight="bold")
    skills = {x.id: x for x in pack.skills}
    items = [(skills[k].name, "", f"skill {skills[k].name}: {skills[k].text or 'no text'}") for k in s.skills]
    _list(d, 422, 164, 176, 6, items, "no skills")
    d.text(606, 158, "Conditions", size=12, weight="bold")
    conds = [
        (
            pack.condition(c.id).name,
            f"{c.tokens} tokens" if c.tokens else "",
            f"condition {pack.condition(c.id).name}" + (f", {c.tokens} red tokens" if c.tokens else ""),
        )
        for c in s.conditions
    ]
    conds += [
        (pack.condition(c.id).name, "next Level", f"condition {pack.condition(c.id).name} from the next Level")
        for c in s.next_conditions
    ]
    _list(d, 606, 164, 172, 6, conds, "no conditions")


def _display(d: Drawing, s: State) -> None:
    pack = s.pack
    panel(d, 10, 356, 390, 354, "Display: revealed cards")
    enc = [pack.encounters[i] for i in s.revealed]
    items = [
        (
            e.name,
            f"{e.kind}, {e.time} Time",
            f"revealed encounter {e.name} ({e.kind}, {e.time} Time)" + (f": {e.text}" if e.text else ""),
        )
        for e in enc
    ]
    offered = [pack.skills[k] for k in s.offered]
    items += [
        (k.name, "skill offered", f"skill offered: {k.name}" + (f": {k.text}" if k.text else "")) for k in offered
    ]
    _list(d, 22, 384, 366, 12, items, "no card revealed")


def _monster(d: Drawing, s: State) -> None:
    pack = s.pack
    panel(d, 410, 356, 380, 354, "Monster sheet")
    c = s.combat
    mid = c.monster if c is not None else s.monster
    if not mid:
        d.text(
            422,
            396,
            f"the monster of Level {min(s.level, LAST_LEVEL)} is not revealed yet",
            size=13,
            fill=pal.MUTED,
            italic=True,
        )
        return
    m = pack.monster_for_id(mid)
    status = "in combat" if c is not None else "scouted"
    with d.group(f"monster {m.name}, Level {m.level} number {m.number}, {status}"):
        d.text(422, 398, m.name, size=18, weight="bold")
        d.text(778, 398, f"Level {m.level} \u00b7 #{m.number} \u00b7 {status}", size=12, anchor="end", fill=pal.MUTED)
    if c is not None:
        track(
            d,
            422,
            410,
            "Armor",
            c.armor,
            c.max_armor,
            colour=pal.SKY,
            cell=min(16, 230 / max(c.max_armor, 1)),
            name_width=60,
        )
        track(
            d,
            422,
            432,
            "Health",
            c.health,
            c.max_health,
            colour=pal.VERMILLION,
            cell=min(16, 230 / max(c.max_health, 1)),
            name_width=60,
        )
        x = 422.0
        if c.defend:
            x += (
                badge(
                    d, x, 454, "DEFEND", label="the monster will DEFEND against the next weapon attack", fill=pal.YELLOW
                )
                + 6
            )
        if c.roll:
            badge(d, x, 454, f"rolled {c.roll}", label=f"the monster rolled {c.roll}", fill=pal.PAPER)
    else:
        d.text(
            422, 426, f"Armor {m.armor} \u00b7 Health {m.health}", size=13, label=f"Armor {m.armor}, Health {m.health}"
        )
    d.text(422, 492, "Combat Actions (Slashes Die)", size=12, weight="bold")
    for face, row in enumerate(m.table, start=1):
        y = 500 + (face - 1) * 30
        rolled = c is not None and c.roll == face
        text = row.text or row.kind.upper()
        with d.group(f"Combat Action {face}: {text}" + (" (rolled)" if rolled else "")):
            d.rect(
                422,
                y,
                356,
                26,
                fill=pal.YELLOW if rolled else pal.PAPER,
                stroke=pal.INK if rolled else pal.GREY,
                stroke_width=2 if rolled else 1,
                rx=4,
            )
            d.text(436, y + 18, str(face), size=13, weight="bold", anchor="middle")
            d.text(452, y + 18, text, size=12, max_chars=52)


def _outcome(d: Drawing, s: State) -> None:
    if not s.outcome:
        return
    won = s.outcome > 0
    text = f"WON with {score(s)} points ({title(score(s))})" if won else "LOST"
    with d.group(f"game over: {text}"):
        d.rect(
            220,
            300,
            360,
            56,
            fill=pal.GREEN if won else pal.VERMILLION,
            stroke=pal.INK,
            stroke_width=2,
            rx=8,
            opacity=0.95,
        )
        d.text(400, 335, text, size=20, weight="bold", anchor="middle", fill=pal.PAPER)
