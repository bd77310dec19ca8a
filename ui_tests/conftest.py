"""Fixtures for the real-browser tests: one JupyterLab server and one headless Chromium for the whole session."""
import os
import subprocess
import sys
import time
import urllib.request

import pytest

from lab_server import ARTIFACTS, CHROME_ARGS, CHROMIUM, ROOT, TOKEN, Lab, copy_notebooks, free_port, write_settings


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory):
    """JupyterLab on a free localhost port over a temp root with the notebooks; stopped at the end."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is not installed (apt-get install chromium; `make test-ui` does it)")
    base = tmp_path_factory.mktemp("ui")
    root, data_dir = base / "root", base / "data"
    root.mkdir()
    write_settings(str(base / "settings"))
    copy_notebooks(str(root), str(data_dir))
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(base / "runtime"), JUPYTER_DATA_DIR=str(data_dir),
               JUPYTERLAB_SETTINGS_DIR=str(base / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
               PYTHONPATH=ROOT, ACL_TEACH_SIM_INIT_ONCE="1")  # kernels keep CANN <= 8.0: one acl.init each
    log = base / "lab.log"
    proc = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
                             f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}",
                             "--LabApp.news_url=", "--allow-root"],
                            env=env, stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("JupyterLab did not start:\n" + log.read_text()[-2000:])
            time.sleep(0.5)  # polling a server that is not listening yet: nothing to wait on but time
    yield Lab(url, str(root))
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for every test (never `playwright install`: the system browser is used)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def artifacts():
    """Where screenshots go (CI keeps artifacts/)."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    return ARTIFACTS
