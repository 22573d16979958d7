"""Reading and writing the project's files safely: bounded reads of regular files, atomic writes.

Every file the project writes (saves, records, results, reports, plots, pack exports) goes through
:func:`atomic_write_bytes`, :func:`atomic_write_text` or :func:`atomic_writer`: the bytes go to a temporary file in
the same folder, which is flushed and fsynced and then renamed over the target, and the folder is fsynced. A write
that fails part-way (a full disk, a quota, a signal) leaves the old file exactly as it was and no temporary file
behind.

Every file the project reads from a user goes through :func:`read_regular`: it opens without blocking (a named pipe
or a device never stalls), refuses anything but a regular file, checked on the open descriptor itself, and stops
reading past a size bound, so a hostile path can neither hang the reader nor exhaust memory.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(folder / "a.txt", "hello")
>>> read_regular(folder / "a.txt", max_bytes=10).decode()
'hello'
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload

from tabletop_core.errors import TabletopError

__all__ = [
    "AppendLog",
    "FileError",
    "FileReadError",
    "FileWriteError",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_writer",
    "free_name",
    "fsync_folder",
    "open_regular",
    "read_regular",
]

PathLike = str | os.PathLike[str]


class FileError(TabletopError):
    """A file the project refuses to read or write, naming it and what was wrong (the base of the two below).

    Attributes:
        path: the path as given.
        problem: what was wrong, in words.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


class FileReadError(FileError):
    """A file that cannot be read as input: missing, not a regular file, too large or unreadable."""


class FileWriteError(FileError):
    """A path that the project refuses to write through: a symbolic link, a folder, a pipe or a device where a
    regular file (or nothing) was expected."""


def _open_checked(label: str, error: Callable[[str, str], Exception]) -> int:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(label, flags)
    except IsADirectoryError:
        raise error(label, "not a regular file (a folder)") from None
    except FileNotFoundError:
        raise error(label, "cannot read: no such file") from None
    except OSError as exc:
        raise error(label, f"cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise error(label, f"cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise error(label, f"not a regular file ({_kind(mode)})")
    return fd


@contextlib.contextmanager
def open_regular(
    path: PathLike, *, max_bytes: int, error: Callable[[str, str], Exception] = FileReadError
) -> Iterator[IO[bytes]]:
    """The regular file ``path`` opened for reading as bytes, for a reader that streams it (line by line).

    The same checks as :func:`read_regular` come first (no blocking open, regular files only), and a file already
    larger than ``max_bytes`` is refused before a byte is read.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "lines.txt"
    >>> atomic_write_text(target, "a\\nb\\n")
    >>> with open_regular(target, max_bytes=100) as fh:
    ...     fh.readlines()
    [b'a\\n', b'b\\n']

    Raises:
        FileReadError: (or what ``error`` builds) as :func:`read_regular` does.
    """
    label = os.fspath(path)
    fd = _open_checked(label, error)
    try:
        size = os.fstat(fd).st_size
        if size > max_bytes:
            raise error(label, f"larger than {max_bytes} bytes ({size})")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        yield handle


def read_regular(
    path: PathLike,
    *,
    max_bytes: int,
    error: Callable[[str, str], Exception] = FileReadError,
) -> bytes:
    """The bytes of the regular file ``path``, of at most ``max_bytes`` bytes.

    Args:
        path: the file to read.
        max_bytes: the largest size accepted; a larger file is refused after reading ``max_bytes + 1`` bytes at most.
        error: builds the exception raised, from the path (as text) and the problem (in words); by default a
            :class:`FileReadError`.

    Raises:
        FileReadError: (or what ``error`` builds) when the file is missing, a folder, a pipe, a device or a
            socket, larger than ``max_bytes``, or cannot be read.
    """
    label = os.fspath(path)
    fd = _open_checked(label, error)
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise error(label, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise error(label, f"larger than {max_bytes} bytes")
    return b"".join(chunks)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def fsync_folder(folder: PathLike) -> None:
    """Flush a folder's entries (a rename or a new file in it) to the disk, where the platform allows it."""
    try:
        fd = os.open(os.fspath(folder), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _new_file_mode(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@overload
def atomic_writer(
    path: PathLike, mode: Literal["w"] = ..., *, encoding: str = ..., newline: str | None = ...
) -> contextlib.AbstractContextManager[IO[str]]: ...
@overload
def atomic_writer(
    path: PathLike, mode: Literal["wb"], *, encoding: str = ..., newline: str | None = ...
) -> contextlib.AbstractContextManager[IO[bytes]]: ...
def atomic_writer(
    path: PathLike, mode: Literal["w", "wb"] = "w", *, encoding: str = "utf-8", newline: str | None = None
) -> contextlib.AbstractContextManager[IO[str]] | contextlib.AbstractContextManager[IO[bytes]]:
    """A file object whose contents replace ``path`` atomically when the ``with`` block ends without an error.

    The file is a temporary one in the same folder; on success it is flushed, fsynced and renamed over ``path``
    (keeping the old file's permissions), and the folder is fsynced. If the block raises, or any of those steps
    fails, the temporary file is removed, ``path`` is left as it was, and the exception propagates.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
    >>> with atomic_writer(target) as fh:
    ...     _ = fh.write("one line\\n")
    >>> target.read_text()
    'one line\\n'
    """
    return _atomic(Path(os.fspath(path)), mode, encoding, newline)


@contextlib.contextmanager
def _atomic(target: Path, mode: str, encoding: str, newline: str | None) -> Iterator[IO[Any]]:
    folder = target.parent
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    temp = Path(temp_name)
    try:
        os.fchmod(fd, _new_file_mode(target))
        if mode == "wb":
            handle: IO[Any] = os.fdopen(fd, "wb")
        else:
            handle = os.fdopen(fd, "w", encoding=encoding, newline=newline)
    except BaseException:
        os.close(fd)
        temp.unlink(missing_ok=True)
        raise
    try:
        with _naming(target), handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_folder(folder)


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: PathLike, text: str, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically (see :func:`atomic_writer`); newlines are written as given."""
    with atomic_writer(path, "w", encoding=encoding, newline="") as fh:
        fh.write(text)


def free_name(path: PathLike) -> Path:
    """``path`` if nothing is there, else the first free ``NAME-2.EXT``, ``NAME-3.EXT``, ... beside it.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write_text(folder / "game.json", "{}")
    >>> free_name(folder / "game.json").name, free_name(folder / "other.json").name
    ('game-2.json', 'other.json')
    """
    target = Path(os.fspath(path))
    if not os.path.lexists(target):
        return target
    number = 2
    while True:
        candidate = target.with_name(f"{target.stem}-{number}{target.suffix}")
        if not os.path.lexists(candidate):
            return candidate
        number += 1


class AppendLog:
    """A file that grows by whole lines: each :meth:`write_line` is one ``write`` of the whole line to a file opened
    for appending (so a process killed at any moment leaves whole lines, or at most one line cut short at the end),
    and the data is fsynced at most every ``sync_every`` seconds and on :meth:`close`.

    The log is only ever a regular file of its own: a symbolic link at the path is refused (never followed, with
    ``O_NOFOLLOW`` where the platform has it), and so is a folder, a named pipe or a device, by a
    :class:`FileWriteError` naming the path.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> with AppendLog(target) as log:
    ...     log.write_line('{"a": 1}')
    >>> target.read_text()
    '{"a": 1}\\n'
    """

    def __init__(self, path: PathLike, *, sync_every: float = 1.0) -> None:
        self.path = Path(os.fspath(path))
        self.sync_every = sync_every
        self._fd: int | None = _open_log(self.path)
        self._dirty = False
        self._synced = _monotonic()
        fsync_folder(self.path.parent)

    def write_line(self, line: str) -> None:
        """Append ``line`` and a newline, in one write.

        Raises:
            OSError: the write failed (a full disk, a file-size limit), with the log's path as its ``filename``.
        """
        if self._fd is None:
            raise ValueError("the log is closed")
        data = (line + "\n").encode("utf-8")
        with _naming(self.path):
            written = os.write(self._fd, data)
            while written < len(data):  # a short write (a signal, a nearly full disk): write the rest
                written += os.write(self._fd, data[written:])
        self._dirty = True
        if _monotonic() - self._synced >= self.sync_every:
            self.sync()

    def sync(self) -> None:
        """Flush what was written to the disk."""
        if self._fd is not None and self._dirty:
            with _naming(self.path):
                os.fsync(self._fd)
            self._dirty = False
        self._synced = _monotonic()

    def close(self) -> None:
        """Sync and close (again: nothing)."""
        if self._fd is None:
            return
        try:
            self.sync()
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> AppendLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open_log(path: Path) -> int:
    """The descriptor of ``path`` opened for appending (created if missing): never through a symbolic link at
    ``path`` and never anything but a regular file (a named pipe or a device would stall or swallow the lines).

    Raises:
        FileWriteError: ``path`` is a symbolic link, a folder, a pipe, a device or a socket.
        OSError: the file cannot be opened or created (a missing folder, no permission).
    """
    label = os.fspath(path)
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | nofollow | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOCTTY", 0)
    link = "a symbolic link: a log is never written through one (put the file itself there)"
    if not nofollow and os.path.islink(label):  # no O_NOFOLLOW on this platform: the check before the open
        raise FileWriteError(label, link)
    try:
        fd = os.open(label, flags, 0o666)
    except OSError:
        try:
            mode = os.lstat(label).st_mode
        except OSError:
            raise  # the open's own error: a missing folder, no permission
        if stat.S_ISLNK(mode):  # O_NOFOLLOW's refusal (ELOOP, or EMLINK on some BSDs)
            raise FileWriteError(label, link) from None
        if not stat.S_ISREG(mode):  # a folder; a named pipe with no reader (ENXIO); a device
            raise FileWriteError(label, f"not a regular file ({_kind(mode)}): a log is not written to it") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileWriteError(label, f"not a regular file ({_kind(mode)}): a log is not written to it")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """An ``OSError`` raised inside without a file name (``os.write``, ``os.fsync`` on a descriptor) gets ``path``
    as its name, so that the one line the command line prints says which file failed."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:
            exc.filename = os.fspath(path)
        raise


def _monotonic() -> float:
    import time

    return time.monotonic()
