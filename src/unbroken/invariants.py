"""What a valid Unbroken state is: checked when a state is loaded and at every state of the conformance run.

A state that passes :func:`validate_state` is one every protocol function and every playout from it can run on:
its numbers lie in their tracks and ranges, its flow position, combat and pending frames fit together (a combat
frame only in a battle, a travel frame only in the Travel Phase), every card it names is in its pack, every
effect a frame still holds is one the pack or the rules could have put there, and the encounter and skill cards
are conserved. Counts and indices are checked against the pack before any pile is expanded, so a hostile count
costs nothing. Each message names the offending value.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from tabletop_core.components import Pile
from tabletop_core.errors import StateFormatError, TabletopError
from unbroken.actions import NUM_ACTIONS, PICK_IDS, RESPOND_IDS
from unbroken.content.loader import Pack, get_pack
from unbroken.content.schema import RESOURCES, TRIGGERS, Op
from unbroken.limits import MAX_FRAMES, MAX_PICKS, MAX_REROLLS, MAX_TRACKER
from unbroken.rules.combat import (
    AmbushStep,
    AttackLands,
    BattleStep,
    CombatRoll,
    EndOfCombat,
    ExtraAttack,
    HungerStep,
    MonsterAct,
    MonsterTurn,
    PlayerTurn,
    RewardsStep,
    ToHunger,
    TrickeryStep,
    TurnStart,
)
from unbroken.rules.effects import Choose, EffectRoll, Exec
from unbroken.rules.payment import Decide, PayChoice
from unbroken.rules.skills import DrawSkills, SkillKeep
from unbroken.rules.travel import (
    DrawEncounters,
    ExploreCommitted,
    ExploreEnd,
    ExploreMode,
    ExplorePick,
    Onward,
    Preparation,
)
from unbroken.rules.triggers import Cand, Fire, Trig
from unbroken.rules.verbs import MonsterReveal
from unbroken.setup import EasyRoll, SetupStep
from unbroken.state import CAPS, FLOW, FRAMES, LAST_LEVEL, N_RESOURCES, SE, TIME, State

__all__ = ["validate_state"]

_OUTCOMES = (-1, 0, 1)
_LEVELS = range(1, LAST_LEVEL + 1)
_EFFORT = ("se", "me", "le")
#: Frames of the Travel Phase, of a battle (a combat begun), of setup.
_TRAVEL = (DrawEncounters, ExplorePick, ExploreMode, ExploreCommitted, ExploreEnd, Preparation, Onward)
_BATTLE = (TurnStart, PlayerTurn, ExtraAttack, MonsterTurn, MonsterAct, CombatRoll, AttackLands)
_SETUP = (EasyRoll, SetupStep)
_COMBAT_STEPS = ("ambush", "trickery", "battle", "rewards", "hunger")


def validate_state(state: State) -> None:
    """Refuse a (deserialized) state that breaks an invariant or names cards its pack lacks.

    Raises:
        ContentError: the game's pack (name and SHA-256) is not one this process was given.
        StateFormatError: (a ``ValueError``) naming the first broken invariant and the value that breaks it.
    """
    _check_pack_file(state)
    try:
        pack = state.pack
        _check_position(state)
        _check_numbers(state)
        _check_cards(state, pack)
        _check_combat(state, pack)
        _check_frames(state, pack)
        if state.outcome == 0:  # a death mid-exploration ends the game with the card in no place
            _check_conservation(state, pack)
    except TabletopError:
        raise
    except ValueError as exc:
        raise StateFormatError(f"unbroken: invalid state at {_where(state)}: {exc}") from exc


def _where(state: State) -> str:
    """Where the state stands, for messages (read without trusting it)."""
    pos = state.pos
    return f"Level {pos.round} {pos.phase}/{pos.step}"


def _check_pack_file(state: State) -> None:
    """A saved game plays only the pack it names by name and SHA-256 (one given to this process; no file is read)."""
    get_pack(state.options.pack, state.options.pack_sha256)


def _check_position(state: State) -> None:
    pos = state.pos
    FLOW.at(pos.phase, pos.step, pos.round)
    if pos.round not in _LEVELS:
        raise ValueError(f"Level {pos.round} is not 1..{LAST_LEVEL}")
    if pos.phase == "setup" and pos.round != 1:
        raise ValueError(f"setup happens in Level 1, not {pos.round}")
    if state.outcome not in _OUTCOMES:
        raise ValueError(f"outcome {state.outcome} is not one of {_OUTCOMES}")
    if state.outcome == 1 and (pos.round != LAST_LEVEL or pos.step != "hunger" or state.combat is not None):
        raise ValueError("a won game ends after the Hunger step of the last Level's Combat Phase")


def _check_numbers(state: State) -> None:
    if len(state.res) != N_RESOURCES:
        raise ValueError(f"{len(state.res)} resource tracks, expected {N_RESOURCES}")
    for track, name, cap in zip(state.res, RESOURCES, CAPS, strict=True):
        if (track.name, track.low, track.high) != (name, 0, cap):
            raise ValueError(f"track {track.name!r} [{track.low}, {track.high}] is not the track {name!r} [0, {cap}]")
    if state.amount(SE) < 0:
        raise ValueError(f"Small Effort {state.amount(SE)} is negative")
    if not 0 <= state.uses <= LAST_LEVEL:
        raise ValueError(f"Ability Uses {state.uses} is not 0..{LAST_LEVEL}")
    # "In each Level, you can use your Character's Abilities a number of times equal to the current Level": the
    # uses are recharged to the next Level's number as that Level begins, so no Level holds more than its own.
    if state.uses > state.level:
        raise ValueError(f"Ability Uses {state.uses} on Level {state.level} (a Level gives at most its number)")
    if not 0 <= state.reveal_bonus <= MAX_TRACKER:
        raise ValueError(f"reveal bonus {state.reveal_bonus} is not 0..{MAX_TRACKER}")


def _check_pile(pile: Pile[int], n: int, deck: int, what: str) -> None:
    """Every card of ``pile`` is an index below ``n`` and no count exceeds the ``deck`` size (before expanding)."""
    for card, count in pile.counts:
        if type(card) is not int or not 0 <= card < n or count > deck:
            raise ValueError(f"{what} pile: {count} copies of card {card!r} (the pack's deck has {deck} cards)")
    if len(pile.discards) > deck:
        raise ValueError(f"{what} discards: {len(pile.discards)} cards, more than the pack's {deck}")


def _check_indices(cards: Iterable[int], n: int, what: str) -> None:
    for i in cards:
        if not 0 <= i < n:
            raise ValueError(f"{what} index {i} outside the pack's {n} {what}s")


def _check_weapon_stack(state: State, pack: Pack) -> None:
    """The weapon stack is a path of the upgrade tree ("lay the new Weapon Sheet on top of the old sheet"), and no
    weapon has two sheets in play or set aside ("You can never ... have 2 Weapons at the same time")."""
    if not state.weapons or state.weapons[0] != "bare_hands":
        raise ValueError(f"weapons {state.weapons} do not start with Bare Hands")
    for below, above in zip(state.weapons, state.weapons[1:], strict=False):
        if all(u.to != above for u in pack.weapon(below).upgrades):
            raise ValueError(f"weapon stack {state.weapons}: {above!r} is not an upgrade of {below!r}")
    sheets = state.weapons + state.aside
    for w in sheets:
        if sheets.count(w) > 1:
            raise ValueError(f"weapon {w!r} has {sheets.count(w)} sheets (stack {state.weapons}, aside {state.aside})")


def _check_cards(state: State, pack: Pack) -> None:
    if state.options.character not in {c.id for c in pack.characters}:
        raise ValueError(f"unknown character {state.options.character!r}")
    weapons = {w.id for w in pack.weapons}
    if len(state.weapons) + len(state.aside) > len(weapons):
        raise ValueError(f"{len(state.weapons) + len(state.aside)} weapon sheets, the pack has {len(weapons)}")
    for w in state.weapons + state.aside:
        if w not in weapons:
            raise ValueError(f"unknown weapon {w!r}")
    _check_weapon_stack(state, pack)
    skills = {x.id for x in pack.skills}
    for sk in state.skills:
        if sk not in skills:
            raise ValueError(f"unknown skill {sk!r}")
    conditions = {c.id for c in pack.conditions}
    for cond in (state.conditions, state.next_conditions):
        ids = [c.id for c in cond]
        if len(set(ids)) != len(ids):
            raise ValueError(f"conditions {ids} name one condition twice")
        for c in cond:
            if c.id not in conditions:
                raise ValueError(f"unknown condition {c.id!r}")
            if not 0 <= c.tokens <= MAX_TRACKER:
                raise ValueError(f"condition {c.id!r} has {c.tokens} tokens")
    if state.monster and state.monster not in {m.id for m in pack.monsters}:
        raise ValueError(f"unknown monster {state.monster!r}")
    n_enc, n_skills = len(pack.encounter_deck()), len(pack.skills)
    _check_pile(state.encounters, len(pack.encounters), n_enc, "encounter")
    _check_pile(state.skill_deck, n_skills, n_skills, "skill")
    if len(state.revealed) > min(n_enc, MAX_PICKS) or len(state.offered) > min(n_skills, PICK_IDS):
        raise ValueError(f"{len(state.revealed)} revealed encounters, {len(state.offered)} offered skills: too many")
    _check_indices(state.revealed, len(pack.encounters), "encounter")
    _check_indices(state.offered, n_skills, "skill")


def _check_combat(state: State, pack: Pack) -> None:
    """The Monster Tracker exists exactly from the monster's reveal in the Combat Phase to the end of combat."""
    pos, c = state.pos, state.combat
    if state.monster and pos.phase == "setup":
        raise ValueError(f"a monster {state.monster!r} is revealed during setup")
    if c is None:
        if pos.phase == "combat" and pos.step in ("battle", "rewards") and state.outcome == 0:
            raise ValueError(f"the {pos.step} step needs the Monster Tracker set")
        if pos.step == "hunger" and state.outcome == 0:
            raise ValueError("the hunger step needs the Monster Tracker set")
        return
    if c.monster not in {m.id for m in pack.monsters}:
        raise ValueError(f"unknown monster {c.monster!r} on the Monster Tracker")
    if c.monster != state.monster:
        raise ValueError(f"the Monster Tracker's monster {c.monster!r} is not the revealed monster {state.monster!r}")
    if pos.phase != "combat" or pos.step == "ambush":
        raise ValueError(f"a Monster Tracker outside the Combat Phase's battle (at {pos.phase}/{pos.step})")
    if not (0 <= c.armor <= c.max_armor <= MAX_TRACKER and 0 <= c.health <= c.max_health <= MAX_TRACKER):
        raise ValueError(f"Monster Tracker armor {c.armor}/{c.max_armor}, health {c.health}/{c.max_health}")
    if not 0 <= c.roll <= 6 or not 0 <= c.rerolls <= MAX_REROLLS or not -MAX_TRACKER <= c.power <= MAX_TRACKER:
        raise ValueError(f"Monster Tracker roll {c.roll}, rerolls {c.rerolls}, power {c.power} out of range")
    if len(c.stolen) != N_RESOURCES or any(not 0 <= n <= MAX_TRACKER for n in c.stolen):
        raise ValueError(f"stolen resources {c.stolen}: one count in 0..{MAX_TRACKER} per resource")
    if pos.step == "trickery" and c.started:
        raise ValueError("a battle begun while still at the trickery step")
    # "If this is the final (Level 4) monster, remove the token from the Time Tracker": from the trackers' setting
    # on, a Level 4 Combat Phase holds no Time (Time it would lose costs Small Effort instead).
    if state.level == LAST_LEVEL and state.amount(TIME) != 0:
        raise ValueError(f"Time {state.amount(TIME)} on the Time Tracker in the Level {LAST_LEVEL} Combat Phase")


@functools.lru_cache(maxsize=8)
def _known_ops(pack: Pack) -> frozenset[Op]:
    """Every op the pack holds (nested ones too), and the roll ops with their ``instead`` tag removed."""
    found: set[Op] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Op):
            if value in found:
                return
            found.add(value)
            if value.op == "roll" and value.id:
                found.add(attrs.evolve(value, id=""))
            for sub in (*value.then, *value.alt, *(o for branch in value.options for o in branch)):
                walk(sub)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)
        elif attrs.has(type(value)):
            for f in attrs.fields(type(value)):
                walk(getattr(value, f.name))

    walk(pack)
    return frozenset(found)


def _check_op(state: State, pack: Pack, op: Op) -> None:
    """An op a frame holds is the pack's, or one the rules make: a split Effort loss, a cure or a weapon choice."""
    if op in _known_ops(pack):
        return
    if op == Op("lose", res=op.res, n=op.n) and op.res in _EFFORT and 0 < op.n <= MAX_TRACKER:
        return
    if op == Op("cure", id=op.id) and op.id in {c.id for c in pack.conditions}:
        return
    if op == Op("weapon_up", id=op.id) and op.id in {w.id for w in pack.weapons}:
        return
    raise ValueError(f"effect {op!r} is neither in the pack nor one the rules make")


def _check_ops(state: State, pack: Pack, ops: Iterable[Op]) -> None:
    for op in ops:
        _check_op(state, pack, op)


def _check_src(state: State, pack: Pack, src: str) -> None:
    """A frame's source names a card of the pack (``kind:id``), the hunger, or nothing."""
    if src in ("", "hunger:"):
        return
    kind, sep, cid = src.partition(":")
    ids: dict[str, Callable[[], Iterable[str]]] = {
        "character": lambda: (c.id for c in pack.characters),
        "skill": lambda: (x.id for x in pack.skills),
        "condition": lambda: (c.id for c in pack.conditions),
        "monster": lambda: (m.id for m in pack.monsters),
        "weapon": lambda: (w.id for w in pack.weapons),
        "encounter": lambda: (e.id for e in pack.encounters),
    }
    if not sep or kind not in ids or cid not in set(ids[kind]()):
        raise ValueError(f"source {src!r} names no card of the pack")


def _check_cand(state: State, pack: Pack, cand: Cand, trigger: str) -> None:
    _check_src(state, pack, cand.src)
    kind, _, cid = cand.src.partition(":")
    cards: dict[str, Any] = {
        "character": pack.characters,
        "skill": pack.skills,
        "condition": pack.conditions,
        "monster": pack.monsters,
    }
    if kind not in cards:
        raise ValueError(f"trigger candidate {cand.src!r} is not a character, skill, condition or monster")
    card = next(x for x in cards[kind] if x.id == cid)
    if not 0 <= cand.index < len(card.abilities) or card.abilities[cand.index].trigger != trigger:
        raise ValueError(f"trigger candidate {cand.src!r} has no ability {cand.index} triggered by {trigger!r}")


def _check_frame(state: State, pack: Pack, frame: object) -> None:
    pos, c = state.pos, state.combat
    n_enc = len(pack.encounters)
    if isinstance(frame, _TRAVEL) and pos.phase != "travel":
        raise ValueError(f"travel frame {frame!r} outside the Travel Phase")
    if isinstance(frame, _BATTLE) and (c is None or pos.step != "battle"):
        raise ValueError(f"battle frame {frame!r} outside a battle")
    if isinstance(frame, _SETUP) and pos.phase != "setup":
        raise ValueError(f"setup frame {frame!r} outside setup")
    battle = ExtraAttack | TurnStart | PlayerTurn | MonsterTurn | MonsterAct
    if isinstance(frame, battle) and c is not None and not c.started:
        raise ValueError(f"battle frame {frame!r} before the battle began")
    if isinstance(frame, ToHunger | RewardsStep) and pos.step != "rewards":
        raise ValueError(f"frame {frame!r} outside the rewards step")
    if isinstance(frame, HungerStep | EndOfCombat) and pos.step != "hunger":
        raise ValueError(f"frame {frame!r} outside the hunger step")
    if isinstance(frame, AmbushStep) and pos.step != "ambush":
        raise ValueError(f"frame {frame!r} outside the ambush step")
    if isinstance(frame, TrickeryStep | BattleStep) and pos.phase != "combat":
        raise ValueError(f"frame {frame!r} outside the Combat Phase")
    if isinstance(frame, MonsterReveal) and state.monster:
        raise ValueError(f"a monster reveal when the monster {state.monster!r} is already revealed")
    # A pick names one of the revealed cards (at most the whole deck), so no draw may reveal more.
    if isinstance(frame, DrawEncounters):
        n_deck = min(sum(e.count for e in pack.encounters), MAX_PICKS)
        if not 1 <= frame.n <= n_deck - len(state.revealed):
            raise ValueError(f"{frame!r}: {len(state.revealed)} revealed, at most {n_deck} encounters to pick from")
    if isinstance(frame, DrawSkills) and not 1 <= frame.n <= min(len(pack.skills), PICK_IDS - len(state.offered)):
        raise ValueError(f"{frame!r}: {len(state.offered)} offered, at most {PICK_IDS} skills to pick from")
    if isinstance(frame, ExploreMode | ExploreCommitted | ExploreEnd) and not 0 <= frame.card < n_enc:
        raise ValueError(f"{frame!r}: encounter index outside the pack's {n_enc} encounters")
    if isinstance(frame, PayChoice) and not 0 <= frame.action < NUM_ACTIONS:
        raise ValueError(f"{frame!r}: no action with that id")
    if isinstance(frame, Exec):
        if not frame.ops:
            raise ValueError("an effect frame with no effect left")
        _check_ops(state, pack, frame.ops)
        _check_src(state, pack, frame.src)
    if isinstance(frame, EffectRoll):
        if not 1 <= frame.n <= 6:
            raise ValueError(f"{frame!r}: a roll threshold must be 1..6")
        _check_ops(state, pack, (*frame.then, *frame.alt))
        _check_src(state, pack, frame.src)
    if isinstance(frame, Choose):
        if not 2 <= len(frame.branches) <= PICK_IDS or len(frame.labels) != len(frame.branches):
            raise ValueError(f"a choice of {len(frame.branches)} branches with {len(frame.labels)} labels")
        for branch in frame.branches:
            _check_ops(state, pack, branch)
        _check_src(state, pack, frame.src)
    if isinstance(frame, Fire | Trig) and frame.trigger not in TRIGGERS:
        raise ValueError(f"unknown trigger {frame.trigger!r}")
    if isinstance(frame, Trig):
        if len(frame.cands) > RESPOND_IDS:
            raise ValueError(f"{len(frame.cands)} trigger candidates (at most {RESPOND_IDS})")
        if frame.stage not in (0, 1):
            raise ValueError(f"{frame!r}: a trigger frame is at stage 0 (Responses) or 1 (Passives)")
        for cand in frame.cands:
            _check_cand(state, pack, cand, frame.trigger)


def _check_frames(state: State, pack: Pack) -> None:
    frames = state.pending.frames
    if len(frames) > MAX_FRAMES:
        raise ValueError(f"{len(frames)} pending frames (at most {MAX_FRAMES})")
    FRAMES.check_stack(frames)  # every frame of a kind the game registers as one that may be pending
    for i, frame in enumerate(frames):
        _check_frame(state, pack, frame)
        if isinstance(frame, PayChoice) and not (i and isinstance(frames[i - 1], Decide)):
            raise ValueError(f"{frame!r} is not on the decision it pays for")
    explored = [f for f in frames if isinstance(f, ExplorePick | ExploreMode | ExploreCommitted | ExploreEnd)]
    if len(explored) > 1:
        raise ValueError(f"{len(explored)} encounters explored at once")
    if state.revealed and not any(isinstance(f, ExplorePick | DrawEncounters) for f in frames):
        raise ValueError(f"revealed encounters {state.revealed} with no exploration to choose among them")
    if state.offered and not any(isinstance(f, SkillKeep | DrawSkills) for f in frames):
        raise ValueError(f"offered skills {state.offered} with no skill draw to keep one of them")


def _check_conservation(state: State, pack: Pack) -> None:
    """Every encounter card (``count`` copies each) and every skill is in exactly one place (the piles' counts
    summed as they are, never expanded into a copy per card)."""
    frames = (f.card for f in state.pending.frames if isinstance(f, ExploreMode | ExploreCommitted | ExploreEnd))
    enc = _tally(len(pack.encounters), state.encounters, state.revealed, frames)
    want = [e.count for e in pack.encounters]
    if enc != want:
        found = Counter(state.encounters.cards()) + Counter(state.encounters.discards) + Counter(state.revealed)
        raise ValueError(f"encounter cards are not conserved: {dict(found)} != {dict(enumerate(want))}")
    index = {x.id: i for i, x in enumerate(pack.skills)}
    held = [index[s] for s in state.skills]
    if _tally(len(pack.skills), state.skill_deck, state.offered, held) != [1] * len(pack.skills):
        raise ValueError(f"skills are not conserved: each of the {len(pack.skills)} skills in one place")


def _tally(n: int, pile: Pile[int], *loose: Iterable[int]) -> list[int] | None:
    """Copies of each card ``0..n-1`` in ``pile`` (draw and discards) and the ``loose`` cards; ``None`` when one is
    not such a card."""
    counts = [0] * n
    for card, copies in pile.counts:
        if type(card) is not int or not 0 <= card < n:
            return None
        counts[card] += copies
    for cards in (pile.discards, *loose):
        for card in cards:
            if type(card) is not int or not 0 <= card < n:
                return None
            counts[card] += 1
    return counts
