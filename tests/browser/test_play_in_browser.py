"""Whole games played in a real headless Chromium against a real ``tabletop serve`` on loopback.

Each match is made in the lobby page; each human seat's invite link is opened in a browser context of its own (and a
spectator's watch link in another). Every move is a click on a button the page of the seat to move offers, chosen by
a seeded generator. After every move each page is checked against the server's view of its seat: the move number,
whose move it is, "(your move)" and the buttons (exactly the seat's legal moves) on the seat to move only, the log.
In Unrest the Empire's and the spectator's pages are checked never to show a Rebel card the public view has not
shown. At the end each page shows the result and the record link, and no page logged a console error.

The lobby picks a random seed for a match; each test then fixes it through the store before the first move (the
match's state is the game's start for that seed), so every run plays the same game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import attrs
import numpy as np
import pytest

from tabletop_core.registry import installed_game
from tabletop_core.serialize import state_from_json, to_json
from tabletop_core.server.matches import Matches
from tabletop_core.server.store import MatchRow, Store
from unrest.rules.cards import KINDS, MISDIRECTION, SUITS, suit_of, value_of
from unrest.state import REBELLION
from unrest.view import HIDDEN, UnrestView, card_words

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: How long a page may take to show a view (ms): generous, for a loaded 2-core machine.
WAIT = 20_000

# One round trip per page and move: once the page shows move ``n`` (or later), everything the checks read.
_SNAPSHOT = """n => {
  const s = document.getElementById('status');
  if (!s || s.dataset.move === undefined || Number(s.dataset.move) < n) return null;
  return {
    move: Number(s.dataset.move), toMove: s.dataset.toMove, seat: s.dataset.seat,
    finished: s.dataset.finished === 'true', status: s.textContent,
    title: document.getElementById('title').textContent,
    buttons: [...document.querySelectorAll('#moves button.move')].map(b => [Number(b.dataset.action), b.textContent]),
    log: [...document.querySelectorAll('#log li')].map(li => li.textContent),
    record: document.getElementById('record') ? document.getElementById('record').getAttribute('href') : null,
    svgTexts: [...document.querySelectorAll('#picture svg text')].map(  // what is drawn, not the <title> tips
      t => [...t.childNodes].filter(c => c.nodeType === Node.TEXT_NODE).map(c => c.data).join('')),
    html: document.body.innerHTML,
  };
}"""


#: Whether the lobby shows ``n`` seats, and they are the seats of the game and options its form holds now.
SEATS_SHOWN = """n => {
  const shown = document.getElementById('seats').dataset.shows;
  const form = document.getElementById('game').value + '\\n' + document.getElementById('options').value;
  return shown === form && document.querySelectorAll('.seat').length === n;
}"""


@dataclass
class _Seat:
    """One open match page: the seat it plays (``None``: a spectator) and the console errors it logged."""

    page: Any
    seat: int | None
    errors: list[str] = field(default_factory=list)


def _open(browser: Any, url: str, seat: int | None, contexts: list[Any]) -> _Seat:
    """``url`` in a new browser context (its own storage: another person's browser)."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    opened = _Seat(page, seat)
    page.on("console", lambda msg: opened.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: opened.errors.append(str(exc)))
    page.goto(url)
    return opened


def _create_in_lobby(lobby: _Seat, base: str, game: str, options: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """Fill the lobby page's form and create the match; its id, invite link per human seat, and watch link."""
    page = lobby.page
    page.goto(f"{base}/")
    page.wait_for_selector(f'#game option[value="{game}"]', state="attached")
    page.select_option("#game", game)
    page.fill("#options", json.dumps(options))
    # The server says how many seats the game has with these options; the page offers that many.
    page.wait_for_function(SEATS_SHOWN, arg=len(seats))
    for i, kind in enumerate(seats):
        page.locator(".seat").nth(i).select_option(kind)
    page.click("#create")
    page.wait_for_selector("#watch")
    invites = {int(a.get_attribute("data-seat")): a.get_attribute("href") for a in page.locator("a.invite").all()}
    assert set(invites) == {i for i, kind in enumerate(seats) if kind == "human"}
    assert all(link.startswith(f"{base}/match/") and len(link.split("#token=")[1]) > 20 for link in invites.values())
    watch = page.locator("#watch").get_attribute("href")
    assert watch.startswith(f"{base}/match/")
    assert page.locator("#hotseat").get_attribute("href").startswith(watch + "#hotseat=")
    return {"match": watch.rsplit("/", 1)[1], "invites": invites, "watch": watch}


def _pin_seed(store: Store, match_id: str, seed: int) -> None:
    """Give a match that has not moved yet the seed ``seed`` (and the game's start for it), as the server would."""
    row = store.get(match_id)
    assert row is not None and row.move_no == 0 and not row.log
    game = installed_game(row.game)
    state = game.new_game(rng=np.random.default_rng((seed, 0, 0)), **row.options)
    store.save(attrs.evolve(row, seed=seed, state=to_json(state), finished=game.is_terminal(state)))


def _snapshot(seat: _Seat, move: int) -> dict[str, Any]:
    handle = seat.page.wait_for_function(_SNAPSHOT, arg=move, timeout=WAIT)
    snap: dict[str, Any] = handle.json_value()
    assert snap["move"] == move, f"seat {seat.seat}'s page shows move {snap['move']}, the match is at {move}"
    return snap


def _check_turn(matches: Matches, row: MatchRow, seat: _Seat, snap: dict[str, Any]) -> None:
    """The page shows what the server tells its seat: whose move, the seat's legal moves as buttons, its log."""
    view = matches.view(row, seat.seat)
    name = "spectator" if seat.seat is None else view["seats"][seat.seat]["name"]
    assert snap["title"] == f"{row.game} - {name}"
    assert snap["seat"] == ("" if seat.seat is None else str(seat.seat))
    assert snap["finished"] is row.finished
    assert snap["buttons"] == [[a["id"], a["text"]] for a in view["legal"]]
    assert snap["log"] == [" ".join(lines) for lines in view["log"]]
    if row.finished:
        assert snap["status"].startswith("finished; returns ")
        assert json.loads(snap["status"].removeprefix("finished; returns ")) == view["returns"]
        assert snap["record"] == f"/api/matches/{row.id}/record"
        assert not snap["buttons"]
        return
    to_move = view["to_move"]
    assert to_move is not None and snap["toMove"] == str(to_move)
    assert snap["status"].startswith(f"move {row.move_no}, {view['seats'][to_move]['name']} to move")
    mine = seat.seat == to_move
    assert ("(your move)" in snap["status"]) is mine
    assert bool(snap["buttons"]) is mine
    assert snap["record"] is None


Check = Callable[[MatchRow, list[_Seat], list[dict[str, Any]]], None]


def _play(server: Any, match_id: str, seats: list[_Seat], *, rng: random.Random, max_clicks: int, check: Check) -> int:
    """Click moves on the page of the seat to move until the match ends; the number of clicks."""
    matches = Matches(server.store)
    clicks = 0
    while True:
        row = server.store.get(match_id)
        assert row is not None
        snaps = [_snapshot(s, row.move_no) for s in seats]
        for s, snap in zip(seats, snaps, strict=True):
            _check_turn(matches, row, s, snap)
        check(row, seats, snaps)
        if row.finished:
            return clicks
        movers = [(s, snap) for s, snap in zip(seats, snaps, strict=True) if snap["buttons"]]
        assert len(movers) == 1, "exactly one page offers moves"
        mover, snap = movers[0]
        action = rng.choice(snap["buttons"])[0]
        mover.page.locator(f'#moves button.move[data-action="{action}"]').click()
        clicks += 1
        assert clicks <= max_clicks, f"the match did not end within {max_clicks} moves"
        # The click is answered by the server's broadcast once the move is committed (bots' moves included).
        mover.page.wait_for_function(
            "n => Number(document.getElementById('status').dataset.move) > n", arg=row.move_no, timeout=WAIT
        )


def _close(contexts: list[Any]) -> None:
    for context in contexts:
        context.close()


def _no_errors(seats: list[_Seat]) -> None:
    for s in seats:
        assert s.errors == [], f"seat {s.seat}'s page logged errors: {s.errors}"


# ----- Unrest: what may be shown to the Empire and to a spectator ------------------------------------------------


def _face(kind: int) -> str:
    """A card's face as the picture writes it (``5 S``, ``Misdir.``)."""
    return "Misdir." if kind == MISDIRECTION else f"{value_of(kind)} {SUITS[suit_of(kind)][0]}"


def _kinds_shown(view: UnrestView) -> set[int]:
    """The card kinds a view shows face up anywhere."""
    shown = set(view.hand)
    shown |= {c.card for stack in view.stacks for c in stack}
    shown |= {p.card for p in view.plan if p is not None}
    shown |= {x.card for x in view.destroyed}
    return shown - {HIDDEN}


@dataclass
class _UnrestSecrets:
    """After each move: no page but the Rebellion's shows a card the public view has never shown."""

    public: set[int] = field(default_factory=set)
    #: Summed over the moves: the Rebel cards in hand or face down that the public view had never shown (the cards
    #: the Empire's and the spectator's pages were checked not to show).
    kept: int = 0

    def __call__(self, row: MatchRow, seats: list[_Seat], snaps: list[dict[str, Any]]) -> None:
        game = installed_game("unrest")
        state = state_from_json(game, row.state)
        # The oracle: what the game's public view shows now, or showed before, or told a spectator (its log).
        self.public |= _kinds_shown(game.public_observation(state))
        for entry in row.log:
            for line in entry["public"]:
                self.public |= {k for k in range(KINDS) if card_words(k) in line}
        secret = set(range(KINDS)) - self.public
        hidden = set(state.hand)
        hidden |= {c.card for stack in state.stacks for c in stack if not c.revealed}
        hidden |= {p.card for p in state.plan if p is not None and not p.revealed}
        hidden |= {x.card for x in state.destroyed if not x.revealed}
        for seat, snap in zip(seats, snaps, strict=True):
            if seat.seat == REBELLION:
                for k in state.hand[:6]:  # the picture draws up to six cards of the hand
                    assert card_words(k) in snap["html"], f"the Rebellion's page does not show its {card_words(k)}"
                    assert _face(k) in snap["svgTexts"], f"the Rebellion's picture does not draw its {_face(k)}"
                continue
            for k in secret:
                at = snap["html"].find(card_words(k))
                if at >= 0:
                    near = snap["html"][max(at - 100, 0) : at + 60]
                    pytest.fail(
                        f"seat {seat.seat}'s page shows the hidden {card_words(k)} at move {row.move_no}: {near!r}"
                    )
                assert _face(k) not in snap["svgTexts"], f"seat {seat.seat}'s picture draws the hidden {_face(k)}"
        self.kept += len(hidden & secret)


def test_two_people_play_a_whole_game_of_unrest_and_a_spectator_watches_without_seeing_rebel_cards(
    browser: Any, live_server: Any
) -> None:
    contexts: list[Any] = []
    try:
        lobby = _open(browser, live_server.base, None, contexts)
        made = _create_in_lobby(lobby, live_server.base, "unrest", {}, ["human", "human"])
        _pin_seed(live_server.store, made["match"], 7)
        rebellion = _open(browser, made["invites"][0], 0, contexts)
        empire = _open(browser, made["invites"][1], 1, contexts)
        spectator = _open(browser, made["watch"], None, contexts)
        seats = [rebellion, empire, spectator]
        oracle = _UnrestSecrets()
        clicks = _play(live_server, made["match"], seats, rng=random.Random(7), max_clicks=200, check=oracle)
        row = live_server.store.get(made["match"])
        assert row is not None and row.finished and clicks == row.move_no
        assert {e["seat"] for e in row.log} == {0, 1}  # both people played
        assert oracle.kept >= clicks  # on average more than one Rebel card was kept from the others at a time
        returns = installed_game("unrest").returns(state_from_json(installed_game("unrest"), row.state))
        winner = "Rebellion" if returns[0] > 0 else "Empire"
        for s in seats:
            assert f"Game over: the {winner} wins" in _snapshot(s, row.move_no)["svgTexts"]
        _no_errors([lobby, *seats])
    finally:
        _close(contexts)


def _bot_never_waited_for(row: MatchRow, seats: list[_Seat], snaps: list[dict[str, Any]]) -> None:
    """The bot's seat (2) plays inside the move before it: no page ever shows it to move."""
    assert all(snap["toMove"] != "2" for snap in snaps)


def test_two_people_and_a_bot_play_a_whole_runebound_coop_game(browser: Any, live_server: Any) -> None:
    contexts: list[Any] = []
    try:
        lobby = _open(browser, live_server.base, None, contexts)
        options = {"heroes": ["Elian", "Corbin", "Lissa"]}
        made = _create_in_lobby(lobby, live_server.base, "runebound_coop", options, ["human", "human", "bot:heuristic"])
        _pin_seed(live_server.store, made["match"], 3)
        seats = [_open(browser, made["invites"][p], p, contexts) for p in (0, 1)]
        clicks = _play(
            live_server, made["match"], seats, rng=random.Random(3), max_clicks=200, check=_bot_never_waited_for
        )
        row = live_server.store.get(made["match"])
        assert row is not None and row.finished
        by = [e["seat"] for e in row.log]
        assert {0, 1, 2} <= set(by) and by.count(2) == row.move_no - clicks  # the bot played its own moves
        _no_errors([lobby, *seats])
    finally:
        _close(contexts)


def _nothing_more(row: MatchRow, seats: list[_Seat], snaps: list[dict[str, Any]]) -> None:
    """No check beyond each page's turn state (:func:`_check_turn`)."""


def test_one_person_plays_a_whole_game_of_unbroken(browser: Any, live_server: Any) -> None:
    contexts: list[Any] = []
    try:
        lobby = _open(browser, live_server.base, None, contexts)
        made = _create_in_lobby(lobby, live_server.base, "unbroken", {}, ["human"])
        _pin_seed(live_server.store, made["match"], 1)
        player = _open(browser, made["invites"][0], 0, contexts)
        clicks = _play(live_server, made["match"], [player], rng=random.Random(1), max_clicks=300, check=_nothing_more)
        row = live_server.store.get(made["match"])
        assert row is not None and row.finished and clicks == row.move_no > 0
        _no_errors([lobby, player])
    finally:
        _close(contexts)
