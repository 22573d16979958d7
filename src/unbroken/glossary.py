"""The words a person needs at the Unbroken table: the rule of each step, card texts from the pack, the symbols.

The rules are in our own words; card texts come from the content pack (a card's own ``text`` where it has one,
else its effects read out by :func:`ops_text`, each op by the text of its entry in the effect language's registry,
:data:`unbroken.rules.effects.OPS`). :class:`unbroken.game.Unbroken` delegates its glossary hooks
(``legend``, ``step_rules``, ``card_texts``, ``end_reason``, ``headline``) to these functions.

>>> import unbroken
>>> state = unbroken.new_game(seed=3)
>>> step_rules(state).split(":")[0]
'Preparation'
>>> dict(legend(state))["se"].split(" (")[0]
'Small Effort'
>>> ops_text(state.pack.encounters[0].gain)
'gain 1 Food, gain 1 Small Effort'
"""

from __future__ import annotations

from collections.abc import Sequence

from unbroken.content.schema import Ability, Monster, Op
from unbroken.rules.effects import amount_text, op_text, ops_text
from unbroken.rules.scoring import score, title
from unbroken.state import State

__all__ = [
    "card_texts",
    "cost_text",
    "end_reason",
    "headline",
    "legend",
    "monster_text",
    "op_text",
    "ops_text",
    "step_rules",
]

_LEGEND: tuple[tuple[str, str], ...] = (
    ("se", "Small Effort (spent on most actions; you lose when you must lose Effort you do not have)"),
    ("me", "Medium Effort (worth 3 points; pays for Small Effort too)"),
    ("le", "Large Effort (worth 5 points; pays for Medium or Small Effort too)"),
    ("time", "the Time Tracker: when it reaches 0 the monster ambushes you"),
    ("ability uses", "how many times this Level you may use your character's abilities"),
    (
        "travel/preparation",
        "the phase and step of the Level (Travel: preparation, decision, exploration; Combat: "
        "ambush, trickery, battle, rewards, hunger)",
    ),
    ("armor a/b health c/d", "the monster's Armor and Health left, out of their maximum"),
    ("DEFEND", "the monster will ignore your next weapon attack"),
    ("roll N", "the monster's last Combat Roll (1-6), which picks the row of its Combat Actions table"),
    ("(N tokens)", "turns left on a Condition"),
    ("next Level", "Conditions that become active when the next Level starts"),
    ("revealed", "Encounter Cards on the table to choose from"),
    ("scouted monster", "this Level's monster, already revealed by Scouting"),
    ("(normal, ...)", "the difficulty, your character, and the ability uses left this Level"),
    (
        "WON with N points (title)",
        "the final score and its title: 0 Prey, 1-10 Cast-off, 11-20 Survivor, 21-30 Avenger, 31-40 Revenant, "
        "41 or more Nemesis",
    ),
)

_STEP_RULES = {
    "setup": "Setup: the encounter deck and the skill deck are shuffled.",
    "preparation": (
        "Preparation: take as many General and Travel Actions as you like, paying their costs (an action whose cost "
        "you cannot pay is not offered). Focus: spend 4 Small Effort for 1 Medium Effort. Inspiration: spend 2 "
        "Medium Effort for 1 Large Effort. Plan: spend 4 Small Effort for 1 Cunning. Orienteer: spend 1 Small "
        "Effort to reveal 2 more Encounter Cards this time. Scout: pay the Level's cost (Level 1: 1 Small Effort "
        "and 1 Time; 2: 2 Small Effort and 2 Time; 3: 1 Cunning and 1 Time; 4: 1 Cunning, 2 Small Effort and 2 "
        "Time) to reveal this Level's monster. Craft: pay an upgrade's cost and Time to improve your weapon. "
        "'fight' ends the Travel Phase: you face the monster without an Ambush. 'explore' goes on to the "
        "Decision step. If the Time Tracker reaches 0, the monster ambushes you."
    ),
    "decision": (
        "Decision: fight the monster now (on to Trickery), or explore (reveal Encounter Cards). Committing to the "
        "next encounter means you reveal only one card and must resolve it, with no Rest."
    ),
    "exploration": (
        "Exploration: reveal 2 Encounter Cards (effects change the number), pick one and discard the others. Then "
        "resolve it (pay its Spend field, gain its Gain field) or Rest (gain Small Effort equal to its Time "
        "Value). Either way lose Time equal to its Time Value; at 0 Time the monster ambushes you (you still get "
        "the card's benefit)."
    ),
    "ambush": (
        "Ambush: the monster is revealed and set up, the Time Tracker is reset for the next Level, and the "
        "monster's Ambush Effect hits you before the battle. A monster with no Ambush Effect cannot ambush: the "
        "Trickery Step follows as usual."
    ),
    "trickery": (
        "Trickery: you may pay the monster's Trickery cost to slip past it straight to the Hunger step (no "
        "Rewards, no new Skill), or fight it."
    ),
    "battle": (
        "Battle: on your turn attack with your weapon (pay the attack's cost: an Armor-breaking attack removes "
        "Armor, a Wounding one removes Health, and Wounds need the Armor gone first), take a General or Combat "
        "Action, or skip. Then the monster rolls the die and does that row of its Combat Actions table (a missing "
        "resource means its bracketed alternative). Health 0 defeats it."
    ),
    "rewards": "Rewards: gain the monster's Rewards, then reveal 2 Skill cards and keep one.",
    "hunger": (
        "Hunger: eat Food equal to the Level, gaining 1 Small Effort for each Food eaten. Each Food you do not eat "
        "costs Small Effort: 1 for the first, 2 for the second, 3 for the third. If you cannot pay, you starve. "
        "After Level 4's Hunger, with the final monster defeated (it cannot be tricked), you win."
    ),
}


def cost_text(ops: Sequence[Op]) -> str:
    """A cost (``spend`` effects) in words: "2 Small Effort and 1 Time"."""
    return " and ".join(amount_text(o) if o.op == "spend" else op_text(o) for o in ops) or "nothing"


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _ability(a: Ability) -> str:
    name = f"{a.name}: " if a.name else ""
    if a.text:
        return _sentence(f"{name}{a.text}")
    cost = f"pay {cost_text(a.cost)} to " if a.cost else ""
    when = a.trigger.replace("_", " ")
    return _sentence(f"{name}{'on ' + when + ', ' if when else ''}{cost}{ops_text(a.effects)}")


def _abilities(abilities: Sequence[Ability], text: str) -> str:
    # A card's own text already says what its unnamed abilities do.
    shown = [_ability(a) for a in abilities if a.name or not text]
    return " ".join([_sentence(text)] * bool(text) + shown) or "no abilities"


def monster_text(monster: Monster) -> str:
    """A monster sheet in words: its trackers, Ambush, Trickery, Combat Actions table and Rewards."""
    parts = [f"Level {monster.level} monster, Armor {monster.armor}, Health {monster.health}."]
    parts.append(f"Ambush: {ops_text(monster.ambush)}." if monster.ambush is not None else "No Ambush.")
    parts.append(
        f"Trickery: pay {cost_text(monster.trickery)}." if monster.trickery is not None else "Cannot be tricked."
    )
    rows = "; ".join(f"{i + 1}: {row.text or ops_text(row.effects)}" for i, row in enumerate(monster.table))
    parts.append(f"Combat Actions by roll: {rows}.")
    parts.append(f"Rewards: {ops_text(monster.rewards)}.")
    parts += [_ability(a) + "." for a in monster.abilities]
    return " ".join(parts)


def legend(state: State, player: int | None = None) -> tuple[tuple[str, str], ...]:
    """Every abbreviation the Unbroken render prints, as ``(symbol, meaning)`` pairs."""
    return _LEGEND


def step_rules(state: State) -> str:
    """The rule of the current step, in words."""
    if state.outcome:
        return "The game is over. " + end_reason(state)
    return _STEP_RULES.get(state.pos.step, f"{state.pos.phase}/{state.pos.step}")


def card_texts(state: State, player: int | None = None) -> tuple[tuple[str, str], ...]:
    """Every card in view: character, weapon, skills, Conditions, revealed or offered cards, the monster."""
    pack = state.pack
    out: list[tuple[str, str]] = []
    character = pack.character(state.options.character)
    out.append((f"Character: {character.name}", _abilities(character.abilities, character.text)))
    weapon = pack.weapon(state.weapon)
    attacks = "; ".join(
        f"{a.name}: pay {cost_text(a.cost)} to {'break' if a.kind == 'break' else 'inflict'} {a.power} "
        f"{'Armor' if a.kind == 'break' else 'Wounds'}{' ignoring Armor' if a.pierce else ''}"
        for a in weapon.attacks
    )
    crafts = "; ".join(
        f"craft {pack.weapon(u.to).name}: pay {cost_text(u.cost)} and {u.time} Time" for u in weapon.upgrades
    )
    out.append((f"Weapon: {weapon.name}", f"Attacks: {attacks}." + (f" Upgrades: {crafts}." if crafts else "")))
    skills = {s.id: s for s in pack.skills}
    for sid in state.skills:
        out.append((f"Skill: {skills[sid].name}", _abilities(skills[sid].abilities, skills[sid].text)))
    for i in state.offered:
        skill = pack.skills[i]
        out.append((f"Skill offered: {skill.name}", _abilities(skill.abilities, skill.text)))
    for label, conds in (("Condition", state.conditions), ("Condition next Level", state.next_conditions)):
        for c in conds:
            cond = pack.condition(c.id)
            out.append((f"{label}: {cond.name}", _abilities(cond.abilities, cond.text)))
    for i in state.revealed:
        e = pack.encounters[i]
        spend = f"spend {cost_text(e.spend)}, " if e.spend else ""
        out.append(
            (
                f"Encounter: {e.name}",
                f"{e.kind}; resolve: {spend}{ops_text(e.gain)}; or Rest for {e.time} Small Effort; Time "
                f"Value {e.time}." + (f" {e.text}" if e.text else ""),
            )
        )
    monsters = {m.id: m for m in pack.monsters}
    mid = state.combat.monster if state.combat is not None else state.monster
    if mid:
        out.append((f"Monster: {monsters[mid].name}", monster_text(monsters[mid])))
    return tuple(out)


def end_reason(state: State) -> str:
    """Why the game ended: the Level 4 monster overcome (with the score and title), starvation, or Effort."""
    if not state.outcome:
        return ""
    if state.outcome > 0:
        points = score(state)
        return (
            f"You win: you survived Level 4's monster and its Hunger step. Score {points} (Medium Effort 3, Large 5, "
            f"Cunning 2, Metal 3, Wood 2, Food 3, Treasure 10 each): the title {title(points)}."
        )
    if state.pos.step == "hunger":
        return f"You lose: you starved in Level {state.level}'s Hunger step (not enough Effort for the Food missed)."
    return f"You lose: in Level {state.level} you had to pay Effort you did not have."


def headline(state: State) -> str:
    """The Level and phase, for logs that show the table at each change."""
    return f"Level {state.level} {state.pos.phase}"
