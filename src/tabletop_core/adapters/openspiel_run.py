"""Run one of OpenSpiel's own scripts with every installed game registered (extra ``openspiel``).

``python -m tabletop_core.adapters.openspiel_run MODULE [FLAGS...]`` imports :mod:`tabletop_core.adapters.openspiel`
(which registers every installed game as ``python_<name>``), then runs ``MODULE`` as ``__main__`` with ``FLAGS`` as
its command line, exactly as ``python -m MODULE FLAGS...`` would; for example
``python -m tabletop_core.adapters.openspiel_run open_spiel.python.examples.example --game_string=python_unrest``
or ``... open_spiel.python.examples.mcts --game=python_unbroken --quiet``.

In your own code, ``import tabletop_core.adapters.openspiel`` before ``pyspiel.load_game`` does the same.
"""

from __future__ import annotations

import runpy
import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    """Register the installed games, then run ``argv[0]`` (a module name) as ``__main__`` with ``argv[1:]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0].startswith("-"):
        raise SystemExit("usage: python -m tabletop_core.adapters.openspiel_run MODULE [FLAGS...]")
    import tabletop_core.adapters.openspiel  # noqa: F401  # registers every installed game on import

    sys.argv = [args[0], *args[1:]]
    runpy.run_module(args[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
