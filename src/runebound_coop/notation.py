"""Action notation: every action written as short text, and text read back (round trip on the legal actions).

The grammar (case and spacing are not significant when reading)::

    action   := "pass" | engage | attack | copy | flip | recast | double | surge | exert
              | "cancel" | "allow" | "withdraw" | "stay" | "block with tactics" | "keep tactics" | choose | land
    engage   := "engage" HERO_INDEX HERO_NAME
    attack   := "attack" DAMAGE                       DAMAGE := "physical" | "magic" | "charge"
              | "add token" TOKEN FACE | "strike" DAMAGE  (picking the tokens of a multi-token attack)
    copy     := "copy" VALUE DAMAGE
    flip     := "flip" TOKEN [" by tactics"]          TOKEN: an index of the hero's pool
    recast   := "recast enemy" TOKEN [" by tactics"]  TOKEN: an index of the enemy's pool
    double   := "double" TOKEN
    surge    := "surge" ABILITY_INDEX ABILITY_NAME [" by tactics"]
    exert    := "exert" CARD_INDEX CARD_NAME [DAMAGE]
              | "remove token" TOKEN FACE             (picking the tokens a card removes, when more show it)
    choose   := "choose" OPTION [KIND ("hero" | "enemy") TOKEN FACE]
    land     := NAME "token" TOKEN "lands" FACE [" (side " ("a" | "b") ")"] [" (recast)"] | "land" ("a" | "b")

A face is written in the reference's notation (``2P*``: 2 physical with the initiative mark). ``cancel`` / ``allow``
answer an enemy ability the hero may cancel with 1 tactics; ``withdraw`` / ``stay`` the retreat option's question;
``block with tactics`` / ``keep tactics`` whether the hero, about to take damage, spends a tactics as a shield.
"""

from __future__ import annotations

from runebound_coop.actions import (
    Action,
    Attack,
    Block,
    Copy,
    Double,
    Engage,
    Exert,
    Flip,
    Land,
    Pass,
    Recast,
    Respond,
    Surge,
    Withdraw,
)
from runebound_coop.content.roster import Setup
from runebound_coop.rules.tokens import faces_of
from runebound_coop.state import HERO, AttackFrame, ChoiceFrame, ExertFrame, Fight, RuneboundState, Side, split_ref
from tabletop_core.actions import action_text
from tabletop_core.errors import IllegalActionError

__all__ = ["action_to_str", "land_text", "parse_action"]


def action_to_str(setup: Setup, state: RuneboundState, action: Action) -> str:
    """``action`` written in the grammar above (in ``state``, whose fight names tokens, cards and abilities)."""
    fight = state.fight
    if isinstance(action, Land):
        return land_text(setup, fight, action.side, recast=state.pos.step != "cast")
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Engage):
        return f"engage {action.hero} {setup.heroes[action.hero].name}"
    if isinstance(action, Respond):
        return "cancel" if action.cancel else "allow"
    if isinstance(action, Withdraw):
        return "withdraw" if action.leave else "stay"
    if isinstance(action, Block):
        return "block with tactics" if action.tactics else "keep tactics"
    if isinstance(action, Attack):
        if isinstance(state.pending.top, AttackFrame):
            return f"strike {action.symbol.value}"
        return f"attack {action.symbol.value}"
    if isinstance(action, Copy):
        return f"copy {action.value} {action.symbol.value}"
    by = " by tactics" if getattr(action, "tactics", False) else ""
    if isinstance(action, Flip):
        return f"flip {action.target}{by}"
    if isinstance(action, Recast):
        return f"recast enemy {action.target}{by}"
    if isinstance(action, Double):
        return f"double {action.target}"
    if fight is None:
        return repr(action)
    if isinstance(action, Surge):
        return f"surge {action.ability} {setup.heroes[fight.hero].abilities[action.ability].name}{by}"
    if isinstance(action, Exert):
        card = setup.heroes[fight.hero].cards[action.card].name
        return f"exert {action.card} {card}" + (f" {action.symbol.value}" if action.symbol else "")
    top = state.pending.top
    if isinstance(top, AttackFrame):
        face = faces_of(setup, fight, HERO)[action.option][fight.hero_pool.side(action.option)]
        return f"add token {action.option} {face}"
    if isinstance(top, ExertFrame):
        face = faces_of(setup, fight, HERO)[action.option][fight.hero_pool.side(action.option)]
        return f"remove token {action.option} {face}"
    if isinstance(top, ChoiceFrame) and action.option < len(top.candidates):
        side, i = split_ref(top.candidates[action.option])
        face = faces_of(setup, fight, side)[i][fight.pool(side).side(i)]
        return f"choose {action.option} {top.kind} {_who(side)} {i} {face}"
    return f"choose {action.option}"


def parse_action(setup: Setup, state: RuneboundState, legal: tuple[Action, ...], text: str) -> Action:
    """The legal action written ``text`` (case and spacing are not significant).

    Raises:
        IllegalActionError: when no legal action reads as ``text``, or ``text`` is not a ``str``.
    """
    wanted = _normal(action_text("runebound_coop", text))
    for action in legal:
        if _normal(action_to_str(setup, state, action)) == wanted:
            return action
    shown = ", ".join(repr(action_to_str(setup, state, a)) for a in legal[:8])
    raise IllegalActionError(f"runebound_coop: cannot read {text!r} as a legal action (legal: {shown})")


def land_text(setup: Setup, fight: Fight | None, side: int, *, recast: bool) -> str:
    """A cast outcome named by its token and the face it shows, e.g. ``Elian token 2 lands S*``; a recast during
    the combat actions (an agility or Relentless) is marked ``(recast)``."""
    if fight is None or not fight.casting:
        return f"land {'ab'[side]}"
    who, i = split_ref(fight.casting[0])
    name = setup.heroes[fight.hero].name if who == HERO else setup.enemies[fight.enemy].name
    faces = faces_of(setup, fight, who)[i]
    text = f"{name} token {i} lands {faces[side]}"
    if str(faces[0]) == str(faces[1]):
        text += f" (side {'ab'[side]})"  # both faces alike (custom content): the side keeps the texts apart
    return text + " (recast)" if recast else text


def _who(side: Side) -> str:
    return "hero" if side == HERO else "enemy"


def _normal(text: str) -> str:
    return " ".join(text.lower().split())
