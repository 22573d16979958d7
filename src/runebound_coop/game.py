"""The Runebound co-op combat game: the ``Game`` that ties state, actions, rules and views together.

Every method delegates: the rulebook's Setup to :mod:`runebound_coop.setup`, play to :mod:`runebound_coop.rules`,
notation to :mod:`runebound_coop.notation`, state checks to :mod:`runebound_coop.invariants`, views to
:mod:`runebound_coop.view`, the bots to :mod:`runebound_coop.bots`.

>>> from runebound_coop import GAME
>>> state = GAME.new_game(seed=3, heroes=("Corbin",), enemies=("Orc Brigand",))
>>> GAME.current_player(state), GAME.describe_step(state)
(0, 'Corbin vs Orc Brigand, round 1, actions')
"""

from __future__ import annotations

import contextlib
import functools
import os
import typing
from typing import Any

import attrs
import numpy as np

from runebound_coop import bots, glossary, invariants, notation, setup, view
from runebound_coop.actions import NUM_ACTIONS, Action, Land, action_id, decode_decision
from runebound_coop.content.loader import BUILTIN, builtin_content, content_of, load_content, pack_option
from runebound_coop.content.schema import Content
from runebound_coop.limits import MAX_ASSETS, MAX_CARDS, MAX_HAND, MAX_ROUNDS
from runebound_coop.rules import flow
from runebound_coop.state import RuneboundOptions, RuneboundState
from tabletop_core.errors import ContentError, IllegalActionError, OptionError, did_you_mean
from tabletop_core.flow import Driven
from tabletop_core.spec import CHANCE, ChanceMode, GameSpec, Information, Utility

__all__ = ["GAME", "RuneboundCoop"]

_ACTION_CLASSES = frozenset(typing.get_args(Action))
_PLAIN = (str, int, bool, type(None))


def _options_key(options: dict[str, Any]) -> tuple[tuple[str, object, object], ...] | None:
    """The memo key of ``make_options(**options)``: each argument's name, its value with the type of every plain
    value in it (``1`` and ``True`` are equal keys, not equal options) and the value itself; ``None`` when an
    argument is not a plain value (a ``pack``, whose objects and paths register content as they are made)."""
    if not options:
        return ()
    if "pack" in options:
        return None
    for value in options.values():
        if not _plain(value):
            return None
    return tuple(sorted(((name, _typed(value), value) for name, value in options.items()), key=_first))


def _first(entry: tuple[str, object, object]) -> str:
    return entry[0]


def _plain(value: object) -> bool:
    if type(value) in _PLAIN:
        return True
    return type(value) is tuple and all(_plain(v) for v in value)


def _typed(value: object) -> object:
    if type(value) is tuple:
        return tuple(_typed(v) for v in value)
    return (type(value).__name__, value)


@functools.lru_cache(maxsize=256)
def _plain_options(game: RuneboundCoop, key: tuple[tuple[str, object, object], ...]) -> RuneboundOptions:
    """The options of plain keyword arguments, made once (a bounded memo of a pure function: options are immutable
    values; a new game of a fight asks for them every time)."""
    return game._make_options({name: value for name, _typed_value, value in key})


#: What each list of names in the options names, one and many, and where the pack holds them.
_NAMED = (("hero", "heroes"), ("enemy", "enemies"), ("asset", "assets"), ("card", "cards"))


def _known_names(options: RuneboundOptions, pack: Content) -> None:
    """Refuse options naming a hero, enemy, asset or card the pack lacks, in one line naming the closest.

    Raises:
        OptionError: an unknown name.
    """
    given = {
        "heroes": options.heroes,
        "enemies": options.enemies,
        "assets": tuple(name for names in options.assets for name in names),
        "cards": tuple(name for names in options.cards or () for name in names),
    }
    for one, many in _NAMED:
        known: dict[str, Any] = getattr(pack, many)
        for name in given[many]:
            if name not in known:
                hint = did_you_mean(name, known)
                raise OptionError(f"runebound_coop: unknown {one} {name!r}{hint} ({many}: {', '.join(sorted(known))})")


class RuneboundCoop(Driven[RuneboundState, Action, RuneboundOptions]):
    """Runebound (3rd ed.) cooperative combat: 1-4 heroes against an encounter, enemies played by their boards."""

    spec = GameSpec(
        short_name="runebound_coop",
        long_name="Runebound: Unbreakable Bonds co-op combat",
        min_num_players=1,
        max_num_players=5,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        # The heroes share one utility; with enemy_choices="player" the enemy player gets its negation.
        utility=Utility.GENERAL_SUM,
        min_utility=-1.0,
        max_utility=1.0,
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=2,
        # 12 fights at most (8 enemies + 4 heroes), 50 rounds each, under 100 steps per round.
        max_game_length=12 * 50 * 100 + 12,
        observation_shape=view.OBSERVATION_SHAPE,
        # Flags, one-hots and shares: damage / health (damage never passes health), hand / MAX_HAND, face value /
        # MAX_FACE_VALUE, round / max_rounds (a fight ends at max_rounds).
        tensor_bounds=(0.0, 1.0),
    )
    state_type = RuneboundState
    action_type = Action
    options_type = RuneboundOptions
    driver = flow.DRIVER

    def spec_for(self, options: RuneboundOptions) -> GameSpec:
        """The spec of a game made with ``options``: an all-hero party shares one return (OpenSpiel's
        ``IDENTICAL``); only with ``enemy_choices="player"`` does the enemy player get the negation (general-sum)."""
        if options.enemy_choices == "player":
            return self.spec
        return attrs.evolve(self.spec, utility=Utility.IDENTICAL)

    def make_options(self, **options: Any) -> RuneboundOptions:
        """Build the options and resolve their names against the content pack; a bad one raises ``OptionError``.

        ``pack`` may be a pack object (``load_content(path)``) or the ``pathlib.Path`` of a pack directory the
        caller chose: it is made available to this process and named ``name@sha256`` in the options. A string is
        a pack's name or reference only, never read as a path.

        Raises:
            ContentError: the pack directory the caller passed cannot be read or is invalid.
            OptionError: any option is bad, or names a pack this process was not given.
        """
        key = _options_key(options)
        if key is None:
            return self._make_options(options)
        return _plain_options(self, key)

    def _make_options(self, options: dict[str, Any]) -> RuneboundOptions:
        pack = options.get("pack")
        if isinstance(pack, os.PathLike):
            options = {**options, "pack": load_content(pack)}
        try:
            if "pack" in options:
                options = {**options, "pack": pack_option(options["pack"])}
        except ContentError as exc:
            raise OptionError(f"{self.spec.short_name}: bad options: {exc}") from exc
        made = super().make_options(**options)
        with contextlib.suppress(ContentError):  # a pack this process was not given: refused just below
            _known_names(made, content_of(made.pack))
        try:
            # The content the rules read, resolved once here (equal options made before share theirs); options
            # naming content the pack lacks keep nothing and are refused (setup.check_options resolves anew).
            _ = made.setup
        except (ValueError, ContentError) as exc:
            fields = [f.name for f in attrs.fields(RuneboundOptions) if f.init]
            reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            raise OptionError(f"{self.spec.short_name}: bad options {options!r}: {reason} (options: {fields})") from exc
        return made

    def option_choices(self) -> dict[str, tuple[Any, ...]]:
        """The values each option allows: the names a hero or enemy may have in the built-in pack (another pack,
        given to ``tabletop compare --pack``, names its own), the enemy's choice modes, the acts, both values of
        ``retreat``, the hand sizes, and the built-in pack."""
        pack = builtin_content()
        return {
            **super().option_choices(),
            "heroes": tuple(sorted(pack.heroes)),
            "enemies": tuple(sorted(pack.enemies)),
            "hand": tuple(range(MAX_HAND + 1)),
            "pack": (BUILTIN,),
        }

    def option_help(self) -> dict[str, tuple[str, Any]]:
        """For ``tabletop options``, the options whose values are no short list of choices: how they are written
        (the names of the built-in pack), and an example value."""
        pack = builtin_content()
        return {
            "assets": (
                f"one JSON list per hero of up to {MAX_ASSETS} of: {', '.join(sorted(pack.assets))}",
                (("Short Bow",),),
            ),
            "cards": (
                f"null, or one JSON list per hero of up to {MAX_CARDS} of: {', '.join(sorted(pack.cards))}",
                (("Twin Blades",), ("Field Dressing",)),
            ),
            "max_rounds": (f"1 to {MAX_ROUNDS}", 20),
        }

    def initial_state(self, options: RuneboundOptions) -> RuneboundState:
        return setup.initial_state(options)

    def num_players(self, state: RuneboundState) -> int:
        """The heroes, plus the enemy player with ``enemy_choices="player"``."""
        return state.options.num_players

    def is_legal(self, state: RuneboundState, action: Action) -> bool:
        # An action class exactly (one set lookup, not an isinstance walk over the union): another object, even
        # one that claims equality with everything, is never legal.
        return type(action) in _ACTION_CLASSES and self.driver.is_legal(state, action)

    def returns(self, state: RuneboundState) -> tuple[float, ...]:
        """Every hero: +1 if every enemy is defeated, -1 if every hero is, else 0; the enemy player the negation."""
        return flow.returns(state, state.options.setup)

    def observe(self, state: RuneboundState, player: int) -> view.RuneboundView:
        """The whole state: combat hides nothing."""
        return view.RuneboundView(player, state)

    def observation_tensor(self, state: RuneboundState, player: int) -> np.ndarray:
        return view.observation_tensor(self.observe(state, player))

    def describe_transition(self, before: RuneboundState, action: Action, after: RuneboundState) -> tuple[str, ...]:
        """Damage dealt or healed and combatants defeated in one step (the enemy's board acts inside steps)."""
        return view.describe_transition(after.options.setup, before, after)

    def seat_name(self, state: RuneboundState, player: int) -> str:
        """The hero's name, ``the enemy`` for the enemy player, ``chance`` for the casts."""
        return view.seat_name(state.options.setup, state, player)

    def describe(
        self, before: RuneboundState, action: Action, after: RuneboundState, player: int | None = None
    ) -> tuple[str, ...]:
        """The transition in words: the action, then what the board and the rules did (the same for every seat:
        combat hides nothing). ``after`` is the state ``action`` leads to; the steps between are replayed."""
        return view.describe(before.options.setup, before, action, view.replay(before, action))

    def describe_step(self, state: RuneboundState) -> str:
        return view.describe_step(state.options.setup, state)

    def render(self, state: RuneboundState, player: int | None = None) -> str:
        return view.render(state, player)

    def action_id(self, action: Action) -> int:
        return action_id(action)

    def action_from_id(self, state: RuneboundState, action_id: int) -> Action:
        if self.current_player(state) == CHANCE:
            if action_id not in (0, 1) or type(action_id) is not int:
                raise IllegalActionError(f"runebound_coop: no cast outcome {action_id!r} (0: face a, 1: face b)")
            return Land(action_id)
        return decode_decision(action_id)

    def action_to_str(self, state: RuneboundState, action: Action) -> str:
        return notation.action_to_str(state.options.setup, state, action)

    def parse_action(self, state: RuneboundState, text: str) -> Action:
        try:
            return notation.parse_action(state.options.setup, state, self.legal_actions(state), text)
        except IllegalActionError:
            raise IllegalActionError(self._illegal_message(state, text, "cannot read")) from None

    def validate_state(self, state: RuneboundState) -> None:
        """Damage within health, hands within the option, a known flow position, pools and casts within the tokens."""
        invariants.validate_state(state.options.setup, state)

    def legend(self, state: RuneboundState, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The symbols the render prints (see :mod:`runebound_coop.glossary`)."""
        return glossary.legend(state, player)

    def step_rules(self, state: RuneboundState) -> str:
        """The rule of the current step (see :mod:`runebound_coop.glossary`)."""
        return glossary.step_rules(state)

    def card_texts(self, state: RuneboundState, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The text of every card in view (see :mod:`runebound_coop.glossary`)."""
        return glossary.card_texts(state, player)

    def end_reason(self, state: RuneboundState) -> str:
        """Why the game ended (see :mod:`runebound_coop.glossary`)."""
        return glossary.end_reason(state)

    def headline(self, state: RuneboundState) -> str:
        """Where the game stands, for logs (see :mod:`runebound_coop.glossary`)."""
        return glossary.headline(state)

    def default_agents(self, state: RuneboundState) -> list[Any]:
        """A heuristic hero per hero (see :mod:`runebound_coop.bots`)."""
        return bots.default_agents(self, state)

    def exact_regret(self, state: RuneboundState) -> typing.Callable[[RuneboundState, Action], float]:
        """The exact regret of a hero's decision in the solo fight that starts at ``state``: the chance to win an
        action gives up against the best one (:meth:`runebound_coop.exact.Solver.regret`; the fight is solved
        once, when this is called). What ``tabletop tune`` minimizes against ``exact``.

        Raises:
            ValueError: a fight of several heroes or enemies, or one whose enemy decides by a player.
        """
        from runebound_coop.exact import Solver

        return Solver(self, state).regret


GAME = RuneboundCoop()
