"""Live play over WebSockets, and a real ``tabletop serve`` killed mid-match and started again."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def test_websocket_moves_are_acknowledged_and_every_watcher_is_sent_its_own_view(client: Any) -> None:
    made = client.post("/api/matches", json={"game": "unrest", "seats": ["human", "human"]}).json()
    mid, reb, emp = made["match"], made["seats"][0]["token"], made["seats"][1]["token"]
    with (
        client.websocket_connect(f"/ws/matches/{mid}?token={reb}") as a,
        client.websocket_connect(f"/ws/matches/{mid}?token={emp}") as b,
        client.websocket_connect(f"/ws/matches/{mid}") as watcher,
    ):
        va, vb, vw = a.receive_json()["view"], b.receive_json()["view"], watcher.receive_json()["view"]
        assert (va["seat"], vb["seat"], vw["seat"]) == (0, 1, None)
        assert va["legal"] and not vb["legal"] and not vw["legal"]
        a.send_text("{oops")
        assert "not JSON" in a.receive_json()["error"]
        a.send_json({"move": 0, "action": va["legal"][0]["id"]})
        assert a.receive_json() == {"type": "ack", "move": 0, "applied": True}
        assert a.receive_json()["view"]["seat"] == 0
        assert b.receive_json()["view"]["move"] == 1 and watcher.receive_json()["view"]["seat"] is None
    with client.websocket_connect(f"/ws/matches/{mid}?token=forged") as bad:
        assert bad.receive_json()["error"] == "the token holds no seat of this match"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).parent / "tabletop"
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--database", f"sqlite:///{db}", "--rate", "100000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("tabletop serve did not start")


def _play(base: str, mid: str, tokens: list[str], moves: int) -> dict[str, Any]:
    """Play up to ``moves`` moves (each seat's last legal move); the final spectator view."""
    for _ in range(moves):
        views = [
            httpx.get(f"{base}/api/matches/{mid}", headers={"authorization": f"Bearer {t}"}).json() for t in tokens
        ]
        if views[0]["finished"]:
            break
        seat = next(p for p, v in enumerate(views) if v["legal"])
        move = {"move": views[seat]["move"], "action": views[seat]["legal"][-1]["id"]}
        r = httpx.post(
            f"{base}/api/matches/{mid}/moves", headers={"authorization": f"Bearer {tokens[seat]}"}, json=move
        )
        assert r.status_code == 200, r.text
    view: dict[str, Any] = httpx.get(f"{base}/api/matches/{mid}").json()
    return view


def test_a_match_killed_mid_way_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    """SIGKILL the real server several times mid-match: the match goes on to the same end with the same seed."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    db = tmp_path / "m.db"
    proc = _start(db, port)
    try:
        made = [
            httpx.post(f"{base}/api/matches", json={"game": "unrest", "seats": ["human", "human"]}).json()
            for _ in range(2)
        ]
        ids = [m["match"] for m in made]
        toks = [[s["token"] for s in m["seats"]] for m in made]
        # Twin matches with the same seed: the server's seed is stored; give the second the first's.
        with sqlite3.connect(db) as conn:
            seed, state = conn.execute("SELECT seed, state FROM matches WHERE id = ?", (ids[0],)).fetchone()
            conn.execute("UPDATE matches SET seed = ?, state = ? WHERE id = ?", (seed, state, ids[1]))
        whole = _play(base, ids[0], toks[0], 10_000)
        for _ in range(3):
            _play(base, ids[1], toks[1], 7)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            proc = _start(db, port)
        cut = _play(base, ids[1], toks[1], 10_000)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert whole["finished"] and cut["finished"]
    assert {**whole, "match": ""} == {**cut, "match": ""}


def test_the_remote_bot_example_plays_a_match_to_the_end(tmp_path: Path) -> None:
    port = _free_port()
    proc = _start(tmp_path / "m.db", port)
    try:
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "remote_bot.py"), "--server", f"http://127.0.0.1:{port}"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert done.returncode == 0, done.stderr
    assert "over; returns [" in done.stdout


def test_the_documented_javascript_bot_waits_out_retry_after_and_finishes(tmp_path: Path) -> None:
    """The JavaScript bot of the serve guide, run by Node against a real server that allows 6 requests a second
    (few enough that even a loaded machine answers faster, so the bot is refused and must wait)."""
    import re
    import shutil
    import threading

    import pytest
    import uvicorn

    from tabletop_core.server.app import build_app

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    guide = (ROOT / "docs" / "serve.md").read_text()
    found = re.search(r"```text\n(const server = .*?)```", guide, re.S)
    assert found, "docs/serve.md holds no JavaScript bot"
    port = _free_port()
    source = found.group(1).replace('"http://127.0.0.1:8000"', f'"http://127.0.0.1:{port}"', 1)
    assert f":{port}" in source
    script = tmp_path / "bot.mjs"
    script.write_text(source)
    app = build_app(f"sqlite:///{tmp_path / 'matches.db'}", rate=6, window=1.0)
    statuses: list[int] = []

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])
            await send(message)

        await app(scope, receive, sending)

    server = uvicorn.Server(uvicorn.Config(counted, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=240, check=False)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert 429 in statuses and statuses[-1] == 200  # it was refused, waited, and went on
    assert re.fullmatch(r"returns \[-?[\d.]+,-?[\d.]+\]\n", done.stdout), done.stdout
