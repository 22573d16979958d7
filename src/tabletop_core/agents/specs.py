"""Agent specs: a short text that names an agent and its parameters, and the seats an agent can play.

A spec is ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE`` for an installed agent, or ``package.module:Class``
(optionally followed by ``:KEY=VALUE,...``, passed to the constructor) for a class. Values are read as JSON, else as
text.

**The registry of installed agents.** A name resolves against the built-in agents below and the agents installed
packages publish in the ``tabletop.agents`` entry-point group (``unrest-empire = "unrest.bots:EmpireBot"`` in a
``pyproject.toml``; the entry point is a class or a function taking the spec's parameters as keyword arguments and
returning an agent). A ``package.module:Class`` spec whose target an installed entry point publishes resolves
through that entry point too. Any other ``package.module:Class`` is imported only when the caller passes
``allow_import=True``, which the command line does only for its own options and only behind
``--allow-import-agent``: a spec read from a file (a saved game, a results folder) never imports a module.

The built-in names:

=============  ==========================================================================================
``random``     :class:`~tabletop_core.agents.RandomAgent`
``first``      :class:`~tabletop_core.agents.FirstAgent`
``heuristic``  the game's own bot for the seat (``Game.default_agents(state)[seat]``)
``mcts``       :class:`~tabletop_core.agents.MCTSAgent` (its keyword arguments as parameters)
``ismcts``     :class:`~tabletop_core.agents.ISMCTSAgent` (its keyword arguments as parameters)
=============  ==========================================================================================

**Seat-bound agents.** An agent class (or instance) may declare the seats it can play with a class attribute
``seats``: a tuple of seat indices. Without it the agent can play any seat. Simulation never seats an agent in a
seat it does not declare, so rotating seats cannot put the Empire's bot in the Rebellion's chair. ``heuristic``
can play every seat, because it resolves to the game's bot for the seat it is given.

>>> from tabletop_core.testing.kuhn import GAME
>>> spec = parse_agent_spec("mcts:iterations=50,exploration=2")
>>> spec.kind, dict(spec.params)
('mcts', {'iterations': 50, 'exploration': 2})
>>> spec.build(GAME, GAME.initial_state(GAME.make_options()), 0)
MCTSAgent(iterations=50, seconds=None, exploration=2, rollout='random')
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from tabletop_core.errors import OptionError, did_you_mean

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = [
    "AGENT_ENTRY_POINT_GROUP",
    "BUILTIN_AGENTS",
    "AgentSpec",
    "declared_seats",
    "installed_agents",
    "parse_agent_spec",
    "resolve_seat",
    "seat_names",
]

S = TypeVar("S")

#: The names of the built-in agents a spec may use.
BUILTIN_AGENTS = ("random", "first", "heuristic", "mcts", "ismcts")

#: The entry-point group through which installed packages publish agents.
AGENT_ENTRY_POINT_GROUP = "tabletop.agents"

#: What the refusal of an unregistered module path says.
IMPORT_FLAG = "--allow-import-agent"


def _agent_entry_points() -> tuple[EntryPoint, ...]:
    return tuple(entry_points(group=AGENT_ENTRY_POINT_GROUP))


def installed_agents() -> tuple[str, ...]:
    """The names a spec may use without importing anything itself: the built-in ones, then the published ones.

    >>> installed_agents()[:5]
    ('random', 'first', 'heuristic', 'mcts', 'ismcts')
    """
    published = sorted({ep.name for ep in _agent_entry_points()} - set(BUILTIN_AGENTS))
    return (*BUILTIN_AGENTS, *published)


def _published(name: str = "", target: str = "") -> EntryPoint | None:
    for ep in _agent_entry_points():
        if (name and ep.name == name) or (target and ep.value.replace(" ", "") == target):
            return ep
    return None


def declared_seats(agent: object) -> frozenset[int] | None:
    """The seats an agent class or instance declares it can play (its ``seats`` attribute), or ``None`` for any.

    >>> class EmpireOnly:
    ...     seats = (1,)
    >>> declared_seats(EmpireOnly), declared_seats(object)
    (frozenset({1}), None)
    """
    seats = getattr(agent, "seats", None)
    if seats is None:
        return None
    if isinstance(seats, int) or not all(isinstance(s, int) for s in seats):
        raise OptionError(f"{agent!r}: its seats attribute must be a tuple of seat indices, not {seats!r}")
    return frozenset(seats)


def seat_names(game: Game[S, Any, Any], state: S) -> tuple[str, ...]:
    """The name of every seat: ``game.seat_name(state, player)`` where the game offers it, else ``player N``."""
    namer = getattr(game, "seat_name", None)
    n = game.num_players(state)
    if namer is None:
        return tuple(f"player {p}" for p in range(n))
    return tuple(str(namer(state, p)) for p in range(n))


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _params(text: str, spec: str) -> tuple[tuple[str, Any], ...]:
    if not text:
        return ()
    pairs = []
    for item in text.split(","):
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"agent spec {spec!r}: parameter {item!r} must read key=value")
        pairs.append((key.strip(), _value(raw.strip())))
    return tuple(pairs)


@attrs.frozen
class AgentSpec:
    """A parsed agent spec: what to build for a seat.

    Attributes:
        text: the spec as written (also the agent's label in results).
        kind: a name of :data:`BUILTIN_AGENTS`, ``installed`` for an agent published in the ``tabletop.agents``
            entry-point group, or ``class`` for a class imported by module path (only with ``allow_import``).
        target: for ``installed`` and ``class``, the ``module:Class`` path; empty otherwise.
        params: the keyword arguments, in the order written.
    """

    text: str
    kind: str
    target: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    def _class(self) -> Any:
        try:
            if self.kind == "installed":
                ep = _published(target=self.target)
                if ep is None:
                    raise OptionError(f"agent spec {self.text!r}: {self.target!r} is no longer installed")
                return ep.load()
            module, _, name = self.target.partition(":")
            return getattr(import_module(module), name)
        except (ImportError, AttributeError) as exc:
            raise OptionError(f"agent spec {self.text!r}: cannot load {self.target!r}: {exc}") from exc

    def seats(self) -> frozenset[int] | None:
        """The seats this agent can play (``None``: any)."""
        return declared_seats(self._class()) if self.kind in ("class", "installed") else None

    def build(self, game: Game[S, Any, Any], state: S, seat: int) -> Any:
        """A fresh agent for ``seat`` of ``game`` (``state`` is the initial state, for ``heuristic``)."""
        from tabletop_core.agents import FirstAgent, ISMCTSAgent, MCTSAgent, RandomAgent

        kwargs = dict(self.params)
        factories: dict[str, Callable[..., Any]] = {
            "random": RandomAgent,
            "first": FirstAgent,
            "mcts": MCTSAgent,
            "ismcts": ISMCTSAgent,
        }
        try:
            if self.kind == "heuristic":
                if kwargs:
                    raise OptionError(f"agent spec {self.text!r}: heuristic takes no parameters")
                return game.default_agents(state)[seat]
            factory = self._class() if self.kind in ("class", "installed") else factories[self.kind]
            _check_params(factory, kwargs, self.text)
            return factory(**kwargs)
        except TypeError as exc:
            raise OptionError(f"agent spec {self.text!r}: {exc}") from exc


#: What a parameter annotated with one of these types must be given as, in words.
_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "int": ((int,), "a whole number"),
    "float": ((int, float), "a number"),
    "bool": ((bool,), "true or false"),
    "str": ((str,), "a word"),
}


def _check_params(factory: Callable[..., Any], kwargs: dict[str, Any], spec: str) -> None:
    """Refuse, in the spec's words, a parameter ``factory`` does not take or a value of the wrong type.

    Only what the signature says is checked: a parameter whose annotation names other types than ``int``,
    ``float``, ``bool``, ``str`` and ``None`` is left to the agent.

    Raises:
        OptionError: an unknown parameter (with the closest name) or a value of the wrong type.
    """
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # no signature to read (a builtin): the agent checks for itself
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    named = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    for key, value in kwargs.items():
        if key not in params:
            takes = ", ".join(named) if named else "no parameters"
            raise OptionError(
                f"agent spec {spec!r}: unknown parameter {key!r}{did_you_mean(key, named)} (takes {takes})"
            )
        annotation = params[key].annotation
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        parts = [part.strip() for part in text.split("|")] if text else []
        if not parts or any(part not in (*_KINDS, "None") for part in parts):
            continue
        if value is None and "None" in parts:
            continue
        kinds = [_KINDS[part] for part in parts if part != "None"]
        if any(isinstance(value, types) and (bool in types or not isinstance(value, bool)) for types, _ in kinds):
            continue
        wanted = " or ".join(words for _, words in kinds)
        raise OptionError(f"agent spec {spec!r}: {key} must be {wanted}, not {value!r}")


def parse_agent_spec(text: str, *, allow_import: bool = False) -> AgentSpec:
    """Read an agent spec (see the module docs) and resolve it against the registry of installed agents.

    >>> parse_agent_spec("unrest-empire").target
    'unrest.bots:EmpireBot'
    >>> parse_agent_spec("unrest.bots:EmpireBot").kind  # published, so no import of a path is needed
    'installed'
    >>> parse_agent_spec("mcts:seconds=0.5").params
    (('seconds', 0.5),)
    >>> parse_agent_spec("os:system:command=true")
    Traceback (most recent call last):
    ...
    tabletop_core.errors.OptionError: agent spec 'os:system:command=true' names no installed agent ...

    Args:
        text: the spec.
        allow_import: let a ``package.module:Class`` that no installed package publishes be imported. Only for a
            spec a person typed on the command line with ``--allow-import-agent``, never for one read from a file.

    Raises:
        OptionError: for a name no installed agent has, a module path without ``allow_import``, or a malformed
            parameter.
    """
    if not isinstance(text, str):
        raise OptionError(f"agent spec {text!r}: not a text")
    text = text.strip()
    head, _, rest = text.partition(":")
    if head in BUILTIN_AGENTS:
        return AgentSpec(text, head, "", _params(rest, text))
    ep = _published(name=head) if head else None
    if ep is not None:
        return AgentSpec(text, "installed", ep.value.replace(" ", ""), _params(rest, text))
    name, _, params = rest.partition(":")
    shown = text if len(text) <= 80 else text[:77] + "..."
    if not rest or not name or not head.replace(".", "").replace("_", "").isalnum() or not name.isidentifier():
        raise OptionError(
            f"agent spec {shown!r}: not an installed agent ({', '.join(installed_agents())}) nor module:Class"
        )
    target = f"{head}:{name}"
    if _published(target=target) is not None:
        return AgentSpec(text, "installed", target, _params(params, text))
    if not allow_import:
        raise OptionError(
            f"agent spec {shown!r} names no installed agent ({', '.join(installed_agents())}); a class is imported "
            f"by its module path only from the command line, with {IMPORT_FLAG}, never from a file"
        )
    return AgentSpec(text, "class", target, _params(params, text))


def resolve_seat(key: str, names: Sequence[str]) -> int:
    """The seat index that ``key`` names: an index, ``player N``, or a seat name (case and spacing ignored).

    >>> resolve_seat("empire", ("Rebellion", "Empire")), resolve_seat("0", ("Rebellion", "Empire"))
    (1, 0)
    """

    def norm(s: str) -> str:
        return "".join(ch for ch in s.lower() if ch.isalnum())

    wanted = norm(key)
    if wanted.isdigit() and int(wanted) < len(names):
        return int(wanted)
    for i, name in enumerate(names):
        if wanted in (norm(name), f"player{i}", f"p{i}"):
            return i
    raise OptionError(f"no seat {key!r}: seats are {', '.join(f'{i} ({n})' for i, n in enumerate(names))}")
