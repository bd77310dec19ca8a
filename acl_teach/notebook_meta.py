"""A notebook's kernel metadata as this machine's kernel reports it, written into the copies a learner opens.

When its kernel connects, JupyterLab overwrites the notebook's ``kernelspec`` (name, display name) and
``language_info`` (the kernel's own reply, Python's version included) and marks the notebook modified if
either differs: a learner saw "modified" seconds after opening a notebook they had not touched (measured in
Chromium: the stored ``display_name`` "Python 3" against ipykernel's "Python 3 (ipykernel)", and a
``language_info.version`` of the build machine's Python). The copies `acl-teach lab`, a class workspace and
`acl-teach course init` make therefore carry what the kernel here will report.
"""
from __future__ import annotations

import os
import sys
from typing import Dict

KERNEL = "python3"


def _language_info() -> Dict:
    """What ipykernel answers in kernel_info (its own table when importable, the same fields otherwise)."""
    try:
        from ipykernel.ipkernel import IPythonKernel
        return dict(IPythonKernel.language_info)
    except Exception:  # no ipykernel in this environment: the fields ipykernel 6-7 reports
        return {"name": "python", "version": sys.version.split()[0], "mimetype": "text/x-python",
                "codemirror_mode": {"name": "ipython", "version": sys.version_info[0]},
                "pygments_lexer": "ipython3", "nbconvert_exporter": "python", "file_extension": ".py"}


def _display_name() -> str:
    """The python3 kernel's display name here (ipykernel's "Python 3 (ipykernel)" unless a kernelspec says else)."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager
        return KernelSpecManager().get_kernel_spec(KERNEL).display_name
    except Exception:  # no jupyter_client or no such kernel: ipykernel's default name
        return "Python 3 (ipykernel)"


def local_kernel() -> Dict:
    """The ``kernelspec`` and ``language_info`` JupyterLab will write once this machine's python3 kernel runs."""
    return {"kernelspec": {"name": KERNEL, "display_name": _display_name(), "language": "python"},
            "language_info": _language_info()}


def retarget(raw: bytes, want: Dict = None) -> bytes:
    """A notebook file's bytes with this machine's kernel metadata (a python3 notebook only: one made for
    another kernel, or bytes that are not a notebook, come back unchanged)."""
    import nbformat
    want = want or local_kernel()
    try:
        nb = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception:  # not a notebook we can read: copied as it is, JupyterLab says what is wrong
        return raw
    if nb.metadata.get("kernelspec", {}).get("name", KERNEL) != KERNEL:
        return raw
    if all(nb.metadata.get(k) == v for k, v in want.items()):
        return raw
    nb.metadata.update({k: dict(v) for k, v in want.items()})
    return (nbformat.writes(nb) + "\n").encode("utf-8")


def copy_new(root: str, src: str, dst: str, want: Dict = None) -> bool:
    """files.copy_new for a notebook, retargeted to this machine's kernel on the way (never rewritten after)."""
    from .toolchain import files
    if os.path.lexists(dst):
        return False
    with open(src, "rb") as fh:
        return files.write_new(root, dst, retarget(fh.read(), want))
