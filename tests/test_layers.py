"""The architecture's layer rules hold: import-linter's contracts (pyproject.toml) pass on the package."""
import os
import shutil
import subprocess
import sys

from helpers import ROOT


def _exe():
    return shutil.which("lint-imports", path=os.path.dirname(sys.executable)) or shutil.which("lint-imports")


def _lint(cwd):
    return subprocess.run([_exe(), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_import_contracts_are_kept():
    proc = _lint(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "9 kept, 0 broken" in proc.stdout


def _lint_with(tmp_path, module, line):
    """lint-imports on a copy of the package with ``line`` appended to ``module`` (a path under acl_teach/)."""
    shutil.copytree(os.path.join(ROOT, "acl_teach"), tmp_path / "acl_teach",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "notebooks"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), tmp_path / "pyproject.toml")
    with open(tmp_path / "acl_teach" / module, "a", encoding="utf-8") as fh:
        fh.write(f"\n{line}  # noqa\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    return subprocess.run([_exe(), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_a_forbidden_import_breaks_a_contract(tmp_path):
    """The contracts bite: a copy of the package whose simulator imports the toolchain fails the check."""
    proc = _lint_with(tmp_path, os.path.join("sim", "core", "ledger.py"), "from ...toolchain import atc")
    assert proc.returncode != 0
    assert "the simulator imports only spec BROKEN" in proc.stdout
    assert "acl_teach.sim.core.ledger -> acl_teach.toolchain.atc" in proc.stdout


def test_media_importing_the_model_namespace_breaks_its_contract(tmp_path):
    """The namespace contracts bite too: DVPP reaching into sim.mdl is reported with the offending import."""
    proc = _lint_with(tmp_path, os.path.join("sim", "media", "dvpp", "common.py"), "from ...mdl import model")
    assert proc.returncode != 0
    assert "never the model, op" in proc.stdout and "BROKEN" in proc.stdout
    assert "acl_teach.sim.media.dvpp.common -> acl_teach.sim.mdl.model" in proc.stdout
