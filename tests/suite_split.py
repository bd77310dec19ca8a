"""The `slow` split: `make test` runs -m "not slow" (every edit), `make test-slow` -m slow; CI runs both.

Loaded by the root conftest.py (so `pytest notebooks/…` gets the same marks) and read by
tests/test_suite_split.py. nbval runs every English notebook in `make test`; of the Chinese edition (the same
code cells and stored outputs, checked by tests/test_notebooks.py) only FAST_ZH_NOTEBOOKS, the rest in
`make test-slow`.
"""
from __future__ import annotations

import os

import pytest

FAST_ZH_NOTEBOOKS = ("01_init_and_resources.ipynb",)
SPLIT = pytest.StashKey[dict]()


def mark_slow_notebooks(items, root: str) -> None:
    """nbval cells of a Chinese notebook not in FAST_ZH_NOTEBOOKS go to `make test-slow`."""
    zh = os.path.join(root, "notebooks", "zh")
    for item in items:
        path = str(getattr(item, "fspath", ""))
        if type(item).__name__ == "IPyNbCell" and os.path.dirname(path) == zh \
                and os.path.basename(path) not in FAST_ZH_NOTEBOOKS:
            item.add_marker(pytest.mark.slow)


def record(config, items) -> None:
    """Each collected test's side of the split, before `-m` deselects (for tests/test_suite_split.py)."""
    config.stash[SPLIT] = {item.nodeid: item.get_closest_marker("slow") is not None for item in items}
