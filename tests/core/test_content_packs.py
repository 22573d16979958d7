"""Packs are pinned by name and SHA-256 in a store callers fill; files are read only when regular and bounded."""

from __future__ import annotations

import os
import time
from pathlib import Path

import attrs
import pytest

from tabletop_core.content import PackRef, PackStore, check_pack_name, content_digest, pack_name, read_text
from tabletop_core.errors import ContentError


@attrs.frozen
class ToyPack:
    name: str
    sha256: str
    cards: tuple[str, ...] = ()


def _pack(name: str, *cards: str) -> ToyPack:
    return ToyPack(name, content_digest({"cards.toml": " ".join(cards)}), cards)


BUILTIN = _pack("base", "spark")


def _store() -> PackStore[ToyPack]:
    return PackStore("toy", "base", lambda: BUILTIN)


def test_a_store_gives_back_exactly_the_pack_a_name_and_digest_name() -> None:
    store = _store()
    assert store.get("base") is BUILTIN and store.get("base", BUILTIN.sha256) is BUILTIN
    first = _pack("mine", "ember")
    ref = store.add(first)
    assert ref == PackRef("mine", first.sha256) and store.named("mine") == ref
    assert store.get("mine", first.sha256) is first
    # The same name given again with other content: new games get it, the old pair still means the old pack.
    second = _pack("mine", "ember", "ash")
    store.add(second)
    assert store.named("mine").sha256 == second.sha256
    assert store.get("mine", first.sha256) is first and store.get("mine", second.sha256) is second
    # The same content under another name is another pack reference.
    twin = _pack("twin", "ember")
    store.add(twin)
    assert store.get("twin", first.sha256) is twin


def test_a_store_refuses_unknown_and_changed_packs_with_content_errors() -> None:
    store = _store()
    with pytest.raises(ContentError, match="unknown toy pack") as info:
        store.get("mine", "0" * 64)
    assert info.value.field == "-"
    with pytest.raises(ContentError, match="unknown toy pack"):
        store.named("mine")
    store.add(_pack("mine", "ember"))
    with pytest.raises(ContentError, match="the pack changed since this game began") as info:
        store.get("mine", "1" * 64)
    assert info.value.field == "sha256"
    with pytest.raises(ContentError, match="not the one this game was made with"):
        store.get("base", "2" * 64)
    with pytest.raises(ContentError, match="built-in pack's name"):
        store.add(_pack("base", "x"))
    with pytest.raises(ContentError, match="not a pack name"):
        store.add(_pack("../x", "x"))
    with pytest.raises(ContentError, match="SHA-256"):
        store.add(ToyPack("odd", "abc"))


def test_pack_names_and_references_are_words_never_paths() -> None:
    assert check_pack_name("my-pack_2.toml") == "my-pack_2.toml"
    for bad in ("", "/dev/zero", "a/b", "..\\x", "x" * 65, "sp ace", 3):
        with pytest.raises(ValueError, match="not a pack name"):
            check_pack_name(bad)
    assert pack_name("/tmp/My Pack") == "_tmp_My_Pack" and pack_name("") == "pack"
    digest = "a" * 64
    assert (
        PackRef.parse(f"mine@{digest}") == PackRef("mine", digest) and str(PackRef("mine", digest)) == f"mine@{digest}"
    )
    for bad in ("mine", "mine@", f"/@{digest}", f"mine@{digest[:-1]}", f"mine@{digest.upper()}"):
        with pytest.raises(ValueError, match="not a pack"):
            PackRef.parse(bad)


def test_a_digest_pins_content_and_roles_not_where_files_lie() -> None:
    one = content_digest({"heroes.toml": "a", "cards.toml": "b"})
    assert one == content_digest({"cards.toml": "b", "heroes.toml": "a"})
    assert one != content_digest({"heroes.toml": "b", "cards.toml": "a"})
    assert content_digest({"a": "bc"}) != content_digest({"ab": "c"})  # lengths frame each part


@pytest.mark.parametrize("kind", ["device", "fifo", "directory", "missing"])
def test_the_reader_refuses_what_is_not_a_regular_file_at_once(tmp_path: Path, kind: str) -> None:
    if kind == "device":
        path = Path("/dev/zero")
    elif kind == "fifo":
        path = tmp_path / "pipe.toml"
        os.mkfifo(path)
    elif kind == "directory":
        path = tmp_path / "folder.toml"
        path.mkdir()
    else:
        path = tmp_path / "missing.toml"
    start = time.monotonic()
    with pytest.raises(ContentError, match=r"not a regular file|cannot read"):
        read_text(path)
    assert time.monotonic() - start < 5.0
