"""``tabletop serve``: run the game server (needs the ``server`` extra)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers) -> None:
    p = sub.add_parser("serve", help="run the game server: a lobby, matches with people and bots, a database")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    p.add_argument("--database", default="sqlite:///tabletop.db", help="SQLAlchemy URL (default: sqlite file)")
    p.add_argument("--rate", type=int, default=100, help="requests a client may make in any 10 s (default: 100)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        import uvicorn

        from tabletop_core.server.app import build_app
    except ModuleNotFoundError as exc:
        sys.stderr.write(f"tabletop serve needs the server extra ({exc.name}): pip install -e '.[server]' in a clone\n")
        return 2
    app = build_app(args.database, rate=args.rate)
    out.write(f"tabletop serve: http://{args.host}:{args.port}/ (database {args.database.split('@')[-1]})\n")
    out.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
