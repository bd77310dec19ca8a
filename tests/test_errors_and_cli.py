"""The aclError table, `acl-teach explain`, the packaging lists and `python -m acl_teach.sim`."""
import os
import re
import subprocess
import sys

import pytest

from acl_teach import cli, sim
from acl_teach.spec import errors

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# every code listed in the pyACL reference's error tables (§4.1-4.3)
REFERENCE_CODES = (
    [0] + list(range(100000, 100046)) + list(range(148046, 148054)) + list(range(200000, 200008))
    + [300000] + list(range(500000, 500006))
    + [107000, 107001, 107002, 107003, 107004, 107005, 107008, 107009, 107010, 107011, 107012, 107015,
       107016, 107017, 107018, 107019, 107020, 207000, 207001, 207002, 207004, 207005, 207008, 207018,
       507000, 507001, 507011, 507012, 507014, 507015, 507046, 507899, 507900]
    + [145000, 145001, 145002, 145003, 145006, 145007, 145008, 145009, 145011, 145012, 145013, 145014,
       145015, 145016, 145020, 145021, 145022, 245000, 245001, 245002, 545000, 545001, 545009, 545601])


@pytest.mark.parametrize("code", REFERENCE_CODES)
def test_every_reference_code_is_explained_in_both_languages(code):
    info = errors.explain(code)
    assert info is not None and info.code == code
    assert info.name.startswith("ACL_")
    assert info.en and info.zh and info.cause and info.fix and info.cause_zh and info.fix_zh
    assert re.search(r"[\u4e00-\u9fff]", info.zh + info.cause_zh)


def test_specific_names():
    assert errors.name_of(100002) == "ACL_ERROR_REPEAT_INITIALIZE"
    assert errors.name_of(107015) == "ACL_ERROR_RT_STREAM_NO_CB_REG"
    assert errors.name_of(100011) == "ACL_ERROR_INVALID_MODEL_ID"
    assert errors.name_of(42) == "UNKNOWN_42"
    assert errors.explain(42) is None


def test_cli_explain(capsys):
    assert cli.main(["explain", "507033"]) == 0
    out = capsys.readouterr().out
    assert "ACL_ERROR_RT_DEV_SETUP_ERROR" in out and "Device 启动失败" in out and "fix:" in out
    assert cli.main(["explain", "12"]) == 1
    assert cli.main(["explain", "abc"]) == 2
    assert "not an error code" in capsys.readouterr().err


def test_environment_yml_matches_pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as fh:
        pyproject = fh.read()
    block = pyproject.split("dependencies = [", 1)[1].split("]", 1)[0]
    runtime = {l.strip().strip('",').lower() for l in block.splitlines() if l.strip().startswith('"')}
    with open(os.path.join(ROOT, "environment.yml"), encoding="utf-8") as fh:
        env = fh.read()
    conda = {l.split("#", 1)[0].strip()[2:].strip().lower() for l in env.split("dependencies:", 1)[1].splitlines()
             if l.strip().startswith("- ") and ("<" in l.split("#", 1)[0] or ">=" in l)}
    assert runtime == conda and "onnxruntime>=1.14" in runtime
    assert "python=3.11" in env and "-e .[test]" in env
    assert 'requires-python = ">=3.9"' in pyproject


def test_python_m_sim_runs_an_unmodified_sample_script():
    script = os.path.join(ROOT, "acl_teach", "examples", "memory_roundtrip.py")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "copied back: [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]" \
        in proc.stdout
    assert "round trip identical: True" in proc.stdout
    assert "leak report" not in proc.stderr


def test_python_m_sim_reports_missing_finalize(tmp_path):
    script = tmp_path / "leaky.py"
    script.write_text("import acl\nacl.init()\nacl.rt.set_device(0)\nacl.rt.malloc(64, 0)\n")
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", "--run-mode", "device", str(script)],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)
    assert proc.returncode == 0
    assert "without acl.finalize()" in proc.stderr and "leaky.py:4" in proc.stderr


def test_python_m_sim_missing_script():
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", "nope.py"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert proc.returncode == 2 and "no such script" in proc.stderr


def test_install_refuses_to_shadow_another_acl(acl, monkeypatch):
    fake = type(sys)("acl")
    monkeypatch.setitem(sys.modules, "acl", fake)
    with pytest.raises(RuntimeError, match="will not shadow"):
        sim.install()
    sim.install(force=True)
    assert sys.modules["acl"] is acl and sys.modules["acl.rt"] is acl.rt
    import acl as imported  # noqa: F401
    assert imported.rt.malloc is acl.rt.malloc


def test_package_installs_no_top_level_acl():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as fh:
        assert 'include = ["acl_teach*"]' in fh.read()
    assert not os.path.exists(os.path.join(ROOT, "acl.py"))
    assert not os.path.exists(os.path.join(ROOT, "acl"))
