"""A real browser: JupyterLab on a free localhost port, every numbered notebook run in headless Chromium.

Per notebook (found by glob, so a new one is covered): open it, Run All twice in the same kernel, compare each
cell's stderr/error outputs with the stored notebook (the expectation), check every widget renders, use each
widget (widget_checks.INTERACTIONS) and check what it shows, then require an empty log console and no browser
console error. One Chinese notebook is run once as well. Screenshots go to artifacts/ui/<notebook>.png, also on
failure. Run with `make test-ui` (it installs Debian's chromium and the playwright package).
"""
import os

import nbformat
import pytest

from lab_server import ARTIFACTS, ROOT, VIEWPORT, notebook_paths
from lab_browser import NotebookPage
from widget_checks import check_desc_explorer, check_top5, interact

RUNS = 2  # Run All twice: the second run in the same kernel catches cells that only work on a fresh one
ZH_ONCE = ["11_full_pipeline"]
# opened, then watched for a "modified" mark before anything runs (2.5 s each, so two notebooks, one per edition)
OPENS_UNMODIFIED = ("00_welcome.ipynb", "zh/11_full_pipeline.ipynb")  # the Chinese edition shares the code cells: one notebook, one run, is enough

CASES = [pytest.param(os.path.basename(p), RUNS, id=os.path.basename(p)[:-6])
         for p in notebook_paths(os.path.join(ROOT, "notebooks"))]
CASES += [pytest.param(f"zh/{name}.ipynb", 1, id=f"zh/{name}") for name in ZH_ONCE
          if os.path.exists(os.path.join(ROOT, "notebooks", "zh", f"{name}.ipynb"))]

COFFEE = os.path.join(ROOT, "data", "images", "coffee.png")
CELLS = [
    "from acl_teach import lab\nacl = lab.setup()\nimport acl_teach as at",
    "at.init(); res = at.request_resources(0)\nm = at.load_model(at.models.default_om()); d = at.query_desc(m)",
    "from acl_teach.widgets import DescExplorer, Top5View\nDescExplorer(d)",
    f"with at.Session() as s:\n    r = s.classify({COFFEE!r})\nTop5View(r.topk, image={COFFEE!r})",
]


def screenshot_name(rel_path: str) -> str:
    """artifacts/ui/<notebook>.png (zh/NN_x → zh_NN_x.png)."""
    return os.path.join(ARTIFACTS, rel_path[:-len(".ipynb")].replace("/", "_") + ".png")


def drive(nb: NotebookPage, runs: int) -> None:
    """Saved widgets show on opening (the copy is trusted); Run All ``runs`` times, checking outputs and widgets
    after each; then use every widget."""
    nb.check_widgets_rendered("opening the notebook (its saved widget state)")
    if nb.path in OPENS_UNMODIFIED:
        nb.check_not_modified()
    for run in range(1, runs + 1):
        label = f"Run All #{run}"
        nb.run_all(label)
        nb.check_stderr(label, exact=run == 1)  # a warning shown once per process may not repeat in run 2
        nb.check_widgets_rendered(label)
    interact(nb)
    nb.check_widgets_rendered("the widget interactions")
    nb.check_no_widget_failures()
    nb.check_stderr("the widget interactions", exact=False)


@pytest.mark.parametrize("rel_path, runs", CASES)
def test_notebook_in_jupyterlab(jupyterlab, browser, artifacts, rel_path, runs):
    context = browser.new_context(viewport=VIEWPORT)
    nb = NotebookPage(context.new_page(), jupyterlab.url, jupyterlab.token, rel_path,
                      os.path.join(jupyterlab.root, rel_path))
    try:
        try:
            nb.open()
            drive(nb, runs)
        finally:
            nb.screenshot(screenshot_name(rel_path))
        nb.check_log_console()
        nb.check_browser_console()
    finally:
        jupyterlab.shut_down(rel_path)
        context.close()


def scratch_notebook(jupyterlab, browser, name: str, cells: list):
    """(browser context, page) for a notebook of ``cells`` written into the served folder as ``name``."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = os.path.join(jupyterlab.root, name)
    nbformat.write(nb, path)
    context = browser.new_context(viewport=VIEWPORT)
    return context, NotebookPage(context.new_page(), jupyterlab.url, jupyterlab.token, name, path)


def test_widgets_work_in_jupyterlab(jupyterlab, browser):
    """The smallest notebook using the widgets: the desc explorer's dropdown and the coffee's top-5 (one run)."""
    context, page = scratch_notebook(jupyterlab, browser, "ui.ipynb", CELLS)
    try:
        try:
            page.open()
            page.run_all("Run All")
            page.check_stderr("Run All", exact=True)
            (desc,) = page.page.locator(".jp-OutputArea-output", has=page.page.locator(".acl-teach-desc")).all()
            check_desc_explorer(page, desc, {None: {
                "input 0: data": {"size": "301056", "data_type": "1 (ACL_FLOAT16)"},
                "output 0: /Softmax:0:prob": {"size": "4000", "data_type": "0 (ACL_FLOAT)"}}})
            (top5,) = page.page.locator(".jp-OutputArea-output", has=page.page.locator(".acl-teach-top5")).all()
            check_top5(page, top5, first="967 espresso")
        finally:
            os.makedirs(os.path.dirname(ARTIFACTS), exist_ok=True)
            page.screenshot(os.path.join(os.path.dirname(ARTIFACTS), "ui_widgets.png"))
        page.check_log_console()
        page.check_browser_console()
    finally:
        jupyterlab.shut_down("ui.ipynb")
        context.close()


PROVOKED = [
    "import sys\nprint('provoked', file=sys.stderr)",
    "from IPython.display import display\n"
    "display({'application/vnd.jupyter.widget-view+json': {'model_id': 'no-such-model', 'version_major': 2, "
    "'version_minor': 0}, 'text/plain': 'Button'}, raw=True)",
    "import ipywidgets as w\nboom = w.Button(description='boom')\nboom.on_click(lambda _: 1 / 0)\nboom",
]


def test_checks_catch_failures(jupyterlab, browser):
    """The checks are not vacuous: a stderr line, a widget that cannot render and a callback that raises all fail."""
    context, page = scratch_notebook(jupyterlab, browser, "provoked.ipynb", PROVOKED)
    try:
        page.open()
        page.run_all("Run All")
        with pytest.raises(AssertionError, match=r"(?s)code cell 1 .*wrote to stderr.*provoked"):
            page.check_stderr("Run All", exact=True)
        with pytest.raises(AssertionError, match=r"(?s)code cell 2 .*widget output"):
            page.check_widgets_rendered("Run All")
        with pytest.raises(AssertionError, match=r"(?s)widget model not found"):
            page.check_browser_console()
        page.log_console()
        page.page.locator(".widget-button", has_text="boom").click()
        page.wait("() => document.querySelectorAll('.jp-LogConsolePanel [data-log-level]').length > 0",
                  "the callback's exception in the log console")
        with pytest.raises(AssertionError, match=r"(?s)\[error\].*ZeroDivisionError"):
            page.check_log_console()
    finally:
        jupyterlab.shut_down("provoked.ipynb")
        context.close()
