"""The match store: one SQLAlchemy table, SQLite by default and PostgreSQL by URL, its schema kept by alembic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Integer,
    MetaData,
    Row,
    String,
    Table,
    Text,
    create_engine,
    make_url,
    select,
)

__all__ = ["MATCHES", "METADATA", "MatchRow", "Store"]

METADATA = MetaData()

#: One row a match: the state as the game's own JSON, the move log, the next client move number.
MATCHES = Table(
    "matches",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("seats", Text, nullable=False),
    Column("state", Text, nullable=False),
    Column("log", Text, nullable=False),
    Column("move_no", Integer, nullable=False),
    Column("finished", Boolean, nullable=False),
)


@attrs.frozen
class MatchRow:
    """A match as stored."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[dict[str, Any], ...]
    state: str
    log: tuple[dict[str, Any], ...]
    move_no: int
    finished: bool


def _row(r: Row[Any]) -> MatchRow:
    return MatchRow(
        id=r.id,
        game=r.game,
        options=json.loads(r.options),
        seed=int(r.seed),
        seats=tuple(json.loads(r.seats)),
        state=r.state,
        log=tuple(json.loads(r.log)),
        move_no=int(r.move_no),
        finished=bool(r.finished),
    )


class Store:
    """Matches in a database; every write is committed before the call returns."""

    def __init__(self, url: str) -> None:
        self.url = url
        # A pooled connection a database server has since closed (PostgreSQL restarted, a proxy's idle timeout) is
        # found and replaced at checkout, so no request fails on it. An SQLite file has no server to lose.
        server = make_url(url).get_backend_name() != "sqlite"
        self.engine: Engine = create_engine(url, pool_pre_ping=server)
        self.upgrade()

    def upgrade(self) -> None:
        """Bring the schema up to date with the committed migration scripts."""
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "_migrations"))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def insert(self, row: MatchRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(MATCHES.insert().values(**_values(row)))

    def commit(self, row: MatchRow, *, read_at: int) -> bool:
        """Store ``row`` over the match if the stored one is still at move ``read_at``; whether it was.

        The check and the write are one conditional ``UPDATE``, so of two writers that read the match at the same
        move (two servers on one database) exactly one succeeds; the other is told ``False`` and changes nothing.
        """
        with self.engine.begin() as conn:
            done = conn.execute(
                MATCHES.update().where(MATCHES.c.id == row.id, MATCHES.c.move_no == read_at).values(**_values(row))
            )
        return bool(done.rowcount == 1)

    def save(self, row: MatchRow) -> None:
        """Store ``row`` over the match, whatever move the stored one is at (moves go through :meth:`commit`)."""
        with self.engine.begin() as conn:
            conn.execute(MATCHES.update().where(MATCHES.c.id == row.id).values(**_values(row)))

    def get(self, match_id: str) -> MatchRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(MATCHES).where(MATCHES.c.id == match_id)).first()
        return None if r is None else _row(r)

    def ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(select(MATCHES.c.id))]


def _values(row: MatchRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "options": json.dumps(row.options),
        "seed": row.seed,
        "seats": json.dumps(list(row.seats)),
        "state": row.state,
        "log": json.dumps(list(row.log)),
        "move_no": row.move_no,
        "finished": row.finished,
    }
