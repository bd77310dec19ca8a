"""Writing into a folder the user named without ever writing through a link, and reading files with a cap.

A dangling symbolic link is not ``os.path.exists``, so ``exists()`` then ``copyfile``/``open`` writes
wherever the link points. Here every new file is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` (a link,
dangling or not, makes it fail) inside directories checked not to be links; ``os.path.lexists`` decides
what is already there. Reading takes regular files only (not a FIFO, a device or a link to ``/dev/zero``),
opened without blocking and read up to a cap. The shared pieces live in ``spec.safe_files`` (the simulator uses
them too).
"""
from __future__ import annotations

import os
from typing import Optional

from ..spec.safe_files import NOFOLLOW, UnsafePath, make_dirs, read_regular, replace_with

__all__ = ["UnsafePath", "make_dirs", "write_new", "copy_new", "read_regular", "lexists", "replace_with"]


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


def lexists(path: Optional[str]) -> bool:
    """os.path.lexists, for callers that import this module only."""
    return bool(path) and os.path.lexists(path)
