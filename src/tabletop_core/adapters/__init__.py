"""Adapters that plug any ``tabletop_core.Game`` into other frameworks.

Each adapter is generic over the game protocol (one adapter serves every game, a user's own included) and lives in
its own module behind an optional extra, so ``import tabletop_core`` never needs the framework:

- :mod:`tabletop_core.adapters.openspiel` (extra ``openspiel``): ``register(game)`` makes the game loadable with
  ``pyspiel.load_game("python_<name>")``, with OpenSpiel's bots and tests working on it.
- :mod:`tabletop_core.adapters.pettingzoo` (extra ``pettingzoo``): ``TabletopAECEnv(game)``, an AEC environment.
- :mod:`tabletop_core.adapters.gymnasium` (extra ``gymnasium``): ``TabletopEnv(game)``, a single-agent environment.

Importing a submodule without its framework installed raises ``ImportError`` naming the extra to install.
"""

from __future__ import annotations

__all__: list[str] = []
