"""The bot protocol's JSON Schema describes what the server really sends and takes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # the test extras install no stubs for jsonschema

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs/formats/bot-protocol.schema.json").read_text())


def _check(document: Any, name: str) -> None:
    jsonschema.validate(document, {**SCHEMA, "$ref": f"#/$defs/{name}"})


def test_the_servers_documents_match_the_bot_protocol_schema(client: Any) -> None:
    request = {"game": "unrest", "seats": ["open", "bot:random"]}
    _check(request, "create")
    made = client.post("/api/matches", json=request).json()
    _check(made, "created")
    headers = {"authorization": f"Bearer {made['seats'][0]['token']}"}
    view = client.get(f"/api/matches/{made['match']}", headers=headers).json()
    _check(view, "view")
    move = {"move": view["move"], "action": view["legal"][0]["id"]}
    _check(move, "move")
    _check(client.post(f"/api/matches/{made['match']}/moves", headers=headers, json=move).json(), "moved")
    _check(client.post(f"/api/matches/{made['match']}/moves", headers=headers, json={}).json(), "error")
    with client.websocket_connect(f"/ws/matches/{made['match']}") as ws:
        _check(ws.receive_json(), "socket_message")
