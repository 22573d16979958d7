"""The words a person needs at the Runebound co-op table: the rule of each step, hero, card, enemy and board texts.

The rules are in our own words; ability and card texts come from the content pack. :class:`runebound_coop.game.
RuneboundCoop` delegates its glossary hooks (``legend``, ``step_rules``, ``card_texts``, ``end_reason``,
``headline``) to these functions.

>>> import runebound_coop
>>> state = runebound_coop.new_game(seed=3)
>>> step_rules(state).split(":")[0]
'Engage'
>>> dict(legend(state))["U"].split(":")[0]
'surge'
"""

from __future__ import annotations

from runebound_coop.content.schema import Face, Sym
from runebound_coop.state import RuneboundState

__all__ = ["card_texts", "end_reason", "headline", "legend", "step_rules"]

_SYMBOL_TEXT = {
    Sym.PHYSICAL: "physical damage: the hero deals its value to the foe",
    Sym.MAGIC: "magic damage: the hero deals its value to the foe",
    Sym.SKULL: "skull: the enemy's damage to the hero",
    Sym.SHIELD: "shield: blocks 1 damage (spent at the first damage taken)",
    Sym.AGILITY: "agility: flip one of your other tokens, or recast one of the foe's unspent tokens",
    Sym.DOUBLE: "double: doubles the value of another of your tokens",
    Sym.SURGE: "surge: pays for the combatant's surge abilities",
    Sym.BLANK: "blank: does nothing",
    Sym.TACTICS: "tactics: copies a symbol showing on any other token (the hero never a skull), or blocks as a shield",
    Sym.CHARGE: "charge: the hero deals its value as damage that cannot be blocked, then cannot block this round",
}

_LEGEND: tuple[tuple[str, str], ...] = (
    *((sym.letter, text) for sym, text in _SYMBOL_TEXT.items()),
    ("2P", "a token face with a value: 2 physical (no number means 1)"),
    ("*", "the initiative mark: the side with more marks acts first (the hero wins ties)"),
    ("x2", "a token doubled by a double"),
    ("(..)", "a spent token"),
    ("(.. removed)", "a token an effect removed this round"),
    ("?", "a token still being cast"),
    ("0:2P", "token number 0 of the pool, showing 2P (moves name tokens by number)"),
    ("Elian 3/9", "a hero's damage taken out of its health"),
    ("Sorcerer [mystic] 4/5", "an enemy, its trait (which token set and combat board it uses) and damage/health"),
    ("(hand 2)", "skill cards left in the hero's hand; each exert discards one"),
    ("(defeated)", "the hero's damage reached its health: it fights no more"),
    ("(withdrew)", "the hero left a fight and engages no more"),
)

_STEP_RULES = {
    "engage": (
        "Engage: the party picks which hero fights the next enemy of the encounter (a defeated or withdrawn hero "
        "cannot). The fight goes on, round after round, until the hero or the enemy is defeated."
    ),
    "cast": (
        "Cast: every combat token of both combatants is cast and lands on one of its two faces (each half the "
        "time). Initiative marks decide who acts first; the hero wins ties."
    ),
    "actions": (
        "Actions: the combatants take turns. On your turn spend tokens for one action: damage of one type (values "
        "added), agility (flip your own token or recast the foe's), a double on another token, tactics as a copy, "
        "surges for a surge ability, or exert a skill card from hand (its text below); or pass, after which you "
        "act no more this round. Shields and tactics block damage as it comes. The enemy acts by its combat "
        "board: it resolves the next space holding a token, top to bottom, and passes when none can be resolved."
    ),
    "round_end": (
        "Round end: the enemy board's title ability resolves, and (with the retreat option) the hero may withdraw. "
        "Then the next round casts every token again."
    ),
    "result": "The encounter is over.",
}


def legend(state: RuneboundState, player: int | None = None) -> tuple[tuple[str, str], ...]:
    """Every symbol the Runebound render prints, as ``(symbol, meaning)`` pairs."""
    return _LEGEND


def step_rules(state: RuneboundState) -> str:
    """The rule of the current step (with the pending choice, when there is one)."""
    if state.pos.phase == "over":
        return "The encounter is over. " + end_reason(state)
    text = _STEP_RULES.get(state.pos.step, state.pos.step)
    if state.pending.top is not None:
        text += (
            " Now a pending choice: the hero may cancel an enemy ability with 1 tactics (cancel or allow), may "
            "spend a tactics as a shield against the damage it is about to take (block with tactics or keep "
            "tactics), or the enemy player picks which token its effect takes."
        )
    return text


def _faces(faces: tuple[tuple[Face, Face], ...]) -> str:
    return " ".join(f"{a}/{b}" for a, b in faces)


def card_texts(state: RuneboundState, player: int | None = None) -> tuple[tuple[str, str], ...]:
    """The party's heroes (tokens, surge abilities, skill cards), the enemies, and the combat boards in play."""
    setup = state.options.setup
    out: list[tuple[str, str]] = []
    for i, hero in enumerate(setup.heroes):
        abilities = " ".join(f"{a.name} ({a.cost} surge): {a.text}" for a in hero.abilities)
        out.append((f"Hero: {hero.name}", f"health {hero.health}; tokens {_faces(hero.faces)}. {abilities}".strip()))
        if state.hand[i]:
            for card in hero.cards:
                out.append((f"Skill card of {hero.name}: {card.name}", card.text))
    boards = {}
    for enemy in setup.enemies:
        abilities = " ".join(
            f"{a.name} ({f'{a.cost} surge' if a.trigger == 'surge' else a.trigger}): {a.text}" for a in enemy.abilities
        )
        out.append(
            (
                f"Enemy: {enemy.name}",
                f"{enemy.trait}, health {enemy.health}; tokens {_faces(enemy.faces)}. {abilities}".strip(),
            )
        )
        boards[enemy.trait] = enemy.board
    for trait, board in boards.items():
        spaces = ", ".join(
            f"{s.symbol.value}"
            + (f" ({s.mode.replace('_', ' ')})" if s.mode else "")
            + (f" (first on {'/'.join(p.value for p in s.priority)})" if s.priority else "")
            + (f" +{s.plus}" if s.plus else "")
            for s in board.spaces
        )
        out.append((f"Combat board: {trait}", f"{board.title.text} Spaces, top to bottom: {spaces}."))
    return tuple(out)


def end_reason(state: RuneboundState) -> str:
    """Why the encounter ended: every enemy defeated, every hero defeated, or the heroes left or ran out of rounds."""
    if state.pos.phase != "over":
        return ""
    setup = state.options.setup
    if all(d >= e.health for d, e in zip(state.enemy_damage, setup.enemies, strict=True)):
        return "The party wins: every enemy of the encounter is defeated."
    if state.out == (1 << len(setup.heroes)) - 1:
        return "The party loses: every hero is defeated."
    left = [e.name for d, e in zip(state.enemy_damage, setup.enemies, strict=True) if d < e.health]
    return (
        "A draw: no hero is left to engage (each was defeated, withdrew or fought the round limit) while "
        f"{', '.join(left)} still stand."
    )


def headline(state: RuneboundState) -> str:
    """The fight in progress, for logs that show the table when a new fight starts."""
    fight = state.fight
    if fight is None:
        return "encounter over" if state.pos.phase == "over" else "choosing who engages"
    setup = state.options.setup
    return f"{setup.heroes[fight.hero].name} vs {setup.enemies[fight.enemy].name}"
