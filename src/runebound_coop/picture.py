"""Runebound co-op combat as a picture: a seat's view drawn as SVG (see :mod:`tabletop_core.render`).

The picture shows the party (each hero's damage against its health, hand, and whether it is engaged, defeated or
withdrew), the encounter's enemies with their damage, and during a fight both token pools (each token's face up,
with its symbol drawn as a small icon, its value, the initiative mark, its side a or b, and whether it is spent,
removed, doubled or still being cast), the enemy's combat board with the enemy's tokens on its spaces and its title
ability, the shields ready to block, the round and step, who acts, and the pending question. Combat hides nothing,
so every seat's view is the whole truth and the picture says so.

>>> import runebound_coop
>>> from tabletop_core.render import check_svg
>>> state = runebound_coop.new_game(seed=1)
>>> check_svg(picture(runebound_coop.observe(state, 0)), view_box=VIEW_BOX)
(800.0, 700.0)
"""

from __future__ import annotations

from runebound_coop.content.roster import EnemySetup, Setup
from runebound_coop.content.schema import Face, Sym
from runebound_coop.rules.tokens import faces_of
from runebound_coop.state import (
    ENEMY,
    HERO,
    AttackFrame,
    BlockFrame,
    CancelFrame,
    ExertFrame,
    Fight,
    RuneboundState,
    Side,
    card_bit,
    hero_ability_bit,
    token_ref,
)
from runebound_coop.view import RuneboundView, seat_name
from tabletop_core.render import palette as pal
from tabletop_core.render.shapes import badge, banner, panel, paragraph, track, wrap
from tabletop_core.render.svg import Drawing

__all__ = ["SYMBOL_COLOURS", "VIEW_BOX", "picture", "public", "truth"]

#: The fixed ``viewBox`` of every Runebound picture.
VIEW_BOX = (800, 700)
_W, _H = VIEW_BOX
#: A token's colour by the symbol it shows (its letter and icon say it too).
SYMBOL_COLOURS = {
    Sym.PHYSICAL: pal.VERMILLION,
    Sym.MAGIC: pal.PURPLE,
    Sym.SKULL: pal.BLACK,
    Sym.SHIELD: pal.BLUE,
    Sym.AGILITY: pal.GREEN,
    Sym.DOUBLE: pal.LIGHT,
    Sym.SURGE: pal.YELLOW,
    Sym.BLANK: pal.PAPER,
    Sym.TACTICS: pal.SKY,
    Sym.CHARGE: pal.ORANGE,
}
#: Symbols whose colour is dark: their icon and text are drawn light.
_DARK = frozenset({Sym.SKULL, Sym.SHIELD, Sym.PHYSICAL, Sym.AGILITY, Sym.MAGIC})
_TOKEN = 46


def picture(view: RuneboundView, *, width: int = _W) -> str:
    """``view.player``'s view as SVG text (``width`` pixels wide; the ``viewBox`` stays :data:`VIEW_BOX`)."""
    setup = view.state.options.setup
    who = seat_name(setup, view.state, view.player)
    return _draw(view.state, f"{who}'s view (nothing is hidden)", width, reveal=False)


def public(state: RuneboundState, *, width: int = _W) -> str:
    """What every seat sees, as SVG text: the whole table (combat hides nothing), said in the picture."""
    return _draw(state, "the public view (nothing is hidden)", width, reveal=False)


def truth(state: RuneboundState, *, width: int = _W) -> str:
    """The whole table as SVG text: every seat's view is the same, since combat hides nothing."""
    return _draw(state, "the whole truth (nothing is hidden)", width, reveal=True)


def _words(face: Face) -> str:
    value = f"{face.value} " if face.value != 1 else ""
    return f"{value}{face.symbol.value}" + (" with the initiative mark" if face.initiative else "")


def _draw(s: RuneboundState, seen: str, width: int, *, reveal: bool) -> str:
    setup = s.options.setup
    fight = s.fight
    if s.pos.phase == "over":
        where = "the encounter is over"
    elif fight is None:
        where = "the party chooses who engages"
    else:
        where = f"{setup.heroes[fight.hero].name} fights the {setup.enemies[fight.enemy].name}, round {s.pos.round}"
    d = Drawing(_W, _H, title=f"Runebound combat: {where}; drawn as {seen}")
    banner(d, "Runebound co-op combat", seen, width=_W, reveal=reveal)
    _party(d, s, setup)
    _encounter(d, s, setup)
    if fight is None:
        with d.group(where):
            d.rect(10, 250, 780, 60, fill=pal.PANEL, stroke=pal.GREY, rx=6)
            d.text(400, 286, where[0].upper() + where[1:], size=18, anchor="middle", weight="bold")
    else:
        _fight(d, s, setup, fight)
    return d.to_svg(width=width)


def _party(d: Drawing, s: RuneboundState, setup: Setup) -> None:
    panel(d, 10, 42, 780, 96, "The party")
    w = 190
    for h, hero in enumerate(setup.heroes):
        x = 20 + h * (w + 3)
        status = []
        if (s.out >> h) & 1:
            status.append("defeated")
        if (s.withdrawn >> h) & 1:
            status.append("withdrew")
        if s.fight is not None and s.fight.hero == h:
            status.append("engaged")
        words = ", ".join(status) or "ready"
        with d.group(
            f"hero {hero.name}: {s.hero_damage[h]} damage of {hero.health} health, {s.hand[h]} cards in hand, {words}"
        ):
            d.rect(
                x,
                64,
                w - 6,
                66,
                fill=pal.PAPER,
                stroke=pal.INK if "engaged" in status else pal.GREY,
                stroke_width=2.5 if "engaged" in status else 1,
                rx=5,
                dash="4 3" if "defeated" in status else None,
            )
            d.text(x + 8, 81, hero.name, size=14, weight="bold")
            d.text(x + w - 14, 81, words, size=11, anchor="end", fill=pal.MUTED)
            _damage(d, x + 8, 90, s.hero_damage[h], hero.health, w - 24)
            d.text(x + 8, 124, f"damage {s.hero_damage[h]}/{hero.health} \u00b7 hand {s.hand[h]}", size=11)


def _damage(d: Drawing, x: float, y: float, damage: int, health: int, w: float) -> None:  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    cell = min(w / max(health, 1), 16)
    for i in range(health):
        d.rect(x + i * cell, y, cell - 2, 14, fill=pal.VERMILLION if i < damage else pal.PAPER, stroke=pal.GREY, rx=2)


def _encounter(d: Drawing, s: RuneboundState, setup: Setup) -> None:
    panel(d, 10, 144, 780, 98, "The encounter (fought in this order)")
    n = len(setup.enemies)
    w = min(190.0, 770 / max(n, 1))
    for e, enemy in enumerate(setup.enemies):
        x = 20 + e * w
        dead = s.enemy_damage[e] >= enemy.health
        engaged = s.fight is not None and s.fight.enemy == e
        words = "defeated" if dead else "engaged" if engaged else "waiting"
        with d.group(
            f"enemy {enemy.name} ({enemy.trait}): {s.enemy_damage[e]} damage of {enemy.health} health, {words}"
        ):
            d.rect(
                x,
                166,
                w - 6,
                68,
                fill=pal.PAPER,
                stroke=pal.INK if engaged else pal.GREY,
                stroke_width=2.5 if engaged else 1,
                rx=5,
                dash="4 3" if dead else None,
            )
            d.text(x + 8, 183, enemy.name, size=13, weight="bold", max_chars=int((w - 16) / 7.5))
            d.text(x + 8, 198, f"{enemy.trait} \u00b7 {words}", size=11, fill=pal.MUTED, max_chars=int((w - 16) / 6.4))
            _damage(d, x + 8, 205, s.enemy_damage[e], enemy.health, w - 24)
            d.text(x + 8, 231, f"{s.enemy_damage[e]}/{enemy.health}", size=11)


def _icon(d: Drawing, sym: Sym, cx: float, cy: float, ink: str) -> None:
    """The symbol's small icon (drawn here: simple shapes), centred on ``(cx, cy)``; decorative beside the label."""
    if sym is Sym.PHYSICAL:  # a sword
        d.line(cx - 7, cy + 7, cx + 7, cy - 7, stroke=ink, stroke_width=2.5, decor=True)
        d.line(cx - 6, cy + 1, cx - 1, cy + 6, stroke=ink, stroke_width=2, decor=True)
    elif sym is Sym.MAGIC:  # a four-pointed star
        d.polygon(
            [
                (cx, cy - 8),
                (cx + 2.5, cy - 2.5),
                (cx + 8, cy),
                (cx + 2.5, cy + 2.5),
                (cx, cy + 8),
                (cx - 2.5, cy + 2.5),
                (cx - 8, cy),
                (cx - 2.5, cy - 2.5),
            ],
            fill=ink,
            decor=True,
        )
    elif sym is Sym.SKULL:  # a round head with two eyes
        d.circle(cx, cy, 7, fill=ink, decor=True)
        d.circle(cx - 2.6, cy - 1, 1.8, fill=pal.BLACK, decor=True)
        d.circle(cx + 2.6, cy - 1, 1.8, fill=pal.BLACK, decor=True)
    elif sym is Sym.SHIELD:
        d.path(
            f"M{cx - 7},{cy - 7} L{cx + 7},{cy - 7} L{cx + 7},{cy} Q{cx + 7},{cy + 6} {cx},{cy + 8} "
            f"Q{cx - 7},{cy + 6} {cx - 7},{cy} Z",
            fill=ink,
            decor=True,
        )
    elif sym is Sym.AGILITY:  # a double chevron
        for dx in (-4, 3):
            d.path(
                f"M{cx + dx - 3},{cy - 6} L{cx + dx + 3},{cy} L{cx + dx - 3},{cy + 6}",
                stroke=ink,
                stroke_width=2.2,
                decor=True,
            )
    elif sym is Sym.DOUBLE:
        d.text(cx, cy + 5, "\u00d72", size=13, anchor="middle", weight="bold", fill=ink, decor=True)
    elif sym is Sym.SURGE:  # a lightning bolt
        d.polygon(
            [(cx + 2, cy - 8), (cx - 5, cy + 1), (cx, cy + 1), (cx - 2, cy + 8), (cx + 5, cy - 1), (cx, cy - 1)],
            fill=ink,
            decor=True,
        )
    elif sym is Sym.TACTICS:  # a diamond
        d.polygon([(cx, cy - 7), (cx + 6, cy), (cx, cy + 7), (cx - 6, cy)], stroke=ink, stroke_width=2, decor=True)
    elif sym is Sym.CHARGE:  # an arrowhead
        d.polygon([(cx - 6, cy + 6), (cx, cy - 7), (cx + 6, cy + 6), (cx, cy + 2)], fill=ink, decor=True)


def _token(  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    d: Drawing, x: float, y: float, setup: Setup, fight: Fight, side: Side, i: int, *, size: float = _TOKEN
) -> None:
    """Token ``i`` of ``side``'s pool as a rounded square at ``(x, y)``, its number and side written below."""
    pool = fight.pool(side)
    pair = faces_of(setup, fight, side)[i]
    owner = setup.heroes[fight.hero].name if side == HERO else f"the {setup.enemies[fight.enemy].name}"
    mid = x + size / 2
    if token_ref(side, i) in fight.casting:
        with d.group(f"{owner}'s token {i}: being cast (face not known yet)", cls="token"):
            d.rect(x, y, size, size, fill=pal.LIGHT, stroke=pal.GREY, rx=8, dash="4 3")
            d.text(mid, y + size * 0.65, "?", size=20, anchor="middle", weight="bold", fill=pal.MUTED)
            d.text(mid, y + size + 11, f"#{i}", size=10, anchor="middle", fill=pal.MUTED)
        return
    k = pool.side(i)
    face, other = pair[k], pair[1 - k]
    spent, removed = bool((pool.spent >> i) & 1), bool((pool.removed >> i) & 1)
    state = "removed" if removed else "spent" if spent else "in the pool"
    label = f"{owner}'s token {i}: {_words(face)} (side {'ab'[k]}; other side {_words(other)}), {state}" + (
        ", doubled" if pool.doubled(i) else ""
    )
    colour = SYMBOL_COLOURS[face.symbol]
    ink = pal.PAPER if face.symbol in _DARK else pal.INK
    faded = spent or removed
    with d.group(label, cls="token"):
        d.rect(
            x,
            y,
            size,
            size,
            fill=pal.LIGHT if faded else colour,
            stroke=pal.INK,
            stroke_width=1.5,
            rx=8,
            dash="3 3" if faded else None,
        )
        _icon(d, face.symbol, mid, y + size * 0.32, pal.MUTED if faded else ink)
        text = f"{face.value if face.value != 1 else ''}{face.symbol.letter}{'*' if face.initiative else ''}"
        d.text(mid, y + size * 0.86, text, size=13, anchor="middle", weight="bold", fill=pal.INK if faded else ink)
        if pool.doubled(i):
            d.circle(x + size - 2, y + 2, 9, fill=pal.ORANGE, stroke=pal.INK)
            d.text(x + size - 2, y + 6, "\u00d72", size=10, anchor="middle", weight="bold")
        if removed:
            d.line(x + 4, y + 4, x + size - 4, y + size - 4, stroke=pal.VERMILLION, stroke_width=3)
        caption = f"#{i} {'ab'[k]}" + (" removed" if removed else " spent" if spent else "")
        d.text(mid, y + size + 11, caption, size=10, anchor="middle", fill=pal.MUTED)


def _shields(fight: Fight, setup: Setup, side: Side) -> int:
    pool = fight.pool(side)
    faces = faces_of(setup, fight, side)
    return sum(
        faces[i][pool.side(i)].value
        for i in range(len(faces))
        if pool.is_live(i) and faces[i][pool.side(i)].symbol is Sym.SHIELD and i not in fight.casting
    )


def _fight(d: Drawing, s: RuneboundState, setup: Setup, fight: Fight) -> None:
    hero, enemy = setup.heroes[fight.hero], setup.enemies[fight.enemy]
    to_act = hero.name if fight.turn == HERO else f"the {enemy.name}"
    passed = [n for side, n in ((HERO, hero.name), (ENEMY, f"the {enemy.name}")) if fight.has_passed(side)]
    line = f"round {s.pos.round} of at most {s.options.max_rounds} \u00b7 step {s.pos.step} \u00b7 to act: {to_act}"
    d.text(16, 262, line + (f" \u00b7 passed: {', '.join(passed)}" if passed else ""), size=13, weight="bold")
    # the hero's pool
    panel(d, 10, 272, 380, 200, f"{hero.name}'s pool")
    n = len(hero.faces)
    for i in range(n):
        _token(d, 22 + (i % 6) * 60, 298 + (i // 6) * 70, setup, fight, HERO, i)
    used = [a.name for a_i, a in enumerate(hero.abilities) if fight.has_used(hero_ability_bit(a_i))]
    cards = [c.name for c_i, c in enumerate(hero.cards) if fight.has_used(card_bit(c_i))]
    y = 388.0
    for a in hero.abilities[:3]:
        y = paragraph(
            d,
            22,
            y,
            f"{a.name} ({a.trigger} {a.cost}): {a.text}",
            chars=56,
            size=11,
            max_lines=1,
            fill=pal.MUTED if a.name in used else pal.INK,
            label=f"ability {a.name}: {a.text}" + (" (used this round)" if a.name in used else ""),
        )
    for c in hero.cards[:2]:
        y = paragraph(
            d,
            22,
            y,
            f"card {c.name}: {c.text}",
            chars=56,
            size=11,
            max_lines=1,
            fill=pal.MUTED if c.name in cards else pal.INK,
            label=f"card {c.name}: {c.text}" + (" (exerted this round)" if c.name in cards else ""),
        )
    x = 22.0
    shields = _shields(fight, setup, HERO)
    x += (
        badge(d, x, 440, f"shields {shields}", label=f"{hero.name} has {shields} shield ready to block", fill=pal.SKY)
        + 6
    )
    if fight.has_charged(HERO):
        badge(d, x, 440, "charged", label=f"{hero.name} spent charge this round and cannot block", fill=pal.ORANGE)
    # the enemy's pool and board
    _board(d, s, setup, fight, enemy)
    _pending(d, s, setup, fight)


def _board(d: Drawing, s: RuneboundState, setup: Setup, fight: Fight, enemy: EnemySetup) -> None:
    board = enemy.board
    panel(d, 400, 272, 390, 418, f"The {enemy.name}'s combat board ({board.trait})")
    pool = fight.enemy_pool
    faces = faces_of(setup, fight, ENEMY)
    live = [i for i in range(len(faces)) if token_ref(ENEMY, i) not in fight.casting]
    placed: set[int] = set()
    y = 296.0
    for k, space in enumerate(board.spaces[:5]):
        on = [i for i in live if faces[i][pool.side(i)].symbol is space.symbol]
        placed.update(on)
        extra = []
        if space.mode:
            extra.append(space.mode.replace("_", " "))
        if space.priority:
            extra.append("order " + ", ".join(p.value for p in space.priority))
        if space.plus:
            extra.append(f"+{space.plus}")
        what = space.symbol.value + (f" ({'; '.join(extra)})" if extra else "")
        with d.group(f"board space {k + 1}: {what}; tokens here: {', '.join(f'#{i}' for i in on) or 'none'}"):
            d.rect(410, y, 370, 56, fill=pal.PAPER, stroke=pal.GREY, rx=5)
            d.text(418, y + 18, f"{k + 1}. {space.symbol.value}", size=13, weight="bold")
            for j, line in enumerate(wrap(f"({'; '.join(extra)})", 22)[:2] if extra else []):
                d.text(418, y + 34 + j * 14, line, size=11, fill=pal.MUTED)
        for j, i in enumerate(on[:4]):
            _token(d, 590 + j * 48, y + 2, setup, fight, ENEMY, i, size=40)
        y += 59
    y = paragraph(d, 410, y + 12, f"Title ability: {board.title.text}", chars=62, size=11, max_lines=2, italic=True)
    rest = [i for i in range(len(faces)) if i not in placed]
    if rest:
        d.text(410, y + 4, "Tokens on no space:", size=11, weight="bold")
        for j, i in enumerate(rest[:8]):
            _token(d, 410 + j * 48, y + 10, setup, fight, ENEMY, i, size=40)


def _pending(d: Drawing, s: RuneboundState, setup: Setup, fight: Fight) -> None:
    hero, enemy = setup.heroes[fight.hero], setup.enemies[fight.enemy]
    top = s.pending.top
    if top is None:
        text = "no question pending"
    elif isinstance(top, CancelFrame):
        text = f"{hero.name} may cancel {enemy.abilities[top.ability].name} with 1 tactics"
    elif isinstance(top, BlockFrame):
        text = f"{hero.name} takes {top.amount} damage: block with a tactics copying a shield?"
    elif isinstance(top, AttackFrame):
        text = f"{hero.name} attacks with {top.symbol}: choosing tokens"
    elif isinstance(top, ExertFrame):
        text = f"{hero.name} exerts {hero.cards[top.card].name}: choosing the {top.symbol} tokens to remove"
    else:
        text = f"the enemy player chooses a token ({top.kind.replace('_', ' ')})"
    panel(d, 10, 480, 380, 210, "Now")
    paragraph(d, 22, 522, text, chars=48, size=13, label=f"pending: {text}")
    track(
        d,
        22,
        590,
        f"{hero.name}",
        s.hero_damage[fight.hero],
        hero.health,
        colour=pal.VERMILLION,
        cell=16,
        name_width=80,
        note="damage",
    )
    track(
        d,
        22,
        614,
        f"{enemy.name}",
        s.enemy_damage[fight.enemy],
        enemy.health,
        colour=pal.VERMILLION,
        cell=16,
        name_width=80,
        note="damage",
    )
