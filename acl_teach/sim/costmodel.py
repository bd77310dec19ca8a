"""How long a model or operator run takes on the simulated device: multiply-accumulates and bytes per node.

*simulator:* the graph's shapes are inferred once per input shape (ONNX shape inference), each node
costs a kernel start-up plus its MACs (Conv, ConvTranspose, Gemm, MatMul; one per output element otherwise) and the bytes
it writes, and the run reads its weights once; ``timeline.compute_cost`` turns that into microseconds.
UNCONFIRMED: real AI Core timings depend on tiling, formats and fusion that the simulator does not model.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

from .timeline import DEVICE_BYTES_PER_US, LAUNCH_US, MACS_PER_US, MODEL_OVERHEAD_US, NODE_LAUNCH_US


@dataclass
class OpCost:
    """One node of a graph as the profiler reports it."""

    name: str
    op_type: str
    macs: float
    out_bytes: float

    @property
    def us(self) -> float:
        return NODE_LAUNCH_US + self.macs / MACS_PER_US + self.out_bytes / DEVICE_BYTES_PER_US


@dataclass
class RunCost:
    """The simulated duration of one run and its operators in order."""

    total_us: float
    ops: List[OpCost]
    weight_bytes: int


def _dims(type_proto: Any) -> List[int]:
    shape = type_proto.tensor_type.shape
    return [d.dim_value if d.HasField("dim_value") else 1 for d in shape.dim]


def _node_macs(node: Any, shapes: Dict[str, List[int]]) -> float:
    """Multiply-accumulates of one node (its output elements when it is not a contraction)."""
    out = shapes.get(node.output[0]) if node.output else None
    n_out = math.prod(out) if out else 0
    if node.op_type in ("Conv", "ConvTranspose") and len(node.input) > 1 and node.input[1] in shapes:
        w = shapes[node.input[1]]
        if node.op_type == "ConvTranspose":
            src = shapes.get(node.input[0])
            return float(math.prod(src) * math.prod(w[1:])) if src else 0.0
        return float(n_out * math.prod(w[1:]))
    if node.op_type in ("Gemm", "MatMul") and node.input and node.input[0] in shapes:
        a = shapes[node.input[0]]
        trans = any(att.name == "transA" and att.i for att in node.attribute)
        k = (a[-2] if trans and len(a) > 1 else a[-1]) if a else 1
        return float(n_out * k)
    return float(n_out)


def analyse(onnx_bytes: bytes, input_shapes: Dict[str, Sequence[int]]) -> RunCost:
    """The cost of one run of the graph with these input shapes."""
    import onnx  # first run of each model and shape only
    from onnx import numpy_helper, shape_inference
    model = onnx.load_from_string(onnx_bytes)
    for inp in model.graph.input:
        if inp.name in input_shapes:
            dims = inp.type.tensor_type.shape.dim
            for d, v in zip(dims, input_shapes[inp.name]):
                d.ClearField("dim_param")
                d.dim_value = int(v)
    try:
        model = shape_inference.infer_shapes(model)
    except Exception:  # an unusual graph: cost by weights and outputs only
        pass
    shapes: Dict[str, List[int]] = {}
    for vi in list(model.graph.input) + list(model.graph.value_info) + list(model.graph.output):
        shapes[vi.name] = _dims(vi.type)
    weight_bytes = 0
    for init in model.graph.initializer:
        shapes[init.name] = list(init.dims)
        weight_bytes += numpy_helper.to_array(init).nbytes if init.raw_data == b"" else len(init.raw_data)
    ops = []
    for i, node in enumerate(model.graph.node):
        out = shapes.get(node.output[0]) if node.output else None
        ops.append(OpCost(node.name or f"{node.op_type}_{i}", node.op_type, _node_macs(node, shapes),
                          4.0 * math.prod(out) if out else 0.0))
    total = LAUNCH_US + MODEL_OVERHEAD_US + sum(op.us for op in ops) + weight_bytes / DEVICE_BYTES_PER_US
    return RunCost(total, ops, weight_bytes)


def run_cost(cache: Dict[Tuple, RunCost], onnx_bytes: bytes, feeds: Dict[str, Any]) -> RunCost:
    """``analyse`` once per set of input shapes (``cache`` lives on the loaded model)."""
    key = tuple(sorted((name, tuple(getattr(v, "shape", ()))) for name, v in feeds.items()))
    if key not in cache:
        cache[key] = analyse(onnx_bytes, {name: shape for name, shape in key})
    return cache[key]
