"""`make test`'s scheduler survives a worker that dies: the crash is one failure, its group's other tests run, no hang.

A segfault in one worker once made xdist's scope scheduling re-run the crashing test on every
replacement and then stop the controller with a KeyError, after which CI waited out its 90 minutes.
"""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

CONFTEST = """
import xdist_groups

def pytest_configure(config):
    xdist_groups.configure(config)

def pytest_collection_modifyitems(config, items):
    xdist_groups.order_and_group(config, items, str(config.rootpath))

def pytest_configure_node(node):
    xdist_groups.configure_node(node)

def pytest_xdist_make_scheduler(config, log):
    return xdist_groups.make_scheduler(config, log)
"""

TESTS = """
import os, signal, pytest

@pytest.mark.xdist_group("e2e-crash")
def test_before():
    pass

@pytest.mark.xdist_group("e2e-crash")
def test_crash():
    os.kill(os.getpid(), signal.SIGKILL)

@pytest.mark.xdist_group("e2e-crash")
def test_after():
    pass

@pytest.mark.parametrize("n", range(6))
def test_plain(n):
    pass
"""


@pytest.mark.heavy
@pytest.mark.slow  # a child pytest -n 2 run (~15 CPU-s): `make test-slow`
def test_a_dead_worker_fails_its_test_once_and_the_run_ends(tmp_path):
    shutil.copy(os.path.join(HERE, "xdist_groups.py"), tmp_path)
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "test_crash.py").write_text(textwrap.dedent(TESTS))
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "xdist",
                          "-p", "no:cacheprovider", "-o", "addopts=", "-rf", str(tmp_path)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    out = run.stdout + run.stderr
    assert "INTERNALERROR" not in out, out
    assert out.count("node down") == 1, out  # no replacement crashed on it again
    assert "1 failed, 8 passed" in out, out
    assert run.returncode == 1, out
