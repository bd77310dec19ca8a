"""Shared fixtures: a fresh simulated process per test; how `make test` spreads the suite over xdist workers.

`make test` runs ``pytest -n auto --dist loadgroup`` (scheduler: tests/xdist_groups.py): every test goes to
whichever worker is free, except the tests of one ``xdist_group``, which run on one worker in file order. So:

- a slow end-to-end run shared by several tests (a session fixture: the graded nbgrader course, the
  installed wheel …) is built once: mark its tests ``pytest.mark.xdist_group("e2e-NAME")``; ``e2e-`` groups
  are scheduled first, the longest runs start at once;
- every cell of one notebook run by nbval shares that notebook's kernel: they are grouped here;
- other single slow tests (a notebook run twice) take ``pytest.mark.heavy``: scheduled next, so the
  thousand quick tests fill both workers at the end.

Files a test writes go under ``tmp_path`` (one base folder per worker); ports are ephemeral (port 0).
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from acl_teach import sim  # noqa: E402
from acl_teach.sim import inspect as sim_inspect  # noqa: E402
from helpers import build, make_onnx  # noqa: E402,F401


# The xdist scheduling hooks and the "heavy" marker live in the root conftest.py, so `pytest -n 2 notebooks/…`
# (which never loads this file) keeps each notebook's cells on one kernel too.


sim.core.args.check_returns(True)  # every binding call checks its return value against the binding's Py_BuildValue


@pytest.fixture
def acl():
    """The simulator's ``acl`` (the binding's names only; extras are on ``acl_teach.sim``), fresh, host run mode."""
    sim_inspect.reset()
    yield sim.acl()
    sim_inspect.reset()


@pytest.fixture
def step_api(acl):
    """The step API on a fresh simulator, with no resources or handle names left from earlier tests."""
    import acl_teach as at
    at.use("sim")
    at.reset()
    yield at
    at.reset()


@pytest.fixture
def ready(acl):
    """acl initialised with device 0 open (default context current)."""
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    return acl


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """Static, dynamic-batch and dynamic-HW versions of the tiny 2-in/2-out model."""
    d = tmp_path_factory.mktemp("models")
    static = build(make_onnx(d / "tiny.onnx"), d / "tiny")
    batch = build(make_onnx(d / "tiny_b.onnx", "batch"), d / "tiny_b", "--input_shape=a:-1,4;b:-1,4",
                  "--dynamic_batch_size=1,2,4")
    hw = build(make_onnx(d / "tiny_hw.onnx", "hw"), d / "tiny_hw", "--input_shape=a:1,1,-1,-1;b:1,1,-1,-1",
               "--dynamic_image_size=2,3;4,5", "--input_format=NCHW")
    return {"static": static, "batch": batch, "hw": hw, "dir": d}


@pytest.fixture(scope="session")
def default_om(tmp_path_factory):
    """The embedded default OM, built into a private cache."""
    cache = tmp_path_factory.mktemp("cache")
    old = os.environ.get("ACL_TEACH_CACHE")
    os.environ["ACL_TEACH_CACHE"] = str(cache)
    try:
        from acl_teach.toolchain import assets as models
        yield models.default_om()
    finally:
        if old is None:
            os.environ.pop("ACL_TEACH_CACHE", None)
        else:
            os.environ["ACL_TEACH_CACHE"] = old
