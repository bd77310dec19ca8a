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
    assert "5 kept, 0 broken" in proc.stdout


def test_a_forbidden_import_breaks_a_contract(tmp_path):
    """The contracts bite: a copy of the package whose simulator imports the toolchain fails the check."""
    shutil.copytree(os.path.join(ROOT, "acl_teach"), tmp_path / "acl_teach",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "notebooks"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), tmp_path / "pyproject.toml")
    with open(tmp_path / "acl_teach" / "sim" / "core" / "ledger.py", "a", encoding="utf-8") as fh:
        fh.write("\nfrom ..toolchain import atc  # noqa\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    proc = subprocess.run([_exe(), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "the simulator imports only spec BROKEN" in proc.stdout
    assert "acl_teach.sim.core.ledger -> acl_teach.toolchain.atc" in proc.stdout
