"""Helpers for the single-operator tests: op list entries, atc --singleop, device tensors (no tests here)."""
import io
import json
import os

import numpy as np

from acl_teach.toolchain import atc

ND = 2


def tensor(type_name, shape, fmt="ND", **extra):
    """One input_desc/output_desc entry of an op list."""
    return dict({"format": fmt, "shape": list(shape), "type": type_name}, **extra)


def op(op_type, inputs, outputs, attrs=None, **extra):
    """One op list entry; attrs as {name: (type, value)}."""
    entry = {"op": op_type, "input_desc": inputs, "output_desc": outputs}
    if attrs:
        entry["attr"] = [{"name": n, "type": t, "value": v} for n, (t, v) in attrs.items()]
    entry.update(extra)
    return entry


def run_atc(tmp_path, ops, folder="op_models", soc="Ascend310", name="op_list.json"):
    """(exit code, stdout, stderr, output folder) of `atc --singleop` on ``ops``."""
    op_list = tmp_path / name
    op_list.write_text(json.dumps(ops) if not isinstance(ops, str) else ops)
    out_dir = tmp_path / folder
    out, err = io.StringIO(), io.StringIO()
    code = atc.run([f"--singleop={op_list}", f"--output={out_dir}", f"--soc_version={soc}"], out=out, err=err)
    return code, out.getvalue(), err.getvalue(), str(out_dir)


def compile_ops(tmp_path, ops, **kwargs):
    """The folder holding ``ops`` compiled by atc --singleop (asserts success)."""
    code, out, err, folder = run_atc(tmp_path, ops, **kwargs)
    assert code == 0, err
    return folder


def om_files(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".om"))


def device(acl, array):
    """(device pointer, data buffer) holding ``array``'s bytes."""
    data = np.ascontiguousarray(array).tobytes()
    ptr, ret = acl.rt.malloc(max(len(data), 1), 0)
    assert ret == 0
    if data:
        assert acl.rt.memcpy(ptr, len(data), acl.util.bytes_to_ptr(data), len(data), 1) == 0
    return ptr, acl.create_data_buffer(ptr, len(data))


def empty(acl, nbytes, fill=0):
    """(device pointer, data buffer) of ``nbytes`` set to ``fill``."""
    ptr, ret = acl.rt.malloc(max(nbytes, 1), 0)
    assert ret == 0
    acl.rt.memset(ptr, max(nbytes, 1), fill, max(nbytes, 1))
    return ptr, acl.create_data_buffer(ptr, nbytes)


def fetch(acl, ptr, dtype, shape):
    """The array at device ``ptr`` (copied to the host)."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    host, ret = acl.rt.malloc_host(max(size, 1))
    assert ret == 0
    assert acl.rt.memcpy(host, size, ptr, size, 2) == 0
    out = np.frombuffer(acl.util.ptr_to_bytes(host, size), dtype).reshape(shape).copy()
    acl.rt.free_host(host)
    return out
