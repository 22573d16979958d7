"""The cards in play and what they declare: which cards, their abilities, their static ops, what a trigger
activates among them.

Every lookup here reads the state and the pack alone and pushes no frame, so the phases (``travel.py``,
``combat.py``), the effect language (``effects.py``) and the triggers (``triggers.py``) all read it from below.
What is derived from one set of cards in play is kept with it (:class:`InPlay`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unbroken.content.schema import Ability, Op
from unbroken.rules.tables import tables
from unbroken.state import State

if TYPE_CHECKING:
    from unbroken.rules.triggers import Trig

__all__ = [
    "InPlay",
    "abilities_of",
    "activates",
    "cards_in_play",
    "ignored",
    "in_play",
    "is_in_play",
    "label",
    "memo_of",
    "static_ops",
    "statics",
]


def cards_in_play(state: State) -> list[str]:
    """The source name (``kind:id``) of every card in play: character, skills, active conditions, the monster in
    combat, in that order."""
    return list(memo_of(state).cards)


def _listed(state: State) -> tuple[str, ...]:
    """:func:`cards_in_play`, built from the fields (the long way the memo of :func:`memo_of` stands for)."""
    out = [f"character:{state.options.character}"]
    if state.skills:
        out += [f"skill:{s}" for s in state.skills]
    if state.conditions:
        out += [f"condition:{c.id}" for c in state.conditions]
    if state.combat is not None:
        out.append(f"monster:{state.combat.monster}")
    return tuple(out)


class InPlay:
    """The cards in play for one set of the fields that say which (see :func:`cards_in_play`), with what is
    derived from them alone, filled in as it is asked for: the static ops by op name, by trigger whether
    anything activates and the frame of Responses it fires, each card's abilities (see :func:`abilities_of`) and
    the Combat Actions ignored (see :func:`ignored`). Every entry is a pure function of the fields and the
    pack; the memo holds the field values it was made for, so their identities are not reused while it is kept.
    """

    __slots__ = (
        "abilities",
        "activated",
        "cards",
        "conditions",
        "fired",
        "ignored",
        "monster",
        "options",
        "skills",
        "statics",
    )

    def __init__(self, state: State) -> None:
        self.options = state.options
        self.skills = state.skills
        self.conditions = state.conditions
        self.monster = None if state.combat is None else state.combat.monster
        self.cards = _listed(state)
        self.statics: dict[str, tuple[Op, ...]] = {}
        self.activated: dict[str, bool] = {}
        self.fired: dict[str, Trig | None] = {}
        self.abilities: dict[str, tuple[Ability, ...]] = {}  # by card name, ``()`` for a card not in play
        self.ignored: list[frozenset[str]] = []  # at most one entry (filled once, shared as the dicts are)

    def sharing(self, state: State) -> InPlay:
        """This memo for ``state``, whose fields are equal to the ones it was made for (other objects): the same
        cards and derived tables (shared, so what either derives serves both), ``state``'s field objects."""
        new = InPlay.__new__(InPlay)
        new.options = state.options
        new.skills = state.skills
        new.conditions = state.conditions
        new.monster = self.monster
        new.cards = self.cards
        new.statics = self.statics
        new.activated = self.activated
        new.fired = self.fired
        new.abilities = self.abilities
        new.ignored = self.ignored
        return new


#: The last :class:`InPlay` asked for (the cards in play change rarely within a game or a search).
_IN_PLAY: list[InPlay | None] = [None]


#: Every :class:`InPlay` made, by the values of the fields that say which cards are in play (a bounded memo: a
#: playout or a search goes back to cards it had before, a new game to the starting ones).
_IN_PLAY_BY_FIELDS: dict[tuple[object, ...], InPlay] = {}


_IN_PLAY_MAX = 1024


def memo_of(state: State) -> InPlay:
    """The :class:`InPlay` of ``state``'s fields: the last one when the options, skills and conditions are the
    same objects and the monster in combat the same, else the one made for equal fields, else a new one."""
    memo = _IN_PLAY[0]
    c = state.combat
    monster = None if c is None else c.monster
    if (
        memo is not None
        and memo.skills is state.skills
        and memo.conditions is state.conditions
        and memo.options is state.options
        and memo.monster == monster
    ):
        return memo
    # The options by identity (interned, see ``Game.make_options``): every entry holds its options, so the id of
    # a key is not reused while the entry is kept.
    key = (id(state.options), state.skills, state.conditions, monster)
    memo = _IN_PLAY_BY_FIELDS.get(key)
    if memo is None:
        if len(_IN_PLAY_BY_FIELDS) >= _IN_PLAY_MAX:
            _IN_PLAY_BY_FIELDS.clear()
        memo = _IN_PLAY_BY_FIELDS[key] = InPlay(state)
    elif memo.skills is not state.skills or memo.conditions is not state.conditions:
        memo = memo.sharing(state)  # equal fields, other objects: for the identity test above to hit next time
    _IN_PLAY[0] = memo
    return memo


def in_play(state: State) -> list[tuple[str, tuple[Ability, ...]]]:
    """Every card in play with its abilities: character, skills, active conditions, the monster in combat."""
    abilities = tables(state).abilities
    return [(src, abilities[src]) for src in cards_in_play(state)]


def abilities_of(state: State, src: str) -> tuple[Ability, ...]:
    """The abilities of the card ``src`` (``kind:id``) if it is in play, else ``()`` (kept with the cards in
    play, see :class:`InPlay`)."""
    known = memo_of(state).abilities
    found = known.get(src)
    if found is None:
        found = known[src] = tables(state).abilities[src] if is_in_play(state, src) else ()
    return found


def ignored(state: State) -> frozenset[str]:
    """The kinds of monster Combat Action that the cards in play ignore (the ids of the ``ignore`` static ops;
    derived once per set of cards in play, see :class:`InPlay`)."""
    memo = memo_of(state)
    if not memo.ignored:
        memo.ignored.append(frozenset(o.id for o in static_ops(state, "ignore")))
    return memo.ignored[0]


def is_in_play(state: State, src: str) -> bool:
    """Whether ``src`` is one of :func:`cards_in_play` (read from the fields, without listing them)."""
    kind, _, cid = src.partition(":")
    if kind == "character":
        return cid == state.options.character
    if kind == "skill":
        return cid in state.skills
    if kind == "condition":
        return any(c.id == cid for c in state.conditions)
    if kind == "monster":
        return state.combat is not None and state.combat.monster == cid
    return False


def label(state: State, src: str, index: int) -> str:
    """A short name for ability ``index`` of card ``src``."""
    abilities = abilities_of(state, src)
    name = abilities[index].name if index < len(abilities) else ""
    return name or src.split(":", 1)[1].replace("_", " ")


def statics(state: State, op: str) -> list[Op]:
    """The ops named ``op`` of every static ability in play."""
    return list(static_ops(state, op))


def static_ops(state: State, op: str) -> tuple[Op, ...]:
    """:func:`statics` as a tuple, derived once per set of cards in play (see :class:`InPlay`)."""
    memo = memo_of(state)
    found = memo.statics.get(op)
    if found is None:
        cards = tables(state).statics
        listed: list[Op] = []
        for src in memo.cards:
            ops = cards.get(src)
            if ops is not None:
                listed += ops.get(op, ())
        found = memo.statics[op] = tuple(listed)
    return found


def activates(state: State, trigger: str) -> bool:
    """Whether ``trigger`` activates anything in play (:func:`fire` gives a frame), without building it."""
    memo = memo_of(state)
    found = memo.activated.get(trigger)
    if found is None:
        responses = tables(state).responses
        found = memo.activated[trigger] = any(trigger in responses[src] for src in memo.cards)
    return found
