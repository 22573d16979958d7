"""Every golden record replays to the same final state JSON and returns (behaviour kept across refactors)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_core import Record, load_game, replay
from tests.golden.record import DATA, VARIANTS, final_digest


def _lines(title: str) -> list[dict[str, Any]]:
    path = DATA / f"{title}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize(("title", "variant"), [(t, v) for t, v, _ in VARIANTS])
def test_golden_records_replay_to_the_same_final_json_and_returns(title: str, variant: str) -> None:
    game = load_game(title)
    games = [g for g in _lines(title) if g["variant"] == variant]
    assert len(games) == 100, "50 games with the default bots and 50 with random agents"
    for g in games:
        record = Record.from_json(json.dumps(g["record"]))
        state = replay(record, game)
        where = f"{title} {variant} {g['agents']} seed {record.seed}"
        assert list(game.returns(state)) == g["returns"], where
        assert final_digest(game, state) == g["final_sha256"], where


def test_golden_data_files_cover_every_title() -> None:
    assert {p.stem for p in Path(DATA).glob("*.jsonl")} == {t for t, _, _ in VARIANTS}
