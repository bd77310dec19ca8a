"""Shared fixtures: a fresh simulated process per test."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from acl_teach import sim  # noqa: E402


@pytest.fixture
def acl():
    """The simulator as ``acl``, in a fresh state, host run mode."""
    sim.reset(sim.Config())
    yield sim
    sim.reset(sim.Config())


@pytest.fixture
def ready(acl):
    """acl initialised with device 0 open (default context current)."""
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    return acl
