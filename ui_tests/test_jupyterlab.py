"""A real browser: JupyterLab on a free localhost port, a notebook using the widgets, run in headless Chromium.

Checks that the desc explorer's dropdown changes the values shown and that Top5View shows five
labelled bars; saves a screenshot to artifacts/ui_widgets.png. Run with `make test-ui` (needs
Debian's chromium and the playwright package; `make test-ui` installs both).
"""
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import nbformat
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "acl-teach-ui-test"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]

CELLS = [
    "from acl_teach import lab\nacl = lab.setup()\nimport acl_teach as at",
    "at.init(); res = at.request_resources(0)\nm = at.load_model(at.models.default_om()); d = at.query_desc(m)",
    "from acl_teach.widgets import DescExplorer, Top5View\nDescExplorer(d)",
    f"with at.Session() as s:\n    r = s.classify({os.path.join(ROOT, 'data', 'images', 'coffee.png')!r})\n"
    f"Top5View(r.topk, image={os.path.join(ROOT, 'data', 'images', 'coffee.png')!r})",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is not installed (apt-get install chromium; `make test-ui` does it)")
    root = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(root / "ui.ipynb"))
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(root / "runtime"), PYTHONPATH=ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
                             f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}",
                             "--LabApp.news_url=", "--allow-root"],
                            env=env, stdout=subprocess.DEVNULL, stderr=open(root / "lab.log", "w"))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("JupyterLab did not start:\n" + (root / "lab.log").read_text()[-2000:])
            time.sleep(0.5)
    yield url
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_widgets_work_in_jupyterlab(jupyterlab):
    from playwright.sync_api import sync_playwright
    artifacts = os.path.join(ROOT, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        try:
            page.goto(f"{jupyterlab}/lab/tree/ui.ipynb?token={TOKEN}", timeout=120_000)
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
            try:  # JupyterLab asks which kernel to start for a notebook it has not opened before
                page.locator(".jp-Dialog button", has_text="Select").click(timeout=30_000)
            except Exception:
                pass
            page.wait_for_selector(".jp-Dialog", state="detached", timeout=30_000)
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            page.wait_for_selector(".acl-teach-top5", timeout=180_000)
            labels = page.locator(".acl-teach-bar-label").all_inner_texts()
            assert len(labels) == 5 and labels[0] == "967 espresso"
            desc = page.locator(".acl-teach-desc")
            assert "301056" in desc.inner_text() and "ACL_FLOAT16" in desc.inner_text()
            page.locator(".widget-dropdown select").first.select_option(index=1)
            page.wait_for_function("document.querySelector('.acl-teach-desc').innerText.includes('4000')",
                                   timeout=30_000)
            text = desc.inner_text()
            assert ":0:prob" in text and "ACL_FLOAT" in text and "301056" not in text
        finally:
            page.screenshot(path=os.path.join(artifacts, "ui_widgets.png"), full_page=True)
            browser.close()
