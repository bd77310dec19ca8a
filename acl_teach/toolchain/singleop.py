"""``atc --singleop=op_list.json --output=DIR --soc_version=SOC``: compile single operators for ``acl.op``.

Reads CANN's op list JSON (a list of ``{"op", "name"?, "input_desc": [{"format", "shape", "type",
"is_const"?, "const_value"?}], "output_desc": [...], "attr": [{"name", "type", "value"}]}``), checks
each entry the way GE's single_op_parser.cc does (E10023/E10025/E10026/E10027/E10029/E10030/E10032/
E13006), checks it against the operator's IR (``opdefs``), builds the graph that computes it
(``oplower``), verifies the output descs against what the graph produces, and writes one
``spec.opmodel`` file per operator, named like ATC names them. Nothing is written unless every
operator compiles.

UNCONFIRMED: the E-codes for IR violations (we print E10501 for an unknown op type and E14001 for a
wrong attribute, data type or shape), and accepting an output desc whose dims differ from the
inferred ones when the element count agrees (ArgMaxD's [1] for a scalar result).
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..spec import dtypes, opmodel
from . import oplower
from .files import replace_with
from .opdefs import OPS, REQUIRED, OpDef, Port

BYTES_LIMIT = (1 << 63) - 1     # a tensor's byte size must fit int64
TRIAL_ELEMENTS = 1 << 16        # small enough to trial-run the compiled graph at build time

# GE kDataTypeDict names -> aclDataType; the ones the simulator cannot hold map to None
TYPE_NAMES: Dict[str, Optional[int]] = {
    "bool": 12, "int8": 2, "uint8": 4, "int16": 6, "uint16": 7, "int32": 3, "uint32": 8, "int64": 9,
    "uint64": 10, "float16": 1, "half": 1, "fp16": 1, "float": 0, "float32": 0, "double": 11,
    "complex32": None, "complex64": None, "complex128": None, "uint1": None, "bfloat16": None, "int4": None,
    "hifloat8": None, "hifloat4": None, "float8_e5m2": None, "float8_e4m3fn": None}
# GE kFormatDict names -> aclFormat for the plain layouts; private (fractal/5-D) layouts map to None
FORMAT_NAMES: Dict[str, Optional[int]] = {
    "nchw": 0, "nhwc": 1, "nd": 2, "chwn": 14, "hwcn": 16, "ndhwc": 27, "ncdhw": 30, "cn": 34, "nc": 35,
    **{n: None for n in ("nc1hwc0", "fractal_z", "nc1c0hwpad", "nhwc1c0", "fsr_nchw", "fractal_deconv", "c1hwnc0",
                         "fractal_deconv_transpose", "fractal_deconv_sp_stride_trans", "nc1hwc0_c04",
                         "fractal_z_c04", "deconv_sp_stride8_trans", "nc1khkwhwc0", "bn_weight", "filter_hwck",
                         "lookup_lookups", "lookup_keys", "lookup_value", "lookup_output", "lookup_hits", "md",
                         "c1hwncoc0", "fractal_nz", "dhwcn", "dhwnc", "ndc1hwc0", "fractal_z_3d",
                         "fractal_z_3d_transpose", "fractal_zn_lstm", "fractal_z_g")}}
# TypeUtils::SerialStringToDataType for "data_type" attributes given as strings
DT_NAMES = {"DT_FLOAT": 0, "DT_FLOAT16": 1, "DT_INT8": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 6,
            "DT_UINT16": 7, "DT_UINT32": 8, "DT_INT64": 9, "DT_UINT64": 10, "DT_DOUBLE": 11, "DT_BOOL": 12,
            "DT_STRING": 13, "DT_COMPLEX64": 16, "DT_COMPLEX128": 17, "DT_BF16": 27}


class SingleOpError(Exception):
    """ATC refused the op list; the message is the E-code line."""


@dataclass
class TensorJson:
    """One parsed input_desc/output_desc entry."""

    type_name: str
    format_name: str
    dims: List[int]
    const_value: Optional[list] = None

    @property
    def data_type(self) -> Optional[int]:
        return TYPE_NAMES.get(self.type_name.lower(), -1)

    @property
    def format(self) -> Optional[int]:
        return FORMAT_NAMES.get(self.format_name.lower(), -1)


@dataclass
class OpJson:
    """One parsed op list entry."""

    op: str
    name: str
    inputs: List[TensorJson]
    outputs: List[TensorJson]
    attrs: Dict[str, Tuple[str, Any]] = field(default_factory=dict)


# ---- parsing the JSON like single_op_parser.cc ------------------------------------------------
def _scalar(kind: str, value: Any) -> Any:
    """nlohmann::json's get<T>: numbers convert among themselves (and from bool), bool and string do not."""
    if kind == "bool":
        if not isinstance(value, bool):
            raise TypeError("type must be boolean")
        return value
    if kind == "string":
        if not isinstance(value, str):
            raise TypeError("type must be string")
        return value
    if isinstance(value, (bool, int, float)):
        return int(value) if kind == "int" else float(value)
    raise TypeError("type must be number")


def _attr_value(kind: str, value: Any) -> Any:
    if kind == "data_type":
        return DT_NAMES.get(value, opmodel.GE_DT_UNDEFINED) if isinstance(value, str) else _scalar("int", value)
    if kind == "list_list_int":
        return [[_scalar("int", v) for v in _array(row)] for row in _array(value)]
    if kind.startswith("list_"):
        return [_scalar(kind[5:], v) for v in _array(value)]
    return _scalar(kind, value)


def _array(value: Any) -> list:
    if not isinstance(value, list):
        raise TypeError("type must be array")
    return value


def _tensor(obj: Any) -> TensorJson:
    if not isinstance(obj, dict):
        raise TypeError("a tensor desc must be an object")
    for key in ("shape", "format", "type"):
        if key not in obj:
            raise KeyError(f"key '{key}' not found")
    dims = [_scalar("int", d) for d in _array(obj["shape"])]
    const = obj.get("const_value") if obj.get("is_const") is True else None
    return TensorJson(_scalar("string", obj["type"]), _scalar("string", obj["format"]), dims,
                      _array(const) if const is not None else None)


def _parse_attr(obj: Any) -> Tuple[str, Optional[Tuple[str, Any]]]:
    """(name, (type, canonical value)); value None when the type is unknown (E13006 then E10030)."""
    if not isinstance(obj, dict) or "name" not in obj or "type" not in obj:
        raise KeyError("an attr needs 'name', 'type' and 'value'")
    name, kind = _scalar("string", obj["name"]), _scalar("string", obj["type"])
    if kind not in opmodel.ATTR_TYPES or kind == "list_data_type":
        return name, None
    if "value" not in obj:
        raise KeyError("key 'value' not found")
    return name, (kind, opmodel.canonical_attr(kind, _attr_value(kind, obj["value"])))


def parse_entry(obj: Any) -> Tuple[OpJson, int, List[str]]:
    """(op, compile_flag, names of attributes of an unknown type) from one op list entry."""
    if not isinstance(obj, dict):
        raise TypeError("an op entry must be an object")
    attrs, unknown = {}, []
    op = _scalar("string", obj.get("op", ""))
    for item in _array(obj.get("attr", [])):
        name, value = _parse_attr(item)
        if value is None:
            unknown.append(name)
        else:
            attrs[name] = value
    entry = OpJson(op, _scalar("string", obj.get("name", "")),
                   [_tensor(t) for t in _array(obj.get("input_desc", []))],
                   [_tensor(t) for t in _array(obj.get("output_desc", []))], attrs)
    return entry, _scalar("int", obj.get("compile_flag", 0)), unknown


def _validate(entry: OpJson, unknown: List[str], path: str) -> None:
    """SingleOpParser::Validate: op name, every tensor's type and format, attribute names and values."""
    if not entry.op:
        raise SingleOpError("E10026: The Op name is empty in the file specified by --singleop.")
    for side, tensors in (("input", entry.inputs), ("output", entry.outputs)):
        for index, t in enumerate(tensors):
            if t.data_type == -1 or t.format == -1:
                what = "datatype" if t.data_type == -1 else "format"
                raise SingleOpError(f"E10027: Attribute {what} of {side} tensor {index} for Op {entry.op} is "
                                    f"invalid when --singleop is specified. ({t.type_name!r}, {t.format_name!r})")
    for name in list(entry.attrs) + unknown:
        if not name:
            raise SingleOpError(f"E10029: Attribute name of Op {entry.op} is empty in the file specified by "
                                f"--singleop.")
    if unknown:
        raise SingleOpError(f"E13006: Type of file {unknown[0]} is incorrect. Expected type: a supported type. "
                            f"E10030: There is an invalid value for attribute name {unknown[0]} of Op {entry.op} "
                            f"in the file specified by --singleop. (attr types: "
                            f"{', '.join(opmodel.ATTR_TYPES[:-1])})")


def read_op_list(path: str) -> List[Tuple[int, OpJson]]:
    """[(index, op)] of an op list file, validated; SingleOpError with the E-code otherwise."""
    if not path or not os.path.isfile(path):
        raise SingleOpError(f"E10023: Value {path} for parameter --singleop is invalid. (the file does not exist)")
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError, RecursionError) as exc:  # RecursionError: nesting deeper than json can read
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise SingleOpError(f"E10025: File {os.path.realpath(path)} specified by --singleop is not a valid JSON "
                            f"file. Reason: {reason}.") from None
    if not isinstance(doc, list):
        raise SingleOpError(f"E10032: Failed to parse JSON file {path}. Reason: the op list must be a JSON array "
                            f"of op objects.")
    entries, index = [], 0
    try:
        for obj in doc:
            entry, flag, unknown = parse_entry(obj)
            if flag == 1:
                continue
            _validate(entry, unknown, path)
            entries.append((index, entry))
            index += 1
    except (KeyError, TypeError, ValueError, OverflowError, RecursionError) as exc:  # Infinity, 1e999, deep lists
        raise SingleOpError(f"E10032: Failed to parse JSON file {path}. Reason: op {index}: "
                            f"{(str(exc) or type(exc).__name__).strip(chr(39))[:200]}.") from None
    return entries


# ---- checking against the IR --------------------------------------------------------------------
def _invalid(entry: OpJson, arg: str, reason: str) -> SingleOpError:
    return SingleOpError(f"E14001: Argument {arg} for Op {entry.name or entry.op} with optype {entry.op} is "
                         f"invalid. Reason: {reason}.")


def _ports(entry: OpJson, ir: OpDef) -> List[Port]:
    """The IR port of each given input (dynamic ports repeat; optional ones may be left out)."""
    count = len(entry.inputs)
    if len(entry.outputs) != len(ir.outputs):
        raise SingleOpError(f"E13014: Value {len(entry.outputs)} of parameter output size for Op {entry.op} is "
                            f"invalid. Reason: the IR has {len(ir.outputs)} output(s).")
    if ir.inputs and ir.inputs[0].kind == "dynamic":
        if count < 1:
            raise _invalid(entry, "input_desc", "it needs at least one input tensor")
        return [ir.inputs[0]] * count
    required = sum(p.kind != "optional" for p in ir.inputs)
    if not required <= count <= len(ir.inputs):
        names = ", ".join(p.name + (" (optional)" if p.kind == "optional" else "") for p in ir.inputs)
        raise SingleOpError(f"E13014: Value {count} of parameter input size for Op {entry.op} is invalid. "
                            f"Reason: the IR has the inputs {names}.")
    return list(ir.inputs[:count])


def _type_name(data_type: int) -> str:
    return dtypes.type_name(data_type).replace("ACL_", "").lower()


def _check_types(entry: OpJson, ports: List[Port], ir: OpDef) -> None:
    for t in entry.inputs + entry.outputs:
        if t.data_type is None or t.format is None:
            what = f"data type {t.type_name}" if t.data_type is None else f"format {t.format_name}"
            raise _invalid(entry, "input_desc/output_desc", f"{what} is valid in CANN but the acl-teach simulator "
                           f"cannot hold it (plain layouts and bool/int/uint/float16/32/64 only)")
    for side, tensors, plist in (("input", entry.inputs, ports), ("output", entry.outputs, list(ir.outputs))):
        for i, (t, port) in enumerate(zip(tensors, plist)):
            if t.data_type not in port.types:
                allowed = ", ".join(sorted(_type_name(x) for x in port.types))
                raise _invalid(entry, f"{side} {i} ({port.name})", f"data type {t.type_name} is not supported by "
                               f"{entry.op}; it takes {allowed}")
    data = [t.data_type for t, p in zip(entry.inputs, ports) if p.kind in ("data", "dynamic")]
    if ir.same_type and len(set(data + [entry.outputs[0].data_type])) > 1:
        raise _invalid(entry, "input_desc/output_desc", f"{entry.op} takes and returns one data type, got "
                       f"{', '.join(_type_name(x) for x in data)} -> {_type_name(entry.outputs[0].data_type)}")


def _attrs(entry: OpJson, ir: OpDef) -> Dict[str, Any]:
    """The attribute values the kernel uses: given ones (type-checked) and IR defaults.

    An output-type attribute (``dtype`` of ArgMaxV2/ArgMaxD) that the list leaves out follows the
    output_desc's type: the official vpc_resnet50 sample compiles ArgMaxV2 with an int32 output and no
    dtype, and it builds on a board (UNCONFIRMED how ATC resolves it; this is the reading that accepts it).
    """
    values = {}
    for spec in ir.attrs:
        given = entry.attrs.get(spec.name)
        if given is None and spec.name == "dtype" and spec.kind == "data_type" and entry.outputs:
            values[spec.name] = opmodel.canonical_attr(spec.kind, entry.outputs[0].data_type)
        elif given is None:
            if spec.default is REQUIRED:
                raise _invalid(entry, spec.name, f"the required attribute {spec.name} ({spec.kind}) is missing")
            values[spec.name] = opmodel.canonical_attr(spec.kind, spec.default)
        elif given[0] != spec.kind:
            raise _invalid(entry, spec.name, f"attribute {spec.name} must be of type {spec.kind}, not {given[0]}")
        else:
            values[spec.name] = given[1]
    return values


def _check_dims(entry: OpJson) -> None:
    for t in entry.inputs + entry.outputs:
        if any(d < 0 for d in t.dims):
            raise _invalid(entry, "shape", f"shape {t.dims}: dynamic shapes (-1, -2) and shape ranges are not "
                           f"supported by the acl-teach simulator; give static dims")
        if int(np.prod(t.dims, dtype=object)) * dtypes.itemsize(t.data_type) > BYTES_LIMIT:
            raise _invalid(entry, "shape", f"shape {t.dims} ({t.type_name}) is larger than int64 bytes")


def _const(entry: OpJson, index: int, t: TensorJson) -> Optional[np.ndarray]:
    if t.const_value is None:
        return None
    count = int(np.prod(t.dims, dtype=object))
    try:
        array = np.array(t.const_value, dtype=dtypes.numpy_dtype(t.data_type)).reshape(-1)
    except (TypeError, ValueError, OverflowError):
        raise _invalid(entry, f"input {index} const_value", "the values do not fit the tensor's type") from None
    if array.size != count:
        raise _invalid(entry, f"input {index} const_value", f"{array.size} value(s) for a tensor of {count} element(s)")
    return array.reshape(t.dims)


# ---- building and verifying ----------------------------------------------------------------------
def _graph(entry: OpJson, ports: List[Port], kernel_attrs: Dict[str, Any]):
    """(ModelProto, graph input indices, value checks) for the entry."""
    g = oplower.Graph()
    names, infos, feeds = [], [], []
    for i, (t, port) in enumerate(zip(entry.inputs, ports)):
        const = _const(entry, i, t)
        if const is None:
            names.append(g.input(f"x{i}", t.data_type, t.dims))
            feeds.append(i)
        else:
            names.append(g.const(const))
        values = const.reshape(-1).astype(np.int64).tolist() if const is not None and port.kind == "value" else None
        infos.append(oplower.TensorInfo(t.data_type, list(t.dims), values))
    outs = [oplower.TensorInfo(t.data_type, list(t.dims)) for t in entry.outputs]
    try:
        results = oplower.lower(entry.op, g, names, infos, outs, kernel_attrs)
    except oplower.LowerError as exc:
        raise _invalid(entry, "attr/input", str(exc)) from None
    model = g.model([(r, f"y{i}", t.data_type) for i, (r, t) in enumerate(zip(results, entry.outputs))])
    return model, feeds, g.checks


def _inferred(entry: OpJson, model) -> None:
    """Output types must be what the operator produces; dims may differ only where both are known and
    hold the same number of elements."""
    import onnx
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    except Exception as exc:  # onnx raises several error types for an impossible graph
        raise _invalid(entry, "input_desc/attr", f"the operator rejects these inputs: {_first_line(exc)}") from None
    for i, (info, t) in enumerate(zip(inferred.graph.output, entry.outputs)):
        tt = info.type.tensor_type
        have = dtypes.ONNX_TO_ACL.get(tt.elem_type)
        if have is not None and have != t.data_type:
            raise _invalid(entry, f"output {i}", f"{entry.op} produces {_type_name(have)} here, the output_desc "
                           f"says {t.type_name}")
        if tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim):
            dims = [d.dim_value for d in tt.shape.dim]
            if int(np.prod(dims, dtype=object)) != int(np.prod(t.dims, dtype=object)):
                raise _invalid(entry, f"output {i}", f"{entry.op} produces shape {dims} here, the output_desc says "
                               f"{t.dims}")


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[-1][:300] if text else type(exc).__name__


def _session(entry: OpJson, model_bytes: bytes):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.log_severity_level = 4
    try:
        return ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT reports a missing kernel as a generic failure
        raise _invalid(entry, "input_desc", f"the acl-teach simulator has no kernel for {entry.op} with these types "
                       f"({_first_line(exc)})") from None


def _trial_run(entry: OpJson, session, feeds: List[int], checks: Dict[int, Any], ports: List[Port]) -> None:
    """Run the kernel once on ones when the tensors are small and nothing is value-dependent."""
    if any(ports[i].kind == "value" for i in feeds) or checks:
        return
    if sum(int(np.prod(entry.inputs[i].dims, dtype=object)) for i in feeds) > TRIAL_ELEMENTS:
        return
    data = {f"x{i}": np.ones(entry.inputs[i].dims, dtypes.numpy_dtype(entry.inputs[i].data_type)) for i in feeds}
    try:
        session.run(None, data)
    except Exception as exc:  # the kernel cannot run on these shapes
        raise _invalid(entry, "input_desc/attr", f"the operator cannot run on these shapes: {_first_line(exc)}") \
            from None


def compile_entry(index: int, entry: OpJson, soc: str, source: str, command: str) -> Tuple[str, opmodel.OpModel]:
    """(file name, op model) of one op list entry; SingleOpError says why not."""
    ir = OPS.get(entry.op)
    if ir is None:
        raise SingleOpError(f"E10501: IR for Op {entry.name or entry.op} with optype {entry.op} is not registered. "
                            f"(acl-teach compiles: {', '.join(sorted(OPS))})")
    ports = _ports(entry, ir)
    _check_types(entry, ports, ir)
    _check_dims(entry)
    model, feeds, checks = _graph(entry, ports, _attrs(entry, ir))
    _inferred(entry, model)
    data = model.SerializeToString()
    _trial_run(entry, _session(entry, data), feeds, checks, ports)
    inputs = [opmodel.TensorSpec(t.data_type, t.format, list(t.dims),
                                 None if (c := _const(entry, i, t)) is None else c.tobytes())
              for i, t in enumerate(entry.inputs)]
    outputs = [opmodel.TensorSpec(t.data_type, t.format, list(t.dims)) for t in entry.outputs]
    header = {"soc_version": soc, "atc_command": command, "source": {"op_list": source, "index": index},
              "name": entry.name, "graph_inputs": feeds, "value_checks": {str(k): v for k, v in checks.items()}}
    name = opmodel.file_name(index, entry.op, [(t.data_type, t.format, t.dims) for t in entry.inputs],
                             [(t.data_type, t.format, t.dims) for t in entry.outputs], entry.name)
    return name, opmodel.OpModel(entry.op, inputs, outputs, dict(entry.attrs), header, data)


def build(op_list: str, output: str, soc: str, command: str = "", source: str = "") -> List[str]:
    """Compile every op of ``op_list`` into the folder ``output``; return the written paths.

    ``source``: the op list path to record in the headers (default: ``op_list``'s absolute path).
    """
    source = source or os.path.abspath(op_list)
    compiled = [compile_entry(i, e, soc, source, command) for i, e in read_op_list(op_list)]
    paths, path = [], output
    try:
        os.makedirs(output, exist_ok=True)
        for name, model in compiled:
            path = os.path.join(output, name)
            replace_with(path, opmodel.dumps(model))  # per process temporary, never written through a link
            paths.append(path)
    except OSError as exc:  # a file where the folder goes, a folder at an op model's name, no permission
        raise SingleOpError(f"E10001: Value [{output}] for parameter [--output] is invalid: {path} cannot be "
                            f"written ({exc.strerror or exc}); give a writable folder.") from None
    return paths


def from_flags(flags: Dict[str, str], command: str = "") -> List[str]:
    """The ``--singleop`` mode of atc: needs --output (a folder) and --soc_version."""
    for need in ("output", "soc_version"):
        if not flags.get(need):
            raise SingleOpError(f"E10004: Value for parameter [--{need}] is required.")
    if not flags["soc_version"].startswith("Ascend"):
        raise SingleOpError(f"E10001: Value [{flags['soc_version']}] for parameter [--soc_version] is invalid, "
                            f"e.g. Ascend310, Ascend310P3, Ascend310B4, Ascend910B3.")
    return build(flags["singleop"], flags["output"], flags["soc_version"], command)


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return ""


def _stamp(ops: List[Dict[str, Any]], soc: str) -> str:
    """What built.json holds: the op list, the SoC and the file format."""
    return json.dumps({"ops": ops, "soc": soc, "format_version": opmodel.FORMAT_VERSION}, sort_keys=True)


def is_built(ops: List[Dict[str, Any]], folder: str, soc: str) -> bool:
    """True if ``folder`` already holds ``ops`` compiled for ``soc`` in this format (a read-only cache is enough)."""
    return _read_text(os.path.join(folder, "built.json")) == _stamp(ops, soc)


def build_cached(ops: List[Dict[str, Any]], folder: str, soc: str) -> str:
    """``folder`` holding ``ops`` compiled (once per op list and file format; rebuilt when either changes).

    Built in a staging folder and renamed into place, so a reader never sees half a folder.
    """
    stamp = _stamp(ops, soc)
    if _read_text(os.path.join(folder, "built.json")) == stamp:
        return folder
    staging = f"{folder}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    with open(os.path.join(staging, "op_list.json"), "w", encoding="utf-8") as fh:
        json.dump(ops, fh, indent=1)
    final_list = os.path.join(folder, "op_list.json")
    build(os.path.join(staging, "op_list.json"), staging, soc,
          f"atc --singleop={final_list} --output={folder} --soc_version={soc}", final_list)
    with open(os.path.join(staging, "built.json"), "w", encoding="utf-8") as fh:
        fh.write(stamp)
    shutil.rmtree(folder, ignore_errors=True)
    try:
        os.rename(staging, folder)
    except OSError:  # another process put a finished folder there first
        shutil.rmtree(staging, ignore_errors=True)
    return folder
