"""solver.outputs: output paths checked before the work, and files written all or nothing."""

from __future__ import annotations

import os
import re
import stat

import pytest

from solver.outputs import (
    OutputPathError,
    check_distinct_paths,
    check_output_path,
    write_atomically,
)


def test_a_new_file_in_an_existing_folder_is_fine_and_not_created(tmp_path):
    check_output_path(tmp_path / "report.json")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_fine_and_left_untouched(tmp_path):
    old = tmp_path / "report.json"
    old.write_text("the old report")
    before = old.stat()
    check_output_path(old)
    after = old.stat()
    assert old.read_text() == "the old report"
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "an empty path names no file"),
        ("FOLDER", "is a folder, not a file"),
        ("/dev/null", "/dev/null is a character device, not a regular file"),
        ("FOLDER/missing/x.json", "folder FOLDER/missing does not exist"),
        ("FILE/x.json", "FILE is not a folder"),
    ],
)
def test_paths_that_cannot_be_written(tmp_path, name, message):
    folder = os.path.realpath(tmp_path)
    (tmp_path / "file").write_text("x")
    path = name.replace("FOLDER", folder).replace("FILE", f"{folder}/file")
    message = message.replace("FOLDER", folder).replace("FILE", f"{folder}/file")
    with pytest.raises(OutputPathError, match=re.escape(message)):
        check_output_path(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing created


def test_a_pipe_is_refused(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(OutputPathError, match="is a pipe, not a regular file"):
        check_output_path(pipe)


def test_no_permission(tmp_path, monkeypatch):
    # As root every permission is granted, so ask os.access to say no.
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    (tmp_path / "old.json").write_text("x")
    with pytest.raises(OutputPathError, match="no permission to write it"):
        check_output_path(tmp_path / "old.json")
    with pytest.raises(OutputPathError, match=f"no permission to create a file in {tmp_path}"):
        check_output_path(tmp_path / "new.json")


def test_a_link_is_followed(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    check_output_path(tmp_path / "link" / "x.json")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "x.json")
    with pytest.raises(OutputPathError, match="does not exist"):
        check_output_path(tmp_path / "dangling")


def test_distinct_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text("cat\n")
    os.link(tmp_path / "words.txt", tmp_path / "hard.txt")
    (tmp_path / "soft.txt").symlink_to(tmp_path / "words.txt")
    check_distinct_paths([("--json", "a.json"), ("--csv", "a.csv"), ("--plot", None)])
    with pytest.raises(
        OutputPathError,
        match=r"^--json and --csv name the same file \(\S*a\.json\): give each its own$",
    ):
        check_distinct_paths([("--json", "a.json"), ("--csv", str(tmp_path / "a.json"))])
    with pytest.raises(OutputPathError, match="--json and --csv name the same file"):
        check_distinct_paths([("--json", "a.json"), ("--csv", "./sub/../a.json")])
    for alias in ("words.txt", "hard.txt", "soft.txt"):
        with pytest.raises(OutputPathError, match="names the same file as --dict"):
            check_distinct_paths([("--plot", alias)], [("--dict", "words.txt")])
    # Inputs may share a file; an input not given is skipped.
    check_distinct_paths([("--json", "a.json")], [("--dict", "words.txt"), ("--x", "hard.txt")])
    check_distinct_paths([("--json", "a.json")], [("--dict", None)])


def test_write_atomically_writes_and_keeps_the_mode(tmp_path):
    path = tmp_path / "report.json"
    write_atomically(path, b"one")
    assert path.read_bytes() == b"one"
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    path.chmod(0o640)
    write_atomically(path, b"two")
    assert path.read_bytes() == b"two"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_write_atomically_follows_a_link(tmp_path):
    (tmp_path / "target.json").write_text("old")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    write_atomically(tmp_path / "link.json", b"new")
    assert (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "target.json").read_bytes() == b"new"


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "report.json"
    path.write_bytes(b"the old report")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, b"the new report")
    assert path.read_bytes() == b"the old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_write_atomically_never_replaces_a_device():
    with pytest.raises(OSError, match="not a regular file"):
        write_atomically("/dev/null", b"x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
