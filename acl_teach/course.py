"""An nbgrader course from the notebooks: ``acl-teach course init DIR``.

nbgrader is the course engine: the instructor's notebooks (solutions and hidden tests in place, nbgrader
metadata set by tools/build_notebooks.py) become ``source/<assignment>/``; ``nbgrader generate_assignment``
releases the student versions, ``nbgrader autograde`` runs the checkers of ``acl_teach.lab`` and
``nbgrader generate_feedback`` shows their English and Chinese explanations. The notebooks find their photos
and models through ``at.models``, so the course needs acl_teach installed, not copies of data files.
"""
from __future__ import annotations

import json
import os
from typing import List, Optional

from . import notebook_meta
from .toolchain import files

COURSE_ID = "acl-teach"
TIMEOUT = 180  # seconds per cell when nbgrader executes a notebook (a wrong loop must not hang autograde)

CONFIG = '''"""nbgrader configuration of the acl-teach course (written by `acl-teach course init`)."""
import os

c = get_config()  # noqa: F821 (nbgrader provides it)
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
# the assignments, one per notebook with graded exercises (nbgrader db assignment list shows each one only
# after `nbgrader generate_assignment` has run for it)
ASSIGNMENTS = {assignments!r}
# a cell that runs longer than this fails instead of hanging autograde (nbgrader's Execute preprocessor)
c.Execute.timeout = {timeout}
c.ExecutePreprocessor.timeout = {timeout}
c.Execute.interrupt_on_timeout = True
'''


def notebooks_dir(lang: str = "en") -> str:
    """The stored (instructor) notebooks of one edition."""
    from .toolchain import assets
    folder = assets.notebooks_dir()
    return os.path.join(folder, "zh") if lang == "zh" else folder


def graded(path: str) -> bool:
    """True if a notebook holds nbgrader-graded cells (the notebooks 01-16; 00 is the welcome)."""
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    return any(c.get("metadata", {}).get("nbgrader", {}).get("grade") for c in nb.get("cells", []))


def assignments(lang: str = "en") -> List[str]:
    """Assignment names: the notebooks with graded exercises, in series order."""
    folder = notebooks_dir(lang)
    names = sorted(f[:-6] for f in os.listdir(folder) if f.endswith(".ipynb"))
    return [n for n in names if graded(os.path.join(folder, n + ".ipynb"))]


def init(folder: str, course_id: str = COURSE_ID, lang: str = "en", timeout: int = TIMEOUT,
         only: Optional[List[str]] = None) -> List[str]:
    """Write nbgrader_config.py and source/<assignment>/ into ``folder``, never overwriting an instructor's edits."""
    if int(timeout) <= 0:  # nbgrader reads 0 or less as "no timeout": a wrong loop would hang autograde
        raise ValueError(f"--timeout {timeout}: give the seconds a cell may run (a positive number; default "
                         f"{TIMEOUT})")
    names = [n for n in assignments(lang) if not only or any(n.startswith(o) for o in only)]
    source = notebooks_dir(lang)
    want = notebook_meta.local_kernel() if names else None  # the class's kernel: released copies open unmodified
    for name in names:  # never through a link, dangling or not: a link planted in DIR is left as it is
        notebook_meta.copy_new(folder, os.path.join(source, name + ".ipynb"),
                               os.path.join(folder, "source", name, name + ".ipynb"), want)
    text = CONFIG.format(course_id=course_id, assignments=names, timeout=int(timeout))
    files.write_new(folder, os.path.join(folder, "nbgrader_config.py"), text.encode("utf-8"))
    return names
