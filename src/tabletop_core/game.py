"""The game protocol: one ``Game`` object per title, immutable states, explicit chance.

A game subclasses :class:`Game` and implements the rules (the abstract methods). The base class owns the public
:meth:`Game.step` (terminal and legality checks, then the game's private :meth:`Game._apply`), option handling,
the action mask and string parsing, so every game behaves the same at its edges. Search code that has already
validated its actions may call :meth:`Game.apply_unchecked`, which skips the checks.
"""

from __future__ import annotations

import abc
import functools
import math
from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeGuard, TypeVar

import attrs
import numpy as np

from tabletop_core.actions import action_text
from tabletop_core.agent import Agent, RandomAgent, SearchAgent
from tabletop_core.chance import settle
from tabletop_core.errors import IllegalActionError, OptionError, did_you_mean
from tabletop_core.spec import CHANCE, TERMINAL, GameSpec, Information

__all__ = ["ActionT", "Game", "HasOptions", "OptionsT", "StateT", "canonical_options", "carries_options"]

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
OptionsT = TypeVar("OptionsT")
O_co = TypeVar("O_co", covariant=True)


class HasOptions(Protocol[O_co]):
    """The contract every game's states keep: they carry the options the game was created with."""

    @property
    def options(self) -> O_co:
        """The game's options (a frozen attrs value)."""
        ...


def carries_options(state: object) -> TypeGuard[HasOptions[Any]]:
    """Whether ``state`` keeps its options as ``state.options`` (as :class:`HasOptions` says)."""
    return hasattr(state, "options")


_SHOWN_LEGAL = 8


@functools.lru_cache(maxsize=1024)
def _canonical_hashed(options: Any) -> Any:  # Any: lru_cache keeps no type variable; canonical_options restores it
    return options


def canonical_options(options: OptionsT) -> OptionsT:
    """The first-made instance equal to ``options`` (interned; ``options`` itself when unhashable): the states of
    every game made with equal options then share one options object, and what is resolved from options (content)
    is resolved once for all equal ones. :meth:`Game.make_options` returns these."""
    try:
        canonical: OptionsT = _canonical_hashed(options)
    except TypeError:  # unhashable options: nothing to share
        return options
    return canonical


class Game(abc.ABC, Generic[StateT, ActionT, OptionsT]):
    """Base class of every game: the rules of one title over immutable state values.

    Subclasses set the class attributes and implement the abstract methods. Decision action ids lie in
    ``range(spec.num_distinct_actions)``; chance outcome ids lie in ``range(spec.max_chance_outcomes)`` (separate
    spaces, as in OpenSpiel); :meth:`action_from_id` decodes an id in the space of the given state.

    Attributes:
        spec: the game's static metadata.
        state_type: the (frozen attrs) state class, used by JSON serialization.
        action_type: the action class, or a ``Union`` of action classes, used by JSON serialization.
        options_type: the frozen attrs class of the game's options; ``new_game(**options)`` builds it.
    """

    spec: GameSpec
    state_type: type[StateT]
    action_type: Any
    options_type: type[OptionsT]

    # ----- the rules: implemented by each game -------------------------------------------------------------------

    @abc.abstractmethod
    def initial_state(self, options: OptionsT) -> StateT:
        """The state before any setup chance is resolved (a chance node if the setup is random)."""

    @abc.abstractmethod
    def current_player(self, state: StateT) -> int:
        """The player to act, or ``CHANCE`` (-1) at a chance node, or ``TERMINAL`` (-4) when the game is over."""

    @abc.abstractmethod
    def legal_actions(self, state: StateT) -> tuple[ActionT, ...]:
        """Every legal action sorted by action id; at a chance node, the outcomes; empty only when terminal."""

    @abc.abstractmethod
    def chance_outcomes(self, state: StateT) -> tuple[tuple[ActionT, float], ...]:
        """The ``(outcome, probability)`` pairs of a chance node, sorted by id; probabilities sum to 1."""

    @abc.abstractmethod
    def _apply(self, state: StateT, action: ActionT) -> StateT:
        """Apply one legal action and return the next state (never mutate ``state``)."""

    @abc.abstractmethod
    def returns(self, state: StateT) -> tuple[float, ...]:
        """Each player's return (final utilities at a terminal state; 0.0 each before)."""

    @abc.abstractmethod
    def observe(self, state: StateT, player: int) -> Any:
        """A frozen value holding exactly what ``player`` may know; hidden facts are absent."""

    @abc.abstractmethod
    def action_id(self, action: ActionT) -> int:
        """The stable integer id of an action (decision or chance outcome)."""

    @abc.abstractmethod
    def action_from_id(self, state: StateT, action_id: int) -> ActionT:
        """Decode an id in the id space of ``state`` (chance outcomes at chance nodes, decisions otherwise)."""

    @abc.abstractmethod
    def action_to_str(self, state: StateT, action: ActionT) -> str:
        """A short human-readable form of ``action`` that :meth:`parse_action` reads back."""

    @abc.abstractmethod
    def observation_tensor(self, state: StateT, player: int) -> np.ndarray:
        """A float32 array of shape ``spec.observation_shape``, built only from ``observe(state, player)``."""

    @abc.abstractmethod
    def render(self, state: StateT, player: int | None = None) -> str:
        """A readable text picture of the table (as ``player`` sees it, or the whole truth when ``None``)."""

    # ----- overridable defaults ----------------------------------------------------------------------------------

    def determinize(self, state: StateT, player: int, rng: np.random.Generator) -> StateT:
        """A full state drawn uniformly among those consistent with ``observe(state, player)``.

        The default serves perfect-information games (and games whose only hidden facts are future chance,
        which is not part of the state): it returns ``state`` itself.
        """
        return state

    def enumerate_information_set(self, state: StateT, player: int) -> Sequence[tuple[StateT, float]] | None:
        """Every state ``player`` cannot tell from ``state``, each with its posterior probability, or ``None``.

        Offered for small positions, so that the conformance suite can test :meth:`determinize`'s frequencies
        (:mod:`tabletop_core.leakcheck`): the posterior given what ``player`` saw, each history weighted by its
        chance probabilities and the other seats' decisions taken as uninformative (what ISMCTS samples). The
        probabilities sum to 1 and ``state`` is among the states. The default (``None``) offers no enumeration.
        """
        return None

    def redeal(self, state: StateT, player: int, rng: np.random.Generator) -> StateT | None:
        """A state drawn like :meth:`determinize`, written independently of it (a second opinion), or ``None``.

        The conformance suite compares what ``player`` reads in its worlds too, and tests their frequencies where
        the position is enumerable. The default (``None``) offers no re-deal.
        """
        return None

    def rebuild_history(self, world: StateT, player: int) -> Sequence[ActionT] | None:
        """The actions (chance outcomes included) that lead from ``initial_state`` of ``world``'s options to
        ``world``, a state sampled for ``player`` (by :meth:`determinize` or :meth:`redeal`), or ``None``.

        Offered by games that can rebuild a history from what a state records (its logs, its information states),
        so that the leak check (:mod:`tabletop_core.leakcheck`) proves every sampled world reachable by replaying
        it under the rules, and compares ``player``'s view along the whole history, not only along the prefix a
        blind search finds. The default (``None``) offers no rebuild: the leak check then searches.

        Raises:
            ValueError: when no history of the rules reaches ``world`` (the leak check reports it).
        """
        return None

    def information_state(self, state: StateT, player: int) -> Any:
        """A frozen value holding everything ``player`` has seen and done up to ``state`` (perfect recall).

        Offered when ``spec.provides_information_state`` is set. The default serves games whose observation
        already is perfect recall: it is ``observe(state, player)``. Games whose observation forgets (most do)
        override this and :meth:`information_state_tensor`, and keep in the state what the players saw.

        Raises:
            NotImplementedError: when the game declares no information state.
        """
        self._require_information_state()
        return self.observe(state, player)

    def information_state_tensor(self, state: StateT, player: int) -> np.ndarray:
        """A float32 array of shape ``spec.information_state_tensor_shape``, built only from
        ``information_state(state, player)``. The default is :meth:`observation_tensor` (see
        :meth:`information_state`).

        Raises:
            NotImplementedError: when the game declares no information state.
        """
        self._require_information_state()
        return self.observation_tensor(state, player)

    def _require_information_state(self) -> None:
        # NotImplementedError, Python's word for an optional capability a class does not offer (as OpenSpiel's
        # own games raise for an information state they lack).
        if not self.spec.provides_information_state:
            raise NotImplementedError(
                f"{self.spec.short_name}: no information state (its spec does not set provides_information_state)"
            )

    def num_players(self, state: StateT) -> int:
        """The number of players in this game (defaults to ``spec.max_num_players``)."""
        return self.spec.max_num_players

    def options(self, state: StateT) -> OptionsT:
        """The options this game was created with (states carry them: :class:`HasOptions`).

        Raises:
            TypeError: for a state that breaks that contract.
        """
        if not carries_options(state):
            raise TypeError(f"{self.spec.short_name}: {type(state).__name__} does not carry its options")
        opts: OptionsT = state.options
        return opts

    def default_agents(self, state: StateT) -> list[Agent | SearchAgent]:
        """The agents the demo and the CLI seat by default, one per player (random; games override this with
        their own bots, which they receive the game and state through rather than import)."""
        return [RandomAgent() for _ in range(self.num_players(state))]

    def describe_transition(self, before: StateT, action: ActionT, after: StateT) -> tuple[str, ...]:
        """What happened when ``action`` took ``before`` to ``after``, beyond the action itself, as short lines.

        For games whose rules act on their own inside a step (an automatic enemy, a triggered effect), so that
        the CLI and logs can show it. The default reports nothing.
        """
        return ()

    # ----- for people at the table: per-seat descriptions and the glossary --------------------------------------

    def seat_name(self, state: StateT, player: int) -> str:
        """The name of a seat by its role ("Rebellion", "Empire", "Elian"); ``CHANCE`` is "chance".

        The default names seats by number ("player 0"); games with roles override it.
        """
        if player == CHANCE:
            return "chance"
        return f"player {player}"

    def describe(self, before: StateT, action: ActionT, after: StateT, player: int | None = None) -> tuple[str, ...]:
        """What ``player`` learns from the transition ``before --action--> after``, as short lines in words.

        ``player=None`` is the whole truth (logs, bots-only games). Never shows ``player`` anything it may not
        know: two transitions that differ only in facts hidden from ``player`` give identical lines. The default
        serves perfect-information games fully (the move as :meth:`action_to_str` writes it, then
        :meth:`describe_transition`'s lines); in a hidden-information game it shows a seat only its own moves,
        and every other move as "<seat> acts" (chance: "chance acts"). Games override it to say what is public.

        >>> from tabletop_core.testing.kuhn import GAME
        >>> state = GAME.new_game(seed=1)
        >>> GAME.describe(state, GAME.legal_actions(state)[0], GAME.step(state, GAME.legal_actions(state)[0]), 1)
        ('player 0 acts',)
        """
        actor = self.current_player(before)
        who = self.seat_name(before, actor)
        if player is None or self.spec.information == Information.PERFECT:
            return (f"{who}: {self.action_to_str(before, action)}", *self.describe_transition(before, action, after))
        if actor == player:
            return (f"{who}: {self.action_to_str(before, action)}",)
        return (f"{who} acts",)

    def describe_public(self, before: StateT, action: ActionT, after: StateT) -> tuple[str, ...]:
        """What a spectator learns from the transition: the public information only, as short lines in words.

        Two transitions that no seat can tell apart, or that differ only in facts hidden from some seat, give
        identical lines (the leak check compares them in every twin world of every seat). The default serves
        perfect-information games fully (:meth:`describe` with ``player=None``); in a hidden-information game it
        says only who acted ("<seat> acts"; chance: "chance acts"). Games override it to say what is public.

        >>> from tabletop_core.testing.kuhn import GAME
        >>> state = GAME.new_game(seed=1)
        >>> GAME.describe_public(state, GAME.legal_actions(state)[0], GAME.step(state, GAME.legal_actions(state)[0]))
        ('player 0 acts',)
        """
        if self.spec.information == Information.PERFECT:
            return self.describe(before, action, after, None)
        return (f"{self.seat_name(before, self.current_player(before))} acts",)

    def legend(self, state: StateT, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """Every symbol or abbreviation :meth:`render` prints for ``player``, as ``(symbol, meaning)`` pairs.

        The default has none (a game whose render uses only words).
        """
        return ()

    def step_rules(self, state: StateT) -> str:
        """The rule of the current step in words: what the player to act may do and what each choice costs.

        The default names the step only (:meth:`describe_step`); games say the rule.
        """
        return self.describe_step(state)

    def card_texts(self, state: StateT, player: int | None = None) -> tuple[tuple[str, str], ...]:
        """The text of every card (Mission, encounter, skill, monster, ...) in ``player``'s view, as
        ``(name, text)`` pairs; ``None`` is every card on the table. The default has none.
        """
        return ()

    def headline(self, state: StateT) -> str:
        """A short title of where the game stands ("Level 2", "round 3"); logs show the table when it changes.

        The default is "" (no chapters: logs show the table at the start and the end only).
        """
        return ""

    def end_reason(self, state: StateT) -> str:
        """Why a finished game ended and who won, in words ("" before the end).

        The default states each seat's return; games say the rule that ended the game.
        """
        if self.current_player(state) != TERMINAL:
            return ""
        returns = self.returns(state)
        shown = ", ".join(f"{self.seat_name(state, p)} {r:g}" for p, r in enumerate(returns))
        return f"the game is over: {shown}"

    def describe_step(self, state: StateT) -> str:
        """Where the game stands (phase, step, round), for error messages and renders."""
        return f"player {self.current_player(state)} to act"

    def validate_state(self, state: StateT) -> None:
        """Raise ``ValueError`` if a (deserialized) state breaks an invariant. The default checks nothing."""

    def validate_loaded(self, state: StateT) -> None:
        """Raise ``ValueError`` if a state read from outside (:func:`~tabletop_core.serialize.from_json`) is not one
        the rules reach. The default is :meth:`validate_state`; a game whose fuller proof costs too much for every
        state of a playout (replaying the state's history) runs it here, on the load path only.
        """
        self.validate_state(state)

    def is_legal(self, state: StateT, action: ActionT) -> bool:
        """Whether ``action`` is legal in ``state``; never raises."""
        try:
            return action in self.legal_actions(state)
        except (TypeError, ValueError):
            return False

    def parse_action(self, state: StateT, text: str) -> ActionT:
        """Read an action written as :meth:`action_to_str` writes it (case and spacing are not significant).

        Raises:
            IllegalActionError: when no legal action reads as ``text``.
        """
        wanted = " ".join(action_text(self.spec.short_name, text).lower().split())
        for action in self.legal_actions(state):
            if " ".join(self.action_to_str(state, action).lower().split()) == wanted:
                return action
        raise IllegalActionError(self._illegal_message(state, text, "cannot read"))

    # ----- what the framework adapters ask of a game (overridable defaults) -------------------------------------

    def spec_for(self, options: OptionsT) -> GameSpec:
        """The spec of a game played with ``options``: :attr:`spec` unless the options change a declared fact.

        A game whose options change, say, how the returns relate (a co-operative party against an automatic
        enemy is ``IDENTICAL``; against an enemy player ``GENERAL_SUM``) overrides this; the adapters describe a
        loaded game by it (OpenSpiel's ``GameType`` and ``GameInfo``).
        """
        return self.spec

    def public_observation(self, state: StateT) -> Any:
        """What every player sees and knows that every other player sees (public information), as a frozen value.

        The default serves perfect-information games, where the whole state is public: it is ``state``. A game
        with hidden information overrides it to say what is public.

        Raises:
            NotImplementedError: when the game has hidden information and does not say what is public.
        """
        if self.spec.information != Information.PERFECT:
            raise NotImplementedError(f"{self.spec.short_name}: the game does not say what is public")
        return state

    def private_observation(self, state: StateT, player: int) -> tuple[tuple[str, Any], ...]:
        """What ``player`` sees beyond the public information, as ``(field, value)`` pairs.

        The default: nothing in a perfect-information game; otherwise the fields of ``observe(state, player)``
        whose values differ from those of :meth:`public_observation` (which must then be a view of the same attrs
        class, as a view with the private facts left out). The player's own seat counts as private, as in
        OpenSpiel's own observers.

        Raises:
            NotImplementedError: when the game does not say what is public, or its public observation is not a view
                of the same class as the player's.
        """
        if self.spec.information == Information.PERFECT:
            return ()
        public = self.public_observation(state)
        view = self.observe(state, player)
        if type(public) is not type(view) or not attrs.has(type(view)):
            raise NotImplementedError(
                f"{self.spec.short_name}: the public observation is not a view of the player's class "
                f"({type(public).__name__}, {type(view).__name__}); override private_observation"
            )
        return tuple(
            (f.name, getattr(view, f.name))
            for f in attrs.fields(type(view))
            if getattr(view, f.name) != getattr(public, f.name)
        )

    def observation_string(self, state: StateT, player: int) -> str:
        """``player``'s view as short readable text. The default is :meth:`render` as ``player`` sees it."""
        return self.render(state, player)

    def state_tensor(self, state: StateT) -> np.ndarray:
        """The whole state as one float32 vector of shape :meth:`state_tensor_shape` (for centralized critics).

        The default: in a perfect-information game, player 0's observation tensor (its view is the whole state);
        otherwise every player's information state tensor (or, without one, observation tensor), flattened and
        concatenated in seat order, which together hold everything any player knows.
        """
        if self.spec.information == Information.PERFECT:
            return np.asarray(self.observation_tensor(state, 0), dtype=np.float32).ravel()
        encode = self.information_state_tensor if self.spec.provides_information_state else self.observation_tensor
        parts = [np.asarray(encode(state, p), dtype=np.float32).ravel() for p in range(self.num_players(state))]
        return np.concatenate(parts)

    def state_tensor_shape(self, options: OptionsT) -> tuple[int, ...]:
        """The fixed shape of :meth:`state_tensor` for games with ``options`` (see its default)."""
        spec = self.spec
        if spec.information == Information.PERFECT:
            return (math.prod(spec.observation_shape),)
        shape = spec.information_state_tensor_shape if spec.provides_information_state else spec.observation_shape
        return (self.num_players(self.initial_state(options)) * math.prod(shape),)

    # ----- the framework: shared by every game -------------------------------------------------------------------

    def make_options(self, **options: object) -> OptionsT:
        """Build and validate the options object; an unknown or bad option raises ``OptionError``.

        An unknown option, or a text that is none of an option's allowed values (an ``attrs.validators.in_``
        validator), is named in one line with the closest known one ("did you mean").
        """
        kind: Any = self.options_type
        fields = [f.name for f in attrs.fields(kind) if f.init] if attrs.has(kind) else []
        for key in options:
            if attrs.has(kind) and key not in fields:
                hint = did_you_mean(key, fields)
                listed = f"options: {', '.join(fields)}" if fields else "it has no options"
                raise OptionError(f"{self.spec.short_name}: unknown option {key!r}{hint} ({listed})")
        for field in attrs.fields(kind) if attrs.has(kind) else ():
            allowed = _in_choices(field.validator) if field.name in options else None
            value = options.get(field.name)
            if allowed is not None and isinstance(value, str) and value not in allowed:
                hint = did_you_mean(value, [str(a) for a in allowed])
                listed = ", ".join(str(a) for a in allowed)
                raise OptionError(
                    f"{self.spec.short_name}: unknown {field.name} {value!r}{hint} ({field.name}: {listed})"
                )
        lists = {f.name for f in attrs.fields(kind) if _is_text_list(f.type)} if attrs.has(kind) else set()
        # A list of names may be written as one text of comma-separated names (`heroes=Elian,Lissa`).
        options = {k: _split_names(v) if k in lists else v for k, v in options.items()}
        try:
            return canonical_options(self.options_type(**options))
        except (TypeError, ValueError) as exc:
            # attrs validators raise with (message, attribute, ...) args: keep the message, drop the reprs.
            reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
            raise OptionError(f"{self.spec.short_name}: bad options {options!r}: {reason} (options: {fields})") from exc

    def option_choices(self) -> dict[str, tuple[Any, ...]]:
        """The values each option allows, for help and shell completion (``tabletop options`` shows them).

        By default, the choices of an option's ``attrs.validators.in_`` validator, and ``False, True`` for a
        ``bool`` option; an option of any value of its type is left out. A game whose allowed values come from
        its content (a pack's characters, heroes or enemies) overrides this to name them.
        """
        kind: Any = self.options_type
        if not attrs.has(kind):
            return {}
        out: dict[str, tuple[Any, ...]] = {}
        for field in attrs.fields(kind):
            if not field.init:
                continue
            allowed = _in_choices(field.validator)
            if allowed is None and field.type in (bool, "bool"):
                allowed = (False, True)
            if allowed is not None:
                out[field.name] = allowed
        return out

    def option_help(self) -> dict[str, tuple[str, Any]]:
        """How the options whose values are no short list of choices are written, each with an example value.

        ``tabletop options`` shows these beside :meth:`option_choices` (a range of numbers, lists of lists of
        names). By default, none; a game overrides this to explain such options in the player's words.
        """
        return {}

    def new_game(self, *, seed: int | None = None, rng: np.random.Generator | None = None, **options: object) -> StateT:
        """A new game. With ``seed`` or ``rng`` the setup chance is resolved; with neither, the first chance node.

        Raises:
            OptionError: for both a seed and an rng, a seed that is not a whole number >= 0, or an rng that is not a
                NumPy ``Generator`` (checked before anything else), and for bad options.
        """
        if seed is not None and rng is not None:
            raise OptionError("give new_game a seed or an rng, not both")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0):
            raise OptionError(f"new_game: seed must be a whole number >= 0, not {seed!r}")
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise OptionError(f"new_game: rng must be a numpy.random.Generator, not {type(rng).__name__} {rng!r}")
        state = self.initial_state(self.make_options(**options))
        if seed is not None:
            rng = np.random.default_rng(seed)
        if rng is not None:
            state = settle(self, state, rng)
        return state

    def is_terminal(self, state: StateT) -> bool:
        """Whether the game is over."""
        return self.current_player(state) == TERMINAL

    def is_chance_node(self, state: StateT) -> bool:
        """Whether chance acts next."""
        return self.current_player(state) == CHANCE

    def step(self, state: StateT, action: ActionT, *, rng: np.random.Generator | None = None) -> StateT:
        """Apply exactly one action (a decision or a chance outcome) and return the new state.

        With ``rng``, the chance nodes that follow are then resolved until a decision or the end.

        Raises:
            IllegalActionError: if the game is over or ``action`` is not legal; ``state`` is unchanged and usable.
        """
        if self.is_terminal(state):
            raise IllegalActionError(f"{self.spec.short_name}: cannot apply {action!r}: the game is over")
        if not self.is_legal(state, action):
            raise IllegalActionError(self._illegal_message(state, action, "illegal action"))
        nxt = self._apply(state, action)
        if rng is not None:
            nxt = settle(self, nxt, rng)
        return nxt

    def apply_unchecked(self, state: StateT, action: ActionT) -> StateT:
        """Apply an action known to be legal, skipping every check (for search code). Garbage in, garbage out."""
        return self._apply(state, action)

    def legal_action_mask(self, state: StateT) -> np.ndarray:
        """A bool mask over the id space of ``state``.

        Length ``spec.num_distinct_actions`` at decision and terminal nodes, ``spec.max_chance_outcomes`` at
        chance nodes (OpenSpiel's convention).
        """
        chance = self.current_player(state) == CHANCE
        size = self.spec.max_chance_outcomes if chance else self.spec.num_distinct_actions
        mask = np.zeros(size, dtype=bool)
        for action in self.legal_actions(state):
            mask[self.action_id(action)] = True
        return mask

    def legal_action_ids(self, state: StateT) -> tuple[int, ...]:
        """The ids of the legal actions, ascending."""
        return tuple(self.action_id(a) for a in self.legal_actions(state))

    def public_legal_actions(self, state: StateT) -> Sequence[ActionT] | None:
        """The legal actions at ``state`` when every seat may know them (and their :meth:`action_to_str` texts),
        else ``None``.

        Refusal messages (:meth:`step`, :meth:`parse_action`) list these and only these, so that an error shown to
        any seat holds nothing that seat may not know: at a node whose legal actions name hidden facts (a hand, a
        deck's remaining cards) the message names the seat to act and the step, and the caller asks
        :meth:`legal_actions` for the moves, through the API that knows whose they are. The default: every legal
        action in a game of perfect information; none otherwise. Hidden-information games override it per node.
        """
        if self.spec.information == Information.PERFECT:
            return self.legal_actions(state)
        return None

    def _illegal_message(self, state: StateT, action: object, what: str) -> str:
        """The text of a refusal: the input, the seat to act and the step, and the legal actions where they are
        public (:meth:`public_legal_actions`); it depends only on public facts and the caller's own input."""
        player = self.current_player(state)
        who = "chance" if player == CHANCE else f"player {player}"
        name = self.seat_name(state, player)
        if name not in (who, "chance"):
            who = f"{who} ({name})"
        head = f"{self.spec.short_name}: {what} {action!r} for {who} at {self.describe_step(state)}"
        legal = self.public_legal_actions(state)
        if legal is None:
            return f"{head}; the legal actions are not public (legal_actions lists them)"
        shown = ", ".join(self.action_to_str(state, a) for a in legal[:_SHOWN_LEGAL])
        more = f" and {len(legal) - _SHOWN_LEGAL} more" if len(legal) > _SHOWN_LEGAL else ""
        return f"{head}; legal: {shown or 'none'}{more}"


def _in_choices(validator: object) -> tuple[Any, ...] | None:
    """The values an ``attrs.validators.in_`` validator allows (looking inside ``and_`` and lists), else None."""
    if validator is None:
        return None
    options = getattr(validator, "options", None)
    if options is not None and not callable(options):
        return tuple(options)
    inner = getattr(validator, "_validators", None) or (validator if isinstance(validator, list | tuple) else ())
    for v in inner:
        found = _in_choices(v)
        if found is not None:
            return found
    return None


def _is_text_list(kind: object) -> bool:
    """Whether an options field's type is a tuple of texts (optionally ``| None``)."""
    text = kind if isinstance(kind, str) else str(kind)
    return text.replace("typing.", "").replace("Optional[", "").split(" | ")[0] in (
        "tuple[str, ...]",
        "Tuple[str, ...]",
    )


def _split_names(value: object) -> object:
    """``"Elian, Lissa"`` as ``("Elian", "Lissa")``; any other value as it is.

    >>> _split_names("Elian, Lissa"), _split_names(["Elian"])
    (('Elian', 'Lissa'), ['Elian'])
    """
    if isinstance(value, str) and "," in value:
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value
