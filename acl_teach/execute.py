"""Step 7: ``execute`` (synchronous), ``execute_async`` + ``synchronize`` (stream order),
``set_batch`` (choose a dynamic-batch gear), and ``run_callbacks`` (the callback-thread pattern).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, List

from .spec.constants import ACL_CALLBACK_BLOCK, ACL_DYNAMIC_TENSOR_NAME as DYNAMIC_INPUT
from .dataset import Dataset
from .model import Desc, Model
from .resources import Resources
from .step import Step



@dataclass(repr=False)
class Run(Step):
    """One execute (or queued execute_async) and how long it took (not shown, so outputs stay stable)."""

    model_id: int = 0
    mode: str = "sync"
    elapsed_ms: float = field(default=0.0, repr=False)


def execute(model: Model, inputs: Dataset, outputs: Dataset) -> Run:
    """acl.mdl.execute: returns when the outputs are in their device buffers."""
    rec = Run(model_id=model.model_id)
    t0 = time.perf_counter()
    rec.check("acl.mdl.execute", model.model_id, inputs.dataset, outputs.dataset)
    rec.elapsed_ms = 1000 * (time.perf_counter() - t0)
    return rec


def execute_async(model: Model, inputs: Dataset, outputs: Dataset, resources: Resources) -> Run:
    """acl.mdl.execute_async on the resources' stream: queued, not done — call synchronize()."""
    if not resources.stream:
        raise ValueError("execute_async needs a stream: request_resources(stream=True)")
    rec = Run(model_id=model.model_id, mode="async")
    rec.check("acl.mdl.execute_async", model.model_id, inputs.dataset, outputs.dataset, resources.stream)
    return rec


def synchronize(resources: Resources) -> Run:
    """acl.rt.synchronize_stream: wait until everything queued on the stream has run."""
    rec = Run(mode="synchronize")
    t0 = time.perf_counter()
    rec.check("acl.rt.synchronize_stream", resources.stream)
    rec.elapsed_ms = 1000 * (time.perf_counter() - t0)
    return rec


def set_batch(model: Model, desc: Desc, inputs: Dataset, batch: int) -> Run:
    """Choose a gear of a dynamic-batch model (writes the hidden ascend_mbatch_shape_data input)."""
    rec = Run(model_id=model.model_id, mode=f"batch {batch}")
    if not desc.dynamic_batch:
        raise ValueError("this model has no dynamic batch gears (convert with --dynamic_batch_size)")
    if batch not in desc.dynamic_batch:
        raise ValueError(f"batch {batch} is not a gear of the model; gears: {desc.dynamic_batch}")
    index, _ = rec.check("acl.mdl.get_input_index_by_name", desc.model_desc, DYNAMIC_INPUT)
    rec.check("acl.mdl.set_dynamic_batch_size", model.model_id, inputs.dataset, index, batch)
    return rec


SUBSCRIBE_WAIT_S = 10.0


@dataclass(repr=False)
class Callbacks(Step):
    """The callback thread's life: started, subscribed, what ran, stopped."""

    thread_id: int = 0
    delivered: List[Any] = field(default_factory=list)
    worker_calls: List[Any] = field(default_factory=list, repr=False)

    def code(self) -> str:
        """Main-thread calls, then the worker thread's loop (its first set_context and process_report)."""
        from . import trace
        firsts = {}
        for c in self.worker_calls:
            firsts.setdefault(c.api, c)
        loop = "\n".join("    " + c.python() for c in firsts.values())
        return trace.as_python(self.calls) + "\n# in the callback thread (looping until the exit flag is set):\n" + loop


def run_callbacks(resources: Resources, work: Callable[[Callable[[list], None]], None],
                  timeout_ms: int = 50) -> Callbacks:
    """start_thread(process_report loop) -> subscribe_report -> work(launch) -> synchronize -> unsubscribe -> stop.

    ``work`` receives ``launch(user_data)``, which queues a blocking callback on the stream:
    ``acl.rt.launch_callback(fn, user_data, ACL_CALLBACK_BLOCK, stream)``. pyACL's documentation gives
    user_data as a list ("目前传入的是list类型"), so ``launch`` takes a list and raises TypeError for
    anything else; the callback receives that list, and each one lands in ``.delivered`` in stream order.
    """
    def checked(user_data: Any) -> list:
        if not isinstance(user_data, list):
            raise TypeError(f"launch(user_data): user_data is a list in pyACL's documentation of "
                            f"acl.rt.launch_callback, e.g. launch([{user_data!r}]); got {type(user_data).__name__}")
        return user_data

    from . import trace
    rec = Callbacks()
    state = {"stop": False}

    subscribed = threading.Event()  # poll only once subscribed: before that process_report fails at once

    def loop(args):
        trace.call(rec.worker_calls, "acl.rt.set_context", args[0])
        subscribed.wait(SUBSCRIBE_WAIT_S)
        while not state["stop"]:
            trace.call(rec.worker_calls, "acl.rt.process_report", args[1])

    rec.thread_id, _ = rec.check("acl.util.start_thread", loop, [resources.context, timeout_ms])
    try:
        try:
            rec.check("acl.rt.subscribe_report", rec.thread_id, resources.stream)
        finally:
            subscribed.set()
        try:
            work(lambda user_data: rec.check("acl.rt.launch_callback", rec.delivered.append, checked(user_data),
                                             ACL_CALLBACK_BLOCK, resources.stream))
            rec.check("acl.rt.synchronize_stream", resources.stream)
        finally:
            rec.call("acl.rt.unsubscribe_report", rec.thread_id, resources.stream)
    finally:
        state["stop"] = True
        rec.call("acl.util.stop_thread", rec.thread_id)
    return rec
