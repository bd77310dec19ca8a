"""Drive one notebook in JupyterLab the way a learner does: open it, Run All from the menu, read what the page shows.

Every wait is on a condition in the page (Playwright's wait_for_function / expect), and every failure names the
notebook and the code cell ("03_model_desc: code cell 6 (`from acl_teach.widgets import …`)").
"""
import json
import re
from dataclasses import dataclass, field
from typing import List, Optional

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STDERR_MIME = "application/vnd.jupyter.stderr"
CODE_CELLS = ".jp-NotebookPanel .jp-Notebook .jp-Cell.jp-CodeCell"
# ipywidgets' renderer is the only one that does not mark its output with data-mime-type (JupyterLab's own do).
WIDGET_OUTPUT = ".jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output:not([data-mime-type])"
RUN_TIMEOUT_MS = 240_000
MAX_SCREENSHOT_HEIGHT = 16_000  # px: Chromium draws taller pages, but the PNG gets unwieldy
WIDGET_ERRORS = ("Error displaying widget", "Model not found", "model not found")

# The page's view of the open notebook: kernel status, an open dialog, and per code cell its prompt, its
# stderr/error outputs (JupyterLab renders both with the stderr MIME type) and its widget outputs.
STATE_JS = """() => {
  const panel = document.querySelector('.jp-NotebookPanel');
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const cells = [...panel.querySelectorAll('.jp-Notebook .jp-Cell.jp-CodeCell')];
  const dialog = document.querySelector('.jp-Dialog');
  return {
    kernel: indicator ? indicator.dataset.status : 'unknown',
    dialog: dialog ? dialog.textContent.slice(0, 300) : null,
    cells: cells.map(c => {
      const prompt = c.querySelector('.jp-InputArea-prompt');
      const outs = [...c.querySelectorAll('.jp-OutputArea-output')];
      return {
        prompt: prompt ? prompt.textContent.trim() : '',
        stderr: outs.filter(o => o.dataset.mimeType === '%s').map(o => o.textContent.slice(0, 1500)),
        widgets: [...c.querySelectorAll('%s')].map(o => ({
          text: o.textContent.slice(0, 300),
          rendered: !!o.querySelector('.jupyter-widgets'),
        })),
      };
    }),
  };
}""" % (STDERR_MIME, WIDGET_OUTPUT)

# Run All has finished: the kernel is idle, nothing is queued ([*]) and every code cell has a count, or the run
# stopped at a cell that raised (the cells after it keep an empty prompt).
RUN_DONE_JS = """() => {
  const s = (%s)();
  if (!s || s.dialog || s.kernel !== 'idle' || !s.cells.length) return false;
  if (s.cells.some(c => c.prompt.includes('*'))) return false;
  const counted = c => /\\[\\d+\\]/.test(c.prompt);
  return s.cells.every(counted) || s.cells.some(c => counted(c) && c.stderr.length > 0);
}""" % STATE_JS

# The open notebook's tab carries JupyterLab's "modified" mark (a dot instead of the close button).
MODIFIED_JS = "() => !!document.querySelector('#jp-main-dock-panel .lm-TabBar-tab.jp-mod-current.jp-mod-dirty')"

# Widget views have settled: none still says "Loading widget...".
WIDGETS_SETTLED_JS = """() => {
  const outs = [...document.querySelectorAll('.jp-NotebookPanel %s')];
  return outs.every(o => !o.textContent.includes('Loading widget'));
}""" % WIDGET_OUTPUT

LOG_ENTRIES_JS = """() => [...document.querySelectorAll('.jp-LogConsolePanel [data-log-level]')].map(p => {
  const item = p.closest('.jp-OutputArea-child');
  return {level: p.dataset.logLevel, text: (item || p).textContent.slice(0, 1500)};
})"""


@dataclass
class StoredCell:
    """What the stored notebook says one code cell shows: the expectation the browser is compared with."""
    index: int
    first_line: str
    stderr: List[str] = field(default_factory=list)
    widgets: List[str] = field(default_factory=list)
    texts: List[str] = field(default_factory=list)  # each widget's stored text/plain (its repr)

    def where(self, notebook: str) -> str:
        """'03_model_desc: code cell 6 (`explorer = …`)' for failure messages."""
        return f"{notebook}: code cell {self.index + 1} (`{self.first_line}`)"


def widget_classes() -> List[str]:
    """acl_teach's widget class names (read from the package, so a new widget is known without editing tests)."""
    import acl_teach.widgets as widgets
    return [n for n in widgets.__all__ if n[:1].isupper() and isinstance(getattr(widgets, n), type)]


def widget_kind(text: str, source: str, known: List[str]) -> str:
    """A widget output's class: its text/plain starts with it (most reprs do), else the last one the cell calls."""
    first = re.split(r"[\s:(]", text.strip(), maxsplit=1)[0]
    if first in known:
        return first
    calls = re.findall(r"\b(" + "|".join(map(re.escape, known)) + r")\(", source)
    return calls[-1] if calls else first or "widget"


def stored_cells(path: str) -> List[StoredCell]:
    """The code cells of a stored notebook, with its stderr/error outputs and the class name of each widget."""
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    known = widget_classes()
    cells = []
    for cell in (c for c in nb["cells"] if c["cell_type"] == "code"):
        source = "".join(cell["source"])
        sc = StoredCell(len(cells), (source.strip().splitlines() or [""])[0][:70])
        for out in cell.get("outputs", []):
            if out["output_type"] == "stream" and out["name"] == "stderr":
                sc.stderr.append("".join(out["text"]))
            elif out["output_type"] == "error":
                sc.stderr.append(f"{out['ename']}: {out['evalue']}")
            elif WIDGET_MIME in out.get("data", {}):
                text = "".join(out["data"].get("text/plain", ""))
                sc.widgets.append(widget_kind(text, source, known))
                sc.texts.append(text)
        cells.append(sc)
    return cells


class NotebookPage:
    """One notebook open in its own browser page, with the stored notebook's outputs as the expectation."""

    def __init__(self, page: Page, url: str, token: str, rel_path: str, stored_path: str) -> None:
        self.page, self.url, self.token, self.path = page, url, token, rel_path
        self.name = rel_path[:-len(".ipynb")]
        self.stored = stored_cells(stored_path)
        self.console: List[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.console.append(f"page error: {exc}"))

    def _on_console(self, msg) -> None:
        """Keep the browser's console errors: a widget that fails in JavaScript says so only there."""
        if msg.type == "error":
            self.console.append(f"console.error: {msg.text} ({msg.location.get('url', '')})")

    def state(self) -> Optional[dict]:
        """The page's view of the notebook now (STATE_JS)."""
        return self.page.evaluate(STATE_JS)

    def describe(self, state: Optional[dict]) -> str:
        """Which cells are queued, unrun or failed, and the kernel status: the message of a timed-out wait."""
        if not state:
            return "no notebook panel on the page"
        dialog = f"; dialog open: {state['dialog']!r}" if state["dialog"] else ""
        lines = [f"kernel status {state['kernel']!r}{dialog}"]
        for c, cell in zip(state["cells"], self.stored):
            if not re.search(r"\[\d+\]", c["prompt"]) or c["stderr"]:
                lines.append(f"  {cell.where(self.name)}: prompt {c['prompt']!r}"
                             + (f", stderr {c['stderr'][0][-400:]!r}" if c["stderr"] else ""))
        return "\n".join(lines)

    def wait(self, js: str, what: str, timeout: int = 60_000) -> None:
        """Wait for a condition in the page; on timeout fail with what was awaited and the notebook's state."""
        try:
            self.page.wait_for_function(js, timeout=timeout, polling=200)
        except PlaywrightError as exc:
            if "Timeout" not in str(exc):
                raise
            raise AssertionError(f"{self.name}: timed out after {timeout / 1000:.0f} s waiting for {what}\n"
                                 + self.describe(self.state())) from None

    def open(self) -> None:
        """Open the notebook in a fresh workspace (nothing else restored) and wait for its kernel to be idle."""
        workspace = "ui-" + re.sub(r"[^A-Za-z0-9]+", "-", self.name)
        self.page.goto(f"{self.url}/lab/workspaces/{workspace}/tree/{self.path}?reset&token={self.token}",
                       timeout=120_000)
        self.wait(f"() => document.querySelectorAll('{CODE_CELLS}').length === {len(self.stored)}",
                  f"its {len(self.stored)} code cells to show", timeout=120_000)
        self.wait("""() => { const s = (%s)(); return s && (s.dialog || s.kernel === 'idle'); }""" % STATE_JS,
                  "the kernel to start", timeout=120_000)
        if self.state()["dialog"]:  # JupyterLab asks which kernel to start when it cannot tell from the notebook
            self.page.locator(".jp-Dialog button", has_text="Select").click()
            self.wait("""() => { const s = (%s)(); return s && !s.dialog && s.kernel === 'idle'; }""" % STATE_JS,
                      "the kernel chosen in the dialog to start", timeout=120_000)
        self.hide_file_browser()
        self.wait(WIDGETS_SETTLED_JS, "the saved widgets to render")

    def check_not_modified(self, seconds: float = 2.5) -> None:
        """The notebook's tab shows no "modified" mark for ``seconds`` after its kernel is idle (JupyterLab rewrites
        the kernel metadata about a second after connecting, and marks the notebook modified if it differed)."""
        try:
            self.page.wait_for_function(MODIFIED_JS, timeout=seconds * 1000)
        except PlaywrightError as exc:
            if "Timeout" in str(exc):
                return
            raise
        raise AssertionError(f"{self.name}: marked modified seconds after opening, before anything was run "
                             f"(its kernelspec or language_info differs from what the kernel reports)")

    def hide_file_browser(self) -> None:
        """Collapse the left sidebar, so the notebook (and its screenshot) gets the page's width."""
        tab = self.page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
        if tab.count():
            tab.first.click()
            self.page.locator("#jp-left-stack").wait_for(state="hidden", timeout=10_000)

    def menu(self, menu: str, item: str) -> None:
        """Click a main-menu item, as a learner does (failing clearly when it is missing or disabled)."""
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(menu)}$")).click()
        entry = self.page.locator(".lm-Menu-item", has=self.page.locator(
            ".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))).first
        entry.wait_for(state="visible", timeout=10_000)
        assert "lm-mod-disabled" not in (entry.get_attribute("class") or ""), \
            f"{self.name}: menu {menu} → {item} is disabled"
        entry.click()

    def run_all(self, label: str) -> None:
        """Clear every output (so each prompt must get a new count), then Run → Run All Cells and wait until done."""
        self.menu("Edit", "Clear Outputs of All Cells")
        self.wait(f"() => [...document.querySelectorAll('{CODE_CELLS} .jp-InputArea-prompt')]"
                  ".every(p => !/\\d/.test(p.textContent))", "the outputs to clear")
        self.menu("Run", "Run All Cells")
        self.wait(RUN_DONE_JS, f"{label} to finish", timeout=RUN_TIMEOUT_MS)
        self.wait(WIDGETS_SETTLED_JS, f"the widgets to render after {label}")
        state = self.state()
        unrun = [cell.where(self.name) + f": prompt {c['prompt']!r}"
                 for c, cell in zip(state["cells"], self.stored) if not re.search(r"\[\d+\]", c["prompt"])]
        assert not unrun, f"{label} stopped before these cells ran:\n  " + "\n  ".join(unrun) + \
            "\n" + self.describe(state)

    def check_stderr(self, label: str, exact: bool) -> None:
        """stderr/error outputs only in the cells whose stored outputs have them (exact: in all of those too)."""
        state = self.state()
        problems = []
        for c, cell in zip(state["cells"], self.stored):
            if c["stderr"] and not cell.stderr:
                problems.append(f"{cell.where(self.name)} wrote to stderr after {label} (the stored notebook "
                                f"does not):\n    " + "\n    ".join(t[-1200:] for t in c["stderr"]))
            elif exact and cell.stderr and not c["stderr"]:
                problems.append(f"{cell.where(self.name)}: the stored notebook shows stderr/an error "
                                f"({cell.stderr[0][:200]!r}) but {label} showed none")
        assert not problems, "\n".join(problems)

    def check_widgets_rendered(self, label: str) -> None:
        """Every widget the stored notebook shows is rendered as a widget, none as an ipywidgets error."""
        state = self.state()
        problems = []
        for c, cell in zip(state["cells"], self.stored):
            if len(c["widgets"]) != len(cell.widgets):
                problems.append(f"{cell.where(self.name)}: {len(c['widgets'])} widget output(s) after {label}, "
                                f"the stored notebook has {len(cell.widgets)} ({', '.join(cell.widgets)})")
            for w, kind in zip(c["widgets"], cell.widgets):
                if not w["rendered"] or any(e in w["text"] for e in WIDGET_ERRORS):
                    problems.append(f"{cell.where(self.name)}: {kind} is not rendered after {label}: {w['text']!r}")
        assert not problems, "\n".join(problems)

    def check_no_widget_failures(self) -> None:
        """No widget shows a failure of its own (acl_teach.widgets put a callback's exception in the widget)."""
        failures = self.page.locator(".jp-NotebookPanel .acl-teach-failure").all_inner_texts()
        assert not failures, f"{self.name}: widgets show failures: {failures}"

    def widgets(self, kind: str) -> List[Locator]:
        """The rendered output of each widget of class ``kind`` (per the stored notebook), in notebook order."""
        found = []
        for cell in self.stored:
            for k, name in enumerate(cell.widgets):
                if name == kind:
                    found.append(self.page.locator(CODE_CELLS).nth(cell.index).locator(WIDGET_OUTPUT).nth(k))
        return found

    def stored_texts(self, kind: str) -> List[str]:
        """The stored text/plain of each widget of class ``kind``, in the order of ``widgets(kind)``."""
        return [t for cell in self.stored for name, t in zip(cell.widgets, cell.texts) if name == kind]

    def widget_kinds(self) -> List[str]:
        """The class name of every widget output in the stored notebook, in order."""
        return [kind for cell in self.stored for kind in cell.widgets]

    def log_console(self) -> List[dict]:
        """View → Show Log Console (a toggle: only when closed); its entries for this notebook (warning and above:
        the logger's default level; a cell's own outputs are logged below it, a widget callback's above)."""
        panel = self.page.locator(".jp-LogConsolePanel").first
        if not panel.is_visible():
            self.menu("View", "Show Log Console")
        panel.wait_for(state="visible", timeout=30_000)
        self.wait("() => { const s = document.querySelector('.jp-LogConsole-toolbarLogLevelDropdown select');"
                  " return s && !s.disabled; }", "the log console to attach to the notebook")
        return self.page.evaluate(LOG_ENTRIES_JS)

    def wait_idle(self, what: str) -> None:
        """Wait for the kernel to be idle: a callback's outputs arrive before its idle status, so none are missed."""
        self.wait("""() => { const s = (%s)(); return s && s.kernel === 'idle'; }""" % STATE_JS,
                  f"the kernel to be idle after {what}")

    def check_log_console(self) -> None:
        """Nothing in JupyterLab's log console: a widget callback's output or exception would be logged there."""
        self.wait_idle("the last widget interaction")
        entries = self.log_console()
        assert not entries, f"{self.name}: JupyterLab's log console has entries:\n" + "\n".join(
            f"  [{e['level']}] {e['text'][-1200:]}" for e in entries)

    def check_browser_console(self) -> None:
        """No JavaScript error or console.error on the page (ipywidgets reports render failures there)."""
        assert not self.console, f"{self.name}: browser console errors:\n  " + "\n  ".join(self.console)

    def screenshot(self, path: str) -> Optional[str]:
        """The whole notebook in one PNG (the viewport grown to the notebook's height); never raises: on a failed
        test the screenshot is wanted most, and must not hide the failure. Returns why it failed, if it did."""
        try:
            extra = self.page.evaluate("""() => {
              const outer = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer');
              if (!outer) return 0;
              outer.scrollTop = 0;
              return outer.scrollHeight - outer.clientHeight; }""")
            if extra > 0:
                size = self.page.viewport_size
                target = min(size["height"] + extra, MAX_SCREENSHOT_HEIGHT)
                self.page.set_viewport_size({"width": size["width"], "height": target})
                self.page.wait_for_function("""(h) => { const o = document.querySelector(
                  '.jp-NotebookPanel .jp-WindowedPanel-outer'); return !o || o.clientHeight >= h; }""",
                                            arg=target - size["height"], timeout=15_000)
            self.page.screenshot(path=path, full_page=True)
            return None
        except PlaywrightError as exc:
            return f"{self.name}: no screenshot: {exc}"
