"""State invariants (what a loaded state must satisfy) and options that are values, not I/O."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from tabletop_core.errors import OptionError, StateFormatError
from tabletop_core.serialize import from_json, to_json
from tests.unbroken.helpers import GAME, cond, fresh
from unbroken.invariants import validate_state
from unbroken.state import Combat, Options


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"weapons": ("bare_hands", "laser")}, "'laser'"),
        ({"skills": ("juggling",)}, "'juggling'"),
        ({"conditions": cond("sunburnt")}, "'sunburnt'"),
        ({"conditions": cond("poisoned", tokens=-2)}, "-2"),
        ({"monster": "dragon"}, "'dragon'"),
        ({"uses": 7}, "7"),
        ({"revealed": (999,)}, "999"),
        ({"offered": (555,)}, "555"),
        ({"outcome": 3}, "3"),
        ({"weapons": ("knife",)}, "knife"),
    ],
)
def test_validate_state_messages_name_the_offending_value(changes: dict[str, Any], named: str) -> None:
    bad = attrs.evolve(fresh(), **changes)
    with pytest.raises(ValueError, match=named):
        validate_state(bad)
    with pytest.raises(StateFormatError, match=named):
        from_json(GAME, to_json(bad))


def test_validate_state_names_an_unknown_monster_on_the_tracker() -> None:
    bad = attrs.evolve(fresh(), combat=Combat("dragon", 0, 0, 5, 5))
    with pytest.raises(ValueError, match="'dragon'"):
        validate_state(bad)


def test_options_are_plain_values_and_the_pack_is_bound_where_options_are_made(tmp_path: Path) -> None:
    # Building an Options value reads no file and fills nothing in: a pack never given is not looked for.
    missing = "nowhere"
    opts = Options(pack=missing)
    assert opts.pack_sha256 == ""
    # make_options binds the pack by name and SHA-256, and refuses a pack it was never given (a path is no name).
    with pytest.raises(OptionError, match="unknown unbroken pack"):
        GAME.make_options(pack=missing)
    with pytest.raises(OptionError, match="not a pack name"):
        GAME.make_options(pack=str(tmp_path / "nowhere.toml"))
    assert GAME.make_options().pack_sha256 == ""
