"""Root pytest settings: how the suite is spread over xdist workers (any path given), and nbval's comparisons.

nbval: compare text outputs of the notebooks; skip HTML/JS renderings and stderr noise.
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import suite_split  # noqa: E402
import xdist_groups  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "heavy: a slow single test (seconds of CPU); scheduled before the quick ones")
    xdist_groups.configure(config)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Slow work first; each nbval notebook and each xdist_group one unit of work (tests/xdist_groups.py).

    Runs before `-m` deselects: the `slow` marks set here count, and SPLIT records every collected test's
    side of the split (tests/suite_split.py).
    """
    suite_split.mark_slow_notebooks(items, ROOT)
    suite_split.record(config, items)
    xdist_groups.order_and_group(config, items, ROOT)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    xdist_groups.configure_node(node)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    return xdist_groups.make_scheduler(config, log)


def pytest_collectstart(collector):
    if getattr(collector, "fspath", None) is not None and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("text/html", "application/javascript", "stderr")
        # nbval's kernels inherit this: the simulator keeps the CANN <= 8.0 rule, one acl.init per process
        os.environ["ACL_TEACH_SIM_INIT_ONCE"] = "1"
