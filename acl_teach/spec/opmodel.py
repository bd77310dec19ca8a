"""The simulator's single-operator model file: what ``acl-teach atc --singleop`` writes and ``acl.op`` loads.

One file per compiled operator, like the real ATC (whose single-op ``.om`` files start with
``IMOD`` and hold NPU kernels). Layout (integers little-endian), documented in
docs/op_model_format.md::

    16 bytes  magic  b"ACLTEACH-SIM-OP1"
     4 bytes  header length H
     H bytes  header, UTF-8 JSON: op type, input/output tensor specs, attributes (typed), how it was built
     rest     the ONNX graph that computes the operator (length and SHA-256 in the header)

The header holds exactly what the runtime matches an ``acl.op.execute_v2`` call against (CANN's
AclOpMap: op type, each input/output's data type, format, dims and const data, and the attribute
map with types and values), so both sides use the helpers here to describe a call the same way.
"""
from __future__ import annotations

import hashlib
import json
import re
import struct
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

MAGIC = b"ACLTEACH-SIM-OP1"
REAL_OM_MAGIC = b"IMOD"
FORMAT_VERSION = 1
SUFFIX = ".om"
MAX_FILE_NAME = 128          # ATC trims generated names to 128 characters (single_op_parser.cc kMaxFileNameLen)
DIR_MAX_DEPTH = 3            # aclopSetModelDir scans the folder and two levels below (OM_DIR_MAX_DEPTH)
GE_DT_UNDEFINED = 28         # ge::DT_UNDEFINED, what set_attr_data_type stores for ACL_DT_UNDEFINED (-1)

# attribute types of the op list JSON ("type" of an "attr" entry), plus list_data_type which only
# acl.op.set_attr_list_data_type can produce (the JSON parser has no such type)
ATTR_TYPES = ("bool", "int", "float", "string", "list_bool", "list_int", "list_float", "list_string",
              "list_list_int", "data_type", "list_data_type")

TensorKey = Tuple[int, int, Tuple[int, ...], bool, bytes]
OpKey = Tuple[str, Tuple[TensorKey, ...], Tuple[TensorKey, ...], Tuple[Tuple[str, str, Any], ...]]


class OpModelError(Exception):
    """A file in the model folder that is not a usable simulator op model (the loader skips it)."""


def _f32(value: float) -> float:
    """The float a C ``float`` holds (attributes are float32 in CANN)."""
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def canonical_attr(kind: str, value: Any) -> Any:
    """An attribute value in the one form both ATC and the runtime compare (hashable, float32-rounded)."""
    if kind == "bool":
        return bool(value)
    if kind in ("int", "data_type"):
        return int(value)
    if kind == "float":
        return _f32(value)
    if kind == "string":
        return str(value)
    if kind == "list_bool":
        return tuple(bool(v) for v in value)
    if kind in ("list_int", "list_data_type"):
        return tuple(int(v) for v in value)
    if kind == "list_float":
        return tuple(_f32(v) for v in value)
    if kind == "list_string":
        return tuple(str(v) for v in value)
    if kind == "list_list_int":
        return tuple(tuple(int(v) for v in row) for row in value)
    raise ValueError(f"unknown attribute type {kind!r}")


def tensor_key(data_type: int, fmt: int, dims: Sequence[int], const: Optional[bytes]) -> TensorKey:
    """How a tensor desc takes part in matching: type, format, dims, const flag and const bytes."""
    return int(data_type), int(fmt), tuple(int(d) for d in dims), const is not None, const or b""


def op_key(op: str, inputs: Sequence[TensorKey], outputs: Sequence[TensorKey],
           attrs: Dict[str, Tuple[str, Any]]) -> OpKey:
    """The identity of a compiled operator: what execute_v2's arguments must reproduce exactly."""
    return op, tuple(inputs), tuple(outputs), tuple(sorted((n, k, v) for n, (k, v) in attrs.items()))


@dataclass
class TensorSpec:
    """One input or output of a compiled operator."""

    data_type: int
    format: int
    dims: List[int]
    const: Optional[bytes] = None  # the const data, for inputs compiled with "is_const": true

    def key(self) -> TensorKey:
        return tensor_key(self.data_type, self.format, self.dims, self.const)

    def to_json(self) -> Dict[str, Any]:
        return {"data_type": self.data_type, "format": self.format, "dims": list(self.dims),
                "const_hex": None if self.const is None else self.const.hex()}

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "TensorSpec":
        const = obj.get("const_hex")
        return cls(int(obj["data_type"]), int(obj["format"]), [int(d) for d in obj["dims"]],
                   None if const is None else bytes.fromhex(const))


@dataclass
class OpModel:
    """A parsed op model: header fields and the ONNX graph."""

    op: str
    inputs: List[TensorSpec]
    outputs: List[TensorSpec]
    attrs: Dict[str, Tuple[str, Any]]
    header: Dict[str, Any]
    onnx_bytes: bytes
    path: str = ""

    def key(self) -> OpKey:
        return op_key(self.op, [t.key() for t in self.inputs], [t.key() for t in self.outputs], self.attrs)

    @property
    def graph_inputs(self) -> List[int]:
        """Indices of the op inputs the graph takes (const inputs are baked in)."""
        return list(self.header["graph_inputs"])

    @property
    def checks(self) -> Dict[int, List[List[int]]]:
        """Value lists some non-const inputs must hold at run time (the kernel was specialised for them)."""
        return {int(k): list(v) for k, v in (self.header.get("value_checks") or {}).items()}

    @property
    def digest(self) -> str:
        return self.header["onnx_sha256"]


def _attrs_to_json(attrs: Dict[str, Tuple[str, Any]]) -> List[Dict[str, Any]]:
    return [{"name": n, "type": k, "value": v} for n, (k, v) in sorted(attrs.items())]


def dumps(model: OpModel) -> bytes:
    """Serialise an op model (header fields in ``model.header`` are kept, format fields are set)."""
    header = dict(model.header, format_version=FORMAT_VERSION, op=model.op,
                  inputs=[t.to_json() for t in model.inputs], outputs=[t.to_json() for t in model.outputs],
                  attrs=_attrs_to_json(model.attrs), onnx_size=len(model.onnx_bytes),
                  onnx_sha256=hashlib.sha256(model.onnx_bytes).hexdigest())
    blob = json.dumps(header, indent=1, sort_keys=True).encode("utf-8")
    return MAGIC + struct.pack("<I", len(blob)) + blob + model.onnx_bytes


def _parse_header(data: bytes, origin: str) -> Tuple[Dict[str, Any], bytes]:
    if data[:4] == REAL_OM_MAGIC:
        raise OpModelError(f"{origin} is a real Ascend op model (built by CANN's ATC for an NPU); the simulator "
                           f"cannot run NPU kernels")
    if data[:len(MAGIC)] != MAGIC:
        raise OpModelError(f"{origin} is not an op model built by `acl-teach atc --singleop`")
    start = len(MAGIC) + 4
    if len(data) < start:
        raise OpModelError(f"{origin} is truncated")
    (size,) = struct.unpack_from("<I", data, len(MAGIC))
    try:
        header = json.loads(data[start:start + size].decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: a header nested too deeply
        raise OpModelError(f"{origin} has a corrupted header") from None
    return header, data[start + size:]


def loads(data: bytes, origin: str = "op model") -> OpModel:
    """Parse and verify an op model, or raise OpModelError saying why it is skipped."""
    header, body = _parse_header(data, origin)
    try:
        size, checksum = int(header["onnx_size"]), header["onnx_sha256"]
        inputs = [TensorSpec.from_json(t) for t in header["inputs"]]
        outputs = [TensorSpec.from_json(t) for t in header["outputs"]]
        attrs = {a["name"]: (a["type"], canonical_attr(a["type"], a["value"])) for a in header["attrs"]}
        op = str(header["op"])
        header["graph_inputs"]  # noqa: B018  (required key)
    except (KeyError, TypeError, ValueError):
        raise OpModelError(f"{origin} has a corrupted header") from None
    body = body[:size]
    if len(body) != size or hashlib.sha256(body).hexdigest() != checksum:
        raise OpModelError(f"{origin} is truncated or corrupted (graph checksum mismatch)")
    return OpModel(op, inputs, outputs, attrs, header, body, origin)


def read(path: str) -> OpModel:
    """Read and verify an op model file (OSError when it cannot be read)."""
    with open(path, "rb") as fh:
        return loads(fh.read(), path)


_VALID_NAME = re.compile(r"[a-zA-Z0-9._-]+")


def file_name(index: int, op: str, inputs: Sequence[Tuple[int, int, Sequence[int]]],
              outputs: Sequence[Tuple[int, int, Sequence[int]]], name: str = "") -> str:
    """ATC's file name for op ``index`` of an op list: the JSON "name" when valid, else
    ``{index}_{op}`` then ``_{type}_{format}_{dims...}`` per input and output (enum numbers), trimmed
    to 128 characters, plus ``.om`` (GE single_op_parser.cc GenerateFileName)."""
    if name[:MAX_FILE_NAME] not in ("", ".", "..") and _VALID_NAME.fullmatch(name[:MAX_FILE_NAME]):
        return name[:MAX_FILE_NAME] + SUFFIX
    parts = [f"{index}_{op}"]
    for data_type, fmt, dims in list(inputs) + list(outputs):
        parts.append(f"_{data_type}_{fmt}" + "".join(f"_{d}" for d in dims))
    return "".join(parts)[:MAX_FILE_NAME] + SUFFIX
