"""``PipelineStepper``: one button per documented step, run in order; a wrong order is refused with the reason."""
from __future__ import annotations

import html
from typing import Any, Callable, Dict, List, Optional, Tuple

import ipywidgets as w

import acl_teach as at
from .. import models
from .ledger import LedgerView
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


class PipelineStepper(FullText, w.VBox):
    """Click through the flow; after each step see its record, its pyACL calls and the ledger."""

    def __init__(self, model: Optional[str] = None, image: Optional[str] = None) -> None:
        self.model_path = model or models.default_om()
        self.image = image or models.sample_images()[0]
        self.done: List[str] = []
        self.records: Dict[str, Any] = {}
        self.message = "click step 1"
        self.buttons = [w.Button(description=label, tooltip=label, layout=w.Layout(width="270px"))
                        for _, label, _ in STEPS]
        for i, b in enumerate(self.buttons):
            b.on_click(lambda _, i=i: self.click(i))
        self.status = w.HTML()
        self.record_box = w.HTML()
        self.ledger = LedgerView()
        super().__init__([w.GridBox(self.buttons, layout=w.Layout(grid_template_columns="repeat(4, 280px)")),
                          self.status, self.record_box, self.ledger])
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

    def click(self, index: int) -> bool:
        """Run step ``index`` if it is next; otherwise refuse and say why. Returns whether it ran."""
        key, label, needs = STEPS[index]
        expected = len(self.done)
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
            record = self._run(key)
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
            self.record_box.value = (f"<pre>{html.escape(repr(record))}</pre><details open><summary>pyACL calls"
                                     f"</summary><pre>{html.escape(record.code())}</pre></details>")
        self.ledger.refresh(after_release=bool(self.done) and self.done[-1] in ("release", "finalize"))

    def __repr__(self) -> str:
        steps = " -> ".join(k for k in self.done) or "(none yet)"
        return f"PipelineStepper: done {steps}\n  {self.message}"
