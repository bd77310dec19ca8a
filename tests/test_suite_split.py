"""`make test` and `make test-slow` split the suite by the `slow` marker: CI runs both, so every test runs once.

tests/suite_split.py (loaded by the root conftest.py) records each collected test's side (before `-m` deselects); these checks read it, so a
renamed representative or a lost marker fails here instead of silently moving a whole area out of `make test`.
"""
import os
import re

import pytest

from helpers import ROOT

import suite_split


def _split(request):
    return request.config.stash.get(suite_split.SPLIT, {})


def _read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as fh:
        return fh.read()


def test_the_targets_select_by_the_marker_and_ci_runs_both():
    make = _read("Makefile")
    assert re.search(r'^test: .*\n\t\$\(PY\) -m pytest -q \$\(PYTEST_ARGS\) -m "not slow" \$\(TESTS\)$', make, re.M)
    assert re.search(r'^test-slow: .*\n\t\$\(PY\) -m pytest -q \$\(PYTEST_ARGS\) -m slow \$\(TESTS\)$', make, re.M)
    steps = [line for line in _read(".ci/run").splitlines() if line.startswith("make ")]
    assert steps[:2] == ["make test", "make test-slow"]
    assert '"slow:' in _read("pyproject.toml")  # registered: a typo'd marker would warn
    readme = _read("README.md")
    assert "make test-slow" in readme and "make test   #" in readme


def test_representatives_of_each_area_stay_in_make_test():
    assert os.path.isfile(os.path.join(ROOT, "notebooks", "zh", suite_split.FAST_ZH_NOTEBOOKS[0]))
    from test_notebooks import FAST_TWICE
    assert os.path.isfile(os.path.join(ROOT, "notebooks", FAST_TWICE))


def test_slow_marks_are_where_they_should_be(request):
    """Of what this run collected: the graded course and most Chinese nbval cells are slow, a few of each stay."""
    split = _split(request)
    if not any(n.startswith("tests/test_course.py::") for n in split) or \
            not any(n.startswith("notebooks/zh/") for n in split):
        pytest.skip("only a part of the suite was collected")
    course = {n: s for n, s in split.items() if n.startswith("tests/test_course.py::")}
    graded = [n for n in course if "full_marks" in n or "partial_marks" in n or "untouched" in n]
    assert graded and all(course[n] for n in graded)
    assert any(not s for s in course.values())  # init and the exercise checks stay in `make test`
    zh = {n: s for n, s in split.items() if n.startswith("notebooks/zh/")}
    fast = {n.split("::")[0] for n, s in zh.items() if not s}
    assert fast == {"notebooks/zh/" + name for name in suite_split.FAST_ZH_NOTEBOOKS}
    assert all(not s for n, s in split.items() if n.startswith("notebooks/") and "/zh/" not in n)
    assert sum(split.values()) >= 100  # `make test-slow` is not empty
    twice = {n: s for n, s in split.items() if "test_runs_twice_in_one_kernel_without_leaks" in n}
    assert sorted(n for n, s in twice.items() if not s and "zh/" not in n)[0].endswith("[03_model_desc.ipynb]")
