"""The simulator's offline-model file (``.om``): a model desc header plus the ONNX graph it runs.

Layout (all integers little-endian), documented in docs/om_format.md::

    16 bytes  magic  b"ACLTEACH-SIM-OM1"  (a real Ascend OM starts with b"IMOD")
     4 bytes  header length H
     H bytes  header, UTF-8 JSON (the desc: inputs, outputs, gears, SoC, recipe, sizes, checksum)
     rest     the ONNX model bytes (length and SHA-256 recorded in the header)
"""
from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

MAGIC = b"ACLTEACH-SIM-OM1"
REAL_OM_MAGIC = b"IMOD"
FORMAT_VERSION = 1


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
    """Serialise an OM."""
    header = dict(header, format_version=FORMAT_VERSION, onnx_size=len(onnx_bytes),
                  onnx_sha256=hashlib.sha256(onnx_bytes).hexdigest())
    blob = json.dumps(header, indent=1, sort_keys=True).encode("utf-8")
    return MAGIC + struct.pack("<I", len(blob)) + blob + onnx_bytes


def looks_like_onnx(data: bytes) -> bool:
    """True when the bytes parse as an ONNX model with a graph (protobuf field 1 first)."""
    if not data or data[0] != 0x08:
        return False
    try:
        import onnx
        return len(onnx.load_model_from_string(data).graph.node) > 0
    except Exception:  # any parse failure simply means "not ONNX"
        return False


def loads(data: bytes, origin: str = "model") -> OfflineModel:
    """Parse and verify an OM, raising OmError with the loader's code and a learner-readable reason.

    Codes (UNCONFIRMED, chosen as the closest ACL codes): 100013 ACL_ERROR_PARSE_MODEL for
    files that are not simulator OMs, 100015 ACL_ERROR_MODEL_SIZE_INVALID for truncated ones,
    100012 ACL_ERROR_DESERIALIZE_MODEL for corrupted ones.
    """
    if data[:4] == REAL_OM_MAGIC:
        raise OmError(100013, f"{origin} is a real Ascend OM built by CANN's ATC. The simulator cannot run "
                      f"NPU machine code; build a simulator OM from the ONNX model with "
                      f"`acl-teach atc --model=X.onnx --framework=5 --output=X --soc_version=Ascend310`.")
    if data[:len(MAGIC)] != MAGIC:
        if looks_like_onnx(data):
            raise OmError(100013, f"{origin} is an ONNX model, not an offline model. Convert it first, as on "
                          f"real hardware: `acl-teach atc --model={origin} --framework=5 --output=NAME "
                          f"--soc_version=Ascend310`, then load NAME.om.")
        raise OmError(100013, f"{origin} is not an offline model (no OM header). Load a .om file built by "
                      f"`acl-teach atc`.")
    if len(data) < len(MAGIC) + 4:
        raise OmError(100015, f"{origin} is truncated ({len(data)} bytes): rebuild it with acl-teach atc.")
    (size,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    if start + size > len(data):
        raise OmError(100015, f"{origin} is truncated inside its header: rebuild it with acl-teach atc.")
    try:
        header = json.loads(data[start:start + size].decode("utf-8"))
        onnx_size = int(header["onnx_size"])
        checksum = header["onnx_sha256"]
        header["inputs"], header["outputs"]  # noqa: B018  (required keys)
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise OmError(100012, f"{origin} has a corrupted header: rebuild it with acl-teach atc.") from None
    body = data[start + size:]
    if len(body) < onnx_size:
        raise OmError(100015, f"{origin} is truncated: {len(body)} of {onnx_size} graph bytes present. "
                      f"Copy the file again or rebuild it with acl-teach atc.")
    body = body[:onnx_size]
    if hashlib.sha256(body).hexdigest() != checksum:
        raise OmError(100012, f"{origin} is corrupted (graph checksum mismatch): rebuild it with acl-teach atc.")
    return OfflineModel(header, body)


def read(path: str) -> OfflineModel:
    """Read and verify an OM file (145002 when the path cannot be read, as GE reports)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise OmError(145002, f"model file {path!r} does not exist.") from None
    except (IsADirectoryError, PermissionError, OSError) as exc:
        raise OmError(145002, f"model file {path!r} cannot be read ({exc.strerror or exc}).") from None
    return loads(data, path)


def output_name(node_name: Optional[str], edge: int, tensor: str) -> str:
    """The desc name of an ONNX output, following the documented 'op:edge:outputname' rule."""
    return f"{node_name or tensor}:{edge}:{tensor}"
