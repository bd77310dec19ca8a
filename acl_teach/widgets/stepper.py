"""``PipelineStepper``: one button per documented step, run in order; a wrong order is refused with the reason."""
from __future__ import annotations

import html
from typing import Any, Callable, Dict, List, Optional, Tuple

import ipywidgets as w

import acl_teach as at
from .. import models
from ._snapshot import guarded, live_entries, safe_callback, where_released
from ..results import TopK
from .ledger import LedgerView
from .top5 import bars_html, top5_bars
from .text import FullText

# (key, button label, what it needs — said when a click comes too early)
STEPS: List[Tuple[str, str, str]] = [
    ("init", "1 acl.init", ""),
    ("resources", "2 device/context/stream", "AscendCL must be initialised (acl.init) first"),
    ("load", "3 load model", "a context must exist: request the device, context and stream first"),
    ("desc", "4 query desc", "the model must be loaded first"),
    ("inputs", "5a build input dataset", "the buffer sizes come from the desc: query it first"),
    ("outputs", "5b build output dataset", "build the input dataset first (same pattern, outputs next)"),
    ("copy", "6 copy image to device", "the input buffers must exist: build the datasets first"),
    ("execute", "7 execute", "the input data must be on the device: copy the image first"),
    ("unpack", "8 copy results back", "the outputs are only there after execute"),
    ("topk", "9 top-5", "the results must be back on the host first"),
    ("release_data", "10 release datasets", "finish the inference first (top-5)"),
    ("unload", "11 unload model + desc", "release the datasets before unloading the model"),
    ("release", "12 release stream/context/device", "unload the model before releasing its context"),
    ("finalize", "13 acl.finalize", "release the device before finalize"),
]


def _lost_message(entry: Any, now: Optional[List[Any]]) -> Optional[str]:
    """How one of the stepper's resources went away outside the stepper, or None while it lives."""
    what = "AscendCL" if entry.kind == "acl" else f"its {entry.kind}"
    if not entry.alive:
        done = "was finalized" if entry.kind == "acl" else "was released"
        return f"{what} {done}{where_released(entry.released_at)} by {entry.released_by}"
    if now is not None and not any(x is entry for x in now):
        return f"{what} vanished when the simulated process was reset (acl_teach.reset)"
    return None


STEP_MIN_WIDTH = 210  # px per step button: four fit in ~900 px (a 1400 px window with the file browser open)


class PipelineStepper(FullText, w.VBox):
    """Click through the flow; after each step see its record, its pyACL calls and the ledger.

    A click never raises into the kernel: a step out of order is refused with the reason, a step
    already done says so, a failing step shows its error, and once the stepper's resources were
    released elsewhere (acl.finalize or acl_teach.reset in a later cell) every click says where and
    offers 'start over'.
    """

    def __init__(self, model: Optional[str] = None, image: Optional[str] = None) -> None:
        self.model_path = model or models.default_om()
        self.image = image or models.sample_images()[0]
        self.done: List[str] = []
        self.records: Dict[str, Any] = {}
        self.message = "click step 1"
        self.failure: Optional[str] = None
        self.owned: List[Any] = []      # ledger entries our steps created
        self.freed: List[Any] = []      # ... and those our own release steps released
        self.buttons = [w.Button(description=label, tooltip=label, layout=w.Layout(width="auto"))
                        for _, label, _ in STEPS]
        for i, b in enumerate(self.buttons):
            b.on_click(safe_callback(self, lambda _, i=i: self.click(i), f"step {STEPS[i][1]!r}"))
        self.restart_button = w.Button(description="start over", tooltip="forget this run and begin at step 1")
        self.restart_button.on_click(safe_callback(self, lambda _: self.start_over(), "start over"))
        self.status = w.HTML()
        self.record_box = w.HTML()
        self.ledger = LedgerView()
        grid = w.Layout(grid_template_columns=f"repeat(auto-fill, minmax({STEP_MIN_WIDTH}px, 1fr))",
                        width="100%")  # as many columns as fit: 4 in a wide window, fewer beside the file browser
        super().__init__([w.GridBox(self.buttons, layout=grid),
                          self.restart_button, self.status, self.record_box, self.ledger])
        self.add_class("acl-teach-stepper")
        self.status.add_class("acl-teach-stepper-status")
        for b in self.buttons:
            b.add_class("acl-teach-step")
        self._show(None)

    def lost(self) -> Optional[str]:
        """Why the flow cannot go on: a resource of ours was released or reset outside the stepper."""
        if len(self.done) == len(STEPS):
            return None
        now = live_entries(True)
        for entry in self.owned:
            if not any(entry is f for f in self.freed):
                why = _lost_message(entry, now)
                if why:
                    return why
        return None

    def _track(self, run: Callable[[], Any]) -> Any:
        """Run one step, noting which ledger entries it created and which it released."""
        before = live_entries(True) or []
        record = run()
        after = live_entries(True) or []
        self.owned += [e for e in after if not any(e is b for b in before)]
        self.freed += [e for e in before if not e.alive]
        return record

    @guarded(failed=None)
    def start_over(self) -> None:
        """Forget this run (nothing is released here) so the flow can begin again at step 1."""
        left = bool(self.done) and len(self.done) < len(STEPS) and not self.lost()
        self.done, self.records, self.owned, self.freed = [], {}, [], []
        self.message = "started over: click step 1" + (
            " (what the last run made is still alive: see the ledger below)" if left else "")
        self.record_box.value = ""
        self._show(None)

    def _run(self, key: str) -> Any:
        r = self.records
        actions: Dict[str, Callable[[], Any]] = {
            "init": at.init,
            "resources": lambda: at.request_resources(0),
            "load": lambda: at.load_model(self.model_path),
            "desc": lambda: at.query_desc(r["load"]),
            "inputs": lambda: at.build_dataset(r["desc"], "input"),
            "outputs": lambda: at.build_dataset(r["desc"], "output"),
            "copy": lambda: at.copy_to_device(at.preprocess(self.image, dims=r["desc"].inputs[0].dims,
                                                            dtype=r["desc"].inputs[0].numpy_dtype),
                                              r["inputs"], 0, r["resources"], r["desc"]),
            "execute": lambda: at.execute(r["load"], r["inputs"], r["outputs"]),
            "unpack": lambda: at.unpack_outputs(r["desc"], r["outputs"], r["resources"]),
            "topk": lambda: at.top_k(r["unpack"].arrays[0], 5, models.labels()),
            "release_data": lambda: [at.release_dataset(r["inputs"]), at.release_dataset(r["outputs"])][-1],
            "unload": lambda: at.unload_model(r["load"], r["desc"]),
            "release": lambda: at.release_resources(r["resources"]),
            "finalize": at.finalize,
        }
        return actions[key]()

    @guarded(failed=False)
    def click(self, index: int) -> bool:
        """Run step ``index`` if it is next; otherwise refuse and say why. Returns whether it ran."""
        key, label, needs = STEPS[index]
        expected = len(self.done)
        self.failure = None
        lost = self.lost()
        if lost:
            self.message = (f"'{label}' cannot run: the stepper's flow is over — {lost}, outside the stepper. "
                            "Click 'start over' to run it again from step 1.")
            self._show(None)
            return False
        if key in self.done:
            self.message = f"'{label}' has already run; the next step is '{STEPS[expected][1]}'." \
                if expected < len(STEPS) else f"'{label}' has already run; the flow is complete."
            self._show(None)
            return False
        if index != expected:
            self.message = f"refused: '{label}' cannot run yet — {needs}. Next: '{STEPS[expected][1]}'."
            self._show(None)
            return False
        try:
            record = self._track(lambda: self._run(key))
        except Exception as exc:  # shown, never raised into the kernel
            self.message = f"'{label}' failed: {exc}"
            self._show(None)
            return False
        self.records[key] = record
        self.done.append(key)
        self.message = f"done: '{label}'" + (f"; next: '{STEPS[index + 1][1]}'" if index + 1 < len(STEPS) else
                                             "; the flow is complete and everything is released")
        self._show(record)
        return True

    def _show(self, record: Any) -> None:
        for i, b in enumerate(self.buttons):
            b.button_style = "success" if STEPS[i][0] in self.done else ("primary" if i == len(self.done) else "")
        self.status.value = f"<b>{html.escape(self.message)}</b>"
        if record is not None:
            head = bars_html(top5_bars(record)) if isinstance(record, TopK) else f"<pre>{html.escape(repr(record))}</pre>"
            self.record_box.value = (f"{head}<details open><summary>pyACL calls"
                                     f"</summary><pre>{html.escape(record.code())}</pre></details>")
        self.ledger.refresh(after_release=bool(self.done) and self.done[-1] in ("release", "finalize"))

    def _show_failure(self, text: str) -> None:
        """Something outside a step broke (drawing, the ledger): said under the status line."""
        self.status.value = f"<b>{html.escape(self.message)}</b><br><b style='color:#a00'>{html.escape(text)}</b>"

    def __repr__(self) -> str:
        steps = " -> ".join(k for k in self.done) or "(none yet)"
        return f"PipelineStepper: done {steps}\n  {self.message}"
