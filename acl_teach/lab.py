"""Notebook helpers: ``setup()`` for the first cell, and the exercise checkers with specific feedback.

A checker never raises on a wrong answer: it returns a ``Feedback`` that says what is right or
exactly what is off ("your output buffer is 2000 bytes; the model's output needs 4000 =
1000 x 4-byte ACL_FLOAT").
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from . import backend, state
from .spec import dtypes


@dataclass
class Feedback:
    """A checker's verdict."""

    ok: bool
    message: str

    def __repr__(self) -> str:
        return ("✓ " if self.ok else "✗ ") + self.message

    def __bool__(self) -> bool:
        return self.ok


def setup(quiet: Optional[bool] = None) -> ModuleType:
    """Pick the backend (real pyACL if present, else a fresh simulator registered as ``acl``); return it.

    ``quiet=False`` turns the simulator's explanations on: why a call failed, warnings, and the leak
    report of ``acl.finalize()``, all on stderr. The default is quiet unless the environment variable
    ``ACL_TEACH_EXPLAIN=1`` is set (the notebook leak test sets it, so a leak cannot hide).
    """
    if quiet is None:
        quiet = os.environ.get("ACL_TEACH_EXPLAIN", "") not in ("1", "true", "yes", "on")
    name = backend.use("auto")
    state.reset(simulator=False)
    backend.inspector().reset(explain=not quiet)
    backend.inspector().install()
    module = backend.acl()
    print(f"backend: {'real pyACL on an Ascend NPU' if name == 'npu' else 'acl-teach simulator'}, "
          f"SoC {module.get_soc_name()}")
    return module


def on_simulator() -> bool:
    """True on the acl-teach simulator, False on real pyACL: guards the cells that only the simulator can run."""
    return backend.name() == "sim"


def check_ret(api: str, ret: int) -> None:
    """The samples' check_ret habit: raise ``at.AclError`` on a non-zero code (the call, the code, its meaning, the fix).

    It wraps a call and returns nothing, so a cell's last line shows no stray 0:
    ``check_ret("acl.rt.free", acl.rt.free(ptr))``.
    """
    if ret != 0:
        from .spec.errors import AclError
        raise AclError(api, ret)


def _tensor(desc: Any, kind: str, index: int):
    tensors = desc.inputs if kind == "input" else desc.outputs
    if not 0 <= index < len(tensors):
        return None
    return tensors[index]


def check_init_codes(first: int, second: int) -> Feedback:
    """Exercise 01: the rets of acl.init() called twice."""
    if (first, second) == (0, 100002):
        return Feedback(True, "0 then 100002 (ACL_ERROR_REPEAT_INITIALIZE): a second init is reported, not fatal.")
    if first == second == 0:
        return Feedback(False, "both 0? The second acl.init() in the same process returns 100002 — did you call "
                        "acl.finalize() in between?")
    return Feedback(False, f"got {first} and {second}; expected 0 for the first call and 100002 for the second.")


def check_model_memory(total: int, work_size: int, weight_size: int) -> Feedback:
    """Exercise 02: device memory a model needs = work + weights (from acl.mdl.query_size)."""
    if total == work_size + weight_size:
        return Feedback(True, f"{total} bytes = {work_size} (work) + {weight_size} (weights).")
    if total in (work_size, weight_size):
        part = "work" if total == work_size else "weights"
        return Feedback(False, f"{total} bytes is only the {part}; the model needs work + weights = "
                        f"{work_size + weight_size} bytes.")
    return Feedback(False, f"{total} bytes; query_size says work {work_size} + weights {weight_size} = "
                    f"{work_size + weight_size}.")


def check_buffer_size(size: int, desc: Any, kind: str = "output", index: int = 0) -> Feedback:
    """Exercises 03/04: a buffer size against the desc, with the arithmetic."""
    t = _tensor(desc, kind, index)
    if t is None:
        return Feedback(False, f"the model has no {kind} #{index}.")
    if size == t.size:
        return Feedback(True, f"{size} bytes = {t.size_arithmetic.split(' = ')[0]}.")
    elements = int(np.prod([d for d in t.dims if d > 0]))
    item = dtypes.itemsize(t.data_type)
    hint = ""
    if elements and size == elements * 4 and item == 2:
        hint = " You counted 4 bytes per element, but this tensor is fp16 (2 bytes)."
    elif elements and size == elements * 2 and item == 4:
        hint = " You counted 2 bytes per element, but this tensor is fp32 (4 bytes)."
    elif size == elements:
        hint = " That is the element count; multiply by the bytes per element."
    return Feedback(False, f"your {kind} buffer is {size} bytes; the model's {kind} #{index} ({t.name}) needs "
                    f"{t.size} = {elements} x {item}-byte {t.type_name}.{hint}")


def check_dataset(dataset: Any, desc: Any, kind: str = "input") -> Feedback:
    """Exercise 04: a dataset (step record or handle) has one right-sized buffer per tensor."""
    acl = backend.acl()
    handle = getattr(dataset, "dataset", dataset)
    tensors = desc.inputs if kind == "input" else desc.outputs
    count = acl.mdl.get_dataset_num_buffers(handle)
    if count != len(tensors):
        return Feedback(False, f"your {kind} dataset holds {count} data buffer(s); the model has {len(tensors)} "
                        f"{kind}(s) — add one aclDataBuffer per {kind}, in index order.")
    for t in tensors:
        size = acl.get_data_buffer_size_v2(acl.mdl.get_dataset_buffer(handle, t.index))
        if size != t.size:
            return check_buffer_size(size, desc, kind, t.index)
    return Feedback(True, f"{count} buffer(s), each the size the desc asks for.")


def check_input_array(array: Any, desc: Any, index: int = 0) -> Feedback:
    """Exercise 05: the preprocessed array has the input's dtype, shape and byte size."""
    t = _tensor(desc, "input", index)
    arr = np.asarray(array)
    dims = list(t.dims)
    if arr.dtype != t.numpy_dtype:
        return Feedback(False, f"your array is {arr.dtype} ({arr.nbytes} bytes); input {t.name} is {t.type_name}: "
                        f"use .astype(np.{t.numpy_dtype}) so it is {t.size} bytes.")
    if list(arr.shape) != dims:
        return Feedback(False, f"your array has shape {list(arr.shape)}; input {t.name} is {dims} (NCHW: move the "
                        f"channel axis with .transpose(2, 0, 1) and add the batch axis).")
    if not arr.flags.c_contiguous:
        return Feedback(False, "the array is not C-contiguous: its bytes are not in NCHW order; use "
                        "np.ascontiguousarray before tobytes()/bytes_to_ptr.")
    return Feedback(True, f"{arr.dtype} {list(arr.shape)} = {arr.nbytes} bytes, ready for memcpy.")


def check_execute_ret(ret: int) -> Feedback:
    """Exercise 06: what an execute returned."""
    from .spec.errors import explain
    if ret == 0:
        return Feedback(True, "execute returned 0: the outputs are in their device buffers.")
    info = explain(ret)
    return Feedback(False, f"execute returned {ret} ({info.name if info else 'unknown'}): "
                    f"{info.cause if info else ''} Fix: {info.fix if info else ''}")


def check_top5(indices: Sequence[int], scores: Any) -> Feedback:
    """Exercise 07: top-5 indices, best first, from the scores."""
    x = np.asarray(scores, dtype=np.float64).reshape(-1)
    want = [int(i) for i in np.argsort(-x, kind="stable")[:5]]
    got = [int(i) for i in indices]
    if got == want:
        return Feedback(True, f"top-5 {got}, best first.")
    if got == want[::-1]:
        return Feedback(False, "right classes, wrong order: argsort is ascending, so take [-1:-6:-1] (best first).")
    if sorted(got) == sorted(want):
        return Feedback(False, f"right classes in the wrong order; expected {want}.")
    if len(got) != 5:
        return Feedback(False, f"you gave {len(got)} indices; top-5 means 5.")
    return Feedback(False, f"expected {want}; got {got}. Did you flatten the [1, 1000] output before argsort?")


RELEASE_ORDER = ["acl.destroy_data_buffer", "acl.mdl.destroy_dataset", "acl.rt.free", "acl.mdl.unload",
                 "acl.mdl.destroy_desc", "acl.rt.destroy_stream", "acl.rt.destroy_context", "acl.rt.reset_device",
                 "acl.finalize"]


def check_release_order(apis: List[str]) -> Feedback:
    """Exercise 08: the release calls in an order that never uses something already released."""
    must_precede = [("acl.destroy_data_buffer", "acl.mdl.destroy_dataset"), ("acl.mdl.unload", "acl.rt.destroy_context"),
                    ("acl.rt.free", "acl.rt.reset_device"), ("acl.rt.destroy_stream", "acl.rt.destroy_context"),
                    ("acl.rt.destroy_context", "acl.rt.reset_device"), ("acl.rt.reset_device", "acl.finalize")]
    missing = [a for a in RELEASE_ORDER if a not in apis]
    if missing:
        return Feedback(False, f"missing release call(s): {', '.join(missing)} — each of them leaks something.")
    for before, after in must_precede:
        if max(i for i, a in enumerate(apis) if a == before) > min(i for i, a in enumerate(apis) if a == after):
            return Feedback(False, f"{before} must come before {after}.")
    return Feedback(True, "a safe release order: buffers -> datasets -> memory -> model -> stream -> context -> "
                    "device -> finalize.")


def check_callback_results(delivered: Sequence[Any], expected: Sequence[Any]) -> Feedback:
    """Exercise 09: callbacks delivered everything, in stream order."""
    if list(delivered) == list(expected):
        return Feedback(True, f"{len(delivered)} callback(s), in the order they were queued.")
    if sorted(map(str, delivered)) == sorted(map(str, expected)):
        return Feedback(False, "all callbacks ran but out of order: launch them on one stream, in order.")
    return Feedback(False, f"{len(delivered)} of {len(expected)} callbacks arrived — did you synchronize_stream "
                    f"before reading the results, and is a thread calling process_report?")


def check_gear(batch: int, desc: Any) -> Feedback:
    """Exercise 10: a batch size the dynamic model accepts."""
    gears = list(desc.dynamic_batch)
    if not gears:
        return Feedback(False, "this model has no dynamic batch gears (converted without --dynamic_batch_size).")
    if batch in gears:
        return Feedback(True, f"batch {batch} is one of the gears {gears}.")
    bigger = [g for g in gears if g > batch]
    hint = f" Use {bigger[0]} and pad the rest of the batch." if bigger else ""
    return Feedback(False, f"batch {batch} is not a gear; the model accepts {gears} (set_dynamic_batch_size "
                    f"returns 145013 otherwise).{hint}")


def check_desc_answer(answer: Dict[str, Any], desc: Any) -> Feedback:
    """Exercise 12: the learner's reading of a desc (inputs, outputs, input bytes)."""
    want = {"inputs": len(desc.inputs), "outputs": len(desc.outputs), "input_bytes": desc.inputs[0].size}
    wrong = [f"{k}: you said {answer.get(k)}, the desc says {v}" for k, v in want.items() if answer.get(k) != v]
    if not wrong:
        return Feedback(True, "all three match the desc.")
    return Feedback(False, "; ".join(wrong) + ".")


def ledger_summary() -> str:
    """'N live resource(s): kinds…' on the simulator (for the end of each notebook)."""
    found = backend.inspector().live(include_init=True)
    if found is None:
        return "the ledger exists only on the simulator"
    live = [e.kind for e in found]
    return f"{len(live)} live resource(s)" + (f": {', '.join(live)}" if live else "")
