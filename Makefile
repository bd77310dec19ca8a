# Two commands on a fresh machine: `make demo` (the main job) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test test-slow test-ui test-class bench clean lab

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q -e ".[test]"
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(VENV)/bin/acl-teach demo

# The suite on every core (pytest-xdist): tests sharing a slow end-to-end run or a notebook kernel stay on one
# worker (tests/conftest.py). PYTEST_ARGS="-n 0" runs it in one process; TESTS="tests/test_x.py" a part.
# `make test` (every edit, under 3 minutes on 2 cores) leaves out the tests marked `slow`: the graded nbgrader
# course, the twice-run of all but one notebook, nbval of all but one Chinese notebook, the 150 random programs,
# the long session, the wheel's sdist and workspace, the dead-worker run. `make test-slow` runs exactly those
# (same grouping; it fails if it selects none); CI (.ci/run) runs both, so no check leaves CI.
PYTEST_ARGS ?= -n auto --dist loadgroup
test: $(VENV)/.installed-test
	$(PY) -m pytest -q $(PYTEST_ARGS) -m "not slow" $(TESTS)

test-slow: $(VENV)/.installed-test
	$(PY) -m pytest -q $(PYTEST_ARGS) -m slow $(TESTS)

# The learner's one command: JupyterLab + ipywidgets into .venv (the `lab` extra), then `acl-teach lab`.
#   make lab [EDITION=zh] [ARGS="--port 8889 --no-browser"]
$(VENV)/.installed-lab: pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q -e ".[lab]"
	touch $@ $(VENV)/.installed

lab: $(VENV)/.installed-lab
	$(VENV)/bin/acl-teach lab $(if $(filter zh,$(EDITION)),--lang zh) $(ARGS)

# The real-browser test: every numbered notebook run (Run All twice) and its widgets used in JupyterLab, in
# headless Debian Chromium driven by Playwright; screenshots in artifacts/ui/<notebook>.png.
test-ui: $(VENV)/.installed-test
	command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
	# a CJK font, so the Chinese edition's screenshots show text, not boxes (a fresh Debian has none)
	(command -v fc-list >/dev/null && fc-list :lang=zh | grep -q .) || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null)
	$(PY) -m pip install -q -e ".[test,ui]"
	$(PY) -m pytest -q ui_tests

# A real class on this machine (root only; creates and removes Unix accounts aclci-*): a hub, an instructor and
# three learners, release → submit → collect → autograde → feedback, and every abuse attempt asserted to fail.
# The class gets its own venv from Debian's Python in $(CLASS_VENV) (every learner account must be able to run it),
# made by deploy/singleuser/install.sh, the same steps the single-user image runs.
CLASS_VENV ?= /opt/acl-teach-class
test-class:
	command -v configurable-http-proxy >/dev/null || npm install -g --silent configurable-http-proxy
	sh deploy/singleuser/install.sh . $(CLASS_VENV)   # the single-user image's own install steps
	$(CLASS_VENV)/bin/python -m pip install -q "pytest>=7.0"
	cd / && ACL_TEACH_CLASS_RUN=1 $(CLASS_VENV)/bin/python -m pytest -q -p no:cacheprovider -o addopts="" \
		$(CURDIR)/tests/classroom

# Every benchmark's ratios, printed (a report, not a gate); QUICK=1 leaves out the notebook series (CI).
bench: $(VENV)/.installed
	QUICK=$(QUICK) $(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info

# Official Ascend samples run unmodified on the simulator, with substitute models from our ATC emulator: a
# report for the simulator's developers (not part of `make test`). The samples get their own venv (NumPy 1.x,
# OpenCV; tools/samples/requirements.txt) and this checkout's acl_teach/ through PYTHONPATH; run.py makes
# $(SAMPLES_VENV)-np123 (that file with numpy~=1.23.0, plus requirements-np123.txt) for the NumPy 1.23 entries.
# See docs/samples.md.
#   make samples SAMPLES=<path to an Ascend/samples checkout> [ONLY="names or patterns"] [AT=HEAD] [ARGS="-j 8 …"]
SAMPLES_VENV ?= $(VENV)/samples
ifneq ($(filter samples,$(MAKECMDGOALS)),)
ifeq ($(SAMPLES),)
$(error usage: make samples SAMPLES=<path to an Ascend/samples checkout> [ONLY="name …"] [AT=HEAD] [ARGS="-j 8 …"])
endif
endif

.PHONY: samples
samples: $(SAMPLES_VENV)/.installed
	set -f; SAMPLES_VENV="$(abspath $(SAMPLES_VENV))" $(SAMPLES_VENV)/bin/python tools/samples/run.py "$(SAMPLES)" $(ONLY) $(if $(AT),--commit $(AT)) $(ARGS)

$(SAMPLES_VENV)/.installed: tools/samples/requirements.txt
	$(PYTHON) -m venv $(SAMPLES_VENV)
	$(SAMPLES_VENV)/bin/python -m pip install -q --upgrade pip
	$(SAMPLES_VENV)/bin/python -m pip install -q -r tools/samples/requirements.txt
	touch $@
