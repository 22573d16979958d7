"""``make load``: concurrent bot-vs-bot matches through the protocol against a real ``tabletop serve`` on loopback.

Bounded in count and time: LOAD_MATCHES matches (default 50) played by remote bots over HTTP for LOAD_SECONDS
(default 60); prints moves per second, p50/p99 move latency and the error count. Not part of ``make test``.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.server.test_live import _free_port, _start


async def _bot(http: httpx.AsyncClient, stop: float, latencies: list[float], errors: list[str], seed: int) -> None:
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
                break
            seat = next(p for p, v in enumerate(views) if v["legal"])
            move = {"move": views[seat]["move"], "action": pick.choice(views[seat]["legal"])["id"]}
            start = time.perf_counter()
            r = await http.post(
                f"/api/matches/{made['match']}/moves", headers={"authorization": f"Bearer {tokens[seat]}"}, json=move
            )
            latencies.append(time.perf_counter() - start)
            if r.status_code != 200:
                errors.append(r.text)


async def _main(matches: int, seconds: float, base: str) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=matches)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        stop = time.monotonic() + seconds
        await asyncio.gather(*(_bot(http, stop, latencies, errors, k) for k in range(matches)))
    return latencies, errors


def main() -> int:
    matches = int(os.environ.get("LOAD_MATCHES", "50"))
    seconds = float(os.environ.get("LOAD_SECONDS", "60"))
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        proc = _start(Path(folder) / "load.db", port)
        try:
            began = time.monotonic()
            latencies, errors = asyncio.run(_main(matches, seconds, f"http://127.0.0.1:{port}"))
            took = time.monotonic() - began
        finally:
            proc.kill()
            proc.wait()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    print(
        f"{matches} matches, {took:.0f} s, SQLite: {len(latencies)} moves, {len(latencies) / took:.0f} moves/s, "
        f"p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, {len(errors)} errors"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
