"""Runebound packs are pinned like Unbroken's: options name a pack as ``name@sha256``, never a path, and a saved
game or record plays the pack it was made with or none."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import runebound_coop as rb
from runebound_coop.content import load_content
from tabletop_core.cli import main
from tabletop_core.errors import OptionError, StateFormatError, TabletopError
from tabletop_core.records import Record, play, replay
from tabletop_core.serialize import from_json, to_json

REVEALING = ("No such file", "not a regular file", "directory", "cannot read", "Permission", "UTF-8", "TOML", "larger")


def _hostile(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "heroes.toml").write_text('secret_first_key = "x"\n', encoding="utf-8")
    return {
        "root": "/",
        "device": "/dev/zero",
        "fifo": str(fifo),
        "directory": str(tmp_path / "folder"),
        "missing": str(tmp_path / "missing"),
    }


def _golem(tmp_path: Path, health: int) -> Path:
    folder = tmp_path / "golems"
    folder.mkdir(exist_ok=True)
    (folder / "enemies.toml").write_text(
        f'[[enemy]]\nname = "Test Golem"\ntrait = "warrior"\nhealth = {health}\nsource = "standin"\n'
        'abilities = [{ name = "Slam", trigger = "surge", cost = 1, '
        'effects = [{ kind = "deal", amount = 1, symbol = "skull" }], source = "standin" }]\n',
        encoding="utf-8",
    )
    return folder


OPTIONS: dict[str, Any] = {"heroes": ("Elian",), "enemies": ("Test Golem",)}


def _check_quiet(exc: BaseException, start: float) -> None:
    assert isinstance(exc, StateFormatError), type(exc)
    assert time.monotonic() - start < 5.0
    assert not any(word in str(exc) for word in REVEALING) and "secret_first_key" not in str(exc), str(exc)


def test_a_saved_game_or_record_naming_a_path_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = json.loads(to_json(rb.new_game(seed=0)))
    _, record = play(rb.GAME, rb.GAME.default_agents(rb.new_game()), seed=0, max_steps=3)
    for kind, path in _hostile(tmp_path).items():
        saved["data"]["options"]["pack"] = path
        start = time.monotonic()
        with pytest.raises(TabletopError) as info:
            from_json(rb.GAME, json.dumps(saved))
        _check_quiet(info.value, start)
        assert "not a pack reference" in str(info.value), kind
        doc = json.loads(record.to_json())
        doc["record"]["options"]["pack"] = path
        start = time.monotonic()
        with pytest.raises(TabletopError) as info:
            replay(Record.from_json(json.dumps(doc)), rb.GAME)
        _check_quiet(info.value, start)
        file = tmp_path / f"record-{kind}.json"
        file.write_text(json.dumps(doc), encoding="utf-8")
        assert main(["replay", str(file)], io.StringIO()) != 0
        err = capsys.readouterr().err
        assert "Traceback" not in err and "secret_first_key" not in err and "No such file" not in err, err
    with pytest.raises(OptionError, match="not a pack reference"):
        rb.new_game(pack="/")


def test_a_custom_pack_is_passed_by_the_caller_and_named_by_its_digest(tmp_path: Path) -> None:
    folder = _golem(tmp_path, 9)
    pack = load_content(folder)
    assert pack.name == "golems" and len(pack.sha256) == 64
    state = rb.new_game(seed=0, pack=folder, **OPTIONS)
    assert state.options.pack == f"golems@{pack.sha256}"
    assert rb.new_game(seed=0, pack=pack, **OPTIONS).options == state.options  # the object or its directory
    assert rb.new_game(seed=0, pack="golems", **OPTIONS).options == state.options  # or a name given before
    assert state.options.setup.enemies[0].health == 9
    from runebound_coop.restrictions import restrictions

    # The analysis reads the pack the options name (a reference, not a path).
    labels = [r.label for r in restrictions(rb.GAME, state.options)]
    builtin = rb.GAME.make_options(heroes=("Elian",), enemies=("Sorcerer",))
    assert labels == [r.label for r in restrictions(rb.GAME, builtin)] and labels
    with pytest.raises(OptionError, match="unknown runebound_coop pack"):
        rb.new_game(pack="never_given")


def test_an_edited_pack_is_another_pack_and_a_saved_game_keeps_the_one_it_began_with(tmp_path: Path) -> None:
    folder = _golem(tmp_path, 9)
    state = rb.new_game(seed=0, pack=folder, **OPTIONS)
    final, record = play(rb.GAME, rb.GAME.default_agents(state), seed=0, options={**OPTIONS, "pack": folder})
    saved = to_json(state)
    _golem(tmp_path, 4)
    edited = rb.new_game(seed=0, pack=folder, **OPTIONS)
    # A running process serves no stale setup: the edit is a new reference, so a new cache key.
    assert edited.options != state.options and edited.options.setup.enemies[0].health == 4
    assert state.options.setup.enemies[0].health == 9
    from runebound_coop.restrictions import restrictions

    # The analysis reads the pack the options name (a reference, not a path).
    labels = [r.label for r in restrictions(rb.GAME, state.options)]
    builtin = rb.GAME.make_options(heroes=("Elian",), enemies=("Sorcerer",))
    assert labels == [r.label for r in restrictions(rb.GAME, builtin)] and labels
    # The saved game and the record still play the pack they were made with (nothing reads the folder).
    assert from_json(rb.GAME, saved) == state and replay(record, rb.GAME) == final
    # A process given only the edited pack refuses both, saying the pack changed (not "the game is over").
    (tmp_path / "saved.json").write_text(saved, encoding="utf-8")
    (tmp_path / "record.json").write_text(record.to_json(), encoding="utf-8")
    script = (
        "import sys, pathlib, runebound_coop as rb\n"
        "from tabletop_core.serialize import from_json\n"
        "from tabletop_core.records import replay\n"
        "rb.GAME.make_options(pack=pathlib.Path(sys.argv[1]))\n"
        "for load in (lambda t: from_json(rb.GAME, t), lambda t: replay(t, rb.GAME)):\n"
        "    try:\n"
        "        load(pathlib.Path(sys.argv.pop(2)).read_text())\n"
        "    except Exception as exc:\n"
        "        print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(folder), str(tmp_path / "saved.json"), str(tmp_path / "record.json")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.splitlines()
    assert len(out) == 2, out
    assert all(line.startswith("StateFormatError") and "the pack changed since this game began" in line for line in out)
