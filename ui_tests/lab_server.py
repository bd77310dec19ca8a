"""The real-browser tests' settings and server helpers (a module of its own: test modules import it, and pytest's
several `conftest` modules cannot be imported by name reliably).

JupyterLab serves a temporary root holding copies of the stored notebooks (English at the top, Chinese under
zh/), signed as `acl-teach lab` signs them, with test settings in their own directories so the learner's own
JupyterLab settings, workspaces and trust database are never read or written.
"""
import glob
import json
import os
import shutil
import socket
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "acl-teach-ui-test"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]
ARTIFACTS = os.path.join(ROOT, "artifacts", "ui")
VIEWPORT = {"width": 1400, "height": 1100}

# JupyterLab settings for the test: every cell attached to the DOM (the default 'contentVisibility' and 'full'
# windowing modes skip or detach cells out of view, so their prompts and outputs could not be read), and no
# news or update check (a toast over the notebook, and network access).
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                        "checkForUpdates": False},
}


def notebook_paths(edition_dir: str):
    """The numbered notebooks of one edition, found by glob so a new notebook is covered without editing tests."""
    return sorted(glob.glob(os.path.join(edition_dir, "[0-9][0-9]_*.ipynb")))


def free_port() -> int:
    """A free localhost port, so two test runs never collide."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_settings(settings_dir: str) -> None:
    """The test's JupyterLab user settings (see LAB_SETTINGS for why)."""
    for rel, values in LAB_SETTINGS.items():
        path = os.path.join(settings_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            json.dump(values, fh)


def copy_notebooks(root: str, data_dir: str) -> None:
    """Both editions into the served root, signed in a private trust database (as `acl-teach lab` does)."""
    import nbformat
    from nbformat.sign import NotebookNotary
    os.makedirs(data_dir, exist_ok=True)
    notary = NotebookNotary(data_dir=data_dir)
    for src_dir, dst_dir in ((os.path.join(ROOT, "notebooks"), root),
                             (os.path.join(ROOT, "notebooks", "zh"), os.path.join(root, "zh"))):
        os.makedirs(dst_dir, exist_ok=True)
        for path in notebook_paths(src_dir):
            dst = os.path.join(dst_dir, os.path.basename(path))
            shutil.copyfile(path, dst)
            nb = nbformat.read(dst, as_version=4)
            notary.sign(nb)


class Lab:
    """The running server: its URL, the root it serves, and its REST API for kernel sessions."""

    def __init__(self, url: str, root: str) -> None:
        self.url, self.root, self.token = url, root, TOKEN

    def api(self, method: str, path: str):
        """One authenticated REST call; the parsed JSON reply (None when empty)."""
        req = urllib.request.Request(f"{self.url}{path}", method=method,
                                     headers={"Authorization": f"token {TOKEN}"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def sessions(self, path: str = None):
        """The kernel sessions (of one notebook path, or all)."""
        return [s for s in self.api("GET", "/api/sessions") if path is None or s["path"] == path]

    def shut_down(self, path: str) -> None:
        """Delete the notebook's sessions (which shuts their kernels down), so memory stays flat across notebooks."""
        for s in self.sessions(path):
            self.api("DELETE", f"/api/sessions/{s['id']}")
