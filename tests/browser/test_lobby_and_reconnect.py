"""The lobby and match pages in a real headless Chromium: seats that follow the chosen game and its options, and a
match page that loses its server, says so, offers no move while it reconnects, and plays on once it is back."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from typing import Any

import httpx
import pytest

from tests.browser.test_play_in_browser import SEATS_SHOWN, WAIT

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _page(browser: Any, url: str) -> tuple[Any, list[str], list[str]]:
    """``url`` in a new page: the page, its script errors, and its other console errors."""
    page = browser.new_page()
    page.set_default_timeout(WAIT)
    thrown: list[str] = []
    logged: list[str] = []
    page.on("pageerror", lambda exc: thrown.append(str(exc)))
    page.on("console", lambda msg: logged.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    return page, thrown, logged


def _seats(page: Any, game: str, options: str) -> list[str]:
    """Choose ``game`` and type ``options`` in the lobby; the names of the seats it then offers."""
    page.wait_for_selector(f'#game option[value="{game}"]', state="attached")
    page.select_option("#game", game)
    page.fill("#options", options)
    page.wait_for_function(
        """() => document.getElementById('seats').dataset.shows ===
             document.getElementById('game').value + '\\n' + document.getElementById('options').value"""
    )
    names: list[str] = page.eval_on_selector_all(".seat", "ss => ss.map(s => s.dataset.name)")
    return names


def test_the_lobby_offers_the_seats_of_the_chosen_game_and_options(browser: Any, live_server: Any) -> None:
    page, thrown, logged = _page(browser, f"{live_server.base}/?seats=5")  # the page asks the server, not the URL
    try:
        assert _seats(page, "unrest", "{}") == ["Rebellion", "Empire"]
        assert _seats(page, "unbroken", "{}") == ["you"]
        heroes = '{"heroes": ["Elian", "Corbin", "Lissa"]}'
        assert _seats(page, "runebound_coop", heroes) == ["Elian", "Corbin", "Lissa"]
        assert page.locator(".seat").nth(2).input_value() == "human"
        page.locator(".seat").nth(2).select_option("bot:heuristic")
        both = '{"heroes": ["Elian", "Lissa"], "enemy_choices": "player"}'
        assert _seats(page, "runebound_coop", both) == ["Elian", "Lissa", "the enemy"]
        assert page.locator(".seat").nth(2).input_value() == "bot:heuristic"  # a seat kept keeps its choice
        assert page.locator("#create").is_enabled()

        page.fill("#options", '{"heroes": ["Nobody"]}')
        page.wait_for_function("() => document.getElementById('seat-note').textContent.includes('Nobody')")
        assert page.locator("#create").is_disabled()
        page.fill("#options", "{oops")
        page.wait_for_function("() => document.getElementById('seat-note').textContent === 'options: not JSON'")
        assert page.locator("#create").is_disabled()

        page.fill("#options", heroes)
        page.wait_for_function(SEATS_SHOWN, arg=3)
        assert page.locator("#seat-note").text_content() == ""
        page.click("#create")
        page.wait_for_selector("#watch")
        match = page.locator("#watch").get_attribute("href").rsplit("/", 1)[1]
        row = live_server.store.get(match)
        assert row is not None and [(s["kind"], s["agent"]) for s in row.seats] == [
            ("human", ""),
            ("human", ""),
            ("bot", "heuristic"),
        ]
        assert thrown == []
        # The refused options were answered 400, which the browser logs; nothing else is logged.
        assert all("status of 400" in line for line in logged), logged
    finally:
        page.close()


class _BlackHole:
    """A listener on a port that accepts connections and never answers: a server that is not back yet."""

    def __init__(self, port: int) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen()
        self.accepted: list[socket.socket] = []
        self.arrived = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted.append(conn)
            self.arrived.set()

    def close(self) -> None:
        """Stop listening (waking the blocked ``accept``, else the port stays taken) and drop every connection."""
        with contextlib.suppress(OSError):  # already shut down
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.thread.join(timeout=10)
        for conn in self.accepted:
            conn.close()


def test_a_move_clicked_while_the_page_reconnects_is_refused_and_the_match_plays_on(
    browser: Any, live_server: Any
) -> None:
    made = httpx.post(f"{live_server.base}/api/matches", json={"game": "unrest", "seats": ["human", "human"]}).json()
    mid, token = made["match"], made["seats"][0]["token"]
    page, thrown, logged = _page(browser, f"{live_server.base}/match/{mid}#token={token}")
    hole: _BlackHole | None = None
    try:
        page.wait_for_selector("#moves button.move:enabled")
        first = page.locator("#moves button.move").first
        action = int(first.get_attribute("data-action"))

        live_server.stop()  # the page's WebSocket is closed by the server going away
        hole = _BlackHole(live_server.port)
        assert hole.arrived.wait(WAIT / 1000), "the page did not try to reconnect"
        # The page's new socket is still connecting: a click now has no open socket to send on.
        first.click(force=True, timeout=WAIT)
        assert thrown == [], f"the click threw: {thrown}"
        assert page.locator("#connection").get_attribute("data-state") == "reconnecting"
        assert "reconnecting" in page.locator("#connection").text_content()
        assert all(b.is_disabled() for b in page.locator("#moves button.move").all())
        row = live_server.store.get(mid)
        assert row is not None and row.move_no == 0

        hole.close()
        hole = None
        live_server.start()
        page.wait_for_function("() => document.getElementById('connection').dataset.state === 'open'")
        page.locator(f'#moves button.move[data-action="{action}"]').click()
        page.wait_for_function("() => Number(document.getElementById('status').dataset.move) === 1")
        row = live_server.store.get(mid)
        assert row is not None and row.move_no == 1 and [e["action"] for e in row.log] == [action]
        assert page.locator("#connection").text_content() == ""
        assert thrown == []
        # While the server was away the browser logged its failed connection attempts; nothing else.
        assert all("WebSocket" in line for line in logged), logged
    finally:
        if hole is not None:
            hole.close()
        page.close()


def test_the_lobby_refuses_nothing_it_offers(live_server: Any) -> None:
    """Every game's offered seats are exactly what creating a match with them needs."""
    for game in httpx.get(f"{live_server.base}/api/games").json()["games"]:
        seats = httpx.get(f"{live_server.base}/api/games/{game}/seats", params={"options": json.dumps({})}).json()
        made = httpx.post(
            f"{live_server.base}/api/matches", json={"game": game, "seats": ["human"] * len(seats["seats"])}
        )
        assert made.status_code == 201, made.text
