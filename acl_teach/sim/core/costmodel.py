"""How long a model run takes on the simulated device, from the work ATC recorded in the OM header.

*simulator:* ``acl-teach atc`` writes a ``cost`` field (toolchain/graphcost.py, docs/om_format.md):
each node's multiply-accumulates and output bytes at the largest gear, the weight bytes, and per gear
the ratio of its input elements to the largest. A run costs a launch, a per-model overhead, each node's
kernel start-up plus its MACs and bytes (scaled to the gear; nothing for shape-only nodes, FREE_OPS),
and its weights read once
(timeline.compute_cost's rates). An OM without that field (built by an older emulator) is costed from
its header alone: its weights read once and one MAC per weight byte per input image. UNCONFIRMED:
real AI Core timings depend on tiling, formats and fusion that the simulator does not model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .timeline import DEVICE_BYTES_PER_US, LAUNCH_US, MACS_PER_US, MODEL_OVERHEAD_US, NODE_LAUNCH_US


FREE_OPS = frozenset({"Constant", "Identity", "Shape", "Size", "Reshape", "Squeeze", "Unsqueeze", "Flatten",
                      "ConstantOfShape"})  # folded away or metadata-only on an NPU: no kernel, no time


@dataclass
class OpCost:
    """One node of a graph as the profiler reports it."""

    name: str
    op_type: str
    macs: float
    out_bytes: float

    @property
    def us(self) -> float:
        if self.op_type in FREE_OPS:
            return 0.0
        return NODE_LAUNCH_US + self.macs / MACS_PER_US + self.out_bytes / DEVICE_BYTES_PER_US


@dataclass
class RunCost:
    """The simulated duration of one run and its operators in order."""

    total_us: float
    ops: List[OpCost]
    weight_bytes: int


def _from_header(header: Dict[str, Any], gear: Optional[str]) -> RunCost:
    cost = header.get("cost")
    if isinstance(cost, dict) and isinstance(cost.get("ops"), list):
        scale = float((cost.get("scale") or {}).get(gear or "static", 1.0))
        ops = [OpCost(str(n), str(t), float(m) * scale, float(b) * scale) for n, t, m, b in cost["ops"]]
        weights = int(cost.get("weight_bytes", 0))
    else:
        weights = int(header.get("weight_size", 0))
        images = max((e["dims"][0] for e in header["inputs"] if e.get("onnx_name") and e["dims"]
                      and e["dims"][0] > 0), default=1)
        ops = [OpCost("model", "Model", float(weights * images), float(sum(e["size"] for e in header["outputs"])))]
    total = LAUNCH_US + MODEL_OVERHEAD_US + sum(op.us for op in ops) + weights / DEVICE_BYTES_PER_US
    return RunCost(total, ops, weights)


def run_cost(cache: Dict[Any, RunCost], header: Dict[str, Any], gear: Optional[str]) -> RunCost:
    """The cost of a run at ``gear`` (None: static), computed once per gear (``cache`` lives on the loaded model)."""
    if gear not in cache:
        cache[gear] = _from_header(header, gear)
    return cache[gear]
