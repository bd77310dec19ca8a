"""An ATC emulator: ONNX model + real ATC flags -> simulator ``.om`` (desc header + graph).

Accepts the flag subset the samples use (``--model --framework --output --soc_version
--input_shape --input_format --input_fp16_nodes --output_type --dynamic_batch_size
--dynamic_image_size --dynamic_dims --insert_op_conf`` (static AIPP, toolchain/aipp.py), plus
``--weight``/``--out_nodes``/``--log`` which Caffe commands carry), parsed as ATC's gflags parses them
(``-flag=value`` too). ``--output_type`` takes one type or ``node:index:TYPE`` per output. Flags that
tune the real compiler (``--precision_mode``, ``--save_original_model``, ``--check_report`` … ``NO_EFFECT``)
are accepted and the output says they change nothing here.
Bad flags, or a graph that does not accept the requested shapes, fail like ATC: non-zero exit
and ``ATC run failed`` with the reason. A ``NAME.recipe.json`` beside the ONNX file (the
preprocessing recipe) is copied into the OM header. ``--singleop=op_list.json --output=DIR
--soc_version=SOC`` compiles single operators instead (``singleop``).
"""
from __future__ import annotations

import os
import re
import shlex
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..spec import dtypes, om
from ..spec.constants import ACL_DYNAMIC_TENSOR_NAME, ACL_FORMAT_ND, ACL_INT64
from . import ascend_ops, graphcost, singleop
from .files import replace_with

FLAGS = ("model", "framework", "output", "soc_version", "input_shape", "input_format", "input_fp16_nodes",
         "output_type", "dynamic_batch_size", "dynamic_image_size", "dynamic_dims", "weight", "out_nodes", "log", "singleop",
         "insert_op_conf")
# Flags ATC accepts that change nothing the simulator models (CPU fp32 ONNX Runtime, no real compiler):
# accepted, and ATC's output says so. The value is what the flag is about.
NO_EFFECT = {"precision_mode": "the NPU's operator precision", "save_original_model": "keeping the original model",
             "check_report": "the operator-support check report", "op_select_implmode": "high-precision or "
             "high-performance operator implementations", "optypelist_for_implmode": "per-op implementations",
             "log": "ATC's log level", "enable_small_channel": "small-channel convolution",
             "fusion_switch_file": "graph fusion", "buffer_optimize": "buffer optimisation",
             "keep_dtype": "per-op data types", "modify_mixlist": "mixed-precision lists",
             "op_precision_mode": "per-op precision", "host_env_os": "the host OS of the OM",
             "host_env_cpu": "the host CPU of the OM", "disable_reuse_memory": "memory reuse",
             "op_debug_level": "operator debug", "status_check": "overflow checks", "core_type": "the core type",
             "aicore_num": "the AI Core count", "virtual_type": "virtualisation", "compression_optimize_conf":
             "compression", "enable_compress_weight": "weight compression", "auto_tune_mode": "auto tuning",
             "enable_single_stream": "single-stream execution"}
# gflags booleans: --flag alone is true, --noflag false (the string flags need a value)
BOOL_FLAGS = ("save_original_model", "enable_small_channel", "disable_reuse_memory", "enable_single_stream",
              "enable_compress_weight")
PRECISION_MODES = ("force_fp32", "allow_fp32_to_fp16", "force_fp16", "must_keep_origin_dtype",
                   "allow_mix_precision", "allow_mix_precision_fp16", "allow_mix_precision_bf16",
                   "force_lowerprecision", "cube_fp16in_fp32out")
FRAMEWORKS = {0: "Caffe", 1: "MindSpore", 3: "TensorFlow", 5: "ONNX"}
DYNAMIC_INPUT = ACL_DYNAMIC_TENSOR_NAME
FAILED = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"


PATH_FLAGS = ("model", "weight", "output", "insert_op_conf", "singleop")



def _quiet(ort):
    """Session options that keep ONNX Runtime's console warnings (e.g. on dynamic AIPP's overridable input) out of
    the learner's output: failures still come back as exceptions."""
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return options

def portable(command: str) -> str:
    """The command as the OM records it: path flags by file name, so an OM's bytes never depend on the machine."""
    return re.sub(r"--(%s)=(\S+)" % "|".join(PATH_FLAGS), lambda m: f"--{m.group(1)}={os.path.basename(m.group(2))}",
                  command)


class AtcError(Exception):
    """ATC refused the command; the message is the reason (E-code style)."""


def parse_flags(argv: Sequence[str]) -> Dict[str, str]:
    """ATC's command line as gflags parses it: ``--flag=value``, ``-flag=value``, ``--flag value``,
    ``-flag value``, and for booleans ``--flag`` / ``--noflag``."""
    flags: Dict[str, str] = {}
    known = FLAGS + tuple(NO_EFFECT)
    args = list(argv)
    while args:
        arg = args.pop(0)
        if not arg.startswith("-") or arg in ("-", "--"):
            raise AtcError(f"E10001: Value [{arg}] is not a flag. Flags look like --model=resnet50.onnx.")
        key, eq, value = arg.lstrip("-").partition("=")
        if not eq and key.startswith("no") and key[2:] in BOOL_FLAGS:
            key, value, eq = key[2:], "false", "="
        if not eq:
            if key in BOOL_FLAGS and (not args or args[0].startswith("-")
                                      or args[0].lower() not in ("true", "false", "1", "0")):
                value = "true"
            elif not args or (args[0].startswith("-") and key in known):
                raise AtcError(f"E10004: Value for parameter [--{key}] is missing.")
            else:
                value = args.pop(0)
        if key not in known:
            raise AtcError(f"E10001: Parameter [--{key}] is not supported by ATC (or by the acl-teach "
                           f"simulator). Supported: {', '.join('--' + f for f in known)}.")
        flags[key] = value.strip().strip('"').strip("'")
    if flags.get("precision_mode") and flags["precision_mode"] not in PRECISION_MODES:
        raise AtcError(f"E10001: Value [{flags['precision_mode']}] for parameter [--precision_mode] is invalid: "
                       f"{', '.join(PRECISION_MODES)}.")
    return flags


def no_effect_notes(flags: Dict[str, str]) -> List[str]:
    """One line per accepted flag that changes nothing on the simulator (printed by ``run``)."""
    return [f"[acl-teach] --{k}={v}: accepted; it sets {NO_EFFECT[k]}, which has no effect on the simulator "
            f"(the model runs as fp32/its own types on ONNX Runtime on the CPU)" for k, v in flags.items()
            if k in NO_EFFECT]


def _output_types(text: str) -> Tuple[str, Dict[Tuple[str, int], str]]:
    """--output_type: one type for every output ('FP32'), or per output 'node:index:FP16;node2:0:FP32'."""
    if ":" not in text:
        out = text.upper()
        if out and out not in dtypes.ATC_TYPES:
            raise AtcError(f"E10001: Value [{out}] for parameter [--output_type] is invalid: use FP32, FP16, "
                           f"UINT8, INT8 or INT32 (or node:index:TYPE per output).")
        return out, {}
    per: Dict[Tuple[str, int], str] = {}
    for part in filter(None, text.split(";")):
        node, _, rest = part.rpartition(":")
        node, _, index = node.rpartition(":")
        kind = rest.upper()
        if not node or not index.isdigit() or kind not in dtypes.ATC_TYPES:
            raise AtcError(f"E10001: Value [{part}] for parameter [--output_type] is invalid: per output it is "
                           f"node:index:TYPE (TYPE FP32, FP16, UINT8, INT8 or INT32), joined by ';'.")
        per[(node, int(index))] = kind
    return "", per


def _parse_shapes(text: str) -> Dict[str, List[int]]:
    """'a:1,3,224,224;b:1,10' -> {'a': [1,3,224,224], 'b': [1,10]}."""
    shapes = {}
    for part in filter(None, text.split(";")):
        name, _, dims = part.rpartition(":")
        try:
            shapes[name] = [int(d) for d in dims.split(",")]
        except ValueError:
            raise AtcError(f"E10002: Value [{part}] for parameter [--input_shape] is invalid: expected "
                           f"name:d1,d2,... with integer dims (-1 for a dynamic dim).") from None
        if not name or any(d < -1 or d == 0 for d in shapes[name]):
            raise AtcError(f"E10002: Value [{part}] for parameter [--input_shape] is invalid.")
        if any(d > om.MAX_DIM for d in shapes[name]):  # before protobuf (int64) or numpy sees it
            raise AtcError(f"E10002: Value [{part[:200]}] for parameter [--input_shape] is invalid: each dim is at "
                           f"most {om.MAX_DIM} (-1 for a dynamic dim).")
    return shapes


def _parse_gears(flags: Dict[str, str]) -> Tuple[Optional[str], List[List[int]]]:
    """('batch' | 'hw' | None, gears)."""
    batch, image, nd = flags.get("dynamic_batch_size"), flags.get("dynamic_image_size"), flags.get("dynamic_dims")
    if sum(map(bool, (batch, image, nd))) > 1:
        raise AtcError("E10001: --dynamic_batch_size, --dynamic_image_size and --dynamic_dims cannot be used "
                       "together.")
    if nd:
        return "dims", _parse_nd_gears(nd)
    try:
        if batch:
            gears = [[int(b)] for b in batch.split(",") if b.strip()]
        elif image:
            gears = [[int(v) for v in hw.split(",")] for hw in image.split(";") if hw.strip()]
        else:
            return None, []
    except ValueError:
        raise AtcError("E10001: dynamic gears must be integers, e.g. --dynamic_batch_size=\"1,2,4,8\" or "
                       "--dynamic_image_size=\"224,224;448,448\".") from None
    kind = "batch" if batch else "hw"
    if not 2 <= len(gears) <= 100 or any(v <= 0 for g in gears for v in g) or \
            (kind == "hw" and any(len(g) != 2 for g in gears)) or len({tuple(g) for g in gears}) != len(gears):
        raise AtcError(f"E10035: the {kind} gears {gears} are invalid: give 2 to 100 distinct positive "
                       f"{'sizes' if kind == 'batch' else 'height,width pairs'}.")
    return kind, gears


def _parse_nd_gears(text: str) -> List[List[int]]:
    """--dynamic_dims="1,2;4,8": one gear per ';', one value per -1 of --input_shape (all inputs, in order)."""
    try:
        gears = [[int(v) for v in g.split(",")] for g in text.split(";") if g.strip()]
    except ValueError:
        raise AtcError("E10001: --dynamic_dims takes integer gears separated by ';', e.g. "
                       "--dynamic_dims=\"1,224;8,448\".") from None
    if not 2 <= len(gears) <= 100 or any(v <= 0 for g in gears for v in g) or len({len(g) for g in gears}) != 1 \
            or len({tuple(g) for g in gears}) != len(gears):
        raise AtcError(f"E10035: the --dynamic_dims gears {gears} are invalid: give 2 to 100 distinct gears of "
                       f"positive values, each with one value per -1 in --input_shape.")
    return gears


def _dims_of(value_info) -> List[Any]:
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?")
            for d in value_info.type.tensor_type.shape.dim]


def _graph_inputs(model) -> list:
    inits = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def _check_basic(flags: Dict[str, str]) -> None:
    for need in ("model", "framework", "output", "soc_version"):
        if not flags.get(need):
            raise AtcError(f"E10004: Value for parameter [--{need}] is required.")
    try:
        framework = int(flags["framework"])
    except ValueError:
        raise AtcError(f"E10001: Value [{flags['framework']}] for parameter [--framework] is invalid: "
                       f"0 Caffe, 1 MindSpore, 3 TensorFlow, 5 ONNX.") from None
    if framework not in FRAMEWORKS:
        raise AtcError(f"E10001: Value [{framework}] for parameter [--framework] is invalid: "
                       f"0 Caffe, 1 MindSpore, 3 TensorFlow, 5 ONNX.")
    if framework != 5:
        raise AtcError(f"framework {framework} ({FRAMEWORKS[framework]}) is not supported by the acl-teach "
                       f"simulator, which runs ONNX graphs: export the model to ONNX and use --framework=5.")
    if not flags["soc_version"].startswith("Ascend"):
        raise AtcError(f"E10001: Value [{flags['soc_version']}] for parameter [--soc_version] is invalid, "
                       f"e.g. Ascend310, Ascend310P3, Ascend310B4, Ascend910B3.")
    if not os.path.isfile(flags["model"]):
        raise AtcError(f"E10001: Value [{flags['model']}] for parameter [--model] is invalid: file not found.")


def _load_onnx(path: str, shapes: Optional[Dict[str, List[int]]] = None, notes: Optional[List[str]] = None):
    """The ONNX model, with Ascend post-processing operators (ascend_ops) lowered to standard ONNX first."""
    import onnx
    try:
        model = onnx.load(path)
        if ascend_ops.has_ascend_ops(model):
            found = sorted({n.op_type for n in model.graph.node if n.op_type in ascend_ops.ASCEND_OPS})
            model = ascend_ops.lower(model, shapes or {})
            if notes is not None:
                notes.append(f"[acl-teach] {', '.join(found)}: Ascend operators, computed on the simulator by "
                             f"standard ONNX subgraphs (what they compute: acl_teach/toolchain/ascend_ops.py)")
        onnx.checker.check_model(model)
    except ascend_ops.AscendOpError as exc:
        raise AtcError(f"E19010: {exc}") from None
    except Exception as exc:
        raise AtcError(f"E19010: No parser is registered for the model or it failed to parse "
                       f"({path}): {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    return model


def _resolve_inputs(model, flags: Dict[str, str], kind: Optional[str]) -> List[Dict[str, Any]]:
    """Desc entries for the graph inputs after --input_shape / --input_fp16_nodes / --input_format."""
    shapes = _parse_shapes(flags.get("input_shape", ""))
    graph_inputs = _graph_inputs(model)
    names = [i.name for i in graph_inputs]
    for name in shapes:
        if name not in names:
            raise AtcError(f"E10016: Input shape name [{name}] is not an input of the model; inputs: {names}.")
    fp16 = [n for n in flags.get("input_fp16_nodes", "").split(";") if n]
    for name in fp16:
        if name not in names:
            raise AtcError(f"E10016: --input_fp16_nodes names [{name}], which is not an input; inputs: {names}.")
    fmt_name = flags.get("input_format", "NCHW").upper()
    if fmt_name not in dtypes.FORMAT_BY_NAME:
        raise AtcError(f"E10001: Value [{fmt_name}] for parameter [--input_format] is invalid: NCHW, NHWC, ND, "
                       f"NCDHW or NDHWC.")
    entries = []
    for info in graph_inputs:
        onnx_type = dtypes.ONNX_TO_ACL.get(info.type.tensor_type.elem_type)
        if onnx_type is None:
            raise AtcError(f"E19010: input {info.name} has an element type the simulator does not support.")
        dims = shapes.get(info.name, _dims_of(info))
        if any(not isinstance(d, int) for d in dims):
            raise AtcError(f"E10001: input [{info.name}] has dynamic dims {dims} in the ONNX model; "
                           f"fix them with --input_shape=\"{info.name}:1,...\".")
        if -1 in dims and not kind:
            raise AtcError(f"E10001: input [{info.name}] has -1 dims {dims} but neither --dynamic_batch_size, "
                           f"--dynamic_image_size nor --dynamic_dims is given.")
        acl_type = 1 if info.name in fp16 else onnx_type
        if info.name in fp16 and onnx_type != 0:
            raise AtcError(f"E10001: --input_fp16_nodes needs a float32 input; [{info.name}] is "
                           f"{dtypes.type_name(onnx_type)}.")
        fmt = dtypes.FORMAT_BY_NAME[fmt_name] if len(dims) == (5 if fmt_name in ("NDHWC", "NCDHW") else 4) else 2
        entries.append({"name": info.name, "onnx_name": info.name, "dims": dims, "data_type": acl_type,
                        "onnx_type": onnx_type, "format": fmt})
    _check_dynamic_positions(entries, kind, fmt_name)
    return entries


def _dynamic_positions(entry: Dict[str, Any], kind: str, fmt_name: str) -> List[int]:
    if kind == "batch":
        return [0]
    return [1, 2] if fmt_name == "NHWC" else [2, 3]


def _check_nd(entries: List[Dict[str, Any]], fmt_name: str, gears: List[List[int]]) -> None:
    """--dynamic_dims: ND inputs, -1 anywhere, each gear one value per -1 of all inputs."""
    if fmt_name != "ND":
        raise AtcError("E10001: --dynamic_dims needs --input_format=ND.")
    count = sum(e["dims"].count(-1) for e in entries)
    if not count:
        raise AtcError("E10001: --dynamic_dims needs --input_shape with -1 where a dimension varies, e.g. "
                       "--input_shape=\"x:-1,-1\".")
    if gears and len(gears[0]) != count:
        raise AtcError(f"E10001: each --dynamic_dims gear must give {count} value(s), one per -1 in "
                       f"--input_shape; got {gears[0]}.")


def _nd_gear_dims(entries: List[Dict[str, Any]], gear: List[int]) -> List[List[int]]:
    """Every input's dims for one --dynamic_dims gear (its values fill the -1s in input order)."""
    values = iter(gear)
    return [[next(values) if d == -1 else d for d in e["dims"]] for e in entries]


def _check_dynamic_positions(entries: List[Dict[str, Any]], kind: Optional[str], fmt_name: str) -> None:
    if not kind or kind == "dims":
        return
    dynamic = [e for e in entries if -1 in e["dims"]]
    if not dynamic:
        flag = "--dynamic_batch_size" if kind == "batch" else "--dynamic_image_size"
        raise AtcError(f"E10001: {flag} needs --input_shape with -1 where the dimension varies, "
                       f"e.g. --input_shape=\"data:-1,3,224,224\".")
    for e in dynamic:
        where = [i for i, d in enumerate(e["dims"]) if d == -1]
        if where != _dynamic_positions(e, kind, fmt_name):
            raise AtcError(f"E10001: input [{e['name']}] dims {e['dims']}: with "
                           f"{'dynamic batch only the N' if kind == 'batch' else 'dynamic image size only H and W'}"
                           f" dimension may be -1.")


def _gear_dims(entry: Dict[str, Any], kind: Optional[str], gear: List[int], fmt_name: str) -> List[int]:
    dims = list(entry["dims"])
    if kind == "hw" and -1 in dims and entry.get("aipp"):  # the AIPP image buffer: [n, h*3/2, w, 1] or [n, h, w, c]
        h, w = gear
        return [dims[0], h * 3 // 2 if dims[3] == 1 and entry["aipp"]["cfg"]["input_format_id"] == 1 else h, w,
                dims[3]]
    if kind and -1 in dims:
        for pos, value in zip(_dynamic_positions(entry, kind, fmt_name), gear):
            dims[pos] = value
    return dims


def _take_fp16(model, name: str) -> None:
    """Make graph input ``name`` arrive as fp16 and cast it to fp32 inside the graph, as the NPU does."""
    from onnx import TensorProto, helper
    inner = name + "__fp32"
    for node in model.graph.node:
        node.input[:] = [inner if i == name else i for i in node.input]
    model.graph.node.insert(0, helper.make_node("Cast", [name], [inner], to=TensorProto.FLOAT,
                                                name=name + "__fp16_to_fp32"))


def _rewrite(model, inputs: List[Dict[str, Any]]) -> bytes:
    """The ONNX graph with ATC's input shapes (-1 -> symbolic), fp16 inputs, no stale shape annotations."""
    import onnx
    model = onnx.ModelProto.FromString(model.SerializeToString())
    by_name = {e["onnx_name"]: e for e in inputs}
    for info in model.graph.input:
        entry = by_name.get(info.name)
        if entry is None:
            continue
        if entry["data_type"] == 1 and entry["onnx_type"] == 0:  # --input_fp16_nodes
            _take_fp16(model, info.name)
            info.type.tensor_type.elem_type = onnx.TensorProto.FLOAT16
            entry["onnx_type"] = 1
        shape = info.type.tensor_type.shape
        del shape.dim[:]
        for i, d in enumerate(entry["dims"]):
            dim = shape.dim.add()
            if d == -1:
                dim.dim_param = f"dyn_{i}"
            else:
                dim.dim_value = d
    del model.graph.value_info[:]
    for out in model.graph.output:
        out.type.tensor_type.ClearField("shape")
    return model.SerializeToString()


def _run_gear(session, inputs: List[Dict[str, Any]], gear_dims: List[List[int]]) -> List[List[int]]:
    return [list(o.shape) for o in _run_values(session, inputs, gear_dims)]


def build(flags: Dict[str, str], command: str = "", notes: Optional[List[str]] = None) -> Tuple[str, Dict[str, Any]]:
    """Convert per ``flags``; return (path of the written .om, header); lines for ATC's output go to ``notes``."""
    _check_basic(flags)
    kind, gears = _parse_gears(flags)
    model = _load_onnx(flags["model"], _parse_shapes(flags.get("input_shape", "")), notes)
    fmt_name = flags.get("input_format", "NCHW").upper()
    inputs = _resolve_inputs(model, flags, kind)
    onnx_bytes = _rewrite(model, inputs)
    if flags.get("insert_op_conf"):
        onnx_bytes = _insert_aipp(flags["insert_op_conf"], inputs, kind, onnx_bytes)
    import onnxruntime as ort
    try:
        session = ort.InferenceSession(onnx_bytes, _quiet(ort), providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise AtcError(f"E19010: the graph could not be compiled: {str(exc).splitlines()[0]}") from None
    out_type, per_output = _output_types(flags.get("output_type", ""))
    keys = [",".join(map(str, g)) for g in gears] or ["static"]
    per_gear_inputs, per_gear_outputs = {}, {}
    if kind == "dims":
        _check_nd(inputs, fmt_name, gears)
    for key, gear in zip(keys, gears or [[]]):
        dims = (_nd_gear_dims(inputs, gear) if kind == "dims"
                else [_gear_dims(e, kind, gear, fmt_name) for e in inputs])
        try:
            per_gear_outputs[key] = _run_gear(session, inputs, dims)
        except Exception as exc:
            raise AtcError(f"E19010: the graph does not accept input shape(s) {dims}"
                           f"{' (gear ' + key + ')' if gears else ''}: {str(exc).splitlines()[0]}") from None
        per_gear_inputs[key] = dims
    for i, e in enumerate(inputs):
        e["gear_dims"] = {k: v[i] for k, v in per_gear_inputs.items()}
        e["size"] = max(int(np.prod(d)) for d in e["gear_dims"].values()) * dtypes.itemsize(e["data_type"])
    producers = {o: ascend_ops.original_producer(n) or (n.name, i) for n in model.graph.node
                 for i, o in enumerate(n.output)}
    named = set(producers.values()) | {(o.name, 0) for o in model.graph.output}
    for node, index in per_output:
        if (node, index) not in named:
            raise AtcError(f"E10016: --output_type names output [{node}:{index}], which the graph does not have.")
    outputs = []
    for i, info in enumerate(model.graph.output):
        onnx_type = dtypes.ONNX_TO_ACL[info.type.tensor_type.elem_type]
        gear_dims = {k: v[i] for k, v in per_gear_outputs.items()}
        node, edge = producers.get(info.name, (info.name, 0))
        wanted = per_output.get((node, edge)) or per_output.get((info.name, 0)) or out_type
        acl_type = dtypes.ATC_TYPES[wanted] if wanted and onnx_type in (0, 1) else onnx_type
        biggest = max(gear_dims.values(), key=lambda d: int(np.prod(d)))
        outputs.append({"name": om.output_name(node, edge, info.name), "onnx_name": info.name,
                        "dims": biggest, "gear_dims": gear_dims, "data_type": acl_type, "onnx_type": onnx_type,
                        "format": _model_format(inputs) if len(biggest) == 4 else ACL_FORMAT_ND,
                        "size": int(np.prod(biggest)) * dtypes.itemsize(acl_type)})
    if kind:
        count = len(gears[0]) if kind == "dims" else (1 if kind == "batch" else 2)
        inputs.append({"name": DYNAMIC_INPUT, "onnx_name": None, "dims": [count], "data_type": ACL_INT64,
                       "onnx_type": dtypes.ACL_TO_ONNX[ACL_INT64], "format": ACL_FORMAT_ND,
                       "size": dtypes.itemsize(ACL_INT64) * count, "gear_dims": {}})
    header = {"soc_version": flags["soc_version"], "framework": 5,
              "source_model": os.path.basename(flags["model"]), "atc_command": portable(command),
              "inputs": inputs, "outputs": outputs, "dynamic": {"kind": kind, "gears": gears},
              "weight_size": sum(len(t.raw_data) or _tensor_bytes(t) for t in model.graph.initializer),
              "work_size": _work_size(onnx_bytes, inputs, per_gear_inputs),
              "cost": _cost(onnx_bytes, inputs, per_gear_inputs),
              "recipe": _recipe_for(flags["model"])}
    out_path = flags["output"] if flags["output"].endswith(".om") else flags["output"] + ".om"
    _write_om(flags["output"], out_path, om.dumps(header, onnx_bytes))
    return out_path, header


def _write_om(output: str, out_path: str, data: bytes) -> None:
    """Write the .om; a folder in the way or an unwritable place is ATC's --output failure, never a traceback."""
    try:
        os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
        replace_with(out_path, data)  # never through a link planted at its temporary name
    except OSError as exc:
        raise AtcError(f"E10001: Value [{output}] for parameter [--output] is invalid: {out_path} cannot be "
                       f"written ({exc.strerror or exc}); give a writable path that is not a folder.") from None


def _cost(onnx_bytes: bytes, inputs: List[Dict[str, Any]], per_gear: Dict[str, List[List[int]]]) -> Any:
    """The header's ``cost`` for the simulator's clock (graphcost.py); None when the graph defeats the analysis."""
    feeds = {key: {e["onnx_name"]: d for e, d in zip(inputs, dims) if e["onnx_name"]} for key, dims in per_gear.items()}
    try:
        return graphcost.for_header(onnx_bytes, feeds)
    except Exception:  # the cost is an extra: never a reason for ATC to fail
        return None


def _model_format(inputs: List[Dict[str, Any]]) -> int:
    """The layout of the model's first input as converted: inserted AIPP feeds NHWC bytes, the graph keeps its own."""
    if not inputs:
        return ACL_FORMAT_ND
    return (inputs[0].get("aipp") or {}).get("src_format", inputs[0]["format"])


def _insert_aipp(path: str, inputs: List[Dict[str, Any]], kind: Optional[str], onnx_bytes: bytes) -> bytes:
    """--insert_op_conf: static AIPP compiled into the graph, dynamic AIPP's extra input (toolchain/aipp.py).

    Static AIPP works with --dynamic_batch_size and (without crop or padding) --dynamic_image_size: the
    ops read their sizes from the input at run time.
    """
    from . import aipp
    if not os.path.isfile(path):
        raise AtcError(f"E10001: Value [{path}] for parameter [--insert_op_conf] is invalid: file not found.")
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    try:
        return aipp.apply(onnx_bytes, inputs, text)
    except aipp.AippError as exc:
        raise AtcError(str(exc)) from None


def _tensor_bytes(tensor) -> int:
    from onnx import numpy_helper
    return numpy_helper.to_array(tensor).nbytes


def _work_size(onnx_bytes: bytes, inputs: List[Dict[str, Any]], per_gear: Dict[str, List[List[int]]]) -> int:
    """Activation memory at the largest gear: every intermediate tensor's bytes, measured by one run.

    An upper bound: the real ATC reuses activation memory, so its work size is smaller.
    """
    import onnx
    import onnxruntime as ort
    m = onnx.ModelProto.FromString(onnx_bytes)
    n_outputs = len(m.graph.output)
    known = {o.name for o in m.graph.output} | {i.name for i in m.graph.input}
    for node in m.graph.node:
        for name in node.output:
            if name and name not in known:
                m.graph.output.add().name = name
                known.add(name)
    biggest = max(per_gear.values(), key=lambda dims: sum(int(np.prod(d)) for d in dims))
    try:
        session = ort.InferenceSession(m.SerializeToString(), _quiet(ort), providers=["CPUExecutionProvider"])
        values = _run_values(session, inputs, biggest)
    except Exception:  # some graphs reject extra outputs; the size is informative only
        return 0
    total = sum(v.nbytes for v in values[n_outputs:])
    return (total + 31) // 32 * 32


MAX_PROBE_BYTES = 1 << 30  # inputs of the one run per gear that finds the output shapes (the simulator's cap)


def _run_values(session, inputs: List[Dict[str, Any]], gear_dims: List[List[int]]) -> list:
    """The graph's outputs on zeros of ``gear_dims`` (how the emulator finds output shapes), inputs capped first."""
    need = sum(int(np.prod(d, dtype=object)) * np.dtype(dtypes.numpy_dtype(e["onnx_type"])).itemsize
               for e, d in zip(inputs, gear_dims))
    if need > MAX_PROBE_BYTES:
        raise ValueError(f"its inputs would take {need:,} bytes, over the emulator's {MAX_PROBE_BYTES:,}-byte limit "
                         f"for the run that finds the output shapes (UNCONFIRMED: a board's ATC does not run the "
                         f"graph); use smaller shapes or gears")
    feeds = {e["onnx_name"]: np.zeros(d, dtypes.numpy_dtype(e["onnx_type"])) for e, d in zip(inputs, gear_dims)}
    return session.run(None, feeds)


def _recipe_for(model_path: str) -> Optional[Dict[str, Any]]:
    """The recipe sidecar beside the ONNX (copied into the OM header); a malformed one fails like ATC."""
    from . import recipes
    try:
        return recipes.read_sidecar(model_path)
    except recipes.RecipeError as exc:
        raise AtcError(f"E10001: {exc} Fix or delete it (it is optional).") from None


def run(argv: Sequence[str], out=None, err=None) -> int:
    """The ``atc`` command: print like ATC and return its exit code."""
    import sys
    out, err = out or sys.stdout, err or sys.stderr
    print("ATC start working now, please wait for a moment.", file=out)
    command = "atc " + " ".join(shlex.quote(a) for a in argv)
    try:
        flags = parse_flags(argv)
        notes = no_effect_notes(flags)
        paths = singleop.from_flags(flags, command) if "singleop" in flags else [build(flags, command, notes)[0]]
    except (AtcError, singleop.SingleOpError) as exc:
        print(FAILED, file=err)
        print(str(exc), file=err)
        return 1
    except (OverflowError, RecursionError, MemoryError) as exc:  # a number or nesting no parser above bounded
        print(FAILED, file=err)
        print(f"E19999: the input is too large or too deeply nested to convert ({type(exc).__name__}): check "
              f"the numbers and shapes in the files given to atc.", file=err)
        return 1
    for note in notes:
        print(note, file=out)
    print("ATC run success, welcome to the next use.", file=out)
    for path in paths:
        print(f"[acl-teach] wrote {path}", file=out)
    return 0
