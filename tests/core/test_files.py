"""The core's file helpers: atomic writes that never lose the old file, bounded reads of regular files only."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tabletop_core.errors import TabletopError
from tabletop_core.files import FileReadError, atomic_write_bytes, atomic_write_text, atomic_writer, read_regular


def test_atomic_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    target.write_text("old")
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_atomic_write_keeps_the_old_file_when_the_block_raises(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    target.write_text("precious")
    with pytest.raises(RuntimeError), atomic_writer(target) as fh:
        fh.write("half a save")
        raise RuntimeError("interrupted")
    assert target.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_atomic_write_keeps_the_old_file_when_fsync_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "save.json"
    target.write_text("precious")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError, match="No space"):
        atomic_write_bytes(target, b"x" * 10_000)
    assert target.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_atomic_write_keeps_the_old_file_on_a_full_disk(tmp_path: Path) -> None:
    """A real file-size limit (``ulimit -f 0``): the write fails with EFBIG and the old file is untouched."""
    target = tmp_path / "save.json"
    target.write_text("precious")
    script = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        from tabletop_core.files import atomic_write_text
        try:
            atomic_write_text({str(target)!r}, "new contents " * 1000)
        except OSError as exc:
            print("refused", exc.errno)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused")
    assert target.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_atomic_write_keeps_the_permissions_of_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write_text(target, "new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_read_regular_refuses_a_named_pipe_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileReadError, match="named pipe"):
        read_regular(fifo, max_bytes=100)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_read_regular_refuses_a_device(device: str) -> None:
    with pytest.raises(FileReadError, match="device"):
        read_regular(device, max_bytes=100)


def test_read_regular_refuses_a_folder_a_missing_file_and_a_large_file(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match="folder"):
        read_regular(tmp_path, max_bytes=100)
    with pytest.raises(FileReadError, match="cannot read"):
        read_regular(tmp_path / "missing", max_bytes=100)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(FileReadError, match="larger than 100 bytes"):
        read_regular(big, max_bytes=100)
    assert read_regular(big, max_bytes=101) == b"x" * 101


def test_read_regular_errors_are_tabletop_errors_and_can_be_typed_by_the_caller(tmp_path: Path) -> None:
    with pytest.raises(TabletopError):
        read_regular(tmp_path, max_bytes=1)

    class MineError(TabletopError):
        def __init__(self, path: str, problem: str) -> None:
            super().__init__(f"mine {path} {problem}")

    with pytest.raises(MineError, match="mine"):
        read_regular(tmp_path, max_bytes=1, error=MineError)
