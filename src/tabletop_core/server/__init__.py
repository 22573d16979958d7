"""``tabletop serve``: an authoritative game server with a lobby, seats for people and bots, and a database.

- :mod:`tabletop_core.server.store`: the matches table (SQLAlchemy; alembic migrations run at start-up).
- :mod:`tabletop_core.server.matches`: creating matches, applying moves through ``step``, each seat's view.
- :mod:`tabletop_core.server.app`: the Starlette application (JSON API, WebSockets, pages).
"""

from __future__ import annotations

__all__: list[str] = []
