"""Faithful beats strict: what real pyACL accepts runs, its consequence is visible, and the simulator warns.

Each test is a small program in the official samples' style (``acl`` is the simulator); strict
mode (``configure(strict=True)``) brings back the refusal as a teaching moment.
"""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from acl_teach.sim import inspect as sim_inspect
from helpers import ROOT, build
from acl_teach import sim
from acl_teach.spec import constants as C

H2H, H2D, D2H, D2D, DEFAULT, BUF_H2D = 0, 1, 2, 3, 4, 5
GARBAGE = b"\xff"
N = 300  # a [1, 300] float32 input is 1200 bytes, like bert_text_classification's


@pytest.fixture(scope="session")
def vector_om(tmp_path_factory):
    """A static model x[1, 300] float32 -> (same = Identity(x), double = 2 * x)."""
    import onnx
    from onnx import TensorProto, helper
    d = tmp_path_factory.mktemp("vector")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, N])
    same = helper.make_tensor_value_info("same", TensorProto.FLOAT, [1, N])
    double = helper.make_tensor_value_info("double", TensorProto.FLOAT, [1, N])
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    nodes = [helper.make_node("Identity", ["x"], ["same"], name="id0"),
             helper.make_node("Mul", ["x", "two"], ["double"], name="mul0")]
    model = helper.make_model(helper.make_graph(nodes, "vector", [x], [same, double], initializer=[two]),
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(d / "vector.onnx"))
    return build(str(d / "vector.onnx"), d / "vector")


def check_ret(message, ret):
    """The samples' helper: a failed call is a test failure that names the call."""
    assert ret == 0, f"{message} failed ret={ret}"


def open_device(acl):
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    context, ret = acl.rt.create_context(0)
    check_ret("acl.rt.create_context", ret)
    return context


def device_bytes(acl, ptr, size):
    """Copy device memory back to the host the way the samples do."""
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, ptr, size, D2H))
    data = acl.util.ptr_to_bytes(host, size)
    acl.rt.free_host(host)
    return data


# -- A1: memcpy from a bytes object with a count larger than the object -----------------------------
def test_memcpy_past_a_bytes_object_copies_it_then_garbage(acl, capsys):
    open_device(acl)
    image = bytes(range(16))                       # the picture is smaller than the model input
    dev, ret = acl.rt.malloc(64, 0)
    check_ret("acl.rt.malloc", ret)
    ret = acl.rt.memcpy(dev, 64, acl.util.bytes_to_ptr(image), 64, H2D)   # as resnet50_imagenet_dynamic_hw does
    assert ret == 0
    assert device_bytes(acl, dev, 64) == image + GARBAGE * 48
    err = capsys.readouterr().err
    assert "[acl-teach sim] warning: acl.rt.memcpy: src: 64 bytes" in err and "only 16 bytes" in err
    assert acl.get_recent_err_msg().startswith("warning: acl.rt.memcpy")
    assert [w.api for w in sim.warnings()] == ["acl.rt.memcpy"]
    assert sim.warnings()[0].origin.startswith("test_sim_faithful.py:")


def test_memcpy_async_past_a_bytes_object_too(acl):
    open_device(acl)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    image = bytes([7] * 10)
    dev, _ = acl.rt.malloc(32, 0)
    assert acl.rt.memcpy_async(dev, 32, acl.util.bytes_to_ptr(image), 32, H2D, stream) == 0
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    assert device_bytes(acl, dev, 32) == image + GARBAGE * 22


def test_memcpy_past_a_bytes_object_in_strict_mode_is_refused(acl):
    sim.configure(strict=True)
    open_device(acl)
    image = bytes(16)
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memcpy(dev, 64, acl.util.bytes_to_ptr(image), 64, H2D) == 107000
    assert "strict mode" in acl.get_recent_err_msg()
    assert device_bytes(acl, dev, 64) == b"\xcd" * 64  # nothing was copied
    assert sim.warnings() == []


# -- A2: memcpy kind is a reserved parameter -----------------------------------------------------------
def test_wrong_memcpy_kind_copies_by_the_pointers(acl, capsys):
    open_device(acl)
    data = bytes(range(32))
    dev, _ = acl.rt.malloc(32, 0)
    host, _ = acl.rt.malloc_host(32)
    assert acl.rt.memcpy(dev, 32, acl.util.bytes_to_ptr(data), 32, D2H) == 0   # says D2H, is H2D
    assert acl.rt.memcpy(host, 32, dev, 32, H2D) == 0                           # says H2D, is D2H
    assert acl.util.ptr_to_bytes(host, 32) == data
    assert "kind ACL_MEMCPY_HOST_TO_DEVICE says host -> device, but src is device" in capsys.readouterr().err
    assert len(sim.warnings()) == 2
    assert acl.rt.memcpy(dev, 32, host, 32, BUF_H2D) == 0   # HOST_TO_BUF_TO_DEVICE is a host -> device kind
    assert len(sim.warnings()) == 2


@pytest.mark.parametrize("kind", [6, 7, 8, -1, 2 ** 31 - 1])
def test_memcpy_kind_outside_the_enum_is_rejected(acl, kind):
    """MemcpyKindTranslate (src/acl/aclrt_impl/memory.cpp) maps 0..5 and returns ACL_ERROR_INVALID_PARAM else."""
    open_device(acl)
    data = bytes(8)
    dev, _ = acl.rt.malloc(8, 0)
    assert acl.rt.memcpy(dev, 8, acl.util.bytes_to_ptr(data), 8, kind) == 100000
    assert acl.rt.memcpy_async(dev, 8, acl.util.bytes_to_ptr(data), 8, kind, 0) == 100000


def test_wrong_memcpy_kind_in_strict_mode_is_the_old_107000(acl):
    sim.configure(strict=True)
    open_device(acl)
    data = bytes(8)
    dev, _ = acl.rt.malloc(8, 0)
    assert acl.rt.memcpy(dev, 8, acl.util.bytes_to_ptr(data), 8, D2D) == 107000
    assert acl.rt.memcpy_async(dev, 8, acl.util.bytes_to_ptr(data), 8, H2H, 0) == 107000
    assert acl.rt.memcpy(dev, 8, acl.util.bytes_to_ptr(data), 8, H2D) == 0


# -- A3: execute with an input buffer a few bytes smaller than the desc's size -------------------------
def vector_run(acl, om, in_size, out_size=4 * N, payload=None, run=None):
    """load -> desc -> datasets -> H2D -> execute -> D2H, returning (ret, same bytes, double array)."""
    model_id, ret = acl.mdl.load_from_file(om)
    check_ret("acl.mdl.load_from_file", ret)
    desc = acl.mdl.create_desc()
    check_ret("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))
    assert acl.mdl.get_input_size_by_index(desc, 0) == 4 * N
    payload = np.arange(in_size // 4, dtype=np.float32).tobytes() if payload is None else payload
    in_ptr, _ = acl.rt.malloc(in_size, 0)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(in_ptr, in_size, acl.util.bytes_to_ptr(payload), in_size, H2D))
    inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(inputs, acl.create_data_buffer(in_ptr, in_size))
    out_ptrs = []
    for _ in range(2):
        ptr, _ = acl.rt.malloc(out_size, 0)
        acl.rt.memset(ptr, out_size, 0, out_size)
        acl.mdl.add_dataset_buffer(outputs, acl.create_data_buffer(ptr, out_size))
        out_ptrs.append(ptr)
    ret = (run or acl.mdl.execute)(model_id, inputs, outputs)
    same = device_bytes(acl, out_ptrs[0], out_size)
    double = np.frombuffer(device_bytes(acl, out_ptrs[1], out_size), np.float32)
    return ret, same, double


def test_execute_accepts_an_input_8_bytes_short_like_bert(acl, vector_om, capsys):
    open_device(acl)
    ret, same, double = vector_run(acl, vector_om, 1192)   # 1192 B for a 1200 B input
    assert ret == 0
    # the 8 bytes past 1192 lie in aclrtMalloc's padding (1192 -> 1216 + 32): zeros here, never NaN
    assert same == np.arange(298, dtype=np.float32).tobytes() + bytes(8)
    assert np.array_equal(double, 2 * np.arange(300, dtype=np.float32) * (np.arange(300) < 298))
    err = capsys.readouterr().err
    assert "[acl-teach sim] warning: acl.mdl.execute: input #0 (x) needs 1200 bytes" in err
    assert "up to 64 bytes smaller" in err


def test_execute_accepts_exactly_64_bytes_short_and_refuses_65(acl, vector_om):
    open_device(acl)
    assert vector_run(acl, vector_om, 1136)[0] == 0
    ret, same, _ = vector_run(acl, vector_om, 1132)
    assert ret == 100017 and same == bytes(4 * N)          # nothing ran
    assert "needs 1200 bytes" in acl.get_recent_err_msg()


def test_execute_async_applies_the_same_tolerance(acl, vector_om):
    open_device(acl)
    stream, _ = acl.rt.create_stream()

    def run_async(model_id, inputs, outputs):
        ret = acl.mdl.execute_async(model_id, inputs, outputs, stream)
        return ret or acl.rt.synchronize_stream(stream)

    ret, same, _ = vector_run(acl, vector_om, 1196, run=run_async)
    assert ret == 0 and same[-4:] == bytes(4)  # aclrtMalloc's padding
    assert vector_run(acl, vector_om, 1000, run=run_async)[0] == 507011   # async failures surface here


def test_execute_output_buffer_within_tolerance_gets_what_fits(acl, vector_om):
    open_device(acl)
    ret, same, double = vector_run(acl, vector_om, 1200, out_size=1160)
    assert ret == 0
    assert same == np.arange(290, dtype=np.float32).tobytes()
    assert vector_run(acl, vector_om, 1200, out_size=1100)[0] == 100018


def test_execute_short_input_in_strict_mode_is_100017(acl, vector_om):
    sim.configure(strict=True)
    open_device(acl)
    assert vector_run(acl, vector_om, 1192)[0] == 100017
    assert "strict mode" in acl.get_recent_err_msg()


def test_dynamic_gear_skips_the_size_check(acl, tiny_models):
    """GE skips CheckUserAndModelSize when the execution carries a gear (is_dynamic_)."""
    open_device(acl)
    model_id, _ = acl.mdl.load_from_file(tiny_models["batch"])
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    check_ret("get_input_index_by_name", ret)
    inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    sizes = [8, 64, acl.mdl.get_input_size_by_index(desc, index)]   # a: 8 of batch-4's 64 bytes
    for size in sizes:
        ptr, _ = acl.rt.malloc(size, 0)
        acl.rt.memset(ptr, size, 0, size)
        acl.mdl.add_dataset_buffer(inputs, acl.create_data_buffer(ptr, size))
    out = []
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        ptr, _ = acl.rt.malloc(size, 0)
        acl.mdl.add_dataset_buffer(outputs, acl.create_data_buffer(ptr, size))
        out.append(ptr)
    check_ret("set_dynamic_batch_size", acl.mdl.set_dynamic_batch_size(model_id, inputs, index, 4))
    assert acl.mdl.execute(model_id, inputs, outputs) == 0
    total = np.frombuffer(device_bytes(acl, out[0], 64), np.float32)   # sum = a + b, b all zero
    assert total.tolist() == [0.0] * 16  # a: 8 bytes written, the rest aclrtMalloc's padding (8 -> 32 + 32)


# -- A4: subscribe_report with a thread that already returned ------------------------------------------
def test_subscribe_report_records_an_exited_thread_and_nothing_hangs(acl):
    sim.configure(wait_timeout_s=5)
    context = open_device(acl)
    stream, _ = acl.rt.create_stream()
    tid, ret = acl.util.start_thread(lambda args: None, [context, 100])   # returns at once
    check_ret("acl.util.start_thread", ret)
    for thread in threading.enumerate():
        if thread.ident == tid:
            thread.join()
    assert acl.rt.subscribe_report(tid, stream) == 0
    assert "not a running thread" in acl.get_recent_err_msg()
    hits = []
    assert acl.rt.launch_callback(hits.append, ["no block"], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0   # NO_BLOCK: the stream does not wait for it
    assert acl.rt.launch_callback(hits.append, ["block"], 1, stream) == 0
    t0 = time.monotonic()
    assert acl.rt.synchronize_stream(stream) == 507046
    assert time.monotonic() - t0 < 2   # the dead thread is noticed well before wait_timeout_s
    assert "thread that has exited" in acl.get_recent_err_msg()
    assert hits == []
    check_ret("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, stream))
    assert acl.util.stop_thread(tid) == 0


# -- A5: get_run_mode before acl.init --------------------------------------------------------------------
def test_get_run_mode_before_init_like_acllite_at_import(acl):
    run_mode, ret = acl.rt.get_run_mode()          # acllite_image.py: class attribute, before acl.init
    assert (run_mode, ret) == (C.ACL_HOST, 0)
    sim.configure(run_mode="device")
    assert acl.rt.get_run_mode() == (C.ACL_DEVICE, 0)
    assert acl.get_recent_err_msg() is None


# -- B6: reset_device(1) leaves device 0's models alone -------------------------------------------------
def test_reset_device_unloads_only_that_devices_models(acl, tiny_models):
    sim.configure(device_count=2)
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    model0, ret = acl.mdl.load_from_file(tiny_models["static"])
    check_ret("load on device 0", ret)
    check_ret("acl.rt.set_device", acl.rt.set_device(1))
    model1, ret = acl.mdl.load_from_file(tiny_models["static"])
    check_ret("load on device 1", ret)
    check_ret("acl.rt.reset_device", acl.rt.reset_device(1))
    assert acl.mdl.unload(model1) == 145003     # reclaimed with its device
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model0) == 0   # still loaded
    assert acl.mdl.unload(model0) == 0


# -- B7 / B8: python -m acl_teach.sim ----------------------------------------------------------------------
def run_sim(tmp_path, source, *options, env=None):
    script = tmp_path / "script.py"
    script.write_text(source)
    environ = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    return subprocess.run([sys.executable, "-m", "acl_teach.sim", *options, str(script)], capture_output=True,
                          text=True, env=environ, timeout=120)


DEL_FINALIZE = """\
import acl

class AclResource:
    def __init__(self):
        acl.init()
        acl.rt.set_device(0)
        self.ptr, _ = acl.rt.malloc(64, 0)

    def __del__(self):
        acl.rt.free(self.ptr)
        acl.rt.reset_device(0)
        print("finalize", acl.finalize())

resource = AclResource()
print("inference done")
"""


def test_finalize_in_del_at_exit_is_not_a_leak(tmp_path):
    proc = run_sim(tmp_path, DEL_FINALIZE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "inference done\nfinalize 0\n"
    assert "without acl.finalize" not in proc.stderr and "leak report" not in proc.stderr


def test_finalize_in_atexit_like_acllite_is_not_a_leak(tmp_path):
    source = "import atexit\nimport acl\nacl.init()\natexit.register(lambda: print('finalize', acl.finalize()))\n"
    proc = run_sim(tmp_path, source)
    assert proc.returncode == 0 and proc.stdout == "finalize 0\n"
    assert "without acl.finalize" not in proc.stderr


def test_a_script_that_never_finalizes_is_still_reported(tmp_path):
    proc = run_sim(tmp_path, "import acl\nacl.init()\nacl.rt.set_device(0)\nptr, _ = acl.rt.malloc(64, 0)\n")
    assert proc.returncode == 0
    assert "without acl.finalize()" in proc.stderr and "script.py:4" in proc.stderr


def test_a_crashing_script_still_gets_its_del_run(tmp_path):
    proc = run_sim(tmp_path, DEL_FINALIZE + "raise RuntimeError('boom')\n")
    assert proc.returncode == 1 and "RuntimeError: boom" in proc.stderr
    assert "finalize 0" in proc.stdout and "without acl.finalize" not in proc.stderr


COUNT = "import acl\nacl.init()\ncount, ret = acl.rt.get_device_count()\nprint(count, ret, acl.rt.set_device(count - 1))\n" \
        "acl.rt.reset_device(count - 1)\nacl.finalize()\n"


def test_devices_option_and_environment_variable(tmp_path):
    assert run_sim(tmp_path, COUNT).stdout == "1 0 0\n"
    assert run_sim(tmp_path, COUNT, "--devices", "4").stdout == "4 0 0\n"
    assert run_sim(tmp_path, COUNT, env={"ACL_TEACH_SIM_DEVICES": "3"}).stdout == "3 0 0\n"
    assert run_sim(tmp_path, COUNT, "--devices", "2", env={"ACL_TEACH_SIM_DEVICES": "3"}).stdout == "2 0 0\n"
    bad = run_sim(tmp_path, COUNT, "--devices", "0")
    assert bad.returncode == 2 and "not a device count" in bad.stderr
    odd = run_sim(tmp_path, COUNT, env={"ACL_TEACH_SIM_DEVICES": "many"})
    assert odd.stdout == "1 0 0\n" and "ACL_TEACH_SIM_DEVICES='many'" in odd.stderr


def test_config_from_env_reads_the_device_count(monkeypatch):
    from acl_teach.sim.core.state import Config
    monkeypatch.setenv("ACL_TEACH_SIM_DEVICES", "2")
    monkeypatch.setenv("ACL_TEACH_SIM_STRICT", "1")
    cfg = Config.from_env()
    assert cfg.device_count == 2 and cfg.strict is True


def test_strict_option(tmp_path):
    source = ("import acl\nacl.init(); acl.rt.set_device(0)\ndev, _ = acl.rt.malloc(8, 0)\ndata = bytes(8)\n"
              "print(acl.rt.memcpy(dev, 8, acl.util.bytes_to_ptr(data), 8, 2))\nacl.rt.free(dev)\n"
              "acl.rt.reset_device(0); acl.finalize()\n")
    assert run_sim(tmp_path, source).stdout == "0\n"
    assert run_sim(tmp_path, source, "--strict").stdout == "107000\n"


# -- B9: app_log, memset_async, synchronize_device ------------------------------------------------------
def test_app_log_like_acllite_model(acl, capsys):
    assert (C.ACL_DEBUG, C.ACL_INFO, C.ACL_WARNING, C.ACL_ERROR) == (0, 1, 2, 3)
    assert acl.app_log(C.ACL_INFO, "AclLiteModel init model resource") is None   # needs no init
    assert capsys.readouterr().err == ""
    assert acl.app_log(C.ACL_ERROR, "load model failed") is None
    assert capsys.readouterr().err == "[acl-teach sim] app_log ERROR: load model failed\n"
    sim.configure(app_log_level=C.ACL_DEBUG)
    acl.app_log(C.ACL_DEBUG, "details")
    assert "app_log DEBUG: details" in capsys.readouterr().err
    with pytest.raises(TypeError, match="acl.app_log args parse failed"):
        acl.app_log("INFO", "x")


def test_memset_async_fills_when_the_stream_runs(acl):
    open_device(acl)
    stream, _ = acl.rt.create_stream()
    dev, _ = acl.rt.malloc(16, 0)
    assert acl.rt.memset_async(dev, 16, 0x5A, 12, stream) == 0
    assert device_bytes(acl, dev, 16) == b"\xcd" * 16           # not yet
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    assert device_bytes(acl, dev, 16) == b"\x5a" * 12 + b"\xcd" * 4
    assert acl.rt.memset_async(dev, 16, 0, 0, stream) == 0        # count 0: nothing to do
    assert acl.rt.memset_async(0, 16, 0, 4, stream) == 100000
    assert acl.rt.memset_async(dev, 8, 0, 16, stream) == 107000
    assert acl.rt.memset_async(dev, 16, 0, 4, 0xDEAD) == 107000
    with pytest.raises(TypeError, match="memset_async args parse failed"):
        acl.rt.memset_async(dev, 16, 0, 4)


def test_synchronize_device_waits_for_every_stream(acl):
    assert acl.rt.synchronize_device() == 100001
    check_ret("acl.init", acl.init())
    assert acl.rt.synchronize_device() == 107002
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    data = bytes(range(8))
    a, _ = acl.rt.malloc(8, 0)
    b, _ = acl.rt.malloc(8, 0)
    acl.rt.memcpy_async(a, 8, acl.util.bytes_to_ptr(data), 8, H2D, s1)
    acl.rt.memset_async(b, 8, 3, 8, s2)
    assert acl.rt.synchronize_device() == 0
    assert device_bytes(acl, a, 8) == data and device_bytes(acl, b, 8) == b"\x03" * 8


def test_use_after_free_like_the_memcpy_sample_warns_and_touches_only_the_dead_block(ready, capsys):
    """memcpy_host_device_python (--memory_reuse --write_back_host) frees its host buffer and keeps using it."""
    acl = ready
    sim.configure(explain=True)
    host, _ = acl.rt.malloc_host(64)
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free_host(host) == 0
    assert acl.rt.memset(host, 64, 0x11, 64) == 0  # faithful: the ACL layer checks only for NULL
    assert "use after free" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(dev, 64, host, 64, 1) == 0
    assert sim_inspect.read(dev, 64) == b"\x11" * 64  # what was written into the dead block
    assert acl.rt.memcpy(host, 64, dev, 64, 2) == 0
    fresh, _ = acl.rt.malloc_host(64)
    assert fresh != host  # the dead block is never handed out again, so nothing live is overwritten
    assert "warning" in capsys.readouterr().err
    sim.configure(strict=True)
    try:
        assert acl.rt.memset(host, 64, 0, 64) == 107000
    finally:
        sim.configure(strict=False, explain=False)
    acl.rt.free_host(fresh)
    acl.rt.free(dev)


def test_a_pointer_that_was_never_allocated_is_still_refused(ready):
    acl = ready
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset(dev + 4096 * 1024, 64, 0, 64) == 107000
    acl.rt.free(dev)


def test_a_copy_past_the_end_of_a_device_allocation_keeps_what_fits_and_warns(ready):
    """vpc_jpeg_resnet50 (wood_rabbit) copies its file into a DVPP buffer 15 KB too small, with a large dst_max."""
    acl = ready
    data = bytes(range(256)) * 4
    dev, _ = acl.media.dvpp_malloc(512)  # 512 + 32 bytes of DVPP padding
    usable = 512 + 32
    assert acl.rt.memcpy(dev, 4096, acl.util.bytes_to_ptr(data), 1024, 1) == 0
    why = acl.get_recent_err_msg()
    assert "past the end" in why and "dropped the rest" in why
    assert sim_inspect.read(dev, usable) == data[:usable]
    stream, _ = acl.rt.create_stream()
    backwards = data[::-1]  # kept alive until the stream has run
    assert acl.rt.memcpy_async(dev, 4096, acl.util.bytes_to_ptr(backwards), 1024, 1, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert sim_inspect.read(dev, usable) == backwards[:usable]
    sim.configure(strict=True)
    try:
        assert acl.rt.memcpy(dev, 4096, acl.util.bytes_to_ptr(data), 1024, 1) == 107000
    finally:
        sim.configure(strict=False)
    host = np.zeros(16, np.uint8)  # a Python object is never written past: that would corrupt the process
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 1024, dev, 64, 2) == 107000
    acl.rt.destroy_stream(stream)
    acl.media.dvpp_free(dev)
