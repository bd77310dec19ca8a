"""Single operators (Cast, ArgMaxV2, ArgMaxD) and the sample scripts on the default model."""
import os
import re
import subprocess
import sys

import numpy as np

from acl_teach.toolchain import board
from test_sim_op_helpers import compile_ops, op, tensor
from acl_teach.spec import constants as C

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "acl_teach", "examples")
IMAGES = os.path.join(ROOT, "data", "images")
ARGMAX_V2 = op("ArgMaxV2", [tensor("float32", [1000]), tensor("int32", [1])], [tensor("int32", [1])],
               {"dtype": ("data_type", 3)})


def device_tensor(acl, array):
    data = np.ascontiguousarray(array).tobytes()
    ptr, _ = acl.rt.malloc(len(data), 0)
    acl.rt.memcpy(ptr, len(data), acl.util.bytes_to_ptr(data), len(data), 1)
    return ptr, acl.create_data_buffer(ptr, len(data))


def read(acl, buf, dtype, count):
    size = np.dtype(dtype).itemsize * count
    host, _ = acl.rt.malloc_host(size)
    acl.rt.memcpy(host, size, acl.get_data_buffer_addr(buf), size, 2)
    return np.frombuffer(acl.util.ptr_to_bytes(host, size), dtype)


def test_cast_then_argmax_like_the_vpc_sample(ready, tmp_path):
    """The vpc sample's post-processing (Cast fp32->fp16, then ArgMaxD) on ops compiled from board.TOP1_OPS."""
    acl = ready
    stream, _ = acl.rt.create_stream()
    scores = np.zeros(1000, np.float32)
    scores[[3, 967, 500]] = [0.2, 0.7, 0.1]
    _, src_buf = device_tensor(acl, scores)
    src_desc = acl.create_tensor_desc(C.ACL_FLOAT, [1000], C.ACL_FORMAT_ND)
    half_desc = acl.create_tensor_desc(C.ACL_FLOAT16, [1000], C.ACL_FORMAT_ND)
    _, half_buf = device_tensor(acl, np.zeros(1000, np.float16))
    assert acl.op.cast(src_desc, src_buf, half_desc, half_buf, 0, stream) == 100024  # no op models yet
    assert acl.op.set_model_dir(str(tmp_path / "missing")) == 100014
    folder = compile_ops(tmp_path, board.TOP1_OPS + [ARGMAX_V2])
    assert acl.op.set_model_dir(folder) == 0
    assert acl.op.cast(src_desc, src_buf, half_desc, half_buf, 0, stream) == 0
    attr = acl.op.create_attr()
    assert acl.op.set_attr_int(attr, "dimension", 0) == 0
    out_desc = acl.create_tensor_desc(C.ACL_INT32, [1], C.ACL_FORMAT_ND)
    _, out_buf = device_tensor(acl, np.zeros(1, np.int32))
    assert acl.op.execute_v2("ArgMaxD", [half_desc], [half_buf], [out_desc], [out_buf], attr, stream) == 0
    assert read(acl, out_buf, np.int32, 1).tolist() == [0]  # not run until the stream is synchronised
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, half_buf, np.float16, 1000)[967] == np.float16(0.7)
    assert read(acl, out_buf, np.int32, 1).tolist() == [967]
    # ArgMaxV2 takes the dimension as a second input tensor, and its output type as the dtype attribute
    dim_desc = acl.create_tensor_desc(C.ACL_INT32, [1], C.ACL_FORMAT_ND)
    _, dim_buf = device_tensor(acl, np.zeros(1, np.int32))
    v2_attr = acl.op.create_attr()
    assert acl.op.execute_v2("ArgMaxV2", [src_desc, dim_desc], [src_buf, dim_buf], [out_desc], [out_buf],
                             v2_attr, stream) == 100024  # dtype defaults to int64: not what was compiled
    assert acl.op.set_attr_data_type(v2_attr, "dtype", C.ACL_INT32) == (v2_attr, 0)
    assert acl.op.execute_v2("ArgMaxV2", [src_desc, dim_desc], [src_buf, dim_buf], [out_desc], [out_buf],
                             v2_attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert read(acl, out_buf, np.int32, 1).tolist() == [967]
    assert acl.op.execute_v2("Softmax", [src_desc], [src_buf], [out_desc], [out_buf], attr, stream) == 100024
    assert acl.destroy_tensor_desc(src_desc) is None and acl.op.destroy_attr(attr) is None


def test_tensor_desc_needs_a_list(ready):
    import pytest
    with pytest.raises(TypeError, match="argument 2 is not list"):
        ready.create_tensor_desc(0, (1, 2), 2)


def test_op_size_mismatch_is_rejected(ready, tmp_path):
    """A buffer smaller than the compiled tensor: 145000 from GE's ValidateArgs, at the call."""
    acl = ready
    acl.op.set_model_dir(compile_ops(tmp_path, board.TOP1_OPS))
    desc = acl.create_tensor_desc(C.ACL_FLOAT16, [1000], 2)
    _, small = device_tensor(acl, np.zeros(10, np.float16))
    out_desc = acl.create_tensor_desc(C.ACL_INT32, [1], 2)
    _, out = device_tensor(acl, np.zeros(1, np.int32))
    attr = acl.op.create_attr()
    acl.op.set_attr_int(attr, "dimension", 0)
    assert acl.op.execute_v2("ArgMaxD", [desc], [small], [out_desc], [out], attr, 0) == 145000


def _run_example(script, om, *images):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", os.path.join(EXAMPLES, script), om, *images],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "leak report" not in proc.stderr and "Traceback" not in proc.stderr
    return proc.stdout


def _top5(stdout):
    blocks = stdout.split("======== top5 inference results: =============")[1:]
    return [[int(m) for m in re.findall(r"^\[(\d+)\]: [0-9.]+$", b, re.M)][:5] for b in blocks]


def test_sample_scripts_classify_the_shipped_photos(default_om):
    cat, coffee = os.path.join(IMAGES, "chelsea.png"), os.path.join(IMAGES, "coffee.png")
    sync_out = _run_example("classify_sync.py", default_om, cat, coffee)
    assert "model_id:1" in sync_out and "*****run finish******" in sync_out
    tops = _top5(sync_out)
    assert 281 <= tops[0][0] <= 285 and tops[1][0] == 967
    async_out = _run_example("classify_async.py", default_om, cat, coffee)
    assert _top5(async_out) == tops
    assert async_out.split("images:", 1)[1] == sync_out.split("images:", 1)[1]  # identical bytes, same print
