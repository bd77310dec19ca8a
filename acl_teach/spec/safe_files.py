"""Writing and reading files the learner named without following a link planted in the way.

Shared by the simulator (model dumps, acl.init configs) and the toolchain (ATC outputs), which may
not import each other: a file is replaced through a fresh temporary created with
``O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK`` and ``os.replace``, so a link, hard link or FIFO
at the name is swapped out, never written through or blocked on; folders are created one level at
a time, refusing a level that is a link; reading takes regular files only, up to a cap.
"""
from __future__ import annotations

import os
import stat

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class UnsafePath(OSError):
    """A path inside the target folder is a link (or not a directory where one is needed)."""


def make_dirs(root: str, path: str) -> None:
    """Create ``path`` (inside ``root``) and its parents, refusing any component below ``root`` that is a link."""
    root, path = os.path.abspath(root), os.path.abspath(path)
    os.makedirs(root, exist_ok=True)
    rel = os.path.relpath(path, root)
    if rel == os.curdir:
        return
    if rel.startswith(os.pardir):
        raise UnsafePath(f"{path} is outside {root}")
    current = root
    for part in rel.split(os.sep):
        current = os.path.join(current, part)
        if not os.path.lexists(current):
            os.mkdir(current)
        info = os.lstat(current)  # after mkdir too: a link planted meanwhile is seen here
        if stat.S_ISLNK(info.st_mode):
            raise UnsafePath(f"{current} is a symbolic link: refusing to write through it (remove it first)")
        if not stat.S_ISDIR(info.st_mode):
            raise UnsafePath(f"{current} is not a directory")


def replace_with(path: str, data: bytes) -> None:
    """Write ``path`` atomically (a reader never sees half a file) through a per-process temporary file that is
    created, never followed: whatever entry sits at the temporary name (a link, a FIFO) is removed first."""
    tmp = f"{path}.{os.getpid()}.tmp"  # per process: two builds of one file (two kernels) never share it
    if os.path.lexists(tmp):
        os.unlink(tmp)  # the entry itself, never its target; a folder there raises IsADirectoryError (an OSError)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | NONBLOCK, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)  # rename swaps the entry at ``path`` (a link, a hard link, a FIFO), never writes it
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def read_regular(path: str, cap: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path`` (links followed to a regular file), at most ``cap``; else OSError.

    Opened with O_NONBLOCK so a FIFO cannot block the open, then checked with fstat: a FIFO, a device
    (``/dev/zero``) or a directory is refused before a byte is read.
    """
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file (a pipe, a device or a directory): give the {what} itself")
        if info.st_size > cap:
            raise OSError(f"{path} is {info.st_size:,} bytes, more than the {cap:,}-byte limit for a {what}")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > cap:
                raise OSError(f"{path} grew past the {cap:,}-byte limit for a {what} while being read")
        return b"".join(chunks)
    finally:
        os.close(fd)
