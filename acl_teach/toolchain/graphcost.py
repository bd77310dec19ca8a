"""What ATC records about a graph's work for the simulator's clock: MACs and output bytes per node.

*simulator:* the OM header's ``cost`` field (docs/om_format.md) — ONNX shape inference at the largest
gear, then each node's multiply-accumulates (Conv, ConvTranspose, Gemm, MatMul; one per output element
otherwise) and the bytes it writes, the graph's weight bytes, and per gear the ratio of its input
elements to the largest gear's (the work is scaled by it). acl_teach/sim/core/costmodel.py turns this
into simulated microseconds. UNCONFIRMED as a model of AI Core time.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Sequence

MAX_NAME = 96  # node names are cut to this many characters in the header


def _dims(type_proto: Any) -> List[int]:
    shape = type_proto.tensor_type.shape
    return [d.dim_value if d.HasField("dim_value") else 1 for d in shape.dim]


def _known(type_proto: Any) -> bool:
    shape = type_proto.tensor_type.shape
    return type_proto.tensor_type.HasField("shape") and all(d.HasField("dim_value") for d in shape.dim)


def _measured(model: Any, input_shapes: Dict[str, Sequence[int]], names: List[str]) -> Dict[str, List[int]]:
    """Shapes shape inference could not give (dynamic pads …): one ONNX Runtime run with them as outputs."""
    if not names:
        return {}
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import helper
    probe = onnx.ModelProto.FromString(model.SerializeToString())
    known = {o.name for o in probe.graph.output}
    probe.graph.output.extend([onnx.ValueInfoProto(name=n) for n in names if n not in known])
    inits = {i.name for i in probe.graph.initializer}
    feeds = {}
    for inp in probe.graph.input:
        if inp.name in inits:
            continue
        dims = input_shapes.get(inp.name) or _dims(inp.type)
        feeds[inp.name] = np.zeros(dims, helper.tensor_dtype_to_np_dtype(inp.type.tensor_type.elem_type))
    try:
        options = ort.SessionOptions()
        options.log_severity_level = 3  # no console warnings in the learner's output
        session = ort.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"])
        values = session.run(None, feeds)
    except Exception:  # the probe is an extra: without it the known shapes stand
        return {}
    return {out.name: list(getattr(v, "shape", ())) for out, v in zip(session.get_outputs(), values)}


def _node_macs(node: Any, shapes: Dict[str, List[int]]) -> int:
    out = shapes.get(node.output[0]) if node.output else None
    n_out = math.prod(out) if out else 0
    if node.op_type in ("Conv", "ConvTranspose") and len(node.input) > 1 and node.input[1] in shapes:
        w = shapes[node.input[1]]
        if node.op_type == "ConvTranspose":
            src = shapes.get(node.input[0])
            return int(math.prod(src) * math.prod(w[1:])) if src else 0
        return int(n_out * math.prod(w[1:]))
    if node.op_type in ("Gemm", "MatMul") and node.input and node.input[0] in shapes:
        a = shapes[node.input[0]]
        trans = any(att.name == "transA" and att.i for att in node.attribute)
        k = (a[-2] if trans and len(a) > 1 else a[-1]) if a else 1
        return int(n_out * k)
    return int(n_out)


def analyse(onnx_bytes: bytes, input_shapes: Dict[str, Sequence[int]]) -> Dict[str, Any]:
    """``{"weight_bytes", "ops": [[name, type, macs, out_bytes], …]}`` of one run at these input shapes."""
    import onnx
    from onnx import shape_inference
    model = onnx.load_from_string(onnx_bytes)
    for inp in model.graph.input:
        if inp.name in input_shapes:
            for d, v in zip(inp.type.tensor_type.shape.dim, input_shapes[inp.name]):
                d.ClearField("dim_param")
                d.dim_value = int(v)
    try:
        model = shape_inference.infer_shapes(model)
    except Exception:  # an unusual graph: what is known stays known
        pass
    shapes: Dict[str, List[int]] = {}
    for vi in list(model.graph.input) + list(model.graph.value_info) + list(model.graph.output):
        if _known(vi.type):
            shapes[vi.name] = _dims(vi.type)
    shapes.update(_measured(model, input_shapes, [o for n in model.graph.node for o in n.output
                                                  if o and o not in shapes]))
    weight_bytes = 0
    for init in model.graph.initializer:
        shapes[init.name] = list(init.dims)
        weight_bytes += len(init.raw_data) or math.prod(init.dims) * 4
    ops = []
    for i, node in enumerate(model.graph.node):
        out = shapes.get(node.output[0]) if node.output else None
        ops.append([(node.name or f"{node.op_type}_{i}")[:MAX_NAME], node.op_type, _node_macs(node, shapes),
                    4 * math.prod(out) if out else 0])
    return {"weight_bytes": weight_bytes, "ops": ops}


def for_header(onnx_bytes: bytes, feeds_per_gear: Dict[str, Dict[str, Sequence[int]]]) -> Dict[str, Any]:
    """The header's ``cost``: the analysis at the largest gear and each gear's scale."""
    sizes = {key: sum(math.prod(s) for s in feeds.values()) for key, feeds in feeds_per_gear.items()}
    biggest = max(sizes, key=lambda k: sizes[k])
    cost = analyse(onnx_bytes, feeds_per_gear[biggest])
    cost["scale"] = {key: (size / sizes[biggest] if sizes[biggest] else 1.0) for key, size in sizes.items()}
    return cost
