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
abilities or board title) damage only grows, and the play from damage ``r + d`` is the play from damage ``r``
shifted by ``d`` until the first moment the shifted damage reaches health, where the end check ends the fight;
and hands of ``k`` and ``min(k, cards)`` cards play alike but for the number left. The class of a situation is
therefore its hand up to the number of cards, and the exact damage of each side that can heal (that side is not
shared); its graph starts from the root's damage (``r``, the least any situation has). A transition of the class
graph that would take a situation's damage to health is followed, for that situation, through the states the
rules passed on the way (:func:`traced_run`): the fight ends at the first one reaching health, with the damage
stopped at health, and the rules' own end check and run give the final state.

The values are the RoundSolver's arithmetic: each situation's node takes the same operations on the same numbers
in the same order (a cast's outcomes summed in order from 0.0, the hero's choice by win probability, then
expected damage, then the lowest action id), so win, loss and undecided come out equal to the last bit, and the
state count is the RoundSolver's (every situation's shifted states, deduplicated). The damage distribution adds
the same masses, each node's in-edges highest parent first as the RoundSolver does; only where two situations
reach one and the same state does the RoundSolver add their masses there before passing them on, which could
group a sum differently in its last bit. On every fight checked (the tests) the distributions are identical.
The solver refuses what it does not cover (``retreat``; more than one hero or enemy) with a ``ValueError``, and
:func:`~runebound_coop.exact.odds` then uses the RoundSolver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from runebound_coop.actions import action_id
from runebound_coop.content.roster import Setup
from runebound_coop.exact import Odds, at_round_start, landings
from runebound_coop.rules.flow import DRIVER, defeat
from runebound_coop.state import RuneboundState
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
class _Level:
    """One height of a class graph for the value sweep: its cast nodes by number of outcomes, its decisions.

    ``at`` arrays index the flat value array (the nodes' values, a column per situation; a pad that is never the
    best choice; the terminals' values): the child's value for that situation, or its terminal's where the edge
    crosses.
    """

    chance: list[tuple[_I, _I, _F]]  # (nodes, at (outcomes, nodes, columns), probabilities (outcomes, nodes))
    decision: tuple[_I, _I, _F] | None  # (nodes, at (actions, nodes, columns), action ids (actions, nodes))


@attrs.define
class _Push:
    """One depth of a class graph for the forward sweep: its in-edges, highest parent first per child."""

    parent: _I
    child: _I
    factor: _F  # the probability of a cast edge; 0 for a decision edge (its policy decides)
    decision: _B
    slot: _I
    keep: _B  # (edges, columns): the mass goes on to the child (the edge does not end the fight)
    cross_rows: _I
    cross_cols: _I
    cross_tid: _I


@attrs.define
class _Class:
    """A class's graph as arrays, with the situations it values (one column each)."""

    graph: _Graph
    columns: list[int] = attrs.Factory(list)
    n: int = 0
    in_region: _B = attrs.field(default=None)
    leaves: _I = attrs.field(default=None)
    leaf_next: _I = attrs.field(default=None)  # (leaves, columns): the next round's situation
    leaf_ok: _B = attrs.field(default=None)
    levels: list[_Level] = attrs.Factory(list)
    pushes: list[_Push] = attrs.Factory(list)
    policies: list[_I] = attrs.Factory(list)  # per round left: the chosen out-edge slot per (node, column)


class ShiftSolver:
    """Expectimax for a whole solo fight, the same numbers as :class:`~runebound_coop.exact.RoundSolver`, with one
    in-round graph per class of round-start situations (see the module docstring) and numpy sweeps.

    Raises:
        ValueError: not a solo fight at the first cast of a round, the enemy decided by a player, or ``retreat``.
    """

    def __init__(self, game: RuneboundCoop, state: RuneboundState) -> None:
        options = state.options
        if len(options.heroes) != 1 or len(options.enemies) != 1:
            raise ValueError("odds: a single fight (one hero, one enemy)")
        if options.enemy_choices == "player":
            raise ValueError("odds: the enemy must decide by itself (enemy_choices 'evaluate' or 'damage')")
        if options.retreat:
            raise ValueError("ShiftSolver: no retreat decisions (use RoundSolver)")
        setup = options.setup
        if not at_round_start(state, setup):
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
        # After the nodes' values in each flat value array: a pad (never the best choice), the terminals' values.
        self._tails = tuple(
            np.array([pad, *(v[i] for v in self.terminal_value)]) for i, pad in enumerate((-1.0, 0.0, 0.0))
        )

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
        """The representative round start of a situation's class: its hand up to the cards, and its damage for a
        side that can heal, else the root's (the least: without healing, damage never goes down)."""
        low = self.situations[self.root]
        return (h if self.hero_heals else low[0], e if self.enemy_heals else low[1], min(k, self.cards))

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

    # ----- arrays ------------------------------------------------------------------------------------------------

    def _prepare(self, cls: _Class) -> None:
        g = cls.graph
        n = cls.n = len(g.kinds)
        cols = cls.columns
        m = len(cols)
        rh, re, rk = g.rep
        hh, he = self.health
        sh = np.array([self.situations[x][0] - rh for x in cols], dtype=np.int64)
        se = np.array([self.situations[x][1] - re for x in cols], dtype=np.int64)
        sk = np.array([self.situations[x][2] - rk for x in cols], dtype=np.int64)
        kinds = np.array(g.kinds, dtype=np.int64)
        level = np.array(g.level, dtype=np.int64).reshape(n, 3)
        cls.in_region = (
            (kinds != _TERMINAL)[:, None] & (level[:, 0:1] + sh[None, :] < hh) & (level[:, 1:2] + se[None, :] < he)
        )
        edges = g.edges
        parent = np.array([ed[0] for ed in edges], dtype=np.int64)
        child = np.array([ed[1] for ed in edges], dtype=np.int64)
        weight = np.array([ed[2] for ed in edges], dtype=np.float64)
        slot = np.array([ed[3] for ed in edges], dtype=np.int64)
        cross = ~cls.in_region[child] & cls.in_region[parent]
        tid = self._crossings(cls, cross, sh, se, sk)
        # Leaves: the next round's situation of each column.
        cls.leaves = np.nonzero(kinds == _LEAF)[0]
        cls.leaf_next = np.zeros((len(cls.leaves), m), dtype=np.int64)
        cls.leaf_ok = cls.in_region[cls.leaves]
        for a, i in enumerate(cls.leaves.tolist()):
            lh, le, lk = g.level[i]
            for j, x in enumerate(cols):
                if cls.leaf_ok[a, j]:
                    h, e, k = self.situations[x]
                    cls.leaf_next[a, j] = self.situation_index[(h + lh - rh, e + le - re, k + lk - rk)]
        # The flat position of each edge's value per column: the child's, or its terminal's where it crosses.
        at = np.where(cross, n * m + 1 + tid, child[:, None] * m + np.arange(m)[None, :])
        pad = n * m
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
            by_degree: dict[int, list[int]] = {}
            decisions = []
            for i in by_height[hgt]:
                if g.kinds[i] == _CHANCE:
                    by_degree.setdefault(len(g.out[i]), []).append(i)
                else:
                    decisions.append(i)
            chance = []
            for nodes in by_degree.values():
                eds = np.array([g.out[i] for i in nodes], dtype=np.int64)
                # Outcome first: each outcome's values for every node and column are contiguous.
                chance.append(
                    (np.array(nodes, dtype=np.int64), at[eds].transpose(1, 0, 2).copy(), weight[eds].T.copy())
                )
            decision = None
            if decisions:
                width = max(len(g.out[i]) for i in decisions)
                eds = np.full((len(decisions), width), -1, dtype=np.int64)
                for r, i in enumerate(decisions):
                    eds[r, : len(g.out[i])] = g.out[i]
                padded = eds < 0
                dat = np.where(padded[:, :, None], pad, at[eds])
                aid = np.where(padded, 1e9, weight[eds])
                decision = (np.array(decisions, dtype=np.int64), dat.transpose(1, 0, 2).copy(), aid.T.copy())
            cls.levels.append(_Level(chance, decision))
        # Depths from the root (parents first) for the forward sweep; in-edges by child, highest parent first.
        top = [0] * n
        for i in range(n - 1, -1, -1):
            for ed in g.out[i]:
                c = edges[ed][1]
                top[c] = max(top[c], top[i] + 1)
        by_top: dict[int, list[int]] = {}
        for ed, edge in enumerate(edges):
            by_top.setdefault(top[edge[1]], []).append(ed)
        is_decision = kinds[parent] == _DECISION
        for t in sorted(by_top):
            eds = np.array(
                sorted(by_top[t], key=lambda ed: (edges[ed][1], -edges[ed][0], edges[ed][3])), dtype=np.int64
            )
            rows, js = np.nonzero(cross[eds])
            cls.pushes.append(
                _Push(
                    parent[eds],
                    child[eds],
                    np.where(is_decision[eds], 0.0, weight[eds]),
                    is_decision[eds],
                    slot[eds],
                    ~cross[eds],
                    rows,
                    js,
                    tid[eds][rows, js],
                )
            )

    def _crossings(self, cls: _Class, cross: _B, sh: _I, se: _I, sk: _I) -> _I:
        """The terminal each crossing (edge, column) ends in: at the first state on the edge's way where that
        column's damage reaches health, stopped at health (:meth:`_terminal`)."""
        g = cls.graph
        hh, he = self.health
        rows, js = np.nonzero(cross)
        tid = np.zeros(cross.shape, dtype=np.int64)
        if not len(rows):
            return tid
        crossing_edges, pos = np.unique(rows, return_inverse=True)
        traces = [g.edges[r][4] for r in crossing_edges.tolist()]
        width = max(len(t) for t in traces)
        th = np.empty((len(traces), width), dtype=np.int64)
        te = np.empty_like(th)
        tk = np.empty_like(th)
        for r, trace in enumerate(traces):
            dmg = [(s.hero_damage[0], s.enemy_damage[0], s.hand[0]) for s in trace]
            dmg += [dmg[-1]] * (width - len(dmg))
            th[r], te[r], tk[r] = zip(*dmg, strict=True)
        h = th[pos] + sh[js, None]
        e = te[pos] + se[js, None]
        reached = (h >= hh) | (e >= he)
        if not reached.any(axis=1).all():
            raise TabletopError("ShiftSolver: a transition ended the fight below health (the rules changed?)")
        first = reached.argmax(axis=1)
        pick = np.arange(len(rows))
        hc = np.minimum(h[pick, first], hh)
        ec = np.minimum(e[pick, first], he)
        kc = tk[pos, first] + sk[js]
        code = (hc * 64 + ec) * 64 + kc
        codes, one, back = np.unique(code, return_index=True, return_inverse=True)
        ids = []
        for c, q in zip(codes.tolist(), one.tolist(), strict=True):
            key = (c // 4096, c // 64 % 64, c % 64)
            t = self.terminals.get(key)
            if t is None:
                state = traces[pos[q]][first[q]]
                t = self._end(replace(state, hero_damage=(key[0],), enemy_damage=(key[1],), hand=(key[2],)), key)
            ids.append(t)
        tid[rows, js] = np.array(ids, dtype=np.int64)[back]
        return tid

    def _end(self, state: RuneboundState, key: tuple[int, int, int]) -> int:
        """Register the end of the fight from ``state`` (the damage at health): the rules' end check and run."""
        end = DRIVER.run(state)
        if not DRIVER.is_over(end):
            raise TabletopError("ShiftSolver: a fight went on at health (the rules changed?)")
        ret = self.game.returns(end)[0]
        t = self.terminals[key] = len(self.terminal_states)
        self.terminal_states.append(end)
        self.terminal_value.append((1.0 if ret > 0 else 0.0, 1.0 if ret < 0 else 0.0, float(end.hero_damage[0])))
        return t

    # ----- sweeps ------------------------------------------------------------------------------------------------

    def _sweep(self, cls: _Class, left: tuple[_F, _F, _F]) -> tuple[_F, _F, _F]:
        """One round more: every node's (win, loss, expected damage) per column, leaves valued by ``left``."""
        n, m = cls.n, len(cls.columns)
        flats = []
        for v, tail in zip(left, self._tails, strict=True):
            flat = np.zeros(n * m + len(tail))
            flat[n * m :] = tail
            flat[: n * m].reshape(n, m)[cls.leaves] = v[cls.leaf_next]
            flats.append(flat)
        win, loss, dmg = (f[: n * m].reshape(n, m) for f in flats)
        fw, fl, fd = flats
        choice = np.zeros((n, m), dtype=np.int64)
        for level in cls.levels:
            for nodes, at, p in level.chance:
                vw, vl, vd = fw[at], fl[at], fd[at]
                aw = np.zeros((len(nodes), m))
                al = np.zeros((len(nodes), m))
                ad = np.zeros((len(nodes), m))
                for j in range(at.shape[0]):
                    q = p[j][:, None]
                    aw += q * vw[j]
                    al += q * vl[j]
                    ad += q * vd[j]
                win[nodes], loss[nodes], dmg[nodes] = aw, al, ad
            if level.decision is not None:
                nodes, at, aid = level.decision
                vw, vd = fw[at], fd[at]
                bw, bd = vw[0].copy(), vd[0].copy()
                ba = np.repeat(aid[0][:, None], m, axis=1)
                best = np.zeros(bw.shape, dtype=np.int64)
                for j in range(1, at.shape[0]):
                    w, d = vw[j], vd[j]
                    a = np.broadcast_to(aid[j][:, None], ba.shape)
                    # The RoundSolver's key (win, -damage, -action id), compared as a tuple.
                    better = (w > bw) | ((w == bw) & ((d < bd) | ((d == bd) & (a < ba))))
                    np.copyto(bw, w, where=better)
                    np.copyto(bd, d, where=better)
                    np.copyto(ba, a, where=better)
                    best[better] = j
                win[nodes], dmg[nodes] = bw, bd
                loss[nodes] = np.take_along_axis(fl[at], best[None], axis=0)[0]
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
        dist = [0.0] * (self.health[0] + 1)
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
                for push in cls.pushes:
                    factor = np.where(
                        push.decision[:, None], choice[push.parent] == push.slot[:, None], push.factor[:, None]
                    )
                    contrib = mass[push.parent] * factor
                    np.add.at(mass, push.child, np.where(push.keep, contrib, 0.0))
                    if len(push.cross_rows):
                        np.add.at(term, push.cross_tid, contrib[push.cross_rows, push.cross_cols])
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
        every = np.sort(np.concatenate(keys))
        return int(every.size and 1 + np.count_nonzero(every[1:] != every[:-1]))
