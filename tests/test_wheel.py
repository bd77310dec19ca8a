"""Installable like any Python package: the wheel (and the sdist) carry the model, labels, photos and notebooks.

The wheel is built from a copy of the checkout (tracked and new files, as a clean clone plus uncommitted
work would have), installed into a fresh venv outside the checkout, and run there as a learner would:
`acl-teach demo`, `acl-teach classify` on a shipped photo, `acl-teach lab` (with a stand-in `jupyter`).
The third-party dependencies come from this test environment through a folder of links that leaves out
acl_teach itself, so only the installed wheel can provide it.
"""
import argparse
import glob
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from importlib import metadata

import pytest

from acl_teach import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = ["acl_teach/data/models/efficientnet_lite0.onnx", "acl_teach/data/models/efficientnet_lite0.recipe.json",
           "acl_teach/data/imagenet_classes.txt", "acl_teach/data/NOTICE.md", "acl_teach/data/images/coffee.png",
           "acl_teach/notebooks/00_welcome.ipynb", "acl_teach/notebooks/11_full_pipeline.ipynb",
           "acl_teach/notebooks/zh/00_welcome.ipynb", "acl_teach/notebooks/zh/13_capstone.ipynb"]


def _run(argv, **kw):
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, **kw)
    assert proc.returncode == 0, f"{argv}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _source_copy(dest):
    """The checkout's tracked and new (not ignored) files: a clean clone with the uncommitted work."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for rel in filter(None, listed):
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):  # skip files deleted in the working tree
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))
    return dest


def _wheel(source, out):
    """pip wheel, without build isolation when this environment has a new enough setuptools (make test's)."""
    flags = ["--no-build-isolation"] if int(metadata.version("setuptools").split(".")[0]) >= 77 else []
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *flags, "-w", out, source])
    (wheel,) = glob.glob(os.path.join(out, "acl_teach-*.whl"))
    return wheel


def _dependency_links(dest):
    """A folder linking every installed distribution of this environment except acl_teach (and its editable hook)."""
    os.makedirs(dest)
    dirs = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    for folder in dict.fromkeys(d for d in dirs if os.path.isdir(d)):
        for name in os.listdir(folder):
            skip = name.startswith(("acl_teach", "acl-teach", "__editable__", "__pycache__")) or name.endswith(".pth")
            if not skip and not os.path.lexists(os.path.join(dest, name)):
                os.symlink(os.path.join(folder, name), os.path.join(dest, name))
    return dest


WHEEL = pytest.mark.xdist_group("e2e-wheel")  # the tests sharing one built and installed wheel run on one xdist worker


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    """The wheel built from a copy of the checkout, installed (no deps) into a fresh venv outside the checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    assert not str(tmp).startswith(ROOT + os.sep)
    source = _source_copy(str(tmp / "src"))
    wheel = _wheel(source, str(tmp / "dist"))
    venv = str(tmp / "venv")
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    py = os.path.join(venv, "bin", "python")
    purelib = _run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    with open(os.path.join(purelib, "_acl_teach_test_deps.pth"), "w", encoding="utf-8") as fh:
        fh.write(_dependency_links(str(tmp / "deps")) + "\n")
    _run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-index", wheel])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ACL_TEACH_DATA", "PYTHONHOME")}
    env["ACL_TEACH_CACHE"] = str(tmp / "cache")
    run = tmp / "run"
    run.mkdir()
    return {"tmp": tmp, "source": source, "wheel": wheel, "venv": venv, "py": py, "purelib": purelib,
            "env": env, "cwd": str(run), "exe": os.path.join(venv, "bin", "acl-teach")}


@WHEEL
def test_wheel_carries_data_and_notebooks(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    assert set(SHIPPED) <= names
    shipped = sorted(n for n in names if n.startswith("acl_teach/notebooks/") and n.endswith(".ipynb"))
    ours = sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb")) +
                  glob.glob(os.path.join(ROOT, "notebooks", "zh", "*.ipynb")))
    assert shipped == ["acl_teach/" + os.path.relpath(p, ROOT) for p in ours]  # both editions, nothing else
    assert not any(n.startswith(("data/", "notebooks/")) for n in names)  # nothing at the top level


@WHEEL
@pytest.mark.slow  # `make test-slow`: a second build / a lab workspace copy
def test_sdist_builds_the_same_wheel(installed):
    tmp, source = installed["tmp"], installed["source"]
    code = "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    name = _run([sys.executable, "-c", code, str(tmp / "sdist")], cwd=source).stdout.strip().splitlines()[-1]
    sdist = os.path.join(tmp, "sdist", name)
    wheel = _wheel(sdist, str(tmp / "dist-from-sdist"))
    assert sorted(zipfile.ZipFile(wheel).namelist()) == sorted(zipfile.ZipFile(installed["wheel"]).namelist())


@WHEEL
def test_installed_package_uses_its_own_files(installed):
    code = ("import json, acl_teach; from acl_teach.toolchain import assets; "
            "print(json.dumps([acl_teach.__file__, assets.data_dir(), assets.notebooks_dir(), assets.default_onnx()]))")
    out = _run([installed["py"], "-c", code], cwd=installed["cwd"], env=installed["env"]).stdout
    package = os.path.join(installed["purelib"], "acl_teach")
    module, data, notebooks, onnx = json.loads(out)
    assert module == os.path.join(package, "__init__.py")
    assert data == os.path.join(package, "data") and notebooks == os.path.join(package, "notebooks")
    assert os.path.isfile(onnx)


@WHEEL
def test_installed_demo_and_classify(installed):
    demo = _run([installed["exe"], "demo"], cwd=installed["cwd"], env=installed["env"]).stdout
    coffee = os.path.join(installed["purelib"], "acl_teach", "data", "images", "coffee.png")
    assert coffee in demo
    assert "967" in demo.split(coffee, 1)[1].splitlines()[1] and "espresso" in demo
    out = _run([installed["exe"], "classify", coffee, "--json", "--top", "1"],
               cwd=installed["cwd"], env=installed["env"]).stdout
    assert json.loads(out.strip().splitlines()[-1])["top"][0]["index"] == 967


@WHEEL
@pytest.mark.slow  # `make test-slow`: a second build / a lab workspace copy
def test_installed_lab_copies_a_workspace_and_keeps_edits(installed):
    fake = os.path.join(installed["venv"], "bin", "jupyter")  # found first: it sits beside the venv's python
    args = os.path.join(installed["tmp"], "jupyter-args.txt")
    with open(fake, "w", encoding="utf-8") as fh:
        fh.write(f'#!/bin/sh\necho "$@" > "{args}"\n')
    os.chmod(fake, 0o755)
    try:
        help_text = _run([installed["exe"], "lab", "--help"], env=installed["env"]).stdout
        assert all(opt in help_text for opt in ("--dir", "--port", "--no-browser", "--allow-root"))
        out = _run([installed["exe"], "lab", "--no-browser", "--port", "8899"], cwd=installed["cwd"],
                   env=installed["env"]).stdout
        workspace = os.path.join(installed["cwd"], "acl-teach-notebooks")
        assert "kept" not in out
        with open(args, encoding="utf-8") as fh:
            argv = fh.read().split()
        assert argv[:2] == ["lab", f"--notebook-dir={workspace}/notebooks"]
        assert "--no-browser" in argv and "--port=8899" in argv
        assert ("--allow-root" in argv) == (os.geteuid() == 0)
        assert os.path.isfile(os.path.join(workspace, "data", "models", "efficientnet_lite0.onnx"))
        welcome = os.path.join(workspace, "notebooks", "00_welcome.ipynb")
        with open(welcome, "a", encoding="utf-8") as fh:
            fh.write(" ")  # the learner's edit
        out = _run([installed["exe"], "lab"], cwd=installed["cwd"], env=installed["env"]).stdout
        assert "notebooks/00_welcome.ipynb" in out and "kept" in out
        with open(welcome, encoding="utf-8") as fh:
            assert fh.read().endswith(" ")
    finally:
        os.remove(fake)


def test_lab_workspace_never_overwrites(tmp_path):
    notebooks, data = tmp_path / "pkg" / "notebooks", tmp_path / "pkg" / "data"
    (data / "images").mkdir(parents=True)
    notebooks.mkdir()
    (notebooks / "00_welcome.ipynb").write_text("shipped")
    (notebooks / "01_next.ipynb").write_text("shipped")
    (notebooks / "sanitize.cfg").write_text("not a notebook")
    (data / "images" / "coffee.png").write_bytes(b"png")
    (data / "imagenet_classes.txt").write_text("labels")
    ws = tmp_path / "ws"
    assert cli.lab_workspace(str(ws), str(notebooks), str(data)) == []
    assert sorted(os.listdir(ws / "notebooks")) == ["00_welcome.ipynb", "01_next.ipynb"]
    assert (ws / "data" / "images" / "coffee.png").read_bytes() == b"png"
    (ws / "notebooks" / "00_welcome.ipynb").write_text("my answers")
    (ws / "notebooks" / "01_next.ipynb").unlink()
    kept = cli.lab_workspace(str(ws), str(notebooks), str(data))
    assert os.path.join("notebooks", "00_welcome.ipynb") in kept and len(kept) == 3
    assert (ws / "notebooks" / "00_welcome.ipynb").read_text() == "my answers"
    assert (ws / "notebooks" / "01_next.ipynb").read_text() == "shipped"  # a deleted one comes back


def _lab_argv(monkeypatch, *args, euid=1000):
    calls = []
    monkeypatch.setattr(shutil, "which", lambda name: "/x/jupyter")
    monkeypatch.setattr(subprocess, "call", lambda argv: calls.append(argv) or 0)
    monkeypatch.setattr(os, "geteuid", lambda: euid, raising=False)
    opts = cli.build_parser().parse_args(["lab", *args])
    assert cli.cmd_lab(opts) == 0
    return calls[0]


def test_lab_in_the_checkout_uses_the_repository_notebooks(monkeypatch, capsys):
    argv = _lab_argv(monkeypatch)
    assert argv == ["/x/jupyter", "lab", f"--notebook-dir={os.path.join(ROOT, 'notebooks')}"]
    assert _lab_argv(monkeypatch, "--allow-root", "--port", "9000")[3:] == ["--port=9000", "--ServerApp.port_retries=0",
                                                                            "--allow-root"]  # that port or a clear failure
    capsys.readouterr()
    assert _lab_argv(monkeypatch, "--no-browser", euid=0)[3:] == ["--no-browser", "--allow-root"]
    assert "running as root" in capsys.readouterr().out


def test_lab_without_jupyter_is_one_line(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(cli.UserError, match="JupyterLab is not installed"):
        cli.cmd_lab(argparse.Namespace(dir=None, port=None, no_browser=False, allow_root=False))


def test_lab_trusts_the_notebooks_so_saved_widgets_show(tmp_path, monkeypatch):
    from nbformat import read
    from nbformat.sign import NotebookNotary
    from acl_teach import cli
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    folder = tmp_path / "nbs"
    folder.mkdir()
    for name in ("00_welcome.ipynb", "03_model_desc.ipynb"):
        shutil.copy(os.path.join(ROOT, "notebooks", name), folder / name)
    (folder / "broken.ipynb").write_text("{not json")
    notary = NotebookNotary()
    assert not notary.check_signature(read(str(folder / "03_model_desc.ipynb"), as_version=4))
    assert cli.trust_notebooks(str(folder)) == 2
    assert NotebookNotary().check_signature(read(str(folder / "03_model_desc.ipynb"), as_version=4))
    assert cli.trust_notebooks(str(folder)) == 0  # already trusted
