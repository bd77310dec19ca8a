"""A learner's workspace: the notebooks that are not assignments (00_welcome …), copied into their home.

Run as the learner (the spawner starts it through setpriv), so nothing in a learner's home is ever written by
root; existing files are kept. The graded notebooks arrive through nbgrader's assignment list instead.
"""
from __future__ import annotations

import argparse
import os
from typing import List

FOLDER = "acl-teach-notebooks"


def populate(home: str, lang: str = "en") -> List[str]:
    """Copy the ungraded notebooks of one edition into home/acl-teach-notebooks; returns the ones copied."""
    from .. import course, notebook_meta
    source = course.notebooks_dir(lang)
    target = os.path.join(home, FOLDER)
    os.makedirs(target, exist_ok=True)
    copied, want = [], None
    for name in sorted(os.listdir(source)):
        path = os.path.join(source, name)
        if not name.endswith(".ipynb") or course.graded(path):
            continue
        dst = os.path.join(target, name)
        if not os.path.lexists(dst):
            want = want or notebook_meta.local_kernel()
            with open(path, "rb") as src, open(dst, "xb") as out:  # opens unmodified: the kernel's metadata
                out.write(notebook_meta.retarget(src.read(), want))
            copied.append(name)
    return copied


def main() -> int:
    """python -m acl_teach.classroom.workspace --lang en|zh (as the learner)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    opts = parser.parse_args()
    populate(os.path.expanduser("~"), opts.lang)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
