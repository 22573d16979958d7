"""``make load``: concurrent bot-vs-bot matches through the protocol against a real ``tabletop serve`` on loopback.

Bounded in count and time: LOAD_MATCHES matches (default 50) played by remote bots over HTTP for LOAD_SECONDS
(default 60) on each database; prints moves per second, p50/p99 move latency, the matches finished and the error
count. Not part of ``make test``.

``--database`` (repeatable; default: ``sqlite`` and ``postgresql``, or the comma-separated list in LOAD_DATABASE)
names where the matches are stored: ``sqlite`` is a new file in a temporary folder, ``postgresql`` a throwaway
PostgreSQL cluster made with the machine's ``initdb`` (see tests/server/postgres.py; left out, and said so, where
PostgreSQL is not installed), and anything else is taken as an SQLAlchemy URL of an existing database.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import attrs
import httpx

from tests.server.postgres import ClusterError, find_binaries, running_cluster, start_serve
from tests.server.test_live import _free_port


@attrs.define
class _Tally:
    latencies: list[float] = attrs.Factory(list)
    errors: list[str] = attrs.Factory(list)
    finished: int = 0


async def _bot(http: httpx.AsyncClient, stop: float, tally: _Tally, seed: int) -> None:
    pick = random.Random(seed)
    while time.monotonic() < stop:
        made = (await http.post("/api/matches", json={"game": "unrest", "seats": ["open", "open"]})).json()
        tokens = [s["token"] for s in made["seats"]]
        while time.monotonic() < stop:
            views = [
                (await http.get(f"/api/matches/{made['match']}", headers={"authorization": f"Bearer {t}"})).json()
                for t in tokens
            ]
            if views[0]["finished"]:
                tally.finished += 1
                break
            seat = next(p for p, v in enumerate(views) if v["legal"])
            move = {"move": views[seat]["move"], "action": pick.choice(views[seat]["legal"])["id"]}
            start = time.perf_counter()
            r = await http.post(
                f"/api/matches/{made['match']}/moves", headers={"authorization": f"Bearer {tokens[seat]}"}, json=move
            )
            tally.latencies.append(time.perf_counter() - start)
            if r.status_code != 200:
                tally.errors.append(r.text)


async def _main(matches: int, seconds: float, base: str) -> _Tally:
    tally = _Tally()
    # Idle connections are dropped before the server's keep-alive timeout (uvicorn's 5 s) ends them: else a request
    # may go out on a connection the server is just closing, and fail with a read error no server fault caused.
    limits = httpx.Limits(max_connections=matches, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        stop = time.monotonic() + seconds
        await asyncio.gather(*(_bot(http, stop, tally, k) for k in range(matches)))
    return tally


@contextmanager
def _database(name: str) -> Iterator[tuple[str, str] | str]:
    """(label, URL) of the database ``name`` stands for, for the block; or why it cannot be run here."""
    if name == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield "SQLite", f"sqlite:///{Path(folder) / 'load.db'}"
    elif name == "postgresql":
        binaries = find_binaries()
        if binaries is None:
            yield "PostgreSQL: not installed (no initdb and pg_ctl found), not run"
            return
        if importlib.util.find_spec("psycopg") is None:
            yield "PostgreSQL: its driver psycopg 3 is not installed (pip install 'psycopg[binary]'), not run"
            return
        with running_cluster(binaries, durable=True) as cluster:  # fsync on, as SQLite's commits are
            version = binaries.parent.name if binaries.parent.name[:1].isdigit() else ""
            yield f"PostgreSQL {version}".strip(), cluster.create_database("load")
    else:
        yield re.split(r"[+:]", name, maxsplit=1)[0], name


def run(matches: int, seconds: float, label: str, url: str) -> int:
    """One load run on ``url``: prints its line; the number of errors."""
    port = _free_port()
    proc = start_serve(url, port)
    try:
        began = time.monotonic()
        tally = asyncio.run(_main(matches, seconds, f"http://127.0.0.1:{port}"))
        took = time.monotonic() - began
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    lat = tally.latencies
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [0.0] * 99
    print(
        f"{matches} matches, {took:.0f} s, {label}: {len(lat)} moves, {len(lat) / took:.0f} moves/s, "
        f"p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, {tally.finished} matches finished, "
        f"{len(tally.errors)} errors",
        flush=True,
    )
    for error in tally.errors[:3]:
        print(f"  error: {error[:200]}", flush=True)
    return len(tally.errors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.server.load", description=__doc__.split("\n")[0])
    default = os.environ.get("LOAD_DATABASE", "sqlite,postgresql").split(",")
    parser.add_argument(
        "--database",
        action="append",
        metavar="sqlite|postgresql|URL",
        help="where the matches are stored (repeatable; default: sqlite, then postgresql where installed)",
    )
    args = parser.parse_args(argv)
    matches = int(os.environ.get("LOAD_MATCHES", "50"))
    seconds = float(os.environ.get("LOAD_SECONDS", "60"))
    failed = 0
    for name in args.database or default:
        try:
            with _database(name.strip()) as target:
                if isinstance(target, str):
                    print(target, flush=True)
                    continue
                failed += run(matches, seconds, *target)
        except ClusterError as exc:
            print(f"PostgreSQL is installed but its throwaway cluster failed: {exc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
