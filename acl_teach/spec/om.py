"""The simulator's offline-model file (``.om``): a model desc header plus the ONNX graph it runs.

Layout of format 2 (all integers little-endian), documented in docs/om_format.md::

    16 bytes  magic  b"ACLTEACH-SIM-OM2"  (a real Ascend OM starts with b"IMOD")
     4 bytes  header length H
    32 bytes  SHA-256 of the 4 length bytes and the H header bytes (the header checksum)
     H bytes  header, UTF-8 JSON (the desc: inputs, outputs, gears, SoC, recipe, sizes, graph checksum)
     rest     the ONNX model bytes (length and SHA-256 recorded in the header)

Format 1 (magic ``ACLTEACH-SIM-OM1``, no header checksum) is still read, so OMs built by earlier
versions keep loading; every field of either format is checked for type, range and consistency
before anything is allocated, so a damaged file fails its load with a code and never with a
Python exception later.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import struct
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import constants as C
from . import dtypes
from .aipp import DYNAMIC_DATA_NAME as A_DYNAMIC_DATA

MAGIC = b"ACLTEACH-SIM-OM2"
MAGIC_V1 = b"ACLTEACH-SIM-OM1"
REAL_OM_MAGIC = b"IMOD"
FORMAT_VERSION = 2
MAX_FILE_BYTES = 4 << 30  # the simulator reads at most this much (its OMs are far smaller); UNCONFIRMED limit
MAX_BYTES = 1 << 40       # largest size, work or weight size a header may state
MAX_DIM = 1 << 31
MAX_IO = 1024
_HEX64 = re.compile(r"[0-9a-f]{64}")
_PREFIX = len(MAGIC) + 4


class OmError(Exception):
    """A model file that cannot be loaded; ``code`` is the aclError the loader returns."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class OfflineModel:
    """A parsed simulator OM: the header (desc) and the ONNX bytes."""

    header: Dict[str, Any]
    onnx_bytes: bytes

    @property
    def inputs(self) -> List[Dict[str, Any]]:
        return self.header["inputs"]

    @property
    def outputs(self) -> List[Dict[str, Any]]:
        return self.header["outputs"]

    @property
    def dynamic(self) -> Dict[str, Any]:
        return self.header.get("dynamic") or {"kind": None, "gears": []}


def dumps(header: Dict[str, Any], onnx_bytes: bytes) -> bytes:
    """Serialise an OM (format 2: the header is covered by its own checksum)."""
    header = dict(header, format_version=FORMAT_VERSION, onnx_size=len(onnx_bytes),
                  onnx_sha256=hashlib.sha256(onnx_bytes).hexdigest())
    blob = json.dumps(header, indent=1, sort_keys=True).encode("utf-8")
    length = struct.pack("<I", len(blob))
    return MAGIC + length + hashlib.sha256(length + blob).digest() + blob + onnx_bytes


def looks_like_onnx(data: bytes) -> bool:
    """True when the bytes parse as an ONNX model with a graph (protobuf field 1 first)."""
    if not data or data[0] != 0x08:
        return False
    try:
        import onnx
        return len(onnx.load_model_from_string(data).graph.node) > 0
    except Exception:  # any parse failure simply means "not ONNX"
        return False


def _not_an_om(data: bytes, origin: str) -> OmError:
    """The 100013 for bytes that are not a simulator OM, saying what they are instead."""
    if data[:4] == REAL_OM_MAGIC:
        return OmError(100013, f"{origin} is a real Ascend OM built by CANN's ATC. The simulator cannot run "
                       f"NPU machine code; build a simulator OM from the ONNX model with "
                       f"`acl-teach atc --model=X.onnx --framework=5 --output=X --soc_version=Ascend310`.")
    if looks_like_onnx(data):
        return OmError(100013, f"{origin} is an ONNX model, not an offline model. Convert it first, as on "
                       f"real hardware: `acl-teach atc --model={origin} --framework=5 --output=NAME "
                       f"--soc_version=Ascend310`, then load NAME.om.")
    return OmError(100013, f"{origin} is not an offline model (no OM header). Load a .om file built by "
                   f"`acl-teach atc`.")


def _header_bytes(data: bytes, origin: str, version: int) -> Tuple[bytes, int]:
    """(header bytes, offset of the graph); 100015 when cut short, 100012 when the header checksum fails."""
    truncated = OmError(100015, f"{origin} is truncated inside its header: copy it again or rebuild it with "
                        f"acl-teach atc.")
    if len(data) < _PREFIX:
        raise truncated
    (size,) = struct.unpack_from("<I", data, len(MAGIC))
    start = _PREFIX + (32 if version == 2 else 0)
    if start + size > len(data):
        raise truncated
    blob = data[start:start + size]
    if version == 2 and hashlib.sha256(data[len(MAGIC):_PREFIX] + blob).digest() != data[_PREFIX:start]:
        raise OmError(100012, f"{origin} is corrupted (header checksum mismatch): copy it again or rebuild it "
                      f"with acl-teach atc.")
    return blob, start + size


def loads(data: bytes, origin: str = "model") -> OfflineModel:
    """Parse and verify an OM, raising OmError with the loader's code and a learner-readable reason.

    Codes (UNCONFIRMED, chosen as the closest ACL codes): 100013 ACL_ERROR_PARSE_MODEL for
    files that are not simulator OMs, 100015 ACL_ERROR_MODEL_SIZE_INVALID for truncated ones,
    100012 ACL_ERROR_DESERIALIZE_MODEL for corrupted ones (checksums, or a header field of the
    wrong type, out of range or inconsistent with the others).
    """
    magic = bytes(data[:len(MAGIC)])
    version = {MAGIC: 2, MAGIC_V1: 1}.get(magic)
    if version is None:
        raise _not_an_om(data, origin)
    blob, body_start = _header_bytes(data, origin, version)
    try:
        header = json.loads(blob.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise OmError(100012, f"{origin} has a corrupted header: rebuild it with acl-teach atc.") from None
    why = header_problem(header, version)
    if why:
        raise OmError(100012, f"{origin} has a corrupted header ({why}): rebuild it with acl-teach atc.")
    body = data[body_start:]
    if len(body) < header["onnx_size"]:
        raise OmError(100015, f"{origin} is truncated: {len(body)} of {header['onnx_size']} graph bytes present. "
                      f"Copy the file again or rebuild it with acl-teach atc.")
    body = bytes(body[:header["onnx_size"]])
    if hashlib.sha256(body).hexdigest() != header["onnx_sha256"]:
        raise OmError(100012, f"{origin} is corrupted (graph checksum mismatch): rebuild it with acl-teach atc.")
    return OfflineModel(header, body)


def read(path: str) -> OfflineModel:
    """Read and verify an OM file: a regular file, read in one bounded read.

    Like GE's ModelParserBase::LoadFromFile (hicann/ge base/common/helper/model_parser_base.cc),
    whose GetFileLength (base/common/util.cc) takes the size from the file system and rejects 0:
    a missing or unreadable path, a directory, a FIFO, a device such as /dev/zero, or an empty
    file is 145002 ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID. Files over MAX_FILE_BYTES are refused
    with the same code (the simulator's limit, UNCONFIRMED).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise OmError(145002, f"model file {path!r} does not exist.") from None
    except (OSError, ValueError) as exc:
        raise OmError(145002, f"model file {path!r} cannot be read ({getattr(exc, 'strerror', None) or exc}).") \
            from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OmError(145002, f"model file {path!r} is not a regular file (a directory, pipe or device).")
        if not 0 < info.st_size <= MAX_FILE_BYTES:
            raise OmError(145002, f"model file {path!r} has size {info.st_size}; a model file has 1 to "
                          f"{MAX_FILE_BYTES} bytes.")
        data = _read_exactly(fd, info.st_size)
    except OSError as exc:
        raise OmError(145002, f"model file {path!r} cannot be read ({exc.strerror or exc}).") from None
    finally:
        os.close(fd)
    return loads(data, path)


def _read_exactly(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes from ``fd`` (fewer if the file shrank meanwhile; never more)."""
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 64 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def output_name(node_name: Optional[str], edge: int, tensor: str) -> str:
    """The desc name of an ONNX output, following the documented 'op:edge:outputname' rule."""
    return f"{node_name or tensor}:{edge}:{tensor}"


# -- header validation ----------------------------------------------------------------------------
def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _int_list(value: Any, low: int, high: int, max_len: int = C.ACL_MAX_DIM_CNT) -> bool:
    return isinstance(value, list) and len(value) <= max_len and all(_is_int(v, low, high) for v in value)


def _gear_key(gear: Sequence[int]) -> str:
    return ",".join(map(str, gear))


def gear_width(dyn: Dict[str, Any]) -> int:
    """Values per gear: 1 (batch), 2 (hw), one per -1 dim of all inputs (dims, --dynamic_dims); -1 if unknown."""
    kind, gears = dyn.get("kind"), dyn.get("gears")
    if kind == "dims":
        ok = isinstance(gears, list) and gears and isinstance(gears[0], list) and 1 <= len(gears[0]) <= C.ACL_MAX_DIM_CNT
        return len(gears[0]) if ok else -1
    return {None: 0, "batch": 1, "hw": 2}.get(kind, -1)


def _dynamic_problem(dyn: Any) -> Optional[str]:
    """Why the ``dynamic`` field is malformed, or None."""
    if not isinstance(dyn, dict) or set(dyn) != {"kind", "gears"}:
        return "dynamic must be {kind, gears}"
    kind, gears = dyn["kind"], dyn["gears"]
    width = gear_width(dyn) if kind is None or isinstance(kind, str) else -1
    if width < 0:
        return f"dynamic kind {kind!r} is not null, 'batch', 'hw' or 'dims'"
    if not isinstance(gears, list) or len(gears) > C.ACL_MAX_BATCH_NUM or (width == 0) != (not gears):
        return "dynamic gears do not fit the kind"
    if any(not _int_list(g, 1, MAX_DIM) or len(g) != width for g in gears):
        return "a dynamic gear is not a list of positive ints of the right length"
    if len({_gear_key(g) for g in gears}) != len(gears):
        return "a dynamic gear is listed twice"
    return None


def _tensor_problem(entry: Any, keys: List[str], what: str, is_output: bool) -> Optional[str]:
    """Why one input/output entry is malformed or disagrees with its own sizes, or None.

    Input dims hold -1 where a gear decides; output dims are those of the largest gear.
    """
    need = {"name", "onnx_name", "dims", "gear_dims", "data_type", "onnx_type", "format", "size"}
    if not isinstance(entry, dict) or not need <= set(entry):
        return f"{what} lacks fields"
    if not isinstance(entry["name"], str) or not entry["name"] or not isinstance(entry["onnx_name"], str):
        return f"{what} has no usable name"
    if not _is_int(entry["data_type"], -1, 1 << 16) or not _is_int(entry["onnx_type"], -1, 1 << 16) or \
            entry["data_type"] not in dtypes.ACL_TYPES or entry["onnx_type"] not in dtypes.ACL_TYPES:
        return f"{what} has an unknown data type"
    if not _is_int(entry["format"], -1, 1 << 16) or entry["format"] not in C.FORMAT_NAMES:
        return f"{what} has an unknown format"
    dims, gear_dims = entry["dims"], entry["gear_dims"]
    if not _int_list(dims, -1, MAX_DIM) or not isinstance(gear_dims, dict) or sorted(gear_dims) != sorted(keys):
        return f"{what} has malformed dims or gears"
    for shape in gear_dims.values():
        if not _int_list(shape, 0, MAX_DIM) or len(shape) != len(dims) or \
                (not is_output and any(d != -1 and d != s for d, s in zip(dims, shape))):
            return f"{what} has gear dims that contradict its dims"
    most = max(math.prod(shape) for shape in gear_dims.values())
    if is_output and (dims not in list(gear_dims.values()) or math.prod(dims) != most):
        return f"{what} dims are not its largest gear's"
    biggest = most * dtypes.itemsize(entry["data_type"])
    if not _is_int(entry["size"], 0, MAX_BYTES) or entry["size"] != biggest:
        return f"{what} states size {entry['size']!r}, its dims make {biggest}"
    return None


_AIPP_COMMON = {"type": int, "cfg": dict, "dims": list, "src_dims": list, "src_size": int, "src_format": int,
                "src_data_type": int}
_AIPP_DYNAMIC = {"feed": str, "feed_type": int, "model_hw": list, "channels": int, "nhwc": bool}
_STATIC_LISTS = {"matrix": 9, "input_bias": 3, "output_bias": 3}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _static_cfg_problem(cfg: Dict[str, Any]) -> Optional[str]:
    """Why a static AIPP cfg lacks what get_first_aipp_info reports, or None."""
    if not _is_int(cfg.get("input_format_id"), 1, 4):
        return "input_format_id is not 1..4"
    for key, length in _STATIC_LISTS.items():
        if not _int_list(cfg.get(key), -(1 << 16), 1 << 16, length) or len(cfg[key]) != length:
            return f"{key} is not {length} ints"
    ints = ("src_image_size_w", "src_image_size_h", "load_start_pos_w", "load_start_pos_h", "crop_size_w",
            "crop_size_h", "left_padding_size", "right_padding_size", "top_padding_size", "bottom_padding_size",
            *(f"mean_chn_{i}" for i in range(4)))
    bad = [k for k in ints if not _is_int(cfg.get(k), -(1 << 16), 1 << 16)]
    bad += [k for k in ("csc_switch", "rbuv_swap_switch", "ax_swap_switch", "crop", "padding")
            if not isinstance(cfg.get(k), bool)]
    bad += [f"{k}_{i}" for k in ("min_chn", "var_reci_chn") for i in range(4) if not _number(cfg.get(f"{k}_{i}"))]
    return f"{bad[0]} is missing or of the wrong type" if bad else None


def _aipp_problem(entry: Dict[str, Any]) -> Optional[str]:
    """Why an input's ``aipp`` record (static 1, data with dynamic AIPP 2, its parameter input 3) is malformed."""
    aipp = entry.get("aipp")
    if aipp is None:
        return None
    if not isinstance(aipp, dict):
        return "aipp is not an object"
    need = dict(_AIPP_COMMON, **(_AIPP_DYNAMIC if aipp.get("type") == 2 else {}))
    for key, kind in need.items():
        value = aipp.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"aipp {key} is missing or not a {kind.__name__}"
    if aipp["type"] not in (1, 2, 3):
        return f"aipp type {aipp['type']} is not 1, 2 or 3"
    if not _int_list(aipp["dims"], -1, MAX_DIM) or not _int_list(aipp["src_dims"], -1, MAX_DIM) or \
            not _is_int(aipp["src_size"], 0, MAX_BYTES) or aipp["src_format"] not in C.FORMAT_NAMES or \
            aipp["src_data_type"] not in dtypes.ACL_TYPES:
        return "aipp dims, source dims, size, format or data type is out of range"
    if aipp["type"] == 1:
        return _static_cfg_problem(aipp["cfg"])
    if not _is_int(aipp["cfg"].get("max_src_image_size"), 1, MAX_BYTES):
        return "aipp max_src_image_size is out of range"
    if aipp["type"] == 3:
        return None if entry["name"] == A_DYNAMIC_DATA else f"an aipp type-3 input is not {A_DYNAMIC_DATA}"
    if len(aipp["src_dims"]) != 4 or not _is_int(aipp["src_dims"][0], 1, 127) or \
            not _int_list(aipp["model_hw"], 1, 4096, 2) or len(aipp["model_hw"]) != 2 or \
            not _is_int(aipp["channels"], 1, 4) or aipp["feed_type"] not in dtypes.ACL_TYPES:
        return "dynamic aipp source dims, model size, channels or feed type is out of range"
    return None


def _aipp_links_problem(inputs: List[Any]) -> Optional[str]:
    """Dynamic AIPP comes as one data input (type 2) and its one ascend_dynamic_aipp_data input (type 3)."""
    kinds = [(e.get("aipp") or {}).get("type") for e in inputs]
    if kinds.count(2) != kinds.count(3) or kinds.count(2) > 1:
        return "dynamic aipp inputs do not come as one data input and its parameter input"
    return None


def _shape_input_problem(entry: Any, count: int) -> Optional[str]:
    """Why the hidden ascend_mbatch_shape_data input of a dynamic model (``count`` int64 values) is malformed."""
    expect = {"name": C.ACL_DYNAMIC_TENSOR_NAME, "onnx_name": None, "data_type": C.ACL_INT64,
              "format": C.ACL_FORMAT_ND, "size": 8 * count, "gear_dims": {}}
    good = isinstance(entry, dict) and all(type(entry.get(k, ...)) is type(v) and entry[k] == v
                                           for k, v in expect.items()) and _is_int(entry.get("onnx_type"), 0, 64)
    if not good or not _int_list(entry.get("dims"), count, count) or len(entry["dims"]) != 1:
        return f"the {C.ACL_DYNAMIC_TENSOR_NAME} input is malformed"
    return None


def _io_problem(header: Dict[str, Any]) -> Optional[str]:
    """Why the inputs/outputs lists are malformed or disagree with the gears, or None."""
    kind, gears = header["dynamic"]["kind"], header["dynamic"]["gears"]
    keys = [_gear_key(g) for g in gears] or ["static"]
    inputs, outputs = header["inputs"], header["outputs"]
    if not isinstance(inputs, list) or not isinstance(outputs, list) or not outputs or \
            len(inputs) > MAX_IO or len(outputs) > MAX_IO:
        return "inputs/outputs are not lists of tensors"
    plain = inputs[:-1] if kind else inputs
    why = _shape_input_problem(inputs[-1] if inputs else None, gear_width(header["dynamic"])) if kind else None
    if why:
        return why
    for i, entry in enumerate(plain):
        why = _tensor_problem(entry, keys, f"input #{i}", False) or _aipp_problem(entry)
        if why:
            return why if why.startswith("input") else f"input #{i}: {why}"
    why = _aipp_links_problem(plain)
    if why:
        return why
    for i, entry in enumerate(outputs):
        why = _tensor_problem(entry, keys, f"output #{i}", True)
        if why:
            return why
    names = [e["name"] for e in inputs]
    if len(set(names)) != len(names) or C.ACL_DYNAMIC_TENSOR_NAME in names[:len(plain)]:
        return "input names repeat"
    return None


def header_problem(header: Any, version: int = FORMAT_VERSION) -> Optional[str]:
    """Why a parsed header cannot describe a loadable model (type, range or consistency), or None."""
    if not isinstance(header, dict):
        return "the header is not an object"
    required = {"format_version": int, "onnx_size": int, "onnx_sha256": str, "inputs": list, "outputs": list,
                "dynamic": dict, "work_size": int, "weight_size": int, "soc_version": str}
    for key, kind in required.items():
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            return f"{key} is missing or not a {kind.__name__}"
    if header["format_version"] != version:
        return f"format_version {header['format_version']} does not match the file's magic (format {version})"
    if not _HEX64.fullmatch(header["onnx_sha256"]):
        return "onnx_sha256 is not a SHA-256"
    for key in ("onnx_size", "work_size", "weight_size"):
        if not _is_int(header[key], 0, MAX_BYTES):
            return f"{key} {header[key]} is out of range"
    if header.get("recipe") is not None and not isinstance(header["recipe"], dict):
        return "recipe is not an object"
    return _dynamic_problem(header["dynamic"]) or _io_problem(header)


_ORT_TYPES = {"float32": "tensor(float)", "float64": "tensor(double)"}


def _ort_type(acl_type: int) -> str:
    name = dtypes.numpy_dtype(acl_type).name
    return _ORT_TYPES.get(name, f"tensor({name})")


def graph_mismatch(model: OfflineModel, graph_inputs: Sequence[Tuple[str, Sequence[Any], str]],
                   graph_outputs: Sequence[Tuple[str, Sequence[Any], str]]) -> Optional[str]:
    """Why the header does not describe the graph (names, order, element types, fixed dims), or None.

    ``graph_*`` are (name, shape, type) as ONNX Runtime reports them: shape entries are ints for
    fixed dims, anything else for free ones; type is e.g. 'tensor(float)'.
    """
    plain = [e for e in model.inputs if e["onnx_name"] is not None]
    if [e["onnx_name"] for e in plain] != [g[0] for g in graph_inputs]:
        return "its inputs are not the graph's inputs"
    if [e["onnx_name"] for e in model.outputs] != [g[0] for g in graph_outputs]:
        return "its outputs are not the graph's outputs"
    for entry, (name, shape, kind) in zip(plain, graph_inputs):
        if _ort_type(entry["onnx_type"]) != kind:
            return f"input {name} is {kind} in the graph"
        for dims in entry["gear_dims"].values():
            if len(dims) != len(shape) or any(isinstance(s, int) and s != d for s, d in zip(shape, dims)):
                return f"input {name} has shape {list(shape)} in the graph, not {dims}"
    for entry, (name, _, kind) in zip(model.outputs, graph_outputs):
        if _ort_type(entry["onnx_type"]) != kind:
            return f"output {name} is {kind} in the graph"
    return None
