"""A notebook opens unmodified: the copies a learner gets carry the kernel metadata JupyterLab will write.

JupyterLab replaces ``kernelspec`` and ``language_info`` with what the connected kernel reports and marks the
notebook modified when they differ (ui_tests' check_not_modified sees it in Chromium); these check the copies.
"""
import glob
import json
import os

import nbformat

from acl_teach import cli, course, notebook_meta
from acl_teach.classroom import workspace

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOKS = os.path.join(ROOT, "notebooks")


def _meta(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["metadata"]


def test_stored_notebooks_name_the_kernel_as_ipykernel_does():
    want = notebook_meta.local_kernel()["kernelspec"]
    paths = glob.glob(os.path.join(NOTEBOOKS, "[0-9][0-9]_*.ipynb")) + glob.glob(os.path.join(NOTEBOOKS, "zh", "*.ipynb"))
    assert len(paths) >= 30
    assert {p: _meta(p)["kernelspec"] for p in paths} == {p: want for p in paths}


def test_retarget_writes_this_kernels_metadata_and_nothing_else():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)", id="a")])
    nb.metadata.update(kernelspec={"name": "python3", "display_name": "Python 3", "language": "python"},
                       language_info={"name": "python", "version": "3.0.0"})
    raw = nbformat.writes(nb).encode()
    out = notebook_meta.retarget(raw)
    got = json.loads(out)
    assert {k: got["metadata"][k] for k in ("kernelspec", "language_info")} == notebook_meta.local_kernel()
    assert got["cells"] == json.loads(raw)["cells"]
    assert notebook_meta.retarget(out) is out  # already right: the bytes are kept as they are
    nb.metadata.kernelspec = {"name": "ir", "display_name": "R", "language": "R"}
    other = nbformat.writes(nb).encode()
    assert notebook_meta.retarget(other) is other and notebook_meta.retarget(b"not json") == b"not json"


def _stale(path):
    """A copy of 00_welcome as built elsewhere: another display name, another Python."""
    nb = nbformat.read(os.path.join(NOTEBOOKS, "00_welcome.ipynb"), as_version=4)
    nb.metadata.kernelspec.display_name = "Python 3"
    nb.metadata.language_info = {"name": "python", "version": "3.0.0"}
    nbformat.write(nb, path)


def test_lab_workspace_copies_open_unmodified(tmp_path):
    notebooks, data = tmp_path / "pkg" / "notebooks", tmp_path / "pkg" / "data"
    notebooks.mkdir(parents=True)
    data.mkdir()
    _stale(notebooks / "00_welcome.ipynb")
    assert cli.lab_workspace(str(tmp_path / "ws"), str(notebooks), str(data)) == []
    copied = _meta(tmp_path / "ws" / "notebooks" / "00_welcome.ipynb")
    assert {k: copied[k] for k in ("kernelspec", "language_info")} == notebook_meta.local_kernel()


def test_class_workspace_and_course_sources_open_unmodified(tmp_path, monkeypatch):
    source = tmp_path / "shipped"
    source.mkdir()
    _stale(source / "00_welcome.ipynb")
    monkeypatch.setattr(course, "notebooks_dir", lambda lang="en": str(source))
    assert workspace.populate(str(tmp_path / "home")) == ["00_welcome.ipynb"]
    copied = _meta(tmp_path / "home" / workspace.FOLDER / "00_welcome.ipynb")
    assert {k: copied[k] for k in ("kernelspec", "language_info")} == notebook_meta.local_kernel()
    monkeypatch.undo()
    names = course.init(str(tmp_path / "course"), only=["01"])
    stored = _meta(tmp_path / "course" / "source" / names[0] / (names[0] + ".ipynb"))
    assert {k: stored[k] for k in ("kernelspec", "language_info")} == notebook_meta.local_kernel()
