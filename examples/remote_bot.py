"""A remote bot for ``tabletop serve``, in plain Python with httpx only (no import of tabletop-rules).

    python examples/remote_bot.py --server http://127.0.0.1:8000 [--game unrest]
    python examples/remote_bot.py --server URL --match ID --token T
    python examples/remote_bot.py            # starts `tabletop serve` on a free loopback port for the run

A server answers a client that asks too often with status 429 and a ``Retry-After`` header; the bot waits that long.

Without ``--match`` it creates a match with itself in seat 0 and a built-in bot in the others; it then plays its
seat to the end (the first legal move each time; a real bot chooses better) and prints the final returns.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx


@contextlib.contextmanager
def local_server(rate: str | None = None) -> Iterator[str]:
    """A `tabletop serve` of the installed command on a free loopback port and a temporary database."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'matches.db'}"
        command = [sys.executable, "-m", "tabletop_core.cli", "serve", "--port", str(port), "--database", database]
        if rate is not None:
            command += ["--rate", rate]
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    httpx.get(f"{url}/api/games", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="the server's URL (default: start a local one for this run)")
    parser.add_argument("--game", default="unrest")
    parser.add_argument("--seats", type=int, default=2, help="the game's number of seats (new match only)")
    parser.add_argument("--opponent", default="bot:random", help="the built-in bot in the other seats")
    parser.add_argument("--match")
    parser.add_argument("--token")
    parser.add_argument("--rate", help="the local server's --rate (default: the server's)")
    args = parser.parse_args(argv)
    if args.server is None:
        with local_server(args.rate) as url:
            return play(url, args)
    return play(args.server, args)


def call(http: httpx.Client, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """One request; a 429 (too many requests) is waited out for the server's ``Retry-After`` seconds and retried."""
    while True:
        answer = http.request(method, url, **kwargs)
        if answer.status_code != 429:
            return answer
        time.sleep(float(answer.headers.get("retry-after", "1")))


def play(server: str, args: argparse.Namespace) -> int:
    """Play one seat of a match to its end on ``server``; prints the returns."""
    with httpx.Client(base_url=server, timeout=30) as http:
        return play_on(http, args)


def play_on(http: httpx.Client, args: argparse.Namespace) -> int:
    """Play one seat of a match to its end through ``http`` (a client whose base URL is the server)."""
    if args.match:
        match, token = args.match, args.token
    else:
        seats = ["open"] + [args.opponent] * (args.seats - 1)
        made = call(http, "POST", "/api/matches", json={"game": args.game, "seats": seats})
        made.raise_for_status()
        match, token = made.json()["match"], made.json()["seats"][0]["token"]
    headers = {"authorization": f"Bearer {token}"}
    pick = random.Random(0)
    while True:
        view = call(http, "GET", f"/api/matches/{match}", headers=headers).json()
        if "error" in view:
            sys.stderr.write(f"remote_bot: {view['error']}\n")
            return 1
        if view["finished"]:
            print(f"match {match} over; returns {view['returns']}")
            return 0
        if not view["legal"]:
            time.sleep(0.2)  # another seat (a person) is to move
            continue
        choice = pick.choice(view["legal"])
        sent = call(
            http,
            "POST",
            f"/api/matches/{match}/moves",
            headers=headers,
            json={"move": view["move"], "action": choice["id"]},
        )
        if sent.status_code not in (200, 409):  # 409: a stale move number; read the view again
            sys.stderr.write(f"remote_bot: {sent.json()['error']}\n")
            return 1


if __name__ == "__main__":
    raise SystemExit(main())
