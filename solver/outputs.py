"""Files that commands write: checked before the work starts, written whole at the end.

A command that computes for minutes and then writes a report should learn that it cannot
write it *before* the minutes, not after; and a write that fails half-way (a full disk) should
leave the previous report as it was. So:

* :func:`check_output_path` checks, without creating or changing anything, that a path can be
  written as a regular file: its folder exists and is writable, it is not a folder, a device
  or a pipe. An existing file is left untouched: it still holds the old report if the work
  fails or is interrupted.
* :func:`check_distinct_paths` refuses two options naming the same file (``--json`` and
  ``--csv``, or an output and an input it would overwrite), comparing resolved paths.
* :func:`write_atomically` writes the new content beside the file and renames it over the old
  one, so the file holds either the old content or the new, never a mix or a stub.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["OutputPathError", "check_distinct_paths", "check_output_path", "write_atomically"]

PathLike = str | os.PathLike[str]


class OutputPathError(ValueError):
    """A path that cannot be written as asked; the message names it and says why."""


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for messages."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def check_output_path(path: PathLike) -> None:
    """Check that ``path`` can be written as a regular file, creating and changing nothing.

    Accepted: an existing regular file that this process may write (it is replaced only when
    the work is done, see :func:`write_atomically`), or a name that does not exist yet in an
    existing folder where this process may create files. A link is followed.

    :raises OutputPathError: for an empty path, a folder, a device, a pipe or a socket, a
        missing folder, or a file or folder this process may not write; the message names the
        path as given.
    """
    text = os.fspath(path)
    if not text:
        raise OutputPathError("an empty path names no file")
    try:
        mode: int | None = os.stat(text).st_mode
    except (FileNotFoundError, NotADirectoryError):  # the folder checks below say which
        mode = None
    except OSError as error:
        raise OutputPathError(f"{text}: cannot reach it ({error.strerror or error})") from None
    if mode is not None:
        if stat.S_ISDIR(mode):
            raise OutputPathError(f"{text} is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise OutputPathError(f"{text} is {_kind(mode)}, not a regular file")
        if not os.access(text, os.W_OK):
            raise OutputPathError(f"{text}: no permission to write it")
        return
    # A new file: its folder (after following links) must exist and let us create files.
    folder = Path(os.path.realpath(text)).parent
    if not folder.exists():
        raise OutputPathError(f"{text}: folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputPathError(f"{text}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(f"{text}: no permission to create a file in {folder}")


def _identity(path: PathLike) -> tuple[int, int] | str:
    """What makes two paths one file: device and inode when it exists (so hard links and
    links compare equal), else the absolute path with links resolved."""
    try:
        info = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (info.st_dev, info.st_ino)


def check_distinct_paths(
    outputs: Iterable[tuple[str, PathLike | None]],
    inputs: Iterable[tuple[str, PathLike | None]] = (),
) -> None:
    """Refuse two outputs naming one file, or an output naming an input (it would overwrite
    it). Each path comes with the name of its option, ``("--json", "report.json")``; ``None``
    paths (options not given) are skipped. Inputs may share a file with each other.

    :raises OutputPathError: naming both options and the file.
    """
    seen: dict[tuple[int, int] | str, str] = {}
    for name, path in inputs:
        if path is not None and os.fspath(path):
            seen.setdefault(_identity(path), name)
    is_input = set(seen)
    for name, path in outputs:
        if path is None or not os.fspath(path):
            continue
        key = _identity(path)
        other = seen.get(key)
        if other is not None:
            if key in is_input:
                raise OutputPathError(
                    f"{name} names the same file as {other} ({os.fspath(path)}): "
                    "it would overwrite it"
                )
            raise OutputPathError(
                f"{other} and {name} name the same file ({os.fspath(path)}): give each its own"
            )
        seen[key] = name


def _new_file_mode() -> int:
    # The mode open() would give a new file: 0o666 less the umask, which can only be read by
    # setting it (put straight back).
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` all or nothing: into a new file in the same folder, synced to
    disk, then renamed over ``path``. If anything fails, ``path`` keeps its old content (or
    stays absent) and the new file is removed. A link is followed: its target is replaced.
    An existing file keeps its permissions.

    :raises OSError: when the file cannot be written (``path`` unchanged).
    """
    target = Path(os.path.realpath(path))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        mode = _new_file_mode()
    else:
        # Renaming over a device (say /dev/null) would replace the device itself.
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{os.fspath(path)} is {_kind(info.st_mode)}, not a regular file")
        mode = stat.S_IMODE(info.st_mode)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
