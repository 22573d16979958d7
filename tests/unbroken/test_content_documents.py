"""A saved game or a record never makes the library read a file: its pack is a name and a SHA-256, not a path."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest

import unbroken
from tabletop_core.cli import main
from tabletop_core.errors import ContentError, StateFormatError, TabletopError
from tabletop_core.records import Record, play, replay
from tabletop_core.serialize import from_json, to_json

#: The words that would tell a reader of the error something about the file system.
REVEALING = ("No such file", "not a regular file", "directory", "cannot read", "Permission", "UTF-8", "TOML", "larger")


def _hostile_paths(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    other = tmp_path / "other.toml"
    other.write_text('secret_first_key = "x"\n', encoding="utf-8")
    return {
        "device": "/dev/zero",
        "fifo": str(fifo),
        "directory": str(folder),
        "missing": str(tmp_path / "missing.toml"),
        "another file": str(other),
    }


def _record(pack: str) -> str:
    _, record = play(unbroken.GAME, unbroken.GAME.default_agents(unbroken.new_game()), seed=0, max_steps=3)
    doc = json.loads(record.to_json())
    doc["record"]["options"]["pack"] = pack
    return json.dumps(doc)


def _refused_quietly(exc: BaseException, elapsed: float) -> None:
    assert isinstance(exc, StateFormatError), type(exc)
    assert elapsed < 5.0
    assert not any(word in str(exc) for word in REVEALING), str(exc)
    assert "secret_first_key" not in str(exc)


def test_a_saved_game_naming_a_path_is_refused_unread(tmp_path: Path) -> None:
    saved = json.loads(to_json(unbroken.new_game(seed=0)))
    for kind, path in _hostile_paths(tmp_path).items():
        saved["data"]["options"]["pack"] = path
        start = time.monotonic()
        with pytest.raises(TabletopError) as info:
            from_json(unbroken.GAME, json.dumps(saved))
        _refused_quietly(info.value, time.monotonic() - start)
        assert "not a pack name" in str(info.value), kind


def test_a_record_naming_a_path_is_refused_unread_by_replay_and_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number, (_kind, path) in enumerate(_hostile_paths(tmp_path).items()):
        text = _record(path)
        start = time.monotonic()
        with pytest.raises(TabletopError) as info:
            replay(Record.from_json(text), unbroken.GAME)
        _refused_quietly(info.value, time.monotonic() - start)
        file = tmp_path / f"record-{number}.json"  # a neutral name: the message names the file, not the path
        file.write_text(text, encoding="utf-8")
        start = time.monotonic()
        assert main(["replay", str(file)], io.StringIO()) != 0
        err = capsys.readouterr().err
        assert time.monotonic() - start < 5.0 and "Traceback" not in err
        assert not any(word in err for word in REVEALING[:4]) and "secret_first_key" not in err, err


def test_a_saved_game_naming_a_pack_never_given_is_refused_the_same_way_whatever_exists(tmp_path: Path) -> None:
    saved = json.loads(to_json(unbroken.new_game(seed=0)))
    (tmp_path / "real.toml").write_text('extends = "default"\n', encoding="utf-8")
    messages = set()
    for name in ("real", "imaginary"):
        saved["data"]["options"].update(pack=name, pack_sha256="3" * 64)
        with pytest.raises(StateFormatError, match=f"{name}: entry '-', field '-': unknown unbroken pack") as info:
            from_json(unbroken.GAME, json.dumps(saved))
        messages.add(str(info.value).replace(name, "NAME"))
    assert len(messages) == 1  # an existing file and a missing one read alike: nothing was looked for
    saved["data"]["options"].update(pack="real", pack_sha256="not a digest")
    with pytest.raises(StateFormatError, match="pack_sha256"):
        from_json(unbroken.GAME, json.dumps(saved))


def test_a_caller_plays_a_pack_file_by_passing_it_and_a_record_of_it_replays(tmp_path: Path) -> None:
    path = tmp_path / "my pack.toml"
    path.write_text('extends = "default"\n', encoding="utf-8")
    pack = unbroken.load_pack(path)
    assert pack.name == "my_pack" and len(pack.weapons) == len(unbroken.default_pack().weapons)
    assert pack.sha256 != unbroken.default_pack().sha256
    agents = unbroken.GAME.default_agents(unbroken.new_game())
    final, record = play(unbroken.GAME, agents, seed=1, options={"pack": pack})
    assert record.options["pack"] == "my_pack" and record.options["pack_sha256"] == pack.sha256
    assert replay(record, unbroken.GAME) == final
    assert unbroken.new_game(seed=1, pack="my_pack").options == final.options  # a name given before
    path.write_text('extends = "default"\n[[skill]]\nid = 3\n', encoding="utf-8")
    with pytest.raises(ContentError) as info:  # a bad pack file is a content error, not an option error
        unbroken.new_game(pack=path)
    assert (info.value.file, info.value.entry, info.value.field) == (str(path), "skill[0]", "id")
