"""Issue 18, over-strict 1/4/5/6 and invented 2/3: short programs written the way pyACL users write them.

Each ran on a board and failed on the simulator before: raw host pointers (ndarray.ctypes.data,
__array_interface__, ctypes buffers, mmap), a bytes_to_ptr pointer whose bytes died, datasets destroyed after
finalize, aclrtMalloc's padding read by a model (the BERT sample with a short text), start_thread(f, None),
a callback's owner kept alive, and acl calls from a __del__ at interpreter shutdown.
"""
import ctypes
import gc
import mmap
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

from acl_teach.spec.constants import (ACL_CALLBACK_BLOCK, ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,
                                      ACL_MEMCPY_HOST_TO_DEVICE)
from helpers import ROOT, build
from acl_teach import sim

H2D, D2H = ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST


def check_ret(message, ret):
    assert ret == 0, f"{message} failed ret={ret}"


@pytest.fixture
def ctx(ready):
    context, ret = ready.rt.create_context(0)
    check_ret("acl.rt.create_context", ret)
    return context


# -- over-strict 1: raw host pointers ---------------------------------------------------------------------
def test_memcpy_with_ndarray_ctypes_data_and_array_interface(ready, ctx):
    img = np.arange(256, dtype=np.float32)
    dev, ret = ready.rt.malloc(img.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    check_ret("acl.rt.memcpy", ready.rt.memcpy(dev, img.nbytes, img.ctypes.data, img.nbytes, H2D))
    out = np.empty_like(img)
    ptr = out.__array_interface__["data"][0]
    check_ret("acl.rt.memcpy", ready.rt.memcpy(ptr, out.nbytes, dev, out.nbytes, D2H))
    assert np.array_equal(out, img)
    check_ret("acl.rt.free", ready.rt.free(dev))


def test_memcpy_async_with_a_ctypes_buffer(ready, ctx):
    src = (ctypes.c_uint8 * 64)(*range(64))
    dst = ctypes.create_string_buffer(64)
    stream, ret = ready.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    dev, _ = ready.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("memcpy_async", ready.rt.memcpy_async(dev, 64, ctypes.addressof(src), 64, H2D, stream))
    check_ret("memcpy_async", ready.rt.memcpy_async(ctypes.addressof(dst), 64, dev, 64, D2H, stream))
    check_ret("synchronize_stream", ready.rt.synchronize_stream(stream))
    assert dst.raw == bytes(range(64))
    ready.rt.free(dev)
    ready.rt.destroy_stream(stream)


def test_memcpy_from_an_mmap_and_a_read_only_mapping_is_no_destination(ready, ctx, tmp_path):
    path = tmp_path / "frame.bin"
    path.write_bytes(bytes(range(200, 256)) * 4)
    dev, _ = ready.rt.malloc(224, ACL_MEM_MALLOC_HUGE_FIRST)
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = np.frombuffer(mm, np.uint8)
        ptr = view.ctypes.data
        del view  # the address stays mapped while the mmap is open
        check_ret("acl.rt.memcpy", ready.rt.memcpy(dev, 224, ptr, 224, H2D))
        ret = ready.rt.memcpy(ptr, 224, dev, 224, D2H)
        assert ret == 107000  # the page is read-only
        why = ready.get_recent_err_msg()
        assert "read-only" in why and str(path) in why
    back = bytearray(224)
    buf = (ctypes.c_char * 224).from_buffer(back)
    check_ret("acl.rt.memcpy", ready.rt.memcpy(ctypes.addressof(buf), 224, dev, 224, D2H))
    del buf
    assert bytes(back) == path.read_bytes()[:224]


def test_a_bad_raw_pointer_is_an_error_code_not_a_crash(ready, ctx):
    dev, _ = ready.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ready.rt.memcpy(dev, 64, 0x10, 64, H2D) == 107000          # page 0 is never mapped
    assert "not all mapped" in ready.get_recent_err_msg()
    arr = np.zeros(16, np.uint8)
    unmapped = mmap.mmap(-1, 4096)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(unmapped))
    unmapped.close()
    assert ready.rt.memcpy(dev, 64, addr, 64, H2D) == 107000           # an mmap closed before the copy
    assert ready.rt.memcpy(dev, 64, arr.ctypes.data, 64, H2D) == 0      # inside the process: as a board does


def test_load_from_mem_of_an_mmapped_om(ready, ctx, tiny_models):
    with open(tiny_models["static"], "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = np.frombuffer(mm, np.uint8)
        ptr, size = view.ctypes.data, view.nbytes
        del view
        model_id, ret = ready.mdl.load_from_mem(ptr, size)
        check_ret("acl.mdl.load_from_mem", ret)
    desc = ready.mdl.create_desc()
    check_ret("get_desc", ready.mdl.get_desc(desc, model_id))
    assert ready.mdl.get_num_inputs(desc) == 2
    ready.mdl.destroy_desc(desc)
    check_ret("acl.mdl.unload", ready.mdl.unload(model_id))


def test_a_board_program_feeds_ndarray_pointers_straight_to_the_model(acl, tiny_models):
    """On a board (ACL_DEVICE) host memory is device memory: create_data_buffer(arr.ctypes.data, n)."""
    sim.configure(run_mode="device")
    acl.init()
    acl.rt.set_device(0)
    model_id, ret = acl.mdl.load_from_file(tiny_models["static"])
    check_ret("load_from_file", ret)
    a, b = np.arange(4, dtype=np.float32).reshape(1, 4), np.full((1, 4), 10, np.float32)
    outs = [np.zeros((1, 4), np.float32) for _ in range(2)]
    inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    for arr in (a, b):
        acl.mdl.add_dataset_buffer(inputs, acl.create_data_buffer(arr.ctypes.data, arr.nbytes))
    for arr in outs:
        acl.mdl.add_dataset_buffer(outputs, acl.create_data_buffer(arr.ctypes.data, arr.nbytes))
    check_ret("acl.mdl.execute", acl.mdl.execute(model_id, inputs, outputs))
    assert outs[0].tolist() == [[10, 11, 12, 13]] and outs[1].tolist() == [[0, 2, 4, 6]]


# -- over-strict 4: the bytes died ------------------------------------------------------------------------
class Image:
    """The newer acllite's AclLiteImage: data() hands out a pointer to a temporary bytes object."""

    def __init__(self, array):
        self._data = array

    def data(self, acl):
        return acl.util.bytes_to_ptr(self._data.tobytes())


def test_acllite_image_data_pointer_reads_what_the_bytes_held(ready, ctx, capsys):
    frame = np.arange(300, dtype=np.uint8)
    image = Image(frame)
    dev, _ = ready.rt.malloc(300, ACL_MEM_MALLOC_HUGE_FIRST)
    ptr = image.data(ready)
    gc.collect()
    check_ret("acl.rt.memcpy", ready.rt.memcpy(dev, 300, ptr, 300, H2D))
    back = np.zeros(300, np.uint8)
    check_ret("acl.rt.memcpy", ready.rt.memcpy(back.ctypes.data, 300, dev, 300, D2H))
    assert np.array_equal(back, frame)
    assert "no longer exists" in capsys.readouterr().err
    assert any("no longer exists" in w.message for w in sim.warnings())


# -- over-strict 5: destroy after finalize ----------------------------------------------------------------
def test_datasets_and_buffers_destroyed_after_finalize(acl):
    check_ret("init", acl.init())
    check_ret("set_device", acl.rt.set_device(0))
    dev, _ = acl.rt.malloc(16, ACL_MEM_MALLOC_HUGE_FIRST)
    dataset = acl.mdl.create_dataset()
    buffer = acl.create_data_buffer(dev, 16)
    _, ret = acl.mdl.add_dataset_buffer(dataset, buffer)
    check_ret("add_dataset_buffer", ret)
    acl.rt.free(dev)
    acl.rt.reset_device(0)
    check_ret("finalize", acl.finalize())
    assert acl.destroy_data_buffer(buffer) == 0   # the real call just deletes the host struct
    assert acl.mdl.destroy_dataset(dataset) == 0
    assert acl.mdl.destroy_dataset(dataset) == 100000  # gone now


# -- over-strict 6: aclrtMalloc's padding (the BERT sample with a short text) -----------------------------
@pytest.fixture(scope="module")
def classifier_om(tmp_path_factory):
    """x1, x2 float32 [1, 300] -> Softmax(x1 @ W1 + x2 @ W2) [1, 5]: the BERT sample's contract."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 300]) for n in ("input_1", "input_2")]
    out = helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 5])
    w = [numpy_helper.from_array(rng.normal(0, 0.01, (300, 5)).astype(np.float32), f"w{i}") for i in (1, 2)]
    nodes = [helper.make_node("MatMul", ["input_1", "w1"], ["m1"]), helper.make_node("MatMul", ["input_2", "w2"], ["m2"]),
             helper.make_node("Add", ["m1", "m2"], ["s"]), helper.make_node("Softmax", ["s"], ["prob"], axis=-1)]
    model = helper.make_model(helper.make_graph(nodes, "cls", inputs, [out], initializer=w),
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    d = tmp_path_factory.mktemp("cls")
    onnx.save(model, str(d / "cls.onnx"))
    return build(str(d / "cls.onnx"), d / "cls"), [numpy_helper.to_array(t) for t in w]


def test_a_short_text_reads_malloc_padding_and_gets_real_scores(ready, ctx, classifier_om):
    om, weights = classifier_om
    model_id, ret = ready.mdl.load_from_file(om)
    check_ret("load_from_file", ret)
    tokens = [np.arange(298, dtype=np.float32) / 298, np.zeros(298, np.float32)]  # 298 of the model's 300
    inputs = ready.mdl.create_dataset()
    for x in tokens:
        dev, _ = ready.rt.malloc(x.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)   # acllite: malloc(1192), memcpy 1192
        check_ret("memcpy", ready.rt.memcpy(dev, x.nbytes, x.ctypes.data, x.nbytes, H2D))
        ready.mdl.add_dataset_buffer(inputs, ready.create_data_buffer(dev, x.nbytes))
    out_dev, _ = ready.rt.malloc(20, ACL_MEM_MALLOC_HUGE_FIRST)
    outputs = ready.mdl.create_dataset()
    ready.mdl.add_dataset_buffer(outputs, ready.create_data_buffer(out_dev, 20))
    check_ret("acl.mdl.execute", ready.mdl.execute(model_id, inputs, outputs))
    prob = np.zeros(5, np.float32)
    check_ret("memcpy", ready.rt.memcpy(prob.ctypes.data, 20, out_dev, 20, D2H))
    assert np.isfinite(prob).all()
    padded = [np.concatenate([x, np.zeros(2, np.float32)]) for x in tokens]  # the padding reads as zeros
    logits = padded[0] @ weights[0] + padded[1] @ weights[1]
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert np.allclose(prob, expected, atol=1e-6)


def test_malloc_padding_is_inside_the_allocation(ready, ctx):
    dev, _ = ready.rt.malloc(100, ACL_MEM_MALLOC_HUGE_FIRST)   # ALIGN_UP(100, 32) + 32 = 160 bytes
    data = bytes(range(160))
    check_ret("memcpy", ready.rt.memcpy(dev, 160, ready.util.bytes_to_ptr(data), 160, H2D))
    assert sim.warnings() == []  # no copy past the end: the padding is part of the allocation
    assert ready.rt.memset(dev, 200, 0, 161) == 107000  # one byte past the padding
    free, total, _ = ready.rt.get_mem_info(0)
    assert total - free == 160


# -- invented 2: start_thread(f, None) -------------------------------------------------------------------
def test_start_thread_with_none_calls_the_function_without_arguments(ready):
    seen = []

    def worker():
        seen.append("ran")

    tid, ret = ready.util.start_thread(worker, None)
    check_ret("start_thread", ret)
    check_ret("stop_thread", ready.util.stop_thread(tid))
    assert seen == ["ran"]
    tid, _ = ready.util.start_thread(lambda args: seen.append(args), (1, 2))  # a tuple is one argument
    ready.util.stop_thread(tid)
    assert seen == ["ran", (1, 2)]


# -- invented 3: callbacks released, calls at shutdown ----------------------------------------------------
def test_a_callback_is_released_after_it_ran(ready, ctx):
    stream, _ = ready.rt.create_stream()
    flag = {"stop": False}

    def loop(context):
        ready.rt.set_context(context)
        while not flag["stop"]:
            ready.rt.process_report(20)

    tid, _ = ready.util.start_thread(loop, ctx)
    check_ret("subscribe_report", ready.rt.subscribe_report(tid, stream))

    class Pipeline:
        def on_done(self, user_data):
            self.done = True

    pipeline = Pipeline()
    owner = weakref.ref(pipeline)
    try:
        check_ret("launch_callback", ready.rt.launch_callback(pipeline.on_done, None, ACL_CALLBACK_BLOCK, stream))
        check_ret("synchronize_stream", ready.rt.synchronize_stream(stream))
        assert pipeline.done
        del pipeline
        gc.collect()
        assert owner() is None  # the binding drops its reference once the callback ran
    finally:
        ready.rt.unsubscribe_report(tid, stream)
        flag["stop"] = True
        ready.util.stop_thread(tid)
        ready.rt.destroy_stream(stream)


SHUTDOWN_HOLDER = '''
import acl

class Resource:
    def __init__(self):
        acl.init()
        acl.rt.set_device(0)
        self.context, _ = acl.rt.create_context(0)
        self.stream, _ = acl.rt.create_stream()
        self.ptr, _ = acl.rt.malloc(64, 0)

    def __del__(self):
        print("release", acl.rt.free(self.ptr), acl.rt.destroy_stream(self.stream),
              acl.rt.destroy_context(self.context), acl.rt.reset_device(0), acl.finalize())

KEEP = []
'''

SHUTDOWN_MAIN = '''
import holder
holder.KEEP.append(holder.Resource())
holder.KEEP.append(holder.KEEP)  # a cycle: only interpreter shutdown collects it
'''


def test_acl_calls_from_a_del_at_interpreter_shutdown(tmp_path):
    (tmp_path / "holder.py").write_text(SHUTDOWN_HOLDER)
    (tmp_path / "main.py").write_text(SHUTDOWN_MAIN)
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-m", "acl_teach.sim", "main.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "release 0 0 0 0 0" in done.stdout, done.stderr
    assert "ImportError" not in done.stderr and "sys.meta_path is None" not in done.stderr
