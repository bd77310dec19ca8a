"""``acl.mdl`` data dump: init_dump, set_dump(config.json), finalize_dump, and the dump callback.

Order and codes from the runtime (hicann/runtime src/acl/aclrt_impl/toolchain/dump.cpp, common/json_parser.cpp,
dfx/adump/.../adx_datadump_callback.cpp): every call needs acl.init (100001); init_dump twice is 100002;
set_dump / finalize_dump before init_dump are 100045 (ACL_ERROR_DUMP_NOT_RUN); set_dump() without a path is
100000; a file that cannot be opened is 100003; an empty file sets nothing (0); a config the dump service
rejects is 100009 (ACL_ERROR_INVALID_DUMP_CONFIG). dump_reg_callback with a flag other than 0 is 500001
(ACL_ERROR_FAILURE); the binding keeps one Python callback for the process; dump_unreg_callback returns None.

simulator: a model loaded after set_dump and listed in ``dump_list`` (by ``model_name``: the .om file's name
without ".om"; an empty list dumps every model) writes, at each execute, its graph inputs and/or outputs
(``dump_mode`` "input", "output" or "all"; default "output") — not every layer, since the graph runs as one —
as .npy files under ``<dump_path>/<YYYYmmddHHMMSS>/<device>/<model_name>/<model_id>/<step>/`` named
``<input|output>.<index>.<tensor name with ':' as '_'>.npy``; a board writes its own binary format for every
op. With a callback registered the same tensors go to it instead, one chunk each (file_name, data_buf: a host
pointer valid during the call, buf_len, is_last_chunk 1, offset 0, flag 0). UNCONFIRMED: which config fields
the service checks (here: a "dump" object; dump_path a str when dumping to files; dump_mode one of the three;
dump_list a list of objects), and the empty-list rule.
"""
from __future__ import annotations

import io
import json
import os
import time
from typing import Any, Dict, List, Optional

import numpy as np

from ..core.args import INIT, binding
from ..rt.memory import space
from .model import models
from ..core.state import fail, state
from ...spec.safe_files import make_dirs, read_regular, replace_with

__all__ = ["init_dump", "set_dump", "finalize_dump", "dump_reg_callback", "dump_unreg_callback"]

MODES = ("input", "output", "all")
INVALID_DUMP_CONFIG = 100009
DUMP_NOT_RUN = 100045
ERROR_FAILURE = 500001


class _DumpState(dict):
    """The process's dump service: init flag, config, callback (acl.finalize ends the service, keeps the callback)."""

    def on_finalize(self, by: str) -> None:
        self.stop()

    def stop(self) -> None:
        """No service, no config, step counts and the folder stamp forgotten (finalize_dump and acl.finalize)."""
        self.update(initialised=False, config=None, steps={}, stamp=None)


def _dump() -> Dict[str, Any]:
    subs = state().subsystems
    if "dump" not in subs:
        subs["dump"] = _DumpState(initialised=False, config=None, before=set(), callback=None, steps={}, stamp=None)
    return subs["dump"]


@binding("acl.mdl.init_dump", needs=INIT)
def init_dump(api):
    """Start the dump service (after acl.init, before the models to dump are loaded)."""
    d = _dump()
    if d["initialised"]:
        return fail(100002, api, "acl.mdl.init_dump was already called; call acl.mdl.finalize_dump first.")
    d["initialised"] = True
    return 0


def _config_problem(cfg: Any, callback: bool) -> Optional[str]:
    dump = cfg.get("dump") if isinstance(cfg, dict) else None
    if not isinstance(dump, dict):
        return 'the file has no "dump" object ({"dump": {"dump_path": ..., "dump_list": [...]}})'
    if not callback and not isinstance(dump.get("dump_path"), str):
        return '"dump_path" (a directory, as a string) is missing'
    if dump.get("dump_mode", "output") not in MODES:
        return f'"dump_mode" {dump.get("dump_mode")!r} is not one of {", ".join(MODES)}'
    items = dump.get("dump_list", [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        return '"dump_list" must be a list of objects such as {"model_name": "resnet50"}'
    return None


MAX_CONFIG_BYTES = 1 << 20  # a dump config is a few lines; the simulator's cap (UNCONFIRMED for ACL)


def _read_config(path: str) -> bytes:
    """The config's bytes, read only from a regular file and at most MAX_CONFIG_BYTES (a FIFO or /dev/zero: OSError)."""
    return read_regular(path, MAX_CONFIG_BYTES, "dump config")


@binding("acl.mdl.set_dump", "|s", needs=INIT)
def set_dump(api, dump_cfg_path=None):
    """Read a dump config (JSON) that applies to models loaded from now on."""
    d = _dump()
    if not d["initialised"]:
        return fail(DUMP_NOT_RUN, api, "acl.mdl.init_dump must be called before acl.mdl.set_dump.")
    if dump_cfg_path is None:
        return fail(100000, api, "no config path given; pass the path of a dump config .json file.")
    try:
        raw = _read_config(dump_cfg_path)
    except OSError as exc:
        return fail(100003, api, f"config file {dump_cfg_path!r} cannot be opened for reading "
                    f"({exc.strerror or exc}).")
    if not raw:
        return 0
    try:
        cfg = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # RecursionError: nested too deeply
        return fail(INVALID_DUMP_CONFIG, api, f"{dump_cfg_path!r} is not valid JSON ({str(exc)[:200]}).")
    why = _config_problem(cfg, d["callback"] is not None)
    if why:
        return fail(INVALID_DUMP_CONFIG, api, f"{dump_cfg_path!r}: {why}.")
    d["config"], d["before"] = cfg["dump"], set(models().loaded)  # models loaded from now on are dumped
    return 0


@binding("acl.mdl.finalize_dump", needs=INIT)
def finalize_dump(api):
    """Stop dumping; files already written stay."""
    d = _dump()
    if not d["initialised"]:
        return fail(DUMP_NOT_RUN, api, "acl.mdl.init_dump must be called before acl.mdl.finalize_dump.")
    d.stop()
    return 0


@binding("acl.mdl.dump_reg_callback", "Oi")
def dump_reg_callback(api, callback, flag):
    """Receive dump data as chunks in ``callback(chunk_dict)`` instead of files (flag is reserved: 0)."""
    if flag != 0:
        return fail(ERROR_FAILURE, api, f"flag {flag} is reserved and must be 0.")
    _dump()["callback"] = callback
    return 0


@binding("acl.mdl.dump_unreg_callback")
def dump_unreg_callback(api):
    """Stop sending dump data to the callback (returns None)."""
    _dump()["callback"] = None
    return None


def _model_name(loaded: Any) -> str:
    source = loaded.source if loaded.source != "<memory>" else loaded.model.header.get("source_model", "model")
    name = os.path.basename(str(source))
    for ext in (".om", ".onnx"):
        if name.endswith(ext):
            name = name[:-len(ext)]
    return name


def _wanted(cfg: Dict[str, Any], name: str) -> bool:
    items = cfg.get("dump_list", [])
    return not items or any(item.get("model_name") == name for item in items)


def after_execute(loaded: Any, inputs: Dict[str, Any], outputs: List[Any]) -> None:
    """Called by mdl/execution.py's run once outputs are written: dump what the config asks for (never raises)."""
    d = state().subsystems.get("dump")
    if not d or not d["initialised"] or d["config"] is None or loaded.model_id in d["before"]:
        return
    cfg, name = d["config"], _model_name(loaded)
    if not _wanted(cfg, name):
        return
    mode = cfg.get("dump_mode", "output")
    tensors = []
    if mode in ("input", "all"):
        tensors += [("input", i, e["name"], inputs.get(e.get("onnx_name")))
                    for i, e in enumerate(loaded.model.inputs)]
    if mode in ("output", "all"):
        tensors += [("output", i, e["name"], v) for i, (e, v) in enumerate(zip(loaded.model.outputs, outputs))]
    step = d["steps"].get(loaded.model_id, 0)
    d["steps"][loaded.model_id] = step + 1
    d["stamp"] = d["stamp"] or time.strftime("%Y%m%d%H%M%S")
    rel = os.path.join(d["stamp"], str(loaded.device_id), name, str(loaded.model_id), str(step))
    for kind, index, tensor, value in tensors:
        if value is None:
            continue
        file_name = os.path.join(rel, f"{kind}.{index}.{tensor.replace(':', '_').replace('/', '_')}.npy")
        try:
            _emit(d, cfg, file_name, np.asarray(value))
        except Exception as exc:  # noqa: BLE001  (a dump must never break the execution it records)
            fail(500000, "acl.mdl dump", f"dumping {file_name} failed: {exc}")


def _emit(d: Dict[str, Any], cfg: Dict[str, Any], file_name: str, value: np.ndarray) -> None:
    callback = d["callback"]
    if callback is None:
        path = os.path.join(cfg["dump_path"], file_name)
        make_dirs(cfg["dump_path"], os.path.dirname(path))  # a link at any level below dump_path: a failed dump
        buf = io.BytesIO()
        np.save(buf, value)
        replace_with(path, buf.getvalue())  # swaps a link, hard link or FIFO at the name, never writes through it
        return
    raw = np.frombuffer(np.ascontiguousarray(value).tobytes(), np.uint8).copy()
    addr = space().register_user(raw, raw.ctypes.data, raw.size, "numpy")
    callback({"file_name": file_name, "data_buf": addr, "buf_len": raw.size, "is_last_chunk": 1, "offset": 0,
              "flag": 0})
