"""Exact odds of a fight: expectimax over every cast (chance node) with memoization.

The hero plays optimally (maximizing the probability of winning, then minimizing the expected damage taken, then
the lowest action id) or follows a given policy; the enemy follows its board. The result is exact for the game's
rules, including ``max_rounds``: a fight still undecided after that many rounds ends with the hero withdrawing.

>>> result = odds("Corbin", "Undead Horde", max_rounds=1)
>>> round(result.win + result.loss + result.undecided, 12)
1.0
>>> 0.4 < result.win < 0.5
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from runebound_coop.actions import Action, action_id
from runebound_coop.rules.flow import advance
from runebound_coop.rules.setup import setup_of
from runebound_coop.state import ENEMY_REF, RuneboundState
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = ["Odds", "Policy", "Solver", "fight_state", "odds", "solve"]

#: A hero policy: given a state and its legal actions, the action to take.
Policy = Callable[[RuneboundState, Sequence[Action]], Action]


@attrs.frozen
class Odds:
    """The exact outcome distribution of a fight.

    Attributes:
        win: probability that the hero defeats the enemy.
        loss: probability that the hero is defeated.
        undecided: probability that the fight is still undecided after ``max_rounds`` (the hero withdraws).
        damage: ``damage[d]`` is the probability that the hero ends the fight with ``d`` damage (0..health).
        states: how many distinct states the calculation visited.
    """

    win: float
    loss: float
    undecided: float
    damage: tuple[float, ...]
    states: int

    @property
    def expected_damage(self) -> float:
        """The expected damage on the hero at the end of the fight."""
        return sum(d * p for d, p in enumerate(self.damage))


def fight_state(hero: str, enemy: str, **options: Any) -> RuneboundState:
    """The first chance node of a solo fight of ``hero`` against ``enemy`` (other options as for ``new_game``)."""
    from runebound_coop.game import GAME

    return GAME.new_game(heroes=(hero,), enemies=(enemy,), **options)


# A value: (win, loss, damage distribution).
_Value = tuple[float, float, tuple[float, ...]]


class Solver:
    """Expectimax with memoization over one fight; ``best_action`` then reads the optimal policy off the memo.

    The memo is keyed by the (hashable, hash-cached) states themselves.
    """

    def __init__(self, state: RuneboundState, policy: Policy | None = None) -> None:
        if len(state.options.heroes) != 1 or len(state.options.enemies) != 1:
            raise ValueError("odds: a single fight (one hero, one enemy)")
        if state.options.enemy_choices == "player":
            raise ValueError("odds: the enemy must decide by itself (enemy_choices 'evaluate' or 'damage')")
        self.root = state
        self.policy = policy
        self.health = setup_of(state.options).heroes[0].health
        self.memo: dict[RuneboundState, _Value] = {}

    def value(self, s: RuneboundState) -> _Value:
        """(win, loss, damage distribution) from ``s``."""
        from runebound_coop.game import GAME

        got = self.memo.get(s)
        if got is not None:
            return got
        player = GAME.current_player(s)
        if player == TERMINAL:
            dist = [0.0] * (self.health + 1)
            dist[s.hero_damage[0]] = 1.0
            ret = GAME.returns(s)[0]
            out: _Value = (1.0 if ret > 0 else 0.0, 1.0 if ret < 0 else 0.0, tuple(dist))
        elif player == CHANCE:
            win = loss = 0.0
            acc = [0.0] * (self.health + 1)
            for nxt, p in self._casts(s):
                w, lo, d = self.value(nxt)
                win += p * w
                loss += p * lo
                for k, q in enumerate(d):
                    acc[k] += p * q
            out = (win, loss, tuple(acc))
        elif self.policy is not None:
            out = self.value(GAME.apply_unchecked(s, self.policy(s, GAME.legal_actions(s))))
        else:
            out = self.value(GAME.apply_unchecked(s, self.best_action(s)))
        self.memo[s] = out
        return out

    def _casts(self, s: RuneboundState) -> list[tuple[RuneboundState, float]]:
        """Every way the pending casts can land, each with its probability.

        The same states and probabilities as applying ``Land`` once per token (each token is its own chance node
        in the game), enumerated at once so that the intermediate nodes need no memo entries.
        """
        fight = s.fight
        assert fight is not None  # chance nodes occur only during a fight
        refs = fight.casting
        setup = setup_of(s.options)
        p = 0.5 ** len(refs)
        out = []
        for combo in range(1 << len(refs)):
            hero, enemy = fight.hero_pool.sides, fight.enemy_pool.sides
            for j, ref in enumerate(refs):
                side = (combo >> j) & 1
                if ref >= ENEMY_REF:
                    i = ref - ENEMY_REF
                    enemy = (enemy & ~(1 << i)) | (side << i)
                else:
                    hero = (hero & ~(1 << ref)) | (side << ref)
            landed = fight.but(
                hero_pool=fight.hero_pool.but(sides=hero), enemy_pool=fight.enemy_pool.but(sides=enemy), casting=()
            )
            out.append((advance(s.but(fight=landed), setup), p))
        return out

    def best_action(self, s: RuneboundState) -> Action:
        """The optimal hero action at decision ``s``: the highest win probability, then the lowest expected
        damage, then the lowest action id."""
        from runebound_coop.game import GAME

        best: tuple[float, float, int] | None = None
        choice: Action | None = None
        for a in GAME.legal_actions(s):
            v = self.value(GAME.apply_unchecked(s, a))
            key = (v[0], -sum(k * q for k, q in enumerate(v[2])), -action_id(a))
            if best is None or key > best:
                best, choice = key, a
        assert choice is not None  # a decision node has at least one legal action
        return choice

    def odds(self) -> Odds:
        """The odds from the root state."""
        win, loss, dist = self.value(self.root)
        return Odds(win, loss, max(0.0, 1.0 - win - loss), dist, len(self.memo))


def solve(state: RuneboundState, policy: Policy | None = None) -> Odds:
    """The exact odds from ``state`` (a solo fight, at any node), the hero optimal or following ``policy``."""
    return Solver(state, policy).odds()


def odds(hero: str, enemy: str, *, policy: Policy | None = None, **options: Any) -> Odds:
    """The exact probability that ``hero`` wins a fight against ``enemy``, and the damage it takes.

    Args:
        hero: a hero name. enemy: an enemy name.
        policy: the hero's policy (``None``: optimal play).
        **options: further ``new_game`` options (``assets``, ``cards``, ``act``, ``enemy_choices``,
            ``max_rounds``, ``pack``).
    """
    return solve(fight_state(hero, enemy, **options), policy)
