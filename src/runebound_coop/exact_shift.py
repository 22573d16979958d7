"""Exact odds of a whole fight, fast: one in-round graph per kind of round start, shifted to every damage.

:class:`~runebound_coop.exact.RoundSolver` explores, with the rules, the in-round tree of every round-start
situation (the hero's and the enemy's damage and the hero's hand): about 23,000 states each for Elian against the
Sorcerer, 762,520 over a 10-round fight. Those trees are nearly all the same tree with other damage numbers.
:class:`ShiftSolver` explores it once per *class* of situations and values every situation of the class on it at
once (one numpy column per situation).

Why that is exact. Inside a round the rules read a combatant's damage only to end the fight once it reaches health
(the end check :func:`~runebound_coop.rules.flow.defeat`, and :func:`~runebound_coop.rules.tokens.add_damage`
stopping at health), unless healing is involved (healing stops at 0; an enemy heal ability "has an effect" only on
a damaged enemy). They read the hand only to allow an exert (at least 1 card) and take a card per exert, each card
at most once a round. So for a side that cannot heal (no heal on the hero's abilities or cards; none on the enemy's
abilities or board title) damage only grows within a round, and the play from damage ``d`` is the play from damage
0 shifted by ``d`` until the first moment the shifted damage reaches health, where the end check ends the fight;
and hands of ``k`` and ``min(k, cards)`` cards play alike but for the number left. The class of a situation is
therefore its hand up to the number of cards, and the exact damage of each side that can heal (that side is not
shared). A transition of the class graph that would take a situation's damage to health is followed, for that
situation, through the states the rules passed on the way (:func:`traced_run`): the fight ends at the first one
reaching health, with the damage stopped at health, and the rules' own end check and run give the final state.

The values are the RoundSolver's arithmetic: each situation's node takes the same operations on the same numbers
in the same order (a cast's outcomes summed in order from 0.0, the hero's choice by win probability, then
expected damage, then the lowest action id), so win, loss and undecided come out equal to the last bit. The
damage distribution adds the same masses, but where two situations reach one state the RoundSolver adds their
masses there first; the sums can then be grouped differently and differ in the last bits.
The solver refuses what it does not cover (``retreat``; more than one hero or enemy) with a ``ValueError``, and
:func:`~runebound_coop.exact.odds` then uses the RoundSolver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from runebound_coop.actions import action_id
from runebound_coop.content.roster import Setup, setup_of
from runebound_coop.exact import Odds, landings
from runebound_coop.rules.flow import DRIVER, defeat
from runebound_coop.state import Pool, RuneboundState
from tabletop_core.errors import TabletopError
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE

if TYPE_CHECKING:
    from runebound_coop.game import RuneboundCoop

__all__ = ["ShiftSolver", "heals", "traced_run"]

_TERMINAL, _LEAF, _CHANCE, _DECISION = 0, 1, 2, 3
_F = npt.NDArray[np.float64]
_I = npt.NDArray[np.int64]
_B = npt.NDArray[np.bool_]


def traced_run(state: RuneboundState) -> list[RuneboundState]:
    """``DRIVER.run(state)`` and every state it passes through: ``state`` first, the resting state last.

    The same loop as :meth:`tabletop_core.flow.Driver.run` for this game (over, then the end check, then the
    frame's automatic step), keeping each state on the way.
    """
    seen = [state]
    for _ in range(DRIVER.limit):
        if DRIVER.is_over(state):
            return seen
        fired = defeat(state)
        if fired is not None:
            state = fired
            seen.append(state)
            continue
        nxt = DRIVER.frame(state).auto(state)
        if nxt is None:
            return seen
        state = nxt
        seen.append(state)
    raise TabletopError(f"runebound_coop: the rules did not come to rest after {DRIVER.limit} automatic steps")


def heals(setup: Setup) -> tuple[bool, bool]:
    """Whether the hero and whether the enemy of a solo fight can heal (then their damage is not shifted)."""
    hero, enemy = setup.heroes[0], setup.enemies[0]
    hero_heals = any(e.kind == "heal" for a in hero.abilities for e in a.effects) or any(c.heal for c in hero.cards)
    enemy_heals = any(e.kind == "heal" for a in enemy.abilities for e in a.effects) or enemy.board.title.effect == (
        "heal"
    )
    return hero_heals, enemy_heals


class _Graph:
    """The in-round graph of one class, explored with the rules from the class's representative round start."""

    def __init__(self, root: RuneboundState, shapes: dict[RuneboundState, int]) -> None:
        self.rep = (root.hero_damage[0], root.enemy_damage[0], root.hand[0])
        self.shapes = shapes
        self.index: dict[RuneboundState, int] = {}
        self.kinds: list[int] = []
        self.level: list[tuple[int, int, int]] = []  # (hero damage, enemy damage, hand) of each node
        self.shape: list[int] = []
        self.edges: list[tuple[int, int, float, int, list[RuneboundState]]] = []  # parent, child, weight, slot, trace
        self.out: list[list[int]] = []  # edge ids of each node, in order
        self.root = self._node(root)

    def _node(self, s: RuneboundState) -> int:
        got = self.index.get(s)
        if got is not None:
            return got
        pending: list[tuple[int, float, list[RuneboundState]]] = []
        if DRIVER.is_over(s):
            kind = _TERMINAL
        elif s.pos.round > 1:
            kind = _LEAF
        elif DRIVER.current_player(s) == CHANCE:
            kind = _CHANCE
            for landed, p in landings(s):
                trace = traced_run(landed)
                pending.append((self._node(trace[-1]), p, trace))
        else:
            kind = _DECISION
            frame = DRIVER.frame(s)
            for a in DRIVER.legal_actions(s):
                trace = traced_run(frame.apply(s, a))
                pending.append((self._node(trace[-1]), float(action_id(a)), trace))
        i = len(self.kinds)
        self.index[s] = i
        self.kinds.append(kind)
        self.level.append((s.hero_damage[0], s.enemy_damage[0], s.hand[0]))
        key = replace(s, hero_damage=(0,), enemy_damage=(0,), hand=(0,))
        self.shape.append(self.shapes.setdefault(key, len(self.shapes)))
        out = []
        for slot, (child, w, trace) in enumerate(pending):
            out.append(len(self.edges))
            self.edges.append((i, child, w, slot, trace))
        self.out.append(out)
        return i


@attrs.define
class _Class:
    """A class's graph as arrays, with the situations it values (one column each)."""

    graph: _Graph
    columns: list[int] = attrs.Factory(list)
    # Filled by ShiftSolver._prepare:
    n: int = 0
    in_region: _B = attrs.field(default=None)
    parent: _I = attrs.field(default=None)
    child: _I = attrs.field(default=None)
    weight: _F = attrs.field(default=None)
    slot: _I = attrs.field(default=None)
    cross: _B = attrs.field(default=None)  # (edges, columns): the edge ends the fight for that situation
    tid: _I = attrs.field(default=None)  # (edges, columns): the terminal it then ends in
    leaves: _I = attrs.field(default=None)
    leaf_next: _I = attrs.field(default=None)  # (leaves, columns): the next round's situation
    leaf_ok: _B = attrs.field(default=None)
    value_levels: list[tuple[_I, list[tuple[_I, _I]]]] = attrs.Factory(list)
    mass_levels: list[_I] = attrs.Factory(list)
    cross_edges: _I = attrs.field(default=None)
    policies: list[_I] = attrs.Factory(list)  # per round left: the chosen out-edge slot per (node, column)


class ShiftSolver:
    """Expectimax for a whole solo fight, the same numbers as :class:`~runebound_coop.exact.RoundSolver`, with one
    in-round graph per class of round-start situations (see the module docstring) and numpy sweeps.

    Raises:
        ValueError: not a solo fight at the first cast of a round, the enemy decided by a player, or ``retreat``.
    """

    def __init__(self, game: RuneboundCoop, state: RuneboundState) -> None:
        options = state.options
        fight = state.fight
        if len(options.heroes) != 1 or len(options.enemies) != 1:
            raise ValueError("odds: a single fight (one hero, one enemy)")
        if options.enemy_choices == "player":
            raise ValueError("odds: the enemy must decide by itself (enemy_choices 'evaluate' or 'damage')")
        if options.retreat:
            raise ValueError("ShiftSolver: no retreat decisions (use RoundSolver)")
        setup = setup_of(options)
        if (
            fight is None
            or state.pos.step != "cast"
            or fight.hero_pool != Pool()
            or fight.enemy_pool != Pool()
            or len(fight.casting) != len(setup.heroes[0].faces) + len(setup.enemies[0].faces)
        ):
            raise ValueError("ShiftSolver starts at the first cast of a round")
        self.game = game
        self.rounds = options.max_rounds - state.pos.round + 1
        self.start = replace(state, options=attrs.evolve(options, max_rounds=50), pos=replace(state.pos, round=1))
        self.health = (setup.heroes[0].health, setup.enemies[0].health)
        self.cards = len(setup.heroes[0].cards)
        self.hero_heals, self.enemy_heals = heals(setup)
        self.shapes: dict[RuneboundState, int] = {}
        self.classes: dict[tuple[int, int, int], _Class] = {}
        self.situations: list[tuple[int, int, int]] = []
        self.situation_index: dict[tuple[int, int, int], int] = {}
        self.depth: list[int] = []
        self.class_of: list[tuple[int, int, int] | None] = []
        self.column_of: list[int] = []
        self.terminals: dict[tuple[int, int, int], int] = {}
        self.terminal_states: list[RuneboundState] = []
        self.terminal_value: list[tuple[float, float, float]] = []
        root = (state.hero_damage[0], state.enemy_damage[0], state.hand[0])
        self.root = self._situation(root, 0)
        x = 0
        while x < len(self.situations):
            if self.depth[x] < self.rounds:
                self._explore(x)
            x += 1
        for cls in self.classes.values():
            self._prepare(cls)
        self._tvalues = tuple(np.array([v[i] for v in self.terminal_value] or [0.0]) for i in range(3))

    # ----- situations and classes ------------------------------------------------------------------------------

    def _situation(self, key: tuple[int, int, int], depth: int) -> int:
        x = self.situation_index.get(key)
        if x is None:
            x = self.situation_index[key] = len(self.situations)
            self.situations.append(key)
            self.depth.append(depth)
            self.class_of.append(None)
            self.column_of.append(-1)
        return x

    def _class_key(self, h: int, e: int, k: int) -> tuple[int, int, int]:
        """The representative round start of a situation's class: hand up to the cards, damage 0 unless healing."""
        return (h if self.hero_heals else 0, e if self.enemy_heals else 0, min(k, self.cards))

    def _explore(self, x: int) -> None:
        h, e, k = self.situations[x]
        key = self._class_key(h, e, k)
        cls = self.classes.get(key)
        if cls is None:
            rep = replace(self.start, hero_damage=(key[0],), enemy_damage=(key[1],), hand=(key[2],))
            cls = self.classes[key] = _Class(_Graph(rep, self.shapes))
        self.class_of[x] = key
        self.column_of[x] = len(cls.columns)
        cls.columns.append(x)
        g = cls.graph
        rh, re, rk = g.rep
        hh, he = self.health
        for i, kind in enumerate(g.kinds):
            if kind == _LEAF:
                lh, le, lk = g.level[i]
                nh, ne = h + lh - rh, e + le - re
                if nh < hh and ne < he:
                    self._situation((nh, ne, k + lk - rk), self.depth[x] + 1)

    def _terminal(self, trace: list[RuneboundState], shift: tuple[int, int, int]) -> int:
        """The end of a transition for a situation ``shift`` away from the class's: at the first state on the way
        where its damage reaches health (stopped at health), the rules end the fight."""
        hh, he = self.health
        for s in trace:
            h, e = s.hero_damage[0] + shift[0], s.enemy_damage[0] + shift[1]
            if h >= hh or e >= he:
                key = (min(h, hh), min(e, he), s.hand[0] + shift[2])
                t = self.terminals.get(key)
                if t is None:
                    end = DRIVER.run(replace(s, hero_damage=(key[0],), enemy_damage=(key[1],), hand=(key[2],)))
                    if not DRIVER.is_over(end):
                        raise TabletopError("ShiftSolver: a fight went on at health (the rules changed?)")
                    ret = self.game.returns(end)[0]
                    t = self.terminals[key] = len(self.terminal_states)
                    self.terminal_states.append(end)
                    self.terminal_value.append(
                        (1.0 if ret > 0 else 0.0, 1.0 if ret < 0 else 0.0, float(end.hero_damage[0]))
                    )
                return t
        raise TabletopError("ShiftSolver: a transition ended the fight below health (the rules changed?)")

    # ----- arrays ------------------------------------------------------------------------------------------------

    def _prepare(self, cls: _Class) -> None:
        g = cls.graph
        n = cls.n = len(g.kinds)
        cols = cls.columns
        rh, re, rk = g.rep
        hh, he = self.health
        h0 = np.array([self.situations[x][0] - rh for x in cols], dtype=np.int64)
        e0 = np.array([self.situations[x][1] - re for x in cols], dtype=np.int64)
        kinds = np.array(g.kinds, dtype=np.int64)
        level = np.array(g.level, dtype=np.int64).reshape(n, 3)
        cls.in_region = (
            (kinds != _TERMINAL)[:, None] & (level[:, 0:1] + h0[None, :] < hh) & (level[:, 1:2] + e0[None, :] < he)
        )
        edges = g.edges
        cls.parent = np.array([ed[0] for ed in edges], dtype=np.int64)
        cls.child = np.array([ed[1] for ed in edges], dtype=np.int64)
        cls.weight = np.array([ed[2] for ed in edges], dtype=np.float64)
        cls.slot = np.array([ed[3] for ed in edges], dtype=np.int64)
        cls.cross = ~cls.in_region[cls.child] & cls.in_region[cls.parent]
        cls.tid = np.zeros(cls.cross.shape, dtype=np.int64)
        rows, js = np.nonzero(cls.cross)
        for r, j in zip(rows.tolist(), js.tolist(), strict=True):
            x = cols[j]
            sh = (self.situations[x][0] - rh, self.situations[x][1] - re, self.situations[x][2] - rk)
            cls.tid[r, j] = self._terminal(edges[r][4], sh)
        cls.cross_edges = np.unique(rows)
        # Leaves: the next round's situation of each column.
        cls.leaves = np.nonzero(kinds == _LEAF)[0]
        cls.leaf_next = np.zeros((len(cls.leaves), len(cols)), dtype=np.int64)
        cls.leaf_ok = cls.in_region[cls.leaves]
        for a, i in enumerate(cls.leaves.tolist()):
            lh, le, lk = g.level[i]
            for j, x in enumerate(cols):
                if cls.leaf_ok[a, j]:
                    h, e, k = self.situations[x]
                    cls.leaf_next[a, j] = self.situation_index[(h + lh - rh, e + le - re, k + lk - rk)]
        # Heights (children first: node ids are in post-order) for the value sweep.
        height = [0] * n
        for i in range(n):
            out = g.out[i]
            if out:
                height[i] = 1 + max(height[edges[ed][1]] for ed in out)
        by_height: dict[int, list[int]] = {}
        for i in range(n):
            if g.kinds[i] in (_CHANCE, _DECISION):
                by_height.setdefault(height[i], []).append(i)
        for hgt in sorted(by_height):
            chance_edges = [ed for i in by_height[hgt] if g.kinds[i] == _CHANCE for ed in g.out[i]]
            groups: dict[int, list[list[int]]] = {}
            for i in by_height[hgt]:
                if g.kinds[i] == _DECISION:
                    groups.setdefault(len(g.out[i]), []).append(g.out[i])
            decision = [
                (cls.parent[np.array([o[0] for o in outs])], np.array(outs, dtype=np.int64)) for outs in groups.values()
            ]
            cls.value_levels.append((np.array(chance_edges, dtype=np.int64), decision))
        # Depths from the root (parents first) for the forward sweep; in-edges by parent, highest id first.
        top = [0] * n
        for i in range(n - 1, -1, -1):
            for ed in g.out[i]:
                c = edges[ed][1]
                top[c] = max(top[c], top[i] + 1)
        by_top: dict[int, list[int]] = {}
        for ed, edge in enumerate(edges):
            by_top.setdefault(top[edge[1]], []).append(ed)
        for t in sorted(by_top):
            eds = sorted(by_top[t], key=lambda ed: (edges[ed][1], -edges[ed][0], edges[ed][3]))
            cls.mass_levels.append(np.array(eds, dtype=np.int64))

    # ----- sweeps ------------------------------------------------------------------------------------------------

    def _edge_values(self, cls: _Class, eds: _I, values: tuple[_F, _F, _F]) -> tuple[_F, _F, _F]:
        """The children's values through edges ``eds`` (any shape), each column's terminal where it crosses."""
        c = cls.child[eds]
        cross = cls.cross[eds]
        tid = cls.tid[eds]
        out = []
        for v, t in zip(values, self._tvalues, strict=True):
            out.append(np.where(cross, t[tid], v[c]))
        return out[0], out[1], out[2]

    def _sweep(self, cls: _Class, left: tuple[_F, _F, _F]) -> tuple[_F, _F, _F]:
        """One round more: every node's (win, loss, expected damage) per column, leaves valued by ``left``."""
        m = len(cls.columns)
        win = np.zeros((cls.n, m))
        loss = np.zeros((cls.n, m))
        dmg = np.zeros((cls.n, m))
        choice = np.zeros((cls.n, m), dtype=np.int64)
        win[cls.leaves] = left[0][cls.leaf_next]
        loss[cls.leaves] = left[1][cls.leaf_next]
        dmg[cls.leaves] = left[2][cls.leaf_next]
        values = (win, loss, dmg)
        for chance_edges, decision in cls.value_levels:
            if len(chance_edges):
                vw, vl, vd = self._edge_values(cls, chance_edges, values)
                p = cls.weight[chance_edges][:, None]
                rows = cls.parent[chance_edges]
                np.add.at(win, rows, p * vw)
                np.add.at(loss, rows, p * vl)
                np.add.at(dmg, rows, p * vd)
            for nodes, outs in decision:
                vw, vl, vd = self._edge_values(cls, outs, values)
                aid = cls.weight[outs]
                bw, bl, bd = vw[:, 0], vl[:, 0], vd[:, 0]
                ba = np.broadcast_to(aid[:, 0:1], bw.shape)
                best = np.zeros(bw.shape, dtype=np.int64)
                for j in range(1, outs.shape[1]):
                    w, lo, d = vw[:, j], vl[:, j], vd[:, j]
                    a = aid[:, j : j + 1]
                    better = (w > bw) | ((w == bw) & ((d < bd) | ((d == bd) & (a < ba))))
                    bw = np.where(better, w, bw)
                    bl = np.where(better, lo, bl)
                    bd = np.where(better, d, bd)
                    ba = np.where(better, a, ba)
                    best = np.where(better, j, best)
                win[nodes], loss[nodes], dmg[nodes] = bw, bl, bd
                choice[nodes] = best
        cls.policies.append(choice)
        r = cls.graph.root
        return win[r], loss[r], dmg[r]

    def odds(self) -> Odds:
        """The odds of the fight from the root situation, with ``max_rounds`` rounds in all."""
        damage_of = np.array([s[0] for s in self.situations], dtype=np.float64)
        zero = np.zeros(len(self.situations))
        left = (zero, zero.copy(), damage_of.copy())
        for _k in range(self.rounds):
            new = (zero.copy(), zero.copy(), damage_of.copy())
            for cls in self.classes.values():
                vw, vl, vd = self._sweep(cls, left)
                cols = np.array(cls.columns, dtype=np.int64)
                new[0][cols], new[1][cols], new[2][cols] = vw, vl, vd
            left = new
        dist = self._distribution()
        w, lo = float(left[0][self.root]), float(left[1][self.root])
        return Odds(w, lo, max(0.0, 1.0 - w - lo), tuple(dist), self._count_states())

    def _distribution(self) -> list[float]:
        """Push the probability mass forward through the chosen policies, round by round."""
        hh = self.health[0]
        dist = [0.0] * (hh + 1)
        start = np.zeros(len(self.situations))
        start[self.root] = 1.0
        term_dmg = [int(v[2]) for v in self.terminal_value]
        for r in range(self.rounds):
            k = self.rounds - 1 - r
            nxt = np.zeros(len(self.situations))
            term = np.zeros(max(1, len(self.terminal_states)))
            for cls in self.classes.values():
                mass = np.zeros((cls.n, len(cls.columns)))
                mass[cls.graph.root] = start[np.array(cls.columns, dtype=np.int64)]
                choice = cls.policies[k]
                g = cls.graph
                for eds in cls.mass_levels:
                    par = cls.parent[eds]
                    w = cls.weight[eds][:, None]
                    is_dec = (np.array(g.kinds, dtype=np.int64)[par] == _DECISION)[:, None]
                    chosen = choice[par] == cls.slot[eds][:, None]
                    factor = np.where(is_dec, chosen.astype(np.float64), w)
                    contrib = mass[par] * factor
                    cross = cls.cross[eds]
                    np.add.at(mass, cls.child[eds], np.where(cross, 0.0, contrib))
                    rows, js = np.nonzero(cross)
                    if len(rows):
                        np.add.at(term, cls.tid[eds][rows, js], contrib[rows, js])
                ok = cls.leaf_ok
                np.add.at(nxt, cls.leaf_next[ok], mass[cls.leaves][ok])
            for t in range(len(self.terminal_states) - 1, -1, -1):
                if term[t]:
                    dist[term_dmg[t]] += float(term[t])
            start = nxt
        for x, m in enumerate(start.tolist()):
            if m:
                dist[self.situations[x][0]] += m
        return dist

    def _count_states(self) -> int:
        """How many distinct states the RoundSolver would have visited (every situation's in-round states)."""
        keys: list[Any] = []
        for cls in self.classes.values():
            g = cls.graph
            rh, re, rk = g.rep
            shape = np.array(g.shape, dtype=np.int64)
            level = np.array(g.level, dtype=np.int64).reshape(-1, 3)
            for j, x in enumerate(cls.columns):
                h, e, k = self.situations[x]
                sel = cls.in_region[:, j]
                key = (
                    ((shape[sel] * 64 + level[sel, 0] + h - rh) * 64 + level[sel, 1] + e - re) * 64
                    + level[sel, 2]
                    + k
                    - rk
                )
                keys.append(key)
        keys.append(-1 - np.arange(len(self.terminal_states), dtype=np.int64))
        return int(np.unique(np.concatenate(keys)).size)
