"""Writing into a folder the user named without ever writing through a link, and reading files with a cap.

A dangling symbolic link is not ``os.path.exists``, so ``exists()`` then ``copyfile``/``open`` writes
wherever the link points. Here every new file is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` (a link,
dangling or not, makes it fail) inside directories checked not to be links; ``os.path.lexists`` decides
what is already there. Reading takes regular files only (not a FIFO, a device or a link to ``/dev/zero``),
opened without blocking and read up to a cap.
"""
from __future__ import annotations

import os
import stat
from typing import Optional

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


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
        if os.path.islink(current):
            raise UnsafePath(f"{current} is a symbolic link: refusing to write through it (remove it first)")
        if not os.path.lexists(current):
            os.mkdir(current)
        elif not os.path.isdir(current):
            raise UnsafePath(f"{current} is not a directory")


def write_new(root: str, path: str, data: bytes) -> bool:
    """Write ``data`` to a new file ``path`` inside ``root``; False (untouched) when anything is there, a link too."""
    if os.path.lexists(path):
        return False
    make_dirs(root, os.path.dirname(path))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
    except FileExistsError:  # created meanwhile, or a link planted meanwhile: never written through
        return False
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return True


def copy_new(root: str, src: str, dst: str) -> bool:
    """Copy ``src`` to a new file ``dst`` inside ``root`` (see write_new)."""
    if os.path.lexists(dst):
        return False
    with open(src, "rb") as fh:
        return write_new(root, dst, fh.read())


def read_regular(path: str, cap: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path`` (links followed to a regular file), at most ``cap``; else OSError.

    Opened with O_NONBLOCK so a FIFO cannot block the open, then checked with fstat: a FIFO, a device
    (``/dev/zero``) or a directory is refused before a byte is read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
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


def lexists(path: Optional[str]) -> bool:
    """os.path.lexists, for callers that import this module only."""
    return bool(path) and os.path.lexists(path)


def replace_with(path: str, data: bytes) -> None:
    """Write ``path`` atomically (a reader never sees half a file) through a per-process temporary file that is
    created, never followed: a link planted at the temporary name is removed (the link, not its target) first."""
    tmp = f"{path}.{os.getpid()}.tmp"  # per process: two builds of one file (two kernels) never share it
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW
    try:
        fd = os.open(tmp, flags, 0o644)
    except FileExistsError:  # a stale temporary file or a planted link: unlink removes the entry itself
        os.unlink(tmp)
        fd = os.open(tmp, flags, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)  # rename replaces a link at ``path`` itself, never writes through it
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise
