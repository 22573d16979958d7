"""Gaining a Skill: "reveal the top 2 cards from the Skill Deck, keeping 1 ... putting the other in the
corresponding Discard Pile" (after a monster of Levels 1-3, at an Easy Setup, from some encounters)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from tabletop_core.components import Pile
from unbroken.actions import Action, Pick
from unbroken.rules.chance import CardDraw
from unbroken.rules.payment import PICK, Decide, upto
from unbroken.state import FRAMES, State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = ["DrawSkills", "SkillKeep", "gain_skill"]


@FRAMES.register("unbroken.draw_skills", slot=6)
@attrs.frozen
class DrawSkills(CardDraw):
    """Chance frame: ``n`` more Skill Cards to reveal into the offer."""

    n: int

    def pile(self, state: State) -> Pile[int]:
        """The Skill Deck."""
        return state.skill_deck

    def drawn(self, state: State, frames: tuple[Frame, ...], pile: Pile[int], card: int) -> State:
        """The card joins the offer."""
        return state.restack(*frames, skill_deck=pile, offered=(*state.offered, card))

    def less(self) -> DrawSkills:
        """One card fewer to reveal."""
        return DrawSkills(self.n - 1)


@FRAMES.register("unbroken.skill_keep", slot=7)
@attrs.frozen
class SkillKeep(Decide):
    """Frame: keep one offered Skill Card (with one card offered it is kept; with none, nothing happens)."""

    in_id_order: ClassVar[bool] = True

    def auto(self, state: State) -> State | None:
        """No choice with one card or none."""
        if len(state.offered) <= 1:
            return keep(state, 0) if state.offered else state.pop()
        return None

    def options(self, state: State) -> list[Action]:
        """One pick per offered card."""
        return list(upto(PICK, Pick, len(state.offered)))

    def label(self, state: State, i: int) -> str:
        """The offered card's name."""
        return state.pack.skills[state.offered[i]].name if i < len(state.offered) else ""

    def decide(self, state: State, action: Action) -> State:
        """Keep the picked card."""
        assert isinstance(action, Pick)
        return keep(state, action.i)


def gain_skill(state: State, n: int) -> State:
    """Reveal ``n`` Skill Cards and keep one."""
    return state.push(SkillKeep(), DrawSkills(n))


def keep(state: State, i: int) -> State:
    """Keep offered skill ``i``; "putting the other in the corresponding Discard Pile"."""
    kept = state.offered[i]
    pile = state.skill_deck
    for j, s in enumerate(state.offered):
        if j != i:
            pile = pile.discard(s)
    return state.pop(skill_deck=pile, offered=(), skills=(*state.skills, state.pack.skills[kept].id))
