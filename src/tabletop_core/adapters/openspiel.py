"""OpenSpiel adapter: any ``tabletop_core.Game`` as a pyspiel game (extra ``openspiel``).

>>> import pyspiel
>>> from tabletop_core.adapters import openspiel
>>> from tabletop_core.testing.kuhn import GAME
>>> openspiel.register(GAME)
'python_kuhn'
>>> game = pyspiel.load_game("python_kuhn")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), [a for a, _ in state.chance_outcomes()]
(True, [0, 1, 2])
>>> state.apply_action(2); state.apply_action(0)
>>> state.current_player(), state.legal_actions(), state.action_to_string(0, 1)
(0, [0, 1], 'bet')
>>> state.apply_action(1)
>>> tt = openspiel.tabletop_state(state)  # the immutable tabletop state inside
>>> tt.hands, tt.history
((2, 0), (1,))
>>> print(state.observation_string(1))
player 1 holds J; history: bet

How the protocol maps onto OpenSpiel:

- **Ids.** Decision ids are OpenSpiel actions in ``range(num_distinct_actions)``; chance outcome ids are OpenSpiel
  chance outcomes in ``range(max_chance_outcomes)``. The two spaces are separate in both libraries, and an id is
  always decoded by the kind of node it is applied at (``Game.action_from_id(state, id)``).
- **GameType / GameInfo** come from ``game.spec_for(options)`` (``game.spec`` unless the options change it): chance
  mode, information, utility, ``reward_model=TERMINAL`` (our games pay only at the end), player bounds, distinct
  actions, chance outcomes, utility bounds and sum, and ``max_game_length`` (ours counts chance outcomes too, so it
  is a valid upper bound on OpenSpiel's decisions). ``num_players`` is the count for the chosen options
  (``game.num_players`` of the initial state).
- **Parameters** are the fields of ``game.options_type``: bool, int, float and str fields pass as themselves, enums
  as their value, anything else (tuples, optionals, nested classes) as JSON text written with ``;`` between items
  and ``, ( ) =`` escaped inside strings, so it survives OpenSpiel's game strings: ``python_solo(bust_faces=[1;2])``.
- **Registration.** Importing this module registers every installed game (the ``tabletop.games`` entry points,
  :data:`INSTALLED`); one that fails to import is skipped with a ``RuntimeWarning``. Other games (your own, the core's
  Kuhn poker) register with :func:`register`. ``python -m tabletop_core.adapters.openspiel_run MODULE FLAGS...`` runs
  one of OpenSpiel's own scripts with the games registered.
- **Observations.** The observation string is ``game.observation_string`` (the seat's view in words), the tensor
  ``game.observation_tensor``. The information state string is that text plus ``recall <digest>``: perfect recall,
  a digest of the game's own ``information_state`` where the spec declares ``provides_information_state`` (Kuhn
  poker, Unrest; its tensor is then ``game.information_state_tensor``), and otherwise of the sequence of distinct
  views the player has had and the actions it took (no tensor then, as OpenSpiel's own perfect-information games
  offer none). Every other ``IIGObservationType`` (public only, private only, every player's, with or without
  perfect recall) is a string observer built from ``game.public_observation`` and ``game.private_observation``
  (:class:`_Observer`), offered where the game says what is public.

- **Serialization** goes through :func:`tabletop_core.to_json` / :func:`tabletop_core.from_json`. OpenSpiel 2.0's
  ``PyState::Serialize`` (C++, not overridable from Python) writes the history, the move number and a base64
  pickle of the Python object's ``__dict__``; this adapter keeps a single entry there whose pickled form is the
  plain text of our JSON document (no class of ours is pickled), and restoring it goes through ``from_json`` with
  all its validation. :func:`dumps` / :func:`loads` give a JSON-only document (game string, history, state) for
  those who want no pickle envelope at all. Python's ``pickle`` of a game is its game string, and of a state
  OpenSpiel's serialization; unpickling registers an installed game first, so both travel to worker processes.
- **Clone** is cheap: states are immutable values, so a clone shares them.
"""

from __future__ import annotations

import hashlib
import json
import re
import typing
import warnings
from collections.abc import Callable, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs
import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "tabletop_core.adapters.openspiel needs OpenSpiel: pip install -e '.[openspiel]' in a clone"
    ) from exc

from tabletop_core.errors import IllegalActionError, OptionError, StateFormatError
from tabletop_core.registry import available_games, load_game
from tabletop_core.serialize import from_json, structure, to_json, unstructure
from tabletop_core.spec import CHANCE, ChanceMode, GameSpec, Information, Utility

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = [
    "INSTALLED",
    "OpenSpielGame",
    "OpenSpielState",
    "compact_text",
    "dumps",
    "load",
    "loads",
    "make_resampler",
    "register",
    "register_installed",
    "short_name_for",
    "tabletop_state",
    "with_tabletop_state",
]

S = TypeVar("S")

_PAYLOAD_FORMAT = "tabletop-rules/openspiel-state"
_PAYLOAD_VERSION = 2  # the state payload inside OpenSpiel's serialization
_DOCUMENT_VERSION = 1  # the JSON-only document of dumps / loads
_DOCUMENT_FORMAT = "tabletop-rules/openspiel"

_CHANCE_MODE = {
    ChanceMode.DETERMINISTIC: pyspiel.GameType.ChanceMode.DETERMINISTIC,
    ChanceMode.EXPLICIT_STOCHASTIC: pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
}
_INFORMATION = {
    Information.PERFECT: pyspiel.GameType.Information.PERFECT_INFORMATION,
    Information.IMPERFECT: pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}
_UTILITY = {
    Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    Utility.CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
    Utility.IDENTICAL: pyspiel.GameType.Utility.IDENTICAL,
    Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
}
_PLAIN = (bool, int, float, str)
_PRIVATE = {
    pyspiel.PrivateInfoType.NONE: "none",
    pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
    pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
}


class _ObservationType(Protocol):
    """What an observer request says, as pyspiel's ``IIGObservationType`` holds it (pyspiel ships no types)."""

    @property
    def public_info(self) -> bool: ...

    @property
    def perfect_recall(self) -> bool: ...

    @property
    def private_info(self) -> object:  # a pyspiel.PrivateInfoType, a key of _PRIVATE
        ...


def _game_type(name: str, spec: GameSpec, parameters: Mapping[str, Any], *, public: bool) -> Any:
    """The pyspiel ``GameType`` of a spec (see the module docstring)."""
    return pyspiel.GameType(
        short_name=name,
        long_name=f"{spec.long_name} (tabletop-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=_CHANCE_MODE[spec.chance_mode],
        information=_INFORMATION[spec.information],
        utility=_UTILITY[spec.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_num_players,
        min_num_players=spec.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=bool(spec.provides_information_state),
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
        provides_factored_observation_string=public,
    )


def _says_what_is_public(game: Game[S, Any, Any], state: S) -> bool:
    """Whether ``game`` says what is public (its ``public_observation`` answers rather than raising)."""
    try:
        game.public_observation(state)
    except NotImplementedError:
        return False
    return True


def short_name_for(game: Game[Any, Any, Any]) -> str:
    """The pyspiel short name of a game: ``python_`` and the game's own short name.

    >>> from tabletop_core.testing.kuhn import GAME
    >>> short_name_for(GAME)
    'python_kuhn'
    """
    return f"python_{game.spec.short_name}"


# ----- options <-> OpenSpiel game parameters -------------------------------------------------------------------


@attrs.frozen
class _Param:
    """How one option field travels as an OpenSpiel game parameter."""

    name: str
    kind: str  # "plain", "enum" or "json"
    field_type: Any
    default: Any  # the GameParameter value (bool, int, float or str)

    def to_option(self, value: object) -> Any:
        if self.kind == "plain":
            # A game string reads `pack=123` as an int and `x=2` for a float option as an int: restore the type.
            if self.field_type is str and isinstance(value, int | float) and not isinstance(value, bool):
                return str(value)
            if self.field_type is float and isinstance(value, int) and not isinstance(value, bool):
                return float(value)
            return value
        if self.kind == "enum":
            return self.field_type(value)
        try:
            # OpenSpiel reads a game string's `true`, `3` or `1.5` as a bool or number: take those as they are.
            data = value if isinstance(value, bool | int | float) else _param_data(value)
            return structure(data, self.field_type)
        except (ValueError, StateFormatError) as exc:
            raise OptionError(f"parameter {self.name!r}: {exc}") from exc


#: Characters that OpenSpiel's game-string parser splits on, escaped inside JSON strings.
_ESCAPES = {",": "\\u002c", ";": "\\u003b", "(": "\\u0028", ")": "\\u0029", "=": "\\u003d"}


def _param_text(data: object) -> str:
    """JSON with ``;`` between items and no ``, ( ) =`` anywhere, so it survives OpenSpiel's game strings.

    >>> print(_param_text({"heroes": ["lord hawthorne", "a,b"], "n": None}))
    {"heroes":["lord hawthorne";"a\\u002cb"];"n":null}
    >>> _param_data(_param_text({"heroes": ["lord hawthorne", "a,b"], "n": None}))
    {'heroes': ['lord hawthorne', 'a,b'], 'n': None}
    """
    if isinstance(data, str):
        text = json.dumps(data)
        for char, escape in _ESCAPES.items():
            text = text.replace(char, escape)
        return text
    if isinstance(data, list | tuple):
        return "[" + ";".join(_param_text(item) for item in data) + "]"
    if isinstance(data, dict):
        return "{" + ";".join(f"{_param_text(str(k))}:{_param_text(v)}" for k, v in sorted(data.items())) + "}"
    return json.dumps(data)


def _param_data(text: object) -> Any:
    """Read :func:`_param_text` (plain JSON is read too)."""
    if not isinstance(text, str):
        raise ValueError(f"expected parameter text, got {text!r}")
    return json.loads(text.replace(";", ","))


def _params_of(game: Game[Any, Any, Any], defaults: Mapping[str, Any]) -> tuple[_Param, ...]:
    options_type = game.options_type
    hints = typing.get_type_hints(options_type)
    out = []
    for field in attrs.fields(options_type):
        if not field.init:  # derived from the options as they are made (content they resolve), no parameter
            continue
        ftype = hints.get(field.name, Any)
        if field.name in defaults:
            default = defaults[field.name]
        elif field.default is attrs.NOTHING:
            raise OptionError(
                f"{game.spec.short_name}: option {field.name!r} has no default; OpenSpiel needs one "
                f"(pass defaults={{{field.name!r}: ...}} to register)"
            )
        elif isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]  # attrs.Factory is a class at runtime
            factory: Any = field.default
            default = factory.factory(None) if factory.takes_self else factory.factory()
        else:
            default = field.default
        if ftype in _PLAIN and type(default) is ftype:
            out.append(_Param(field.name, "plain", ftype, default))
        elif isinstance(ftype, type) and issubclass(ftype, Enum) and isinstance(default, ftype):
            if not isinstance(default.value, _PLAIN):
                raise OptionError(f"{game.spec.short_name}: enum option {field.name!r} needs plain values")
            out.append(_Param(field.name, "enum", ftype, default.value))
        else:
            out.append(_Param(field.name, "json", ftype, _param_text(unstructure(default))))
    return tuple(out)


# ----- text forms, the perfect-recall trace and the node that an OpenSpiel state wraps -------------------------


def _chain(digest: str, item: str) -> str:
    return hashlib.blake2b(f"{digest}\n{item}".encode(), digest_size=16).hexdigest()


_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_'-]*\Z")


def compact_text(data: object, *, nested: bool = False) -> str:
    """A short canonical text of unstructured data (what ``tabletop_core.serialize.unstructure`` gives).

    Mappings read ``key=value`` in key order, tagged classes ``tag(key=value ...)`` (the tag's last part), lists
    ``[a b]``, ``None`` ``-`` and booleans ``yes``/``no``; a string is written bare when it cannot be mistaken for
    anything else and as JSON otherwise. For values of one type, distinct values give distinct texts.

    >>> compact_text({"card": 2, "history": [1, 0], "seen": None, "name": "Q, K", "up": True})
    'card=2 history=[1 0] name="Q, K" seen=- up=yes'
    >>> compact_text({"$type": "unrest.stack_card", "card": 3, "revealed": False})
    'stack_card(card=3 revealed=no)'
    """
    if data is None:
        return "-"
    if isinstance(data, bool):
        return "yes" if data else "no"
    if isinstance(data, int | float):
        return repr(data)
    if isinstance(data, str):
        return data if _BARE.match(data) and data not in ("yes", "no") else json.dumps(data)
    if isinstance(data, list | tuple):
        return "[" + " ".join(compact_text(item, nested=True) for item in data) + "]"
    if isinstance(data, dict):
        tag = data.get("$type")
        body = " ".join(f"{k}={compact_text(v, nested=True)}" for k, v in sorted(data.items()) if k != "$type")
        if isinstance(tag, str):
            return f"{tag.rsplit('.', 1)[-1]}({body})"
        return f"({body})" if nested else body
    return json.dumps(str(data))


def _canonical(value: object) -> str:
    return json.dumps(unstructure(value), sort_keys=True, separators=(",", ":"))


class _Context:
    """What every state of one loaded game shares: the tabletop game, its options and what it can say."""

    def __init__(
        self, game: Game[Any, Any, Any], options: object, num_players: int, information_states: bool, public: bool
    ) -> None:
        self.game = game
        self.options = options
        self.num_players = num_players
        self.information_states = information_states
        #: Whether the game says what is public (``Game.public_observation``), which factored observers need.
        self.public = public

    def streams(self) -> tuple[str, ...]:
        """The recall streams a state of this game keeps (see :meth:`_Node.snapshot`)."""
        views = tuple(f"view {p}" for p in range(self.num_players))
        if not self.public:
            return views
        return (*views, "public", *(f"private {p}" for p in range(self.num_players)))


class _Node:
    """An immutable tabletop state plus the link to its parent (for the perfect-recall digests).

    A *stream* is one kind of observation followed along the history: ``view P`` (player P's view, as canonical
    JSON, and P's own actions: P's information state when the game declares none), ``public`` (the public
    observation) and ``private P`` (P's private observation and P's own actions). The digest of a stream chains its
    distinct successive snapshots and the actions it sees; a root starts from ``seeds`` (a restored payload) or
    from the stream of the node it was resampled from (``origin``: the resampling player keeps its own streams and
    the public one).

    Copying returns the node itself (it is a value). Pickling, which OpenSpiel's C++ serialization does to the
    Python state's ``__dict__``, reduces it to the plain text of :meth:`payload`: our JSON document.
    """

    __slots__ = ("_memo", "_recall", "action_id", "actor", "ctx", "origin", "parent", "seeds", "state")

    def __init__(
        self,
        ctx: _Context,
        state: object,
        parent: _Node | None = None,
        *,
        actor: int = CHANCE,
        action_id: int = -1,
        seeds: Mapping[str, str] | None = None,
        origin: tuple[_Node, int] | None = None,
    ) -> None:
        self.ctx, self.state, self.parent = ctx, state, parent
        self.actor, self.action_id, self.seeds, self.origin = actor, action_id, seeds, origin
        self._recall: dict[str, tuple[str, str | None]] = {}
        self._memo: dict[str, str] = {}

    def child(self, state: object, actor: int, action_id: int) -> _Node:
        return _Node(self.ctx, state, self, actor=actor, action_id=action_id)

    def _memoized(self, key: str, make: Callable[[], str]) -> str:
        text = self._memo.get(key)
        if text is None:
            text = self._memo[key] = make()
        return text

    def observation_string(self, player: int) -> str:
        """The seat's view in words (``Game.observation_string``)."""
        return self._memoized(f"words {player}", lambda: str(self.ctx.game.observation_string(self.state, player)))

    def public_text(self) -> str:
        """The public observation as compact text."""
        return self._memoized("public", lambda: compact_text(unstructure(self.ctx.game.public_observation(self.state))))

    def private_text(self, player: int) -> str:
        """``player``'s private observation as compact text (empty when nothing is private)."""

        def make() -> str:
            pairs = self.ctx.game.private_observation(self.state, player)
            return compact_text({name: unstructure(value) for name, value in pairs})

        return self._memoized(f"private {player}", make)

    def information_digest(self, player: int) -> str:
        """The digest of the game's own information state of ``player`` (games with ``provides_information_state``)."""
        return self._memoized(
            f"info {player}", lambda: _chain("", _canonical(self.ctx.game.information_state(self.state, player)))
        )

    def snapshot(self, stream: str) -> str:
        """What ``stream`` observes at this node (its canonical text)."""
        kind, _, seat = stream.partition(" ")
        if kind == "view":
            return self._memoized(stream, lambda: _canonical(self.ctx.game.observe(self.state, int(seat))))
        if kind == "public":
            return self.public_text()
        return self.private_text(int(seat))

    def _start(self, stream: str) -> tuple[str, str | None]:
        if self.seeds is not None:
            return (
                (self.seeds[stream], self.snapshot(stream)) if stream in self.seeds else (_chain("", "restored"), None)
            )
        if self.origin is not None:
            node, player = self.origin
            if stream in ("public", f"view {player}", f"private {player}"):
                return node.recall(stream), node.snapshot(stream)
            return _chain("", "resampled"), None
        return "", None

    def recall(self, stream: str) -> str:
        """The digest of ``stream`` up to this node: its distinct successive snapshots and the actions it sees."""
        pending: list[_Node] = []
        node: _Node | None = self
        while node is not None and stream not in node._recall:
            pending.append(node)
            node = node.parent
        digest, last = node._recall[stream] if node is not None else ("", None)
        _, _, seat = stream.partition(" ")
        for node in reversed(pending):
            if node.parent is None:
                digest, last = node._start(stream)
            elif seat and node.actor == int(seat):
                digest = _chain(digest, f"act {node.action_id}")
            snap = node.snapshot(stream)
            if snap != last:
                digest, last = _chain(digest, snap), snap
            node._recall[stream] = (digest, snap)
        return self._recall[stream][0]

    def payload(self) -> str:
        doc = {
            "format": _PAYLOAD_FORMAT,
            "version": _PAYLOAD_VERSION,
            "state": to_json(self.state),
            "recall": {stream: self.recall(stream) for stream in self.ctx.streams()},
        }
        return json.dumps(doc, separators=(",", ":"))

    @classmethod
    def from_payload(cls, ctx: _Context, text: str) -> _Node:
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise StateFormatError(f"OpenSpiel state payload is not JSON: {exc}") from exc
        if (
            type(doc) is not dict
            or doc.get("format") != _PAYLOAD_FORMAT
            or doc.get("version") != _PAYLOAD_VERSION
            or set(doc) != {"format", "version", "state", "recall"}
        ):
            raise StateFormatError("not a tabletop-rules OpenSpiel state payload")
        recall = doc["recall"]
        if (
            type(recall) is not dict
            or set(recall) != set(ctx.streams())
            or not all(type(r) is str and len(r) == 32 for r in recall.values())
        ):
            raise StateFormatError("OpenSpiel state payload: bad recall digests")
        state = from_json(ctx.game, doc["state"])
        if not isinstance(state, ctx.game.state_type):
            raise StateFormatError("OpenSpiel state payload holds an action, not a state")
        if ctx.game.options(state) != ctx.options:
            raise StateFormatError("OpenSpiel state payload was written with other options than this game's")
        return cls(ctx, state, seeds=dict(recall))

    def __copy__(self) -> _Node:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (str, (self.payload(),))


# ----- the pyspiel classes -------------------------------------------------------------------------------------


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """A tabletop game with options, as a ``pyspiel.Game``.

    Built by ``pyspiel.load_game("python_<name>", params)`` once :func:`register` has run.

    Attributes:
        tabletop_game: the wrapped ``tabletop_core.Game``.
        tabletop_options: the options object the parameters gave.
    """

    #: Set on the per-game subclass that :func:`register` makes (OpenSpiel's own pattern: the class is the factory).
    _tabletop: Any = None
    _game_type: Any = None
    _params_spec: tuple[_Param, ...] = ()

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game, game_type, params_spec = self._tabletop, self._game_type, self._params_spec
        if game is None:
            raise TypeError("OpenSpielGame is made by pyspiel.load_game after register(game), not directly")
        params = dict(params or {})
        unknown = set(params) - {p.name for p in params_spec}
        if unknown:
            raise OptionError(f"{game.spec.short_name}: unknown parameters {sorted(unknown)}")
        values = {p.name: p.to_option(params.get(p.name, p.default)) for p in params_spec}
        options = game.make_options(**values)
        initial = game.initial_state(options)
        num_players = int(game.num_players(initial))
        spec = game.spec_for(options)
        public = _says_what_is_public(game, initial)
        utility_sum: float | None = None
        if spec.utility == Utility.ZERO_SUM:
            utility_sum = 0.0
        elif spec.utility == Utility.CONSTANT_SUM:
            utility_sum = spec.utility_sum
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions,
            max_chance_outcomes=spec.max_chance_outcomes if spec.chance_mode != ChanceMode.DETERMINISTIC else 0,
            num_players=num_players,
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=utility_sum,
            max_game_length=spec.max_game_length,
        )
        # The registered GameType describes the default options; a loaded game is described by its own options.
        loaded_type = _game_type(game_type.short_name, spec, dict(game_type.parameter_specification), public=public)
        super().__init__(loaded_type, info, dict(params))
        self.tabletop_game = game
        self.tabletop_options = options
        self.tabletop_spec = spec
        self._ctx = _Context(game, options, num_players, bool(spec.provides_information_state), public)
        self._initial = _Node(self._ctx, initial)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Pickled as its game string (what multiprocessing and Ray send); unpickling registers an installed game.
        return (_load_game_string, (str(self),))

    def new_initial_state(self, *args: object) -> OpenSpielState:
        """The first state (the first chance node of setup, for games with random setup)."""
        if args:
            raise ValueError(f"{self.tabletop_game.spec.short_name}: initial states from strings are not supported")
        return OpenSpielState(self, self._initial)

    def make_py_observer(
        self,
        iig_obs_type: _ObservationType | None = None,
        params: object = None,
    ) -> _Observer:
        """The observer OpenSpiel asks for: every ``IIGObservationType`` (see :class:`_Observer`).

        Observers with public information only, private information only or every player's private information need
        the game to say what is public (``Game.public_observation``: perfect-information games do by default).

        Raises:
            ValueError: observation parameters were given, or the game does not say what is public.
        """
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        if iig_obs_type is None:
            return _Observer(self._ctx, public=True, private="single", perfect_recall=False)
        public, recall = bool(iig_obs_type.public_info), bool(iig_obs_type.perfect_recall)
        private = _PRIVATE[iig_obs_type.private_info]
        if not (public and private == "single") and not self._ctx.public:
            raise ValueError(
                f"{self.tabletop_game.spec.short_name}: no observer with public_info={public}, "
                f"private_info={private}, perfect_recall={recall}: the game does not say what is public "
                "(it does not override Game.public_observation); the player's own observation and information "
                "state are available"
            )
        return _Observer(self._ctx, public=public, private=private, perfect_recall=recall)

    def max_chance_nodes_in_history(self) -> int:
        """An upper bound on chance nodes in a history (our ``max_game_length`` counts both kinds of step)."""
        return 0 if self.tabletop_game.spec.chance_mode == ChanceMode.DETERMINISTIC else self.max_game_length()

    def state_from_tabletop(self, state: object) -> OpenSpielState:
        """An OpenSpiel state holding ``state`` (a tabletop state of this game's options), with an empty history.

        OpenSpiel's ``history()`` of the result is empty: use it to start search from a position, not to record.
        """
        if self.tabletop_game.options(state) != self.tabletop_options:
            raise OptionError("the state was made with other options than this game's")
        return OpenSpielState(self, _Node(self._ctx, state))


class OpenSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A pyspiel state wrapping an immutable tabletop state.

    Its Python ``__dict__`` holds one entry, ``_node`` (what OpenSpiel copies on ``clone`` and pickles on
    ``serialize``); see the module docstring.
    """

    _node: _Node

    def __init__(self, game: OpenSpielGame, node: _Node) -> None:
        super().__init__(game)
        self._node = node

    def __setattr__(self, name: str, value: object) -> None:
        if name == "_node" and isinstance(value, str):
            # OpenSpiel's C++ deserialization restores the __dict__ entry as the payload text.
            value = _Node.from_payload(self._node.ctx, value)
        elif name != "_node":
            raise AttributeError(f"OpenSpielState keeps no attribute {name!r}; its whole content is _node")
        super().__setattr__(name, value)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Pickled as OpenSpiel's own serialization (our JSON inside, see the module docstring); unpickling registers
        # an installed game first, so a state can travel to a fresh process.
        return (_state_from_serialized, (pyspiel.serialize_game_and_state(self.get_game(), self),))

    @property
    def tabletop(self) -> Any:
        """The tabletop state this OpenSpiel state holds."""
        return self._node.state

    def current_player(self) -> int:
        """The player to act, ``pyspiel.PlayerId.CHANCE`` (-1) or ``pyspiel.PlayerId.TERMINAL`` (-4)."""
        return int(self._node.ctx.game.current_player(self._node.state))

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._node.ctx.game.legal_action_ids(self._node.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcome ids and their exact probabilities."""
        game = self._node.ctx.game
        return [(int(game.action_id(a)), float(p)) for a, p in game.chance_outcomes(self._node.state)]

    def _apply_action(self, action: int) -> None:
        node = self._node
        game = node.ctx.game
        actor = game.current_player(node.state)
        try:
            tt_action = game.action_from_id(node.state, int(action))
        except (IllegalActionError, ValueError, TypeError) as exc:
            who, what = ("chance", "outcome") if actor == CHANCE else (f"player {actor}", "action")
            raise IllegalActionError(
                f"{game.spec.short_name}: {who} has no {what} with id {action} at {game.describe_step(node.state)}; "
                f"legal ids: {list(game.legal_action_ids(node.state))}"
            ) from exc
        self._node = node.child(game.step(node.state, tt_action), actor, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._node
        game = node.ctx.game
        here = game.current_player(node.state)
        kind = "chance outcome" if player == CHANCE else "action"
        if (player == CHANCE) != (here == CHANCE):
            return f"{kind} {action}"
        try:
            return str(game.action_to_str(node.state, game.action_from_id(node.state, int(action))))
        except (IllegalActionError, ValueError, TypeError):
            return f"{kind} {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self._node.ctx.game.is_terminal(self._node.state))

    def returns(self) -> list[float]:
        """Each player's return (0 before the end: our games pay only at the end)."""
        return [float(r) for r in self._node.ctx.game.returns(self._node.state)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> OpenSpielState:
        """A state drawn by the game's ``determinize`` from ``player_id``'s information (what ISMCTS uses).

        ``probability_sampler()`` (OpenSpiel passes a uniform sampler) seeds the draw.
        """
        seed = int(float(probability_sampler()) * 2**53)
        return _resample(self, int(player_id), np.random.default_rng(seed))

    def __str__(self) -> str:
        return str(self._node.ctx.game.render(self._node.state))


class _Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``) for one
    ``IIGObservationType``: whether public information is included, whose private information (none, the
    observing player's, every player's) and whether it is perfect recall.

    The player's own observation (public and its private information) has the game's tensor and the seat's view in
    words; with perfect recall, the information state. Every other combination is a string only (``tensor`` is
    ``None``, as in OpenSpiel's own observers for public-information games): the public observation, private
    observations, or both, each as compact text, and with perfect recall a ``recall`` digest of the streams it
    follows.
    """

    def __init__(self, ctx: _Context, *, public: bool, private: str, perfect_recall: bool) -> None:
        self._ctx = ctx
        self._public, self._private, self._perfect_recall = public, private, perfect_recall
        self._own = public and private == "single"
        spec = ctx.game.spec
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if not self._own or (perfect_recall and not ctx.information_states):
            return  # a string only (see the class docstring)
        shape = tuple(spec.information_state_tensor_shape if perfect_recall else spec.observation_shape)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"information_state" if perfect_recall else "observation": self.tensor.reshape(shape)}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Write ``player``'s observation tensor of ``state`` into ``self.tensor``."""
        if self.tensor is None:
            name = self._ctx.game.spec.short_name
            if self._own:
                raise ValueError(
                    f"{name}: no information state tensor (its spec does not set provides_information_state); "
                    "use information_state_string (perfect recall) or observation_tensor"
                )
            raise ValueError(f"{name}: public and private observations are strings only; use string_from")
        game, tt_state = self._ctx.game, state._node.state
        if self._perfect_recall:
            values = game.information_state_tensor(tt_state, player)
        else:
            values = game.observation_tensor(tt_state, player)
        self.tensor[:] = np.asarray(values, dtype=np.float32).ravel()

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """``player``'s observation (or information state) of ``state`` as text."""
        node = state._node
        if self._own:
            words = node.observation_string(player)
            if not self._perfect_recall:
                return words
            if self._ctx.information_states:
                return f"{words}\nrecall {node.information_digest(player)}"
            return f"{words}\nrecall {node.recall(f'view {player}')}"
        seats = (
            range(self._ctx.num_players) if self._private == "all" else [player] if self._private == "single" else []
        )
        lines = [node.public_text()] if self._public else []
        streams = ["public"] if self._public else []
        for p in seats:
            text = node.private_text(p)
            lines.append(text if self._private == "single" and not self._public else f"p{p}: {text}")
            streams.append(f"private {p}")
        if self._perfect_recall and streams:
            digest = ""
            for stream in streams:
                digest = _chain(digest, node.recall(stream))
            lines.append(f"recall {digest}")
        return "\n".join(lines)


# ----- registration, loading and search helpers ----------------------------------------------------------------


def register(game: Game[Any, Any, Any], *, defaults: Mapping[str, Any] | None = None) -> str:
    """Register ``game`` with pyspiel as ``python_<short_name>`` (once; later calls return the same name).

    Every field of ``game.options_type`` becomes a game parameter (see the module docstring), so
    ``pyspiel.load_game("python_unrest(variant=capitol)")`` works.

    Args:
        game: any ``tabletop_core.Game``.
        defaults: parameter defaults for options that have none of their own (OpenSpiel needs a default for each).

    Returns:
        The short name to pass to ``pyspiel.load_game``.

    Raises:
        OptionError: an option has no default, or the short name is taken by another game.
    """
    name = short_name_for(game)
    if name in pyspiel.registered_names():
        loaded = pyspiel.load_game(name)
        if isinstance(loaded, OpenSpielGame) and loaded.tabletop_game is game:
            return name
        raise OptionError(f"pyspiel already has a game named {name!r} that is not {game!r}")
    params_spec = _params_of(game, defaults or {})
    initial = game.initial_state(game.make_options(**{p.name: p.to_option(p.default) for p in params_spec}))
    public = _says_what_is_public(game, initial)
    game_type = _game_type(name, game.spec, {p.name: p.default for p in params_spec}, public=public)
    spec = game.spec

    # The factory is a class, as in OpenSpiel's own Python games: pyspiel keeps it for the life of the process
    # (a closure would be freed without the GIL when the process exits).
    factory = type(
        f"OpenSpielGame_{spec.short_name}",
        (OpenSpielGame,),
        {"_tabletop": game, "_game_type": game_type, "_params_spec": params_spec, "__module__": __name__},
    )
    pyspiel.register_game(game_type, factory)
    return name


def load(game: Game[Any, Any, Any], **options: object) -> OpenSpielGame:
    """Register ``game`` if needed and load it with ``options`` (given as option values, not parameter text).

    >>> from tabletop_core.testing.kuhn import GAME
    >>> load(GAME).num_players()
    2
    """
    name = register(game)
    params_spec = {p.name: p for p in _params_of(game, {})} if options else {}
    params: dict[str, Any] = {}
    for key, value in options.items():
        if key not in params_spec:
            raise OptionError(f"{game.spec.short_name}: unknown option {key!r} (options: {sorted(params_spec)})")
        param = params_spec[key]
        if param.kind == "enum":
            params[key] = value.value if isinstance(value, Enum) else value
        elif param.kind == "json":
            params[key] = _param_text(unstructure(value))
        else:
            params[key] = value
    loaded = pyspiel.load_game(name, params)
    if not isinstance(loaded, OpenSpielGame):
        raise OptionError(f"pyspiel game {name!r} is not a tabletop-rules game")
    return loaded


def tabletop_state(state: object) -> Any:
    """The tabletop state inside an OpenSpiel state made by this adapter."""
    if not isinstance(state, OpenSpielState):
        raise TypeError(f"not a tabletop-rules OpenSpiel state: {type(state).__name__}")
    return state.tabletop


def with_tabletop_state(state: OpenSpielState, tabletop: object) -> OpenSpielState:
    """A clone of ``state`` (same OpenSpiel history) that holds ``tabletop`` instead, with fresh recall digests."""
    clone: OpenSpielState = state.clone()
    clone._node = _Node(state._node.ctx, tabletop)
    return clone


def _resample(state: OpenSpielState, player: int, rng: np.random.Generator) -> OpenSpielState:
    node = state._node
    world = node.ctx.game.determinize(node.state, player, rng)
    # The resampling player keeps its information state (and the public one); the others start afresh.
    clone: OpenSpielState = state.clone()
    clone._node = _Node(node.ctx, world, origin=(node, player))
    return clone


def make_resampler(seed: int | None = None) -> Callable[[OpenSpielState, int], OpenSpielState]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` built on the game's ``determinize``.

    The sampled state keeps ``player``'s view (and so its information state string); hidden facts are drawn
    uniformly among those consistent with it.
    """
    rng = np.random.default_rng(seed)

    def resample(state: OpenSpielState, player: int) -> OpenSpielState:
        return _resample(state, int(player), rng)

    return resample


# ----- a JSON-only document for a game and state ---------------------------------------------------------------


def dumps(state: OpenSpielState) -> str:
    """The game and ``state`` as one JSON document, with no pickle anywhere (unlike OpenSpiel's own format).

    The document holds the game string (short name and parameters), OpenSpiel's history and our JSON of the state;
    :func:`loads` reads it back. A state whose history does not lead to it (one made by
    ``OpenSpielGame.state_from_tabletop``, :func:`with_tabletop_state` or a resampler) is marked ``"position": true``
    and loads as ``state_from_tabletop`` of the stored state, with an empty history. Use it where OpenSpiel's
    ``serialize_game_and_state`` (a base64 pickle envelope, see the module docstring) is not wanted.

    >>> from tabletop_core.testing.kuhn import GAME
    >>> state = load(GAME).new_initial_state()
    >>> for action in (2, 0, 1):
    ...     state.apply_action(action)
    >>> back = loads(dumps(state))
    >>> back.history(), tabletop_state(back) == tabletop_state(state)
    ([2, 0, 1], True)
    """
    if not isinstance(state, OpenSpielState):
        raise TypeError(f"not a tabletop-rules OpenSpiel state: {type(state).__name__}")
    doc = {
        "format": _DOCUMENT_FORMAT,
        "version": _DOCUMENT_VERSION,
        "game": str(state.get_game()),
        "history": [int(a) for a in state.history()],
        "state": to_json(state.tabletop),
        "position": not _replays_to(state),
    }
    return json.dumps(doc, separators=(",", ":"))


def _replays_to(state: OpenSpielState) -> bool:
    """Whether replaying ``state``'s OpenSpiel history from the start reaches its tabletop state."""
    try:
        return bool(_replay(state.get_game(), state.history()).tabletop == state.tabletop)
    except Exception:  # an id that does not apply from the start: a position's history (any error the game raises)
        return False


def loads(text: str) -> OpenSpielState:
    """Read a :func:`dumps` document: load the game, replay the history and check it reaches the stored state.

    A document marked ``"position": true`` is not replayed: it loads as the game's ``state_from_tabletop`` of the
    stored state (checked by ``from_json``), with an empty history.

    A game that is not registered yet is found among the installed games (``tabletop_core.load_game``) by its short
    name without the ``python_`` prefix.

    Raises:
        StateFormatError: malformed input, an unknown game, a history that does not apply or does not lead to the
            stored state.
    """
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise StateFormatError(f"not a JSON document: {exc}") from exc
    if (
        type(doc) is not dict
        or set(doc) - {"position"} != {"format", "version", "game", "history", "state"}
        or type(doc.get("position", False)) is not bool
        or doc["format"] != _DOCUMENT_FORMAT
        or doc["version"] != _DOCUMENT_VERSION
        or type(doc["game"]) is not str
        or type(doc["history"]) is not list
        or not all(type(a) is int for a in doc["history"])
        or type(doc["state"]) is not str
    ):
        raise StateFormatError(f"not a {_DOCUMENT_FORMAT} document (version {_DOCUMENT_VERSION})")
    try:
        game = _load_game_string(doc["game"])
    except Exception as exc:  # pyspiel and the registry raise their own types for unknown games and bad parameters
        raise StateFormatError(f"cannot load game {doc['game']!r}: {exc}") from exc
    if not isinstance(game, OpenSpielGame):
        raise StateFormatError(f"{doc['game']!r} is not a tabletop-rules game")
    stored = from_json(game.tabletop_game, doc["state"])
    if doc.get("position", False):
        # A position (state_from_tabletop, with_tabletop_state, a resampled world): its history does not lead to it.
        try:
            return game.state_from_tabletop(stored)
        except OptionError as exc:
            raise StateFormatError(f"the stored position does not belong to {doc['game']!r}: {exc}") from exc
    try:
        state = _replay(game, doc["history"])
    except Exception as exc:  # an illegal id raised by the game through pyspiel
        raise StateFormatError(f"the history does not apply: {exc}") from exc
    if state.tabletop != stored:
        raise StateFormatError("the history does not lead to the stored state")
    return state


def _replay(game: OpenSpielGame, history: list[int]) -> OpenSpielState:
    state: OpenSpielState = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _load_game_string(text: str) -> Any:
    """``pyspiel.load_game(text)``, registering an installed tabletop game first if its name is not known yet."""
    name = text.split("(", 1)[0]
    if name not in pyspiel.registered_names() and name.startswith("python_"):
        register(load_game(name.removeprefix("python_")))
    return pyspiel.load_game(text)


def _state_from_serialized(text: str) -> Any:
    """``pyspiel.deserialize_game_and_state(text)``'s state, registering an installed tabletop game first."""
    lines = text.splitlines()
    if "[Game]" in lines and lines.index("[Game]") + 1 < len(lines):  # OpenSpiel's layout: the game string follows
        _load_game_string(lines[lines.index("[Game]") + 1])
    return pyspiel.deserialize_game_and_state(text)[1]


# ----- every installed game, registered on import ---------------------------------------------------------------


def register_installed() -> dict[str, str]:
    """Register every installed game (the ``tabletop.games`` entry points); runs when this module is imported.

    A game whose module fails to import, or that cannot be registered, is skipped with a ``RuntimeWarning`` naming
    it and the reason, so one broken plug-in never breaks the adapter.

    Returns:
        Entry-point name -> pyspiel short name, for the games registered.
    """
    registered: dict[str, str] = {}
    for entry in available_games():
        try:
            registered[entry] = register(load_game(entry))
        except Exception as exc:  # a plug-in may fail in any way; skip it and say why
            warnings.warn(
                f"tabletop_core.adapters.openspiel: installed game {entry!r} not registered: "
                f"{type(exc).__name__}: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )
    return registered


#: The installed games registered when this module was imported: entry-point name -> pyspiel short name.
INSTALLED: dict[str, str] = register_installed()
