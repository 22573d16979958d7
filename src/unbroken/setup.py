"""The rulebook's Setup: the options bound to their pack, then the starting Display.

"Place your Bare Hands Weapon Sheet face-up", "Shuffle Encounter Deck", "Shuffle the Skill Deck", "Select a
Character Sheet"; the difficulty sets the starting Small Effort (Easy and Normal 13, Hard 10; "For an easier game,
begin with 15 Small Effort") and, on Easy, "roll the 6-sided Slashes Die once during Setup to determine an extra
starting resource" and "begin the game with a Skill Card — draw 2 and keep 1".
"""

from __future__ import annotations

import attrs

from tabletop_core.components import Pile
from tabletop_core.errors import OptionError
from tabletop_core.flow import Automatic
from unbroken.content.loader import DEFAULT, PACKS, get_pack
from unbroken.rules.chance import DieRoll
from unbroken.rules.resources import gain
from unbroken.rules.skills import gain_skill
from unbroken.rules.triggers import Fire
from unbroken.state import CUNNING, FLOW, FOOD, FRAMES, ME, METAL, TREASURE, WOOD, Options, Resource, State, new_tracks

__all__ = [
    "EASY_RESOURCE",
    "EASY_SE15",
    "STARTING_SE",
    "STARTING_USES",
    "EasyRoll",
    "SetupStep",
    "bind_pack",
    "starting_display",
]

#: Starting Small Effort by difficulty.
STARTING_SE = {"easy": 13, "normal": 13, "hard": 10}
#: Easy's "easier game": begin with 15 Small Effort.
EASY_SE15 = 15
#: Level 1's Ability Uses ("a number of times equal to the current Level").
STARTING_USES = 1
#: Easy: "roll ... to determine an extra starting resource: Metal (1), Wood (2), Food (3), Cunning (4), Medium
#: Effort (5), or Treasure (6)".
EASY_RESOURCE: tuple[Resource, ...] = (METAL, WOOD, FOOD, CUNNING, ME, TREASURE)
#: Easy: the starting Skill is drawn from 2 cards.
EASY_SKILL_DRAW = 2


def bind_pack(options: Options) -> Options:
    """``options`` with their custom pack's SHA-256 filled in (the pack last given under that name), once the pack
    is known to :data:`~unbroken.content.loader.PACKS` and its character to be in it. Nothing is read.

    Raises:
        ContentError: no pack of that name (and SHA-256, when given) was given to this process.
        OptionError: the pack has no character with the id given.
    """
    if options.pack != DEFAULT and not options.pack_sha256:
        options = attrs.evolve(options, pack_sha256=PACKS.named(options.pack).sha256)
    check_character(options, options.pack_sha256)
    return options


def check_character(options: Options, digest: str) -> None:
    """Refuse options whose character is not in their pack."""
    ids = [c.id for c in get_pack(options.pack, digest).characters]
    if options.character not in ids:
        raise OptionError(f"unbroken: unknown character {options.character!r} (known: {ids})")


def starting_se(options: Options) -> int:
    """The Small Effort the difficulty starts with."""
    if options.difficulty == "easy" and options.easy_se15:
        return EASY_SE15
    return STARTING_SE[options.difficulty]


def starting_display(options: Options) -> State:
    """The Display before the rules run: Bare Hands, shuffled decks, Ability Uses, Small Effort by difficulty;
    on Easy, the extra resource roll and the starting Skill draw wait on the stack."""
    check_character(options, options.pack_sha256)
    pack = get_pack(options.pack, options.pack_sha256)
    state = State(
        options=options,
        pos=FLOW.start(),
        res=new_tracks(starting_se(options)),
        uses=STARTING_USES,
        encounters=Pile.of(pack.encounter_deck()),
        skill_deck=Pile.of(range(len(pack.skills))),
    )
    if options.difficulty == "easy":
        state = gain_skill(state, EASY_SKILL_DRAW).push(EasyRoll())
    return state


@FRAMES.register("unbroken.easy_roll", slot=8)
@attrs.frozen
class EasyRoll(DieRoll):
    """Chance frame: Easy's extra starting resource, by the die (:data:`EASY_RESOURCE`)."""

    def face_up(self, state: State, face: int) -> State:
        """Gain the resource of the face."""
        return gain(state, EASY_RESOURCE[face - 1], 1)


@FRAMES.register("unbroken.setup_step", pending=False)
@attrs.frozen
class SetupStep(Automatic[State]):
    """Step frame of the Setup: once it is done, Level 1 begins (its ``level_start`` trigger first)."""

    def resolve(self, state: State) -> State:
        """Begin the Travel Phase of Level 1."""
        return state.at("travel", "preparation", 1).push(Fire("level_start"))
