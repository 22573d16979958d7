"""The server's JSON API: creating matches, seat tokens, moves applied once, refusals that change nothing."""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
import types
import warnings
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from tabletop_core.registry import installed_game
from tabletop_core.serialize import state_from_json, to_json
from tabletop_core.server.store import Store


def _create(client: Any, seats: list[str], game: str = "unrest") -> dict[str, Any]:
    r = client.post("/api/matches", json={"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_seat_plays_a_whole_match_against_a_built_in_bot(client: Any) -> None:
    made = _create(client, ["human", "bot:random"])
    mid, token = made["match"], made["seats"][0]["token"]
    view = client.get(f"/api/matches/{mid}", headers=_auth(token)).json()
    assert view["seat"] == 0 and view["legal"] and view["picture"].startswith("<svg")
    while not view["finished"]:
        r = client.post(
            f"/api/matches/{mid}/moves",
            headers=_auth(token),
            json={"move": view["move"], "action": view["legal"][-1]["id"]},
        )
        assert r.status_code == 200, r.text
        view = r.json()["view"]
    assert len(view["returns"]) == 2
    record = client.get(f"/api/matches/{mid}/record").json()
    assert record["moves"] and record["returns"] == view["returns"]


def test_a_retried_move_number_is_applied_once(client: Any) -> None:
    made = _create(client, ["human", "human"])
    mid, token = made["match"], made["seats"][0]["token"]
    view = client.get(f"/api/matches/{mid}", headers=_auth(token)).json()
    move = {"move": 0, "action": view["legal"][0]["id"]}
    first = client.post(f"/api/matches/{mid}/moves", headers=_auth(token), json=move).json()
    again = client.post(f"/api/matches/{mid}/moves", headers=_auth(token), json=move)
    assert first["applied"] is True and again.status_code == 200 and again.json()["applied"] is False
    assert client.get(f"/api/matches/{mid}").json()["move"] == 1


def _snapshot(client: Any, mid: str) -> Any:
    return client.get(f"/api/matches/{mid}").json()


def test_wrong_and_other_seats_tokens_are_refused_with_nothing_changed(client: Any) -> None:
    made = _create(client, ["human", "human"])
    mid = made["match"]
    other = made["seats"][1]["token"]
    before = _snapshot(client, mid)
    legal = client.get(f"/api/matches/{mid}", headers=_auth(made["seats"][0]["token"])).json()["legal"]
    for token, status in (("not-a-token", 403), (other, 409), ("", 403)):
        r = client.post(f"/api/matches/{mid}/moves", headers=_auth(token), json={"move": 0, "action": legal[0]["id"]})
        assert r.status_code == status and r.json()["error"]
    assert client.get(f"/api/matches/{mid}", headers=_auth("forged")).status_code == 403
    assert _snapshot(client, mid) == before


def test_malformed_and_oversized_messages_are_refused_with_nothing_changed(client: Any) -> None:
    made = _create(client, ["human", "human"])
    mid, token = made["match"], made["seats"][0]["token"]
    before = _snapshot(client, mid)
    url = f"/api/matches/{mid}/moves"
    bad = [b"{not json", b"[1, 2]", json.dumps({"move": "0", "action": 0}).encode(), b'{"move": 0, "action": 99999}']
    for body in bad:
        r = client.post(url, headers=_auth(token), content=body)
        assert 400 <= r.status_code < 500 and r.json()["error"]
    r = client.post(url, headers=_auth(token), content=b'{"move": 0, "pad": "' + b"x" * 10_000 + b'"}')
    assert r.status_code == 413
    r = client.post("/api/matches", json={"game": "os:system", "seats": ["human"]})
    assert r.status_code == 400 and "no installed game" in r.json()["error"]
    r = client.post("/api/matches", json={"game": "unrest", "seats": ["human", "bot:os:system"]})
    assert r.status_code == 400
    assert _snapshot(client, mid) == before


def test_a_flood_from_one_client_is_refused_and_others_still_play(client: Any) -> None:
    made = _create(client, ["human", "human"])
    mid, token, other = made["match"], made["seats"][0]["token"], made["seats"][1]["token"]
    codes = [client.get(f"/api/matches/{mid}", headers=_auth(token)).status_code for _ in range(80)]
    assert 429 in codes and codes.count(200) <= 60
    assert client.get(f"/api/matches/{mid}", headers=_auth(other)).status_code == 200


def test_a_refused_request_says_when_to_come_back(client: Any) -> None:
    made = _create(client, ["human", "human"])
    mid, token = made["match"], made["seats"][0]["token"]
    answers = [client.get(f"/api/matches/{mid}", headers=_auth(token)) for _ in range(61)]
    refused = answers[-1]
    assert [a.status_code for a in answers[:60]] == [200] * 60 and refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 10


def test_a_bot_that_waits_out_retry_after_finishes_under_a_tight_rate(tmp_path: Path, monkeypatch: Any) -> None:
    """The example bot, against a server that allows 20 requests a second, waits as told and plays to the end."""
    with warnings.catch_warnings():
        # Starlette's test client asks for another HTTP client package; httpx is the one installed.
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient

    from tabletop_core.server.app import build_app

    path = Path(__file__).resolve().parents[2] / "examples" / "remote_bot.py"
    spec = importlib.util.spec_from_file_location("remote_bot_example", path)
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    monkeypatch.setattr(bot, "time", types.SimpleNamespace(sleep=sleep))  # the bot's own clock, counted
    args = argparse.Namespace(match=None, token=None, game="unrest", seats=2, opponent="bot:random")
    with TestClient(build_app(f"sqlite:///{tmp_path / 'm.db'}", rate=20, window=1.0)) as http:
        assert bot.play_on(http, args) == 0
    assert waits and all(w == 1 for w in waits)


def test_spectators_are_told_the_games_public_description(client: Any, monkeypatch: Any) -> None:
    game = installed_game("unrest")
    calls: list[int] = []

    def public(before: Any, action: Any, after: Any) -> tuple[str, ...]:
        calls.append(1)
        return (f"public line {len(calls)}",)

    monkeypatch.setattr(type(game), "describe_public", lambda self, b, a, c: public(b, a, c))
    made = _create(client, ["human", "bot:random"])
    mid, token = made["match"], made["seats"][0]["token"]
    view = client.get(f"/api/matches/{mid}", headers=_auth(token)).json()
    client.post(
        f"/api/matches/{mid}/moves", headers=_auth(token), json={"move": view["move"], "action": view["legal"][0]["id"]}
    )
    watched = client.get(f"/api/matches/{mid}").json()
    assert calls and watched["log"] == [[f"public line {i}"] for i in range(1, len(calls) + 1)]


def test_a_seat_is_told_nothing_of_what_it_may_not_know(client: Any) -> None:
    """Twin worlds: the same match with what a seat may not know redrawn; that seat's answers and a spectator's
    stay the same, byte for byte."""
    made = _create(client, ["human", "human"])
    mid, tokens = made["match"], [s["token"] for s in made["seats"]]
    for _ in range(4):  # a few moves, so the log and the hands have something in them
        views = [client.get(f"/api/matches/{mid}", headers=_auth(t)).json() for t in tokens]
        seat = next(p for p, v in enumerate(views) if v["legal"])
        move = {"move": views[seat]["move"], "action": views[seat]["legal"][0]["id"]}
        client.post(f"/api/matches/{mid}/moves", headers=_auth(tokens[seat]), json=move)
    store: Store = client.app.state.store
    row = store.get(mid)
    assert row is not None
    game = installed_game("unrest")
    state = state_from_json(game, row.state)
    rng = np.random.default_rng(5)
    differing = 0
    for seat, token in enumerate(tokens):
        for k in range(6):
            other = to_json(game.determinize(state, seat, rng))
            differing += other != row.state
            twin = attrs.evolve(row, id=f"twin{seat}{k}", state=other)
            store.insert(twin)
            for headers in (_auth(token), {}):
                a = client.get(f"/api/matches/{mid}", headers=headers).json()
                b = client.get(f"/api/matches/{twin.id}", headers=headers).json()
                assert {**a, "match": ""} == {**b, "match": ""}
    assert differing  # the twins did differ in what was hidden


def test_the_seats_of_a_match_follow_the_game_and_its_options(client: Any) -> None:
    def seats(game: str, options: dict[str, Any] | None = None) -> list[str]:
        query = {} if options is None else {"options": json.dumps(options)}
        r = client.get(f"/api/games/{game}/seats", params=query)
        assert r.status_code == 200, r.text
        return [s["name"] for s in r.json()["seats"]]

    assert seats("unrest") == ["Rebellion", "Empire"]
    assert seats("unbroken") == ["you"]
    assert seats("runebound_coop", {"heroes": ["Elian", "Corbin", "Lissa"]}) == ["Elian", "Corbin", "Lissa"]
    assert seats("runebound_coop", {"heroes": ["Lissa"], "enemy_choices": "player"}) == ["Lissa", "the enemy"]
    for game, options, said in (
        ("runebound_coop", '{"heroes": ["Nobody"]}', "Nobody"),
        ("runebound_coop", '{"colour": 1}', "unknown option"),
        ("unrest", "{not json", "not JSON"),
        ("unrest", "[1]", "JSON object"),
        ("os:system", "{}", "no installed game"),
    ):
        r = client.get(f"/api/games/{game}/seats", params={"options": options})
        assert r.status_code == 400 and said in r.json()["error"], r.text


def test_a_match_is_refused_unless_its_seats_are_the_games_players(client: Any) -> None:
    options = {"heroes": ["Elian", "Corbin", "Lissa"]}
    r = client.post("/api/matches", json={"game": "runebound_coop", "options": options, "seats": ["human", "human"]})
    assert r.status_code == 400
    assert r.json()["error"] == "runebound_coop with these options has 3 seats (Elian, Corbin, Lissa); 2 given"
    r = client.post("/api/matches", json={"game": "unbroken", "seats": ["human", "bot:random"]})
    assert r.status_code == 400 and r.json()["error"] == "unbroken with these options has 1 seat (you); 2 given"
    made = client.post("/api/matches", json={"game": "runebound_coop", "options": options, "seats": ["human"] * 3})
    assert made.status_code == 201 and len(made.json()["seats"]) == 3


def test_the_server_resolves_each_game_once_not_once_a_move(tmp_path: Path, monkeypatch: Any) -> None:
    """Resolving a name through the entry points costs more than a move: a server does it once per game."""
    from tabletop_core.server import matches as matches_module

    resolved: list[str] = []

    def counted(name: str) -> Any:
        resolved.append(name)
        return installed_game(name)

    monkeypatch.setattr(matches_module, "installed_game", counted)
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        for _ in range(2):  # a second server process (its own Matches) resolves the game for itself
            played = matches_module.Matches(store)
            row = played.create("unrest", {}, ["open", "bot:random"], seed=3)
            for _ in range(5):
                view = played.view(row, 0)
                row, applied = played.move(row.id, row.seats[0]["token"], view["move"], view["legal"][0]["id"])
                assert applied
            played.view(row, None)
    finally:
        store.engine.dispose()
    assert resolved == ["unrest", "unrest"]
