"""Builders for Unbroken test positions: put a state exactly where a rule applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import numpy as np

import unbroken
from tabletop_core.flow import Pending
from tests.playouts import random_playout
from unbroken.actions import Action, Die, DrawCard
from unbroken.content.loader import Pack, parse_pack
from unbroken.rules import flow
from unbroken.rules.verbs import new_combat
from unbroken.state import FLOW, LAST_LEVEL, RES, TIME, Cond, State

GAME = unbroken.GAME

#: The reference Level 1 sheets (``data/reference_level1.toml``, merged over the default pack) that rule tests
#: naming a Level 1 monster's numbers play against: the shipped Level 1 is balance data, tuned by simulation.
REFERENCE_TOML = (Path(__file__).parent / "data" / "reference_level1.toml").read_text(encoding="utf-8")
REFERENCE: Pack = parse_pack({"tests/unbroken/data/reference_level1.toml": REFERENCE_TOML}, name="reference")


def random_steps(steps: int, seed: int = 0) -> int:
    """Play the benchmark's random playout (chance from its exact distribution, a uniform legal action, through the
    checked ``step``) from ``np.random.default_rng(seed)``, whole games until at least ``steps``; the steps played."""
    rng = np.random.default_rng(seed)
    done = 0
    while done < steps:
        done += sum(1 for _ in random_playout(GAME, GAME.new_game(), rng)) - 1  # the steps: states but the first
    return done


def fresh(**options: Any) -> State:
    """A new game at its first decision or chance node (no setup chance resolved)."""
    return GAME.new_game(**options)


def with_res(state: State, **amounts: int) -> State:
    """``state`` with the named resources set (e.g. ``se=5, metal=1``)."""
    for name, n in amounts.items():
        r = RES[name]
        state = state.with_res(r, state.res[r].set(n))
    return state


def at_prep(level: int = 1, **kw: Any) -> State:
    """A Preparation Step of ``level`` with nothing pending."""
    options = {k: kw.pop(k) for k in ("difficulty", "character", "pack") if k in kw}
    s = fresh(**options)
    s = attrs.evolve(s, pos=FLOW.at("travel", "preparation", level), pending=Pending(), uses=level, **kw)
    return s


def at_battle(monster: str, level: int, *, advance: bool = True, **kw: Any) -> State:
    """The start of the Battle Step against ``monster`` (trackers set; on Level 4, the Time token removed), then run
    to the first event."""
    options = {k: kw.pop(k) for k in ("difficulty", "character", "pack") if k in kw}
    s = fresh(**options)
    s = attrs.evolve(s, pos=FLOW.at("combat", "battle", level), pending=Pending(), monster=monster, uses=level, **kw)
    s = attrs.evolve(s, combat=new_combat(s))
    if level == LAST_LEVEL:
        s = s.with_res(TIME, s.res[TIME].set(0))
    return flow.run(s) if advance else s


def do(state: State, *texts: str) -> State:
    """Apply actions given as the strings ``action_to_str`` writes."""
    for text in texts:
        state = GAME.step(state, GAME.parse_action(state, text))
    return state


def roll(state: State, face: int) -> State:
    """Resolve a die roll chance node with ``face``."""
    return GAME.step(state, Die(face))


def draw(state: State, card_id: str, deck: str = "enc") -> State:
    """Resolve a draw chance node with the card ``card_id``."""
    ids = [c.id for c in state.pack.encounters] if deck == "enc" else [c.id for c in state.pack.skills]
    index = ids.index(card_id)
    return GAME.step(state, DrawCard(index))


def texts(state: State) -> list[str]:
    """The legal actions as strings."""
    return [GAME.action_to_str(state, a) for a in GAME.legal_actions(state)]


def cond(*ids: str, tokens: int = 0) -> tuple[Cond, ...]:
    """Conditions with ``tokens`` each."""
    return tuple(Cond(i, tokens) for i in ids)


def enc_index(state: State, card_id: str) -> int:
    """The pack index of encounter ``card_id``."""
    return next(i for i, c in enumerate(state.pack.encounters) if c.id == card_id)


def step_all(state: State, actions: list[Action]) -> State:
    """Apply several actions."""
    for a in actions:
        state = GAME.step(state, a)
    return state
