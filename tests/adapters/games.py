"""The games the adapter tests run on: our own test games plus every installed game that imports cleanly.

The list of library games is built from ``tabletop_core.available_games()`` (the ``tabletop.games`` entry points),
keeping those whose module loads, so a game joins these tests as soon as it lands and a half-written one cannot
break them. Kuhn poker (the framework's test game, ``tabletop_core.testing.kuhn``) is always there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tabletop_core import available_games, load_game
from tabletop_core.testing.kuhn import GAME as KUHN
from tests.adapters.solo import GAME as SOLO
from tests.adapters.solo import KUHN_RECALL, NIM, Scoring


def installed_games() -> dict[str, Any]:
    """Every installed game whose module imports cleanly, by entry-point name."""
    found: dict[str, Any] = {}
    for name in available_games():
        try:
            found[name] = load_game(name)
        except Exception:  # a game still being written may fail to import in any way; leave it out
            continue
    return found


INSTALLED = installed_games()

#: One solo Runebound fight per enemy trait (warrior, mystic, savage, trickster board).
RUNEBOUND_FIGHTS: Mapping[str, Mapping[str, Any]] = {
    "warrior": {"heroes": ("Lord Hawthorne",), "enemies": ("Orc Brigand",)},
    "mystic": {"heroes": ("Elian",), "enemies": ("Sorcerer",)},
    "savage": {"heroes": ("Tatianna",), "enemies": ("Thornback Boar",)},
    "trickster": {"heroes": ("Master Thorn",), "enemies": ("Mirror Imp",)},
}

#: The option sets ("variants") each library game is tested with; a game not listed runs with its defaults. Every
#: variant listed for an installed game must be valid for it (a renamed option fails the tests, it is not dropped).
LIBRARY_VARIANTS: Mapping[str, tuple[Mapping[str, Any], ...]] = {
    # The research game (one round of a small deck; not the published game) is a Capitol game.
    "unrest": ({"variant": "standard"}, {"variant": "capitol"}, {"variant": "capitol", "research": True}),
    "unbroken": (
        *({"difficulty": d, "character": c} for d in ("easy", "normal", "hard") for c in ("sneak", "sage")),
        {"difficulty": "normal", "character": "hunter"},
        {"difficulty": "hard", "character": "brawler"},
        {"difficulty": "easy", "character": "hunter", "easy_se15": True},
    ),
    "runebound_coop": (
        *RUNEBOUND_FIGHTS.values(),
        {"heroes": ("Elian", "Tatianna"), "enemies": ("Sorcerer", "Orc Brigand")},
        {"heroes": ("Corbin", "Lissa", "Elder Mok"), "enemies": ("Ogre", "Bog Ravager", "Masked Duelist"), "act": 2},
        {"heroes": ("Elian",), "enemies": ("Sorcerer",), "enemy_choices": "damage"},
        {"heroes": ("Elian",), "enemies": ("Sorcerer",), "enemy_choices": "player"},
        # The rulebook's "stay in the battle" choice as option `retreat` (a Withdraw decision each round end).
        {"heroes": ("Lord Hawthorne",), "enemies": ("Ogre",), "retreat": True},
        # Assets and skill cards per hero: nested and optional options, which travel as JSON game parameters.
        {
            "heroes": ("Corbin", "Elian"),
            "enemies": ("Ogre", "Sorcerer"),
            "assets": (("Short Bow", "Valorous Blade"), ("Truesight Bow",)),
            "cards": (("Twin Blades", "Field Dressing"), ("Field Dressing",)),
            "hand": 3,
            "retreat": True,
        },
    ),
}

TEST_GAMES: dict[str, Any] = {"kuhn": KUHN, "solo": SOLO, "kuhn_recall": KUHN_RECALL, "nim": NIM}
TEST_VARIANTS: Mapping[str, tuple[Mapping[str, Any], ...]] = {
    "solo": ({}, {"target": 12, "turns": 5, "bust_faces": (1, 2), "scoring": Scoring.POINTS}),
    "kuhn": ({},),
    "kuhn_recall": ({},),
    "nim": ({}, {"pile": 1}),
}


@attrs.frozen
class Case:
    """One game with one set of options."""

    name: str
    game: Any
    options: Mapping[str, Any]

    @property
    def id(self) -> str:
        """A readable test id."""
        opts = ",".join(f"{k}={getattr(v, 'value', v)}" for k, v in sorted(self.options.items()))
        return f"{self.name}({opts})" if opts else self.name


def cases(*, players: int | None = None) -> list[Case]:
    """Every (game, variant) pair, optionally only those with ``players`` players."""
    out = []
    for name, game in {**INSTALLED, **TEST_GAMES}.items():
        variants = TEST_VARIANTS.get(name) or LIBRARY_VARIANTS.get(name) or ({},)
        for options in variants:
            state = game.initial_state(game.make_options(**options))  # an invalid variant fails loudly here
            if players is not None and game.num_players(state) != players:
                continue
            out.append(Case(name, game, options))
    return out


def installed(*names: str) -> list[str]:
    """Those of ``names`` that are installed and import cleanly."""
    return [n for n in names if n in INSTALLED]
