"""The seventh session's fast paths give what the long way gives (see ``docs/performance.md``, "Unrest").

Each shortcut is checked against the plain computation on the states of seeded random playouts.
"""

from __future__ import annotations

import inspect

import attrs

from tabletop_core.flow import Pending
from tests.unrest.helpers import random_states
from unrest.state import UnrestState

_NAMES = tuple(f.name for f in attrs.fields(UnrestState))


def _stored_one_by_one(values: tuple[object, ...]) -> UnrestState:
    """A state made the long way: a bare instance, each field stored by name through ``object.__setattr__``."""
    state: UnrestState = object.__new__(UnrestState)
    for name, value in zip(_NAMES, values, strict=True):
        object.__setattr__(state, name, value)
    return state


def test_the_states_constructor_stores_every_field_as_attrs_would() -> None:
    # The hand-written constructor takes attrs' fields in attrs' order, with attrs' defaults.
    params = inspect.signature(UnrestState.__init__).parameters
    assert tuple(params)[1:] == _NAMES
    for f in attrs.fields(UnrestState):
        p = params[f.name]
        assert f.validator is None and f.converter is None and f.init and not f.kw_only
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        if f.name == "pending":
            assert f.default == attrs.Factory(Pending) and p.default is not inspect.Parameter.empty
        elif f.default is attrs.NOTHING:
            assert p.default is inspect.Parameter.empty
        else:
            assert p.default == f.default and type(p.default) is type(f.default)
    states = random_states(6, 71)
    for state in states:
        values = tuple(getattr(state, n) for n in _NAMES)
        made = UnrestState(*values)
        assert made == _stored_one_by_one(values)
        assert all(getattr(made, n) is v for n, v in zip(_NAMES, values, strict=True))
        assert UnrestState(**dict(zip(_NAMES, values, strict=True))) == made
        assert attrs.evolve(state, moves=()) == _stored_one_by_one((*values[:-3], (), *values[-2:]))
    # The defaults: a new empty pending stack each time, as attrs' factory gave.
    first = states[0]
    bare = UnrestState(*(getattr(first, n) for n in _NAMES[:9]))
    assert (
        bare.pending == Pending() and bare.pending is not UnrestState(*(getattr(first, n) for n in _NAMES[:9])).pending
    )
    assert bare == _stored_one_by_one((*(getattr(first, n) for n in _NAMES[:9]), (), (), -1, (), (), 0, False,
                                       Pending(), -1, (), (), ()))  # fmt: skip
