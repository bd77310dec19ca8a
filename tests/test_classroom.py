"""The classroom's pieces that need no root, and the learner-facing rough edges found while setting a class up."""
import os
import shutil
import socket
import subprocess
import sys

import numpy as np
import pytest

from acl_teach import cli
from acl_teach.classroom import accounts, limits
from acl_teach.toolchain import assets

ACL_TEACH = [sys.executable, "-m", "acl_teach"]


def _cli(*args, **kw):
    return subprocess.run(ACL_TEACH + list(args), capture_output=True, text=True, timeout=300, **kw)


def test_class_list_csv_header_comments_and_bad_names(tmp_path):
    path = tmp_path / "class.csv"
    path.write_text("username,name\nalice,Alice A\n# a comment\nbob\nalice\n\n")
    assert accounts.read_class_list(str(path)) == ["alice", "bob"]
    path.write_text("alice\nRoot\nx+y\nroot\n")
    with pytest.raises(ValueError) as err:
        accounts.read_class_list(str(path))
    assert "'Root'" in str(err.value) and "'x+y'" in str(err.value) and "'root'" in str(err.value)


def test_passwords_are_random_and_unambiguous():
    words = {accounts.new_password() for _ in range(50)}
    assert len(words) == 50 and all(len(w) == 12 and not set(w) & set("l1o0") for w in words)


def test_mem_limit_syntax():
    assert limits.parse_bytes("1536M") == 1536 << 20 and limits.parse_bytes("2G") == 2 << 30
    assert limits.parse_bytes("4096") == 4096 and limits.parse_bytes(7) == 7


def test_thread_pools_follow_the_cpu_share():
    assert limits.thread_env(1.0)["ACL_TEACH_SIM_THREADS"] == "1"
    assert limits.thread_env(0.5) == {"ACL_TEACH_SIM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    assert limits.thread_env(4)["OPENBLAS_NUM_THREADS"] == "4" and limits.thread_env(None)["OMP_NUM_THREADS"] == "1"


def test_limits_mechanism_can_be_forced(monkeypatch):
    monkeypatch.setenv("ACL_TEACH_LIMITS", "rlimit")
    assert limits.mechanism() == "rlimit" and limits.group_dirs("alice") == []


def test_cache_key_does_not_hold_install_paths(tmp_path):
    """The AIPP model's key held the cfg's absolute path: a cache built elsewhere never matched."""
    cfg = assets.aipp_cfg()
    moved = tmp_path / "elsewhere" / os.path.basename(cfg)
    moved.parent.mkdir()
    shutil.copyfile(cfg, moved)
    onnx = tmp_path / "m.onnx"
    shutil.copyfile(assets.default_onnx(), onnx)
    here = assets._digest(assets.default_onnx(), [f"--insert_op_conf={cfg}"])
    there = assets._digest(str(onnx), [f"--insert_op_conf={moved}"])
    assert here == there
    moved.write_text(moved.read_text() + "\n# changed\n")
    assert assets._digest(str(onnx), [f"--insert_op_conf={moved}"]) != here  # the content still counts


def test_shared_cache_is_read_first(tmp_path, monkeypatch):
    shared, own = tmp_path / "shared", tmp_path / "own"
    shared.mkdir()
    flags = [f"--soc_version={assets.SIM_SOC}"] + assets.DEFAULT_FLAGS
    stem = f"efficientnet_lite0-{assets._digest(assets.default_onnx(), flags)}"
    (shared / (stem + ".om")).write_bytes(b"prebuilt")
    monkeypatch.setenv("ACL_TEACH_SHARED_CACHE", str(shared))
    monkeypatch.setenv("ACL_TEACH_CACHE", str(own))
    assert assets.default_om() == str(shared / (stem + ".om"))
    assert not any(p.suffix == ".om" for p in own.glob("*"))  # nothing built in the learner's own cache


def test_lab_port_out_of_range_and_busy():
    done = _cli("lab", "--port", "99999", "--no-browser")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "1 to 65535" in done.stderr
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = _cli("lab", "--port", str(port), "--no-browser")
    assert done.returncode == 2 and "in use" in done.stderr and done.stderr.count("\n") == 1


def test_lab_without_jupyterlab_names_the_extra(monkeypatch, capsys):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jupyterlab" else real(name, *a))
    assert cli.main(["lab", "--no-browser"]) == 2
    assert 'pip install "acl-teach[lab]"' in capsys.readouterr().err


def test_desc_on_a_non_om_is_one_short_line(tmp_path):
    bad = tmp_path / "not.om"
    bad.write_bytes(b"hello")
    done = _cli("desc", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and len(done.stderr) < 250, done.stderr
    assert "100013" in done.stderr and "not an offline model" in done.stderr


def test_classify_top_zero_refused():
    done = _cli("classify", "--top", "0", assets.image("coffee.png"))
    assert done.returncode == 2 and "--top 0" in done.stderr and "Traceback" not in done.stderr


def test_copy_to_device_without_a_dataset_is_explained():
    import acl_teach as at
    with pytest.raises(TypeError, match="at.build_dataset"):
        at.copy_to_device(b"x", None, 0)
    with pytest.raises(TypeError, match="NumPy array or bytes"):
        at.copy_to_device("x", at.dataset.Dataset(), 0)
    with pytest.raises(IndexError, match="0 buffer"):
        at.copy_to_device(np.zeros(3, np.uint8), at.dataset.Dataset(), 0)


def test_stepper_fits_beside_the_file_browser():
    """A 1400 px window with JupyterLab's file browser open leaves about 950 px for a cell's output."""
    import re
    from acl_teach.widgets import stepper as st
    view = st.PipelineStepper()
    grid = view.children[0]
    minimum = int(re.search(r"minmax\((\d+)px", grid.layout.grid_template_columns).group(1))
    assert "auto-fill" in grid.layout.grid_template_columns and 4 * minimum <= 950
    assert all(not (b.layout.width or "").endswith("px") for b in view.buttons)  # no fixed widths overflow
