"""The ``Game`` object that ties Unbroken's rules to the core protocol: a page of delegations.

The rules live in :mod:`unbroken.rules`, the Setup in :mod:`unbroken.setup`, the notation in
:mod:`unbroken.notation`, the invariants in :mod:`unbroken.invariants` and the views in :mod:`unbroken.view`.

>>> from unbroken import GAME
>>> state = GAME.new_game(seed=3)
>>> GAME.current_player(state), state.pos.step
(0, 'preparation')
>>> GAME.action_to_str(state, GAME.legal_actions(state)[0])
'fight'
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from tabletop_core.errors import ContentError, IllegalActionError, OptionError, did_you_mean
from tabletop_core.flow import Driven
from tabletop_core.records import Step
from tabletop_core.spec import CHANCE, ChanceMode, GameSpec, Information, Utility
from unbroken import glossary, invariants, notation, setup
from unbroken.actions import (
    CARD_OUTCOMES,
    DIE_OUTCOMES,
    NUM_ACTIONS,
    Action,
    action_id,
    decision_from_id,
)
from unbroken.bots import HeuristicAgent
from unbroken.content.loader import DEFAULT, PACKS, Pack, load_pack
from unbroken.limits import MAX_CHANCE
from unbroken.rules.chance import CardDraw, DieRoll
from unbroken.rules.flow import DRIVER
from unbroken.rules.scoring import BEST_SCORE, score
from unbroken.state import Options, State
from unbroken.view import OBS_SHAPE, TENSOR_HIGH, TENSOR_LOW, View, describe, observation, observe, render

__all__ = ["GAME", "LOSS", "MAX_SCORE", "Unbroken"]

#: The return of a lost game: below every win (a win returns its score, 0 or more).
LOSS = -1.0
#: The best possible return (every scoring track full).
MAX_SCORE = float(BEST_SCORE)


class Unbroken(Driven[State, Action, Options]):
    """The rules of Unbroken (solo): returns are the score on a win, -1 on a loss."""

    spec = GameSpec(
        short_name="unbroken",
        long_name="Unbroken",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=LOSS,
        max_utility=MAX_SCORE,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=MAX_CHANCE,
        max_game_length=5000,
        observation_shape=OBS_SHAPE,
        tensor_bounds=(TENSOR_LOW, TENSOR_HIGH),
        zero_is_tie=False,  # a loss scores -1 and a win its points: a win of no points ("Prey") is a win
    )
    state_type = State
    action_type = Action
    options_type = Options
    driver = DRIVER

    def make_options(self, **options: Any) -> Options:
        """Build the options and bind them to their pack (its SHA-256 filled in, the character checked).

        ``pack`` may be a pack object (``unbroken.load_pack(path)``) or the ``pathlib.Path`` of a pack file the
        caller chose: it is made available to this process and named in the options by name and SHA-256. A
        string is a pack's name only, never read as a path.

        Raises:
            ContentError: the pack file the caller passed cannot be read or is invalid.
            OptionError: any option is bad, or names a pack this process was not given.
        """
        if not options:  # the defaults: one value, made once (every ``new_game()`` asks for them)
            return _default_options(self)
        return self._make_options(options)

    def _make_options(self, options: dict[str, Any]) -> Options:
        """:meth:`make_options` of the keyword arguments ``options``."""
        pack = options.get("pack")
        if isinstance(pack, os.PathLike):
            pack = load_pack(pack)
        try:
            if isinstance(pack, Pack):
                ref = PACKS.add(pack)
                options = {**options, "pack": ref.name, "pack_sha256": ref.sha256}
            made = super().make_options(**options)
            _known_character(made)
            return setup.bind_pack(made)
        except ContentError as exc:
            raise OptionError(f"unbroken: bad options {options!r}: {exc}") from exc

    def option_choices(self) -> dict[str, tuple[Any, ...]]:
        """The values each option allows: the difficulties, the characters of the built-in pack (another pack,
        given to ``tabletop compare --pack``, names its own), either value of ``easy_se15``, the built-in pack's
        name and an empty ``pack_sha256`` (the game fills it in)."""
        return {
            **super().option_choices(),
            "character": tuple(c.id for c in PACKS.builtin().characters),
            "pack": (DEFAULT,),
            "pack_sha256": ("",),
        }

    def initial_state(self, options: Options) -> State:
        """Setup (see :mod:`unbroken.setup`), then the rules run to the first decision or chance node.

        A pure function of the options (the decks are multisets: the shuffle is the draws' chance), so equal
        options share one starting state (states are immutable values).
        """
        return _initial_state(options)

    def parse_action(self, state: State, text: str) -> Action:
        """Read an action as :meth:`action_to_str` writes it (see :mod:`unbroken.notation`)."""
        found = notation.parse_action(state, text)
        if found is None:
            raise IllegalActionError(self._illegal_message(state, text, "cannot read"))
        return found

    def action_to_str(self, state: State, action: Action) -> str:
        """A short readable form: ``explore``, ``attack cleave``, ``pick 1 Lichen Wall``, ``roll 6``."""
        return notation.action_to_str(state, action)

    def returns(self, state: State) -> tuple[float, ...]:
        """The score on a win, ``LOSS`` (-1) on a loss, 0.0 while the game is running."""
        if state.outcome > 0:
            return (float(score(state)),)
        return (LOSS,) if state.outcome < 0 else (0.0,)

    def observe(self, state: State, player: int) -> View:
        """The player's view: the whole state (nothing is hidden but future chance)."""
        return observe(state, player)

    def action_id(self, action: Action) -> int:
        """The stable id of ``action`` (see :mod:`unbroken.actions`)."""
        return action_id(action)

    def action_from_id(self, state: State, action_id: int) -> Action:
        """Decode ``action_id`` as a chance outcome at chance nodes, else as a decision."""
        try:
            frame = DRIVER.frame(state)
            if isinstance(frame, DieRoll):
                return DIE_OUTCOMES.from_id(action_id)
            if isinstance(frame, CardDraw):
                return CARD_OUTCOMES.from_id(action_id)
            return decision_from_id(action_id)
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(
                f"unbroken: no action with id {action_id!r} at {self.describe_step(state)}"
            ) from exc

    def observation_tensor(self, state: State, player: int) -> np.ndarray:
        """The float32 tensor of ``observe(state, player)``."""
        return observation(self.observe(state, player))

    def render(self, state: State, player: int | None = None) -> str:
        """A text picture of the Display."""
        return render(state)

    def describe(self, before: State, action: Action, after: State, player: int | None = None) -> tuple[str, ...]:
        """What the transition did, in words (solo, perfect information: see :func:`unbroken.view.describe`)."""
        return describe(before, action, after, player)

    def seat_name(self, state: State, player: int) -> str:
        """``you`` (the one player), or ``chance``."""
        return "chance" if player == CHANCE else "you"

    def describe_step(self, state: State) -> str:
        """The Level, phase/step and the pending frame, for messages."""
        top = state.pending.top
        frame = "" if top is None else f", pending {top!r}"
        return f"Level {state.level} {state.pos.phase}/{state.pos.step}{frame}"

    def validate_state(self, state: State) -> None:
        """Refuse a (deserialized) state that breaks an invariant (see :mod:`unbroken.invariants`)."""
        invariants.validate_state(state)

    def legend(self, state: State, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The symbols the render prints (see :mod:`unbroken.glossary`)."""
        return glossary.legend(state, player)

    def step_rules(self, state: State) -> str:
        """The rule of the current step (see :mod:`unbroken.glossary`)."""
        return glossary.step_rules(state)

    def card_texts(self, state: State, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The text of every card in view (see :mod:`unbroken.glossary`)."""
        return glossary.card_texts(state, player)

    def end_reason(self, state: State) -> str:
        """Why the game ended (see :mod:`unbroken.glossary`)."""
        return glossary.end_reason(state)

    def headline(self, state: State) -> str:
        """Where the game stands, for logs (see :mod:`unbroken.glossary`)."""
        return glossary.headline(state)

    def default_agents(self, state: State) -> list[Any]:
        """The heuristic bot."""
        return [HeuristicAgent()]

    def content_texts(self) -> dict[str, str]:
        """The default pack's TOML files by name (what ``tabletop tune`` changes; see :mod:`unbroken.content`)."""
        from tabletop_core.content import package_file, read_text
        from unbroken.content.loader import DATA_FILES

        return {f: read_text(package_file("unbroken.content", f"data/{f}")) for f in DATA_FILES}

    def tally(self, steps: Sequence[Step[State, Any]], final: State) -> dict[str, tuple[float, float]]:
        """The game's measures for comparisons and tuning (see :mod:`unbroken.measures`)."""
        from unbroken.measures import tally

        return tally(steps, final)


def _known_character(options: Options) -> None:
    """Refuse options whose character is not in their pack, in one line naming the closest character.

    Raises:
        ContentError: the options name a pack this process was not given.
        OptionError: the character is not in the pack.
    """
    digest = options.pack_sha256
    if options.pack != DEFAULT and not digest:
        digest = PACKS.named(options.pack).sha256
    ids = [c.id for c in PACKS.get(options.pack, digest).characters]
    if options.character not in ids:
        hint = did_you_mean(options.character, ids)
        raise OptionError(f"unbroken: unknown character {options.character!r}{hint} (characters: {', '.join(ids)})")


@functools.lru_cache(maxsize=1)
def _default_options(game: Unbroken) -> Options:
    """The default options, bound to the default pack (a pure function: the default pack is built in)."""
    return game._make_options({})


@functools.lru_cache(maxsize=64)
def _initial_state(options: Options) -> State:
    """The starting state of ``options`` (bounded memo: a random playout starts a new game every 20 steps or so,
    and building the Display and running the Setup was about a tenth of its time)."""
    return DRIVER.run(setup.starting_display(options))


GAME = Unbroken()
