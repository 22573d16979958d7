"""Exact odds of a fight: expectimax over every cast (chance node) with memoization.

The hero plays optimally (maximizing the probability of winning, then minimizing the expected damage taken, then
the lowest action id) or follows a given policy; the enemy follows its board. The result is exact for the game's
rules, including ``max_rounds``: a fight still undecided after that many rounds ends with the hero withdrawing.

>>> from runebound_coop import GAME
>>> result = odds(GAME, "Corbin", "Undead Horde", max_rounds=1)
>>> round(result.win + result.loss + result.undecided, 12)
1.0
>>> 0.4 < result.win < 0.5
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from runebound_coop.actions import Action, action_id
from runebound_coop.content.roster import Setup
from runebound_coop.rules.flow import DRIVER
from runebound_coop.state import HERO, Pool, RuneboundState, split_ref
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE, TERMINAL

if TYPE_CHECKING:
    from runebound_coop.game import RuneboundCoop

__all__ = ["Odds", "Policy", "RoundSolver", "Solver", "cast_outcomes", "fight_state", "landings", "odds", "solve"]

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


def fight_state(game: RuneboundCoop, hero: str, enemy: str, **options: Any) -> RuneboundState:
    """The first chance node of a solo fight of ``hero`` against ``enemy`` (other options as for ``new_game``).

    Raises:
        ValueError: when ``heroes`` or ``enemies`` is passed too: the calculator handles one hero against one enemy.
    """
    extra = sorted({"heroes", "enemies"} & options.keys())
    if extra:
        raise ValueError(
            f"odds: one hero against one enemy only; got {', '.join(extra)}={options[extra[0]]!r} as well as "
            f"hero={hero!r}, enemy={enemy!r} (co-op encounters are not supported)"
        )

    return game.new_game(heroes=(hero,), enemies=(enemy,), **options)


# A value: (win, loss, damage distribution).
_Value = tuple[float, float, tuple[float, ...]]


def landings(s: RuneboundState) -> list[tuple[RuneboundState, float]]:
    """Every way the pending casts can land, each with its probability, before the rules run on.

    Token ``j`` of ``fight.casting`` lands on bit ``j`` of the outcome's number, outcomes in increasing number.
    """
    fight = s.fight
    assert fight is not None  # chance nodes occur only during a fight
    refs = fight.casting
    p = 0.5 ** len(refs)
    out = []
    for combo in range(1 << len(refs)):
        hero, enemy = fight.hero_pool.sides, fight.enemy_pool.sides
        for j, ref in enumerate(refs):
            side = (combo >> j) & 1
            who, i = split_ref(ref)
            if who == HERO:
                hero = (hero & ~(1 << i)) | (side << i)
            else:
                enemy = (enemy & ~(1 << i)) | (side << i)
        landed = replace(
            fight,
            hero_pool=replace(fight.hero_pool, sides=hero),
            enemy_pool=replace(fight.enemy_pool, sides=enemy),
            casting=(),
        )
        out.append((replace(s, fight=landed), p))
    return out


def cast_outcomes(s: RuneboundState) -> list[tuple[RuneboundState, float]]:
    """Every way the pending casts can land, each with its probability.

    The same states and probabilities as applying ``Land`` once per token (each token is its own chance node
    in the game), enumerated at once so that the intermediate nodes need no memo entries.
    """
    return [(DRIVER.run(landed), p) for landed, p in landings(s)]


class Solver:
    """Expectimax with memoization over one fight; ``best_action`` then reads the optimal policy off the memo.

    The memo is keyed by the (hashable, hash-cached) states themselves.
    """

    def __init__(self, game: RuneboundCoop, state: RuneboundState, policy: Policy | None = None) -> None:
        if len(state.options.heroes) != 1 or len(state.options.enemies) != 1:
            raise ValueError("odds: a single fight (one hero, one enemy)")
        if state.options.enemy_choices == "player":
            raise ValueError("odds: the enemy must decide by itself (enemy_choices 'evaluate' or 'damage')")
        self.game = game
        self.root = state
        self.policy = policy
        self.health = state.options.setup.heroes[0].health
        self.memo: dict[RuneboundState, _Value] = {}

    def value(self, s: RuneboundState) -> _Value:
        """(win, loss, damage distribution) from ``s``."""
        game = self.game
        got = self.memo.get(s)
        if got is not None:
            return got
        player = game.current_player(s)
        if player == TERMINAL:
            dist = [0.0] * (self.health + 1)
            dist[s.hero_damage[0]] = 1.0
            ret = game.returns(s)[0]
            out: _Value = (1.0 if ret > 0 else 0.0, 1.0 if ret < 0 else 0.0, tuple(dist))
        elif player == CHANCE:
            win = loss = 0.0
            acc = [0.0] * (self.health + 1)
            for nxt, p in cast_outcomes(s):
                w, lo, d = self.value(nxt)
                win += p * w
                loss += p * lo
                for k, q in enumerate(d):
                    acc[k] += p * q
            out = (win, loss, tuple(acc))
        elif self.policy is not None:
            out = self.value(game.apply_unchecked(s, self.policy(s, game.legal_actions(s))))
        else:
            out = self.value(game.apply_unchecked(s, self.best_action(s)))
        self.memo[s] = out
        return out

    def best_action(self, s: RuneboundState) -> Action:
        """The optimal hero action at decision ``s``: the highest win probability, then the lowest expected
        damage, then the lowest action id."""
        game = self.game
        best: tuple[float, float, int] | None = None
        choice: Action | None = None
        for a in game.legal_actions(s):
            v = self.value(game.apply_unchecked(s, a))
            key = (v[0], -sum(k * q for k, q in enumerate(v[2])), -action_id(a))
            if best is None or key > best:
                best, choice = key, a
        assert choice is not None  # a decision node has at least one legal action
        return choice

    def regret(self, s: RuneboundState, action: Action) -> float:
        """The win probability that taking ``action`` at the hero's decision ``s`` gives up against the best
        action: ``V*(s) - Q*(s, action)``, at least 0 (an optimal hero, whatever ``policy`` says).

        Summed over the hero's decisions in a game and averaged over games played by any hero policy, it estimates
        how far that policy's chance to win falls below the optimum: by the performance difference lemma, the
        expected sum along the policy's own play is exactly ``V*(root) - V_policy(root)``. Most decisions cost
        nothing, so the estimate's spread is far smaller than that of comparing win rates.
        """
        if self.policy is not None:
            raise ValueError("regret: against the optimal hero (make the Solver without a policy)")
        game = self.game
        best = max(self.value(game.apply_unchecked(s, a))[0] for a in game.legal_actions(s))
        return max(0.0, best - self.value(game.apply_unchecked(s, action))[0])

    def odds(self) -> Odds:
        """The odds from the root state."""
        win, loss, dist = self.value(self.root)
        return Odds(win, loss, max(0.0, 1.0 - win - loss), dist, len(self.memo))


_TERMINAL, _LEAF, _CHANCE, _DECISION = 0, 1, 2, 3


def at_round_start(state: RuneboundState, setup: Setup) -> bool:
    """Whether a solo fight's ``state`` is at the first cast of a round: nothing cast yet, every token to cast."""
    fight = state.fight
    return not (
        fight is None
        or state.pos.step != "cast"
        or fight.hero_pool != Pool()
        or fight.enemy_pool != Pool()
        or len(fight.casting) != len(setup.heroes[0].faces) + len(setup.enemies[0].faces)
    )


class RoundSolver:
    """Expectimax for a whole fight, built once per round-start situation and evaluated round by round.

    A round-start situation ``X`` (the hero's and the enemy's damage and the hero's hand, everything else being
    fresh at a new round) leads to the same in-round tree in every round; only the values at the round's end
    depend on how many rounds are left. So each situation's in-round tree is explored once (a shared, memoized
    graph whose leaves are the next round-start situations), and the values for ``k`` rounds left are computed
    from those for ``k - 1`` by one sweep of the graph: exact for ``max_rounds``, at the cost of one in-round
    exploration per situation instead of one per situation and round. The hero maximizes the win probability, then
    minimizes the expected damage, then takes the lowest action id (as :class:`Solver`); the damage
    distribution follows from a forward sweep of the chosen policy.
    """

    def __init__(self, game: RuneboundCoop, state: RuneboundState) -> None:
        self.game = game
        if len(state.options.heroes) != 1 or len(state.options.enemies) != 1:
            raise ValueError("odds: a single fight (one hero, one enemy)")
        if state.options.enemy_choices == "player":
            raise ValueError("odds: the enemy must decide by itself (enemy_choices 'evaluate' or 'damage')")
        setup = state.options.setup
        if not at_round_start(state, setup):
            raise ValueError("RoundSolver starts at the first cast of a round (use solve() mid-round)")
        self.rounds = state.options.max_rounds - state.pos.round + 1
        self.options = attrs.evolve(state.options, max_rounds=50)
        self.health = state.options.setup.heroes[0].health
        self.kinds: list[int] = []
        self.data: list[Any] = []
        self.index: dict[RuneboundState, int] = {}
        self.situations: list[RuneboundState] = []
        self.situation_index: dict[RuneboundState, int] = {}
        self.depth: list[int] = []
        self.roots: list[int] = []
        self._depth = 0
        self.root = self._situation(state)
        # Breadth first: a situation first met d rounds after the root is explored only if d < rounds (deeper ones
        # are only ever valued as "no round left": the hero withdraws).
        while len(self.roots) < len(self.situations):
            x = len(self.roots)
            self._depth = self.depth[x] + 1
            self.roots.append(self._node(self.situations[x]) if self.depth[x] < self.rounds else -1)

    def _canonical(self, s: RuneboundState) -> RuneboundState:
        return replace(s, options=self.options, pos=replace(s.pos, round=1))

    def _situation(self, s: RuneboundState) -> int:
        key = self._canonical(s)
        x = self.situation_index.get(key)
        if x is None:
            x = self.situation_index[key] = len(self.situations)
            self.situations.append(key)
            self.depth.append(self._depth)
        return x

    def _node(self, s: RuneboundState) -> int:
        game = self.game
        got = self.index.get(s)
        if got is not None:
            return got
        player = game.current_player(s)
        kind: int
        data: Any
        if player == TERMINAL:
            ret = game.returns(s)[0]
            kind, data = _TERMINAL, (1.0 if ret > 0 else 0.0, 1.0 if ret < 0 else 0.0, s.hero_damage[0])
        elif s.pos.round > 1:
            kind, data = _LEAF, self._situation(s)
        elif player == CHANCE:
            kind, data = _CHANCE, [(self._node(nxt), p) for nxt, p in cast_outcomes(s)]
        else:
            kind = _DECISION
            data = [(self._node(game.apply_unchecked(s, a)), action_id(a)) for a in game.legal_actions(s)]
        self.index[s] = len(self.kinds)
        self.kinds.append(kind)
        self.data.append(data)
        return len(self.kinds) - 1

    def odds(self) -> Odds:
        """The odds of the fight from the root situation, with ``max_rounds`` rounds in all."""
        kinds, data = self.kinds, self.data
        damage_of = [s.hero_damage[0] for s in self.situations]
        # k = 0 rounds left: the hero withdraws with the damage it has.
        left: list[tuple[float, float, float]] = [(0.0, 0.0, float(d)) for d in damage_of]
        policies: list[list[int]] = []
        n = len(kinds)
        for _k in range(self.rounds):
            win = [0.0] * n
            loss = [0.0] * n
            dmg = [0.0] * n
            choice = [-1] * n
            for i in range(n):
                kind = kinds[i]
                if kind == _TERMINAL:
                    win[i], loss[i], dmg[i] = data[i][0], data[i][1], float(data[i][2])
                elif kind == _LEAF:
                    win[i], loss[i], dmg[i] = left[data[i]]
                elif kind == _CHANCE:
                    w = lo = d = 0.0
                    for c, p in data[i]:
                        w += p * win[c]
                        lo += p * loss[c]
                        d += p * dmg[c]
                    win[i], loss[i], dmg[i] = w, lo, d
                else:
                    best: tuple[float, float, int] | None = None
                    for c, aid in data[i]:
                        key = (win[c], -dmg[c], -aid)
                        if best is None or key > best:
                            best, choice[i] = key, c
                    c = choice[i]
                    win[i], loss[i], dmg[i] = win[c], loss[c], dmg[c]
            left = [
                (win[r], loss[r], dmg[r]) if r >= 0 else (0.0, 0.0, float(damage_of[x]))
                for x, r in enumerate(self.roots)
            ]
            policies.append(choice)
        dist = self._distribution(policies, damage_of)
        w, lo, _ = left[self.root]
        return Odds(w, lo, max(0.0, 1.0 - w - lo), tuple(dist), n)

    def _distribution(self, policies: list[list[int]], damage_of: list[int]) -> list[float]:
        """Push the probability mass forward through the chosen policies, round by round."""
        kinds, data = self.kinds, self.data
        dist = [0.0] * (self.health + 1)
        start = [0.0] * len(self.situations)
        start[self.root] = 1.0
        for choice in reversed(policies):  # the first round uses the policy with the most rounds left
            mass = [0.0] * len(kinds)
            for x, m in enumerate(start):
                if m:
                    mass[self.roots[x]] += m  # reachable situations within the horizon are explored
            start = [0.0] * len(self.situations)
            for i in range(len(kinds) - 1, -1, -1):
                m = mass[i]
                if not m:
                    continue
                kind = kinds[i]
                if kind == _TERMINAL:
                    dist[data[i][2]] += m
                elif kind == _LEAF:
                    start[data[i]] += m
                elif kind == _CHANCE:
                    for c, p in data[i]:
                        mass[c] += m * p
                else:
                    mass[choice[i]] += m
        for x, m in enumerate(start):
            if m:
                dist[damage_of[x]] += m
        return dist


def solve(game: RuneboundCoop, state: RuneboundState, policy: Policy | None = None) -> Odds:
    """The exact odds from ``state`` (a solo fight of ``game``, at any node), the hero optimal or following
    ``policy``."""
    return Solver(game, state, policy).odds()


def odds(game: RuneboundCoop, hero: str, enemy: str, *, policy: Policy | None = None, **options: Any) -> Odds:
    """The exact probability that ``hero`` wins a fight of ``game`` against ``enemy``, and the damage it takes.

    Args:
        game: the game (``runebound_coop.GAME``). hero: a hero name. enemy: an enemy name.
        policy: the hero's policy (``None``: optimal play).
        **options: further ``new_game`` options (``assets``, ``cards``, ``act``, ``enemy_choices``,
            ``max_rounds``, ``pack``).
    """
    state = fight_state(game, hero, enemy, **options)
    if policy is None:
        if state.options.retreat:
            return RoundSolver(game, state).odds()
        # exact_shift builds on this module (Odds, landings): imported here, when first needed.
        from runebound_coop.exact_shift import ShiftSolver

        return ShiftSolver(game, state).odds()
    return solve(game, state, policy)
