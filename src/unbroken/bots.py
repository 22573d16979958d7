"""A heuristic bot for Unbroken: values resources, explores while Time allows, attacks efficiently.

>>> import numpy as np, unbroken
>>> from tabletop_core import play
>>> state, record = play(unbroken.GAME, [HeuristicAgent()], seed=5)
>>> unbroken.is_terminal(state)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from unbroken.actions import (
    EXPLORE,
    FIGHT,
    FOCUS,
    PASS,
    RESOLVE,
    REST,
    SKIP,
    TRICK,
    Act,
    Action,
    Attack,
    Craft,
    Eat,
    Pick,
    Respond,
    Use,
)
from unbroken.content.schema import Op
from unbroken.rules.cards import abilities_of
from unbroken.rules.combat import HungerStep, TrickeryStep, monster
from unbroken.rules.effects import Choose
from unbroken.rules.flow import DRIVER
from unbroken.rules.listing import action_abilities
from unbroken.rules.payment import PayChoice
from unbroken.rules.resources import can_pay
from unbroken.rules.skills import SkillKeep
from unbroken.rules.travel import ExploreMode, ExplorePick, Preparation
from unbroken.rules.triggers import Trig
from unbroken.state import RES, SE, TIME, State
from unbroken.view import View

__all__ = ["CONDITION_VALUE", "SKILL_VALUE", "VALUE", "HeuristicAgent", "value"]

#: Small-Effort value of one unit of each resource (the content guide's budget).
VALUE = {
    "se": 1.0,
    "me": 4.5,
    "le": 10.0,
    "cunning": 3.0,
    "food": 2.5,
    "wood": 2.0,
    "metal": 3.0,
    "treasure": 3.0,
    "time": 2.0,
}
#: Small-Effort value of a skill card kept (it acts for the rest of the game).
SKILL_VALUE = 7.0
#: Small-Effort value of gaining a condition: harmful ones cost, Armored and Blessed help.
CONDITION_VALUE = {"armored": 6.0, "blessed": 4.0}
_SKILL_RANK = ("wrecker", "daring", "firebomb", "bloodlust", "keen_eye", "meditation", "survivor", "hearty")


def value(ops: tuple[Op, ...], state: State) -> float:
    """A rough Small-Effort value of what ``ops`` give (negative for what they take)."""
    total = 0.0
    for o in ops:
        if o.op == "gain":
            total += VALUE[o.res] * o.n * (state.level if o.scale == "level" else 1)
        elif o.op in ("spend", "lose", "steal"):
            total -= VALUE[o.res] * o.n
        elif o.op == "condition":
            total += CONDITION_VALUE.get(o.id, -3.0)
        elif o.op == "cure":
            total += 2.0 if state.conditions else 0.0
        elif o.op == "skill":
            total += SKILL_VALUE
        elif o.op == "weapon_up":
            total += 8.0 if state.pack.weapon(state.weapon).upgrades else 0.0
        elif o.op in ("reveal", "scout"):
            total += 1.0
        elif o.op == "commit":
            total -= 1.0
        elif o.op == "choose":
            total += max(value(b, state) for b in o.options)
        elif o.op == "reduce":
            total += VALUE[o.to] * o.m - VALUE[o.res] * o.n
        elif o.op == "time":
            total -= VALUE["time"] * o.n
        elif o.op in ("heal", "monster_gain"):
            total -= 1.5 * o.n  # more Wounds to inflict
        elif o.op == "defend":
            total -= 1.5
        elif o.op == "weapon_down":
            total -= 4.0 if o.perm else 2.0
    return total


class HeuristicAgent:
    """A rule-of-thumb player for Unbroken (deterministic given the state)."""

    def act(self, view: Any, legal: Sequence[Any], rng: np.random.Generator) -> Any:
        """Choose one of ``legal`` for the state in ``view``."""
        assert isinstance(view, View)
        choice = self.choose(view.state, list(legal))
        return choice if choice in legal else legal[0]

    def choose(self, s: State, legal: list[Action]) -> Action:
        """The bot's choice at a decision node."""
        frame = DRIVER.frame(s)
        if isinstance(frame, Preparation):
            return self._prep(s, legal)
        if isinstance(frame, TrickeryStep):
            return self._trickery(s, legal)
        if isinstance(frame, HungerStep):
            return max((a for a in legal if isinstance(a, Eat)), key=lambda a: a.n)
        if isinstance(frame, Choose):
            n = len(frame.branches)
            if frame.purpose == "instead" and n > 1:
                return Pick(1)
            if frame.purpose == "branch":
                return Pick(max(range(n), key=lambda i: value(frame.branches[i], s)))
            return Pick(n - 1 if frame.purpose == "weapon" else 0)
        if isinstance(frame, Trig):
            return self._respond(s, frame, legal)
        if isinstance(frame, ExplorePick):
            best = max(range(len(s.revealed)), key=lambda i: self._card(s, s.revealed[i])[0])
            return Pick(best)
        if isinstance(frame, ExploreMode):
            _, resolve = self._card(s, frame.card)
            return Act(RESOLVE) if resolve and Act(RESOLVE) in legal else Act(REST)
        if isinstance(frame, PayChoice):
            return Pick(0)  # keep Large Effort for the big attacks
        if isinstance(frame, SkillKeep):
            names = [s.pack.skills[i].id for i in s.offered]
            ranked = sorted(range(len(names)), key=lambda i: _rank(names[i]))
            return Pick(ranked[0])
        return self._fight(s, legal)

    def _card(self, s: State, card: int) -> tuple[float, bool]:
        enc = s.pack.encounters[card]
        need = max(0.0, (12 - s.amount(SE)) / 6)
        rest = float(enc.time) * (1 + need)
        resolve = value(enc.gain + enc.spend, s)
        # Small Effort is worth more while it is short, whether Rest, the Gain field or the Spend field moves it.
        resolve -= need * sum(o.n for o in enc.spend if o.res == "se")
        resolve += need * sum(
            o.n * (s.level if o.scale == "level" else 1) for o in enc.gain if o.op == "gain" and o.res == "se"
        )
        if not can_pay(s, enc.spend):
            resolve = -99.0
        return max(rest, resolve) - 0.5 * enc.time, resolve > rest

    def _prep(self, s: State, legal: list[Action]) -> Action:
        uses = [a for a in legal if isinstance(a, Use) and self._worth_using(s, a)]
        upgrades = [a for a in uses if any(e.op == "weapon_up" for e in action_abilities(s)[a.i][2].effects)]
        if upgrades:
            return upgrades[0]  # an upgrade that spends no Time beats crafting
        crafts = [a for a in legal if isinstance(a, Craft)]
        if crafts and s.amount(TIME) >= 3:
            return crafts[-1]
        if uses and s.amount(TIME) >= 3:
            return uses[0]
        if Act(FOCUS) in legal and s.amount(SE) >= 10:
            return Act(FOCUS)
        if Act(FIGHT) in legal and s.amount(TIME) <= 3 and self._can_trick(s):
            return Act(FIGHT)  # an Ambush would take the Trickery Step away
        if Act(FIGHT) not in legal or s.amount(TIME) >= 3:
            return Act(EXPLORE)
        return Act(FIGHT)

    @staticmethod
    def _can_trick(s: State) -> bool:
        """Whether the (scouted, or any possible) monster of this Level can be tricked with what is held now."""
        if s.monster:
            trick = monster(s).trickery
            return trick is not None and can_pay(s, trick)
        ms = [m for m in s.pack.monsters if m.level == s.level]
        return sum(m.trickery is not None and can_pay(s, m.trickery) for m in ms) >= 3

    @staticmethod
    def _worth_using(s: State, a: Use) -> bool:
        """A travel action is worth an Ability Use or its cost only if it gains something (not a mere reveal)."""
        _, _, ability = action_abilities(s)[a.i]
        return value(ability.effects + ability.cost, s) > 1.0

    def _trickery(self, s: State, legal: list[Action]) -> Action:
        if Act(TRICK) not in legal:
            return Act(FIGHT)
        m = monster(s)
        damage = sum(-value(r.effects, s) for r in m.table) / 6
        weapon = s.pack.weapon(s.weapon)
        per_wound = min((-value(a.cost, s) / a.power for a in weapon.attacks if a.kind == "wound"), default=3.0)
        per_armor = min((-value(a.cost, s) / a.power for a in weapon.attacks if a.kind == "break"), default=3.0)
        rounds = m.armor + max(1, m.health // 3)
        cost = m.health * per_wound + m.armor * per_armor + rounds * damage
        effort = s.amount(SE) + 4 * s.amount(RES["me"]) + 9 * s.amount(RES["le"])
        return Act(TRICK) if effort < 1.2 * cost else Act(FIGHT)

    def _respond(self, s: State, top: Trig, legal: list[Action]) -> Action:
        for a in legal:
            if not isinstance(a, Respond):
                continue
            cand = top.cands[a.i]
            ability = abilities_of(s, cand.src)[cand.index]
            if not cand.optional:
                if any(e.op == "cap_wounds" for e in ability.effects) or len(legal) == 1:
                    return a
                continue
            ops = {e.op for e in ability.effects}
            if ops & {"shift_roll", "reroll"}:
                if self._bad_roll(s, ability.effects):
                    return a
                continue
            return a
        mandatory = [a for a in legal if isinstance(a, Respond)]
        return Act(PASS) if Act(PASS) in legal else mandatory[0]

    def _bad_roll(self, s: State, effects: tuple[Op, ...]) -> bool:
        c = s.combat
        if c is None:
            return False
        table = monster(s).table
        row = table[c.roll - 1]
        harm = -value(row.effects, s)
        shift = next((e.n for e in effects if e.op == "shift_roll"), 0)
        if shift:
            other = table[max(0, min(5, c.roll - 1 + shift))]
            return harm - (-value(other.effects, s)) >= 1.5
        mean = sum(-value(r.effects, s) for r in table) / len(table)
        return harm >= mean + 0.5  # a re-roll is worth it only when this roll is clearly worse than a fresh one

    def _fight(self, s: State, legal: list[Action]) -> Action:
        c = s.combat
        options: list[tuple[float, Action]] = []
        if c is not None:
            weapon = s.pack.weapon(s.weapon)
            for a in legal:
                if isinstance(a, Attack):
                    atk = weapon.attacks[a.i]
                    if c.defend:  # the monster ignores this attack: spend as little as possible on it
                        options.append((0.05 - 0.01 * -value(atk.cost, s), a))
                        continue
                    options.append((self._hit(c.health, atk.kind, atk.power, -value(atk.cost, s)), a))
                elif isinstance(a, Use):
                    _, _, ability = action_abilities(s)[a.i]
                    hits = [e for e in ability.effects if e.op in ("wound", "break_armor")]
                    if hits and (hits[0].op == "break_armor" or c.armor == 0 or hits[0].pierce):
                        kind = "wound" if hits[0].op == "wound" else "break"
                        cost = max(0.5, -value(ability.cost, s))
                        options.append((self._hit(c.health, kind, hits[0].n, cost), a))
                    elif not hits and value(ability.effects + ability.cost, s) > 0:
                        options.append((0.1, a))
        if options:
            return max(options, key=lambda x: x[0])[1]
        if Act(PASS) in legal:
            return Act(PASS)
        return Act(SKIP) if Act(SKIP) in legal else legal[0]

    @staticmethod
    def _hit(health: int, kind: str, power: int, cost: float) -> float:
        """Wounds per Small-Effort value, with a bonus for big hits and for a killing blow."""
        cost = max(cost, 0.5)
        if kind == "wound" and power >= health:
            return 100.0 - cost
        return (power * (1.5 if kind == "break" else 1.0)) / cost + 0.3 * power


def _rank(skill: str) -> int:
    return _SKILL_RANK.index(skill) if skill in _SKILL_RANK else len(_SKILL_RANK)
