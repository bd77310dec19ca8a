"""Running an op model's ONNX graph with ONNX Runtime, one cached session per compiled graph.

Sessions are keyed by the graph's SHA-256, so the same (op, descs, attrs) compiled anywhere shares
one session, across simulated processes too (``sim.reset`` keeps them: they hold no learner state).
"""
from __future__ import annotations

import collections
import functools
import threading
from typing import Any, Dict, List

import numpy as np

from ...spec import opmodel


@functools.lru_cache(maxsize=None)
def _onnxruntime() -> Any:
    """onnxruntime, imported on first use (slow to import) and kept: no import runs again (none can at shutdown)."""
    import onnxruntime as ort
    return ort

CACHE_SIZE = 256
_sessions: "collections.OrderedDict[str, Any]" = collections.OrderedDict()
_lock = threading.Lock()


def session(model: opmodel.OpModel):
    """The (cached) ONNX Runtime session of ``model``'s graph."""
    with _lock:
        found = _sessions.get(model.digest)
        if found is not None:
            _sessions.move_to_end(model.digest)
            return found
    ort = _onnxruntime()
    options = ort.SessionOptions()
    options.log_severity_level = 4  # failures come back as exceptions, not console noise
    options.intra_op_num_threads = 1
    made = ort.InferenceSession(model.onnx_bytes, options, providers=["CPUExecutionProvider"])
    with _lock:
        _sessions[model.digest] = made
        while len(_sessions) > CACHE_SIZE:
            _sessions.popitem(last=False)
    return made


def run(model: opmodel.OpModel, feeds: Dict[int, np.ndarray]) -> List[np.ndarray]:
    """The outputs of ``model`` for its graph inputs (op input index -> array)."""
    return session(model).run(None, {f"x{i}": feeds[i] for i in model.graph_inputs})
