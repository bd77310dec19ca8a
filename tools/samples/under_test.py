"""Which acl-teach the samples run on: this checkout's working tree, or acl_teach/ and data/ as committed at a ref.

Either way it becomes an import root holding only ``acl_teach`` and ``data`` (symlinks into the
working tree, or a ``git archive`` export), put first on PYTHONPATH, so the samples' interpreter
(the samples venv, which does not install acl-teach) imports exactly that code and nothing else
of the repository.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Optional

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARTS = ("acl_teach", "data")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True, check=True).stdout.strip()


def _describe_working_tree() -> str:
    try:
        dirty = _git("status", "--porcelain", "--", *PARTS)
        return f"acl-teach working tree at commit {_git('rev-parse', '--short', 'HEAD')}" + \
            (" + uncommitted changes in acl_teach/ or data/" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return f"acl-teach from {REPO} (not a git checkout)"


def prepare(root: str, ref: Optional[str] = None) -> str:
    """Make the import root in ``root``, put it first on sys.path and PYTHONPATH; a one-line description."""
    if os.path.lexists(root):
        shutil.rmtree(root)
    os.makedirs(root)
    if ref:
        archive = subprocess.run(["git", "-C", REPO, "archive", ref, *PARTS], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", root], input=archive.stdout, check=True)
        what = f"acl-teach at commit {_git('rev-parse', '--short', ref)}"
    else:
        for part in PARTS:
            os.symlink(os.path.join(REPO, part), os.path.join(root, part))
        what = _describe_working_tree()
    sys.path.insert(0, root)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    return what
