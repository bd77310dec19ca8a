"""acl.prof: sessions writing a Chrome-trace timeline, model subscription through a pipe, stamps and ranges."""
import glob
import json
import os
import threading

import numpy as np
import pytest

from acl_teach.spec import prof as P
from acl_teach import sim

H2D, D2H = 1, 2
REAL_NAMES = {"create_config", "destroy_config", "init", "finalize", "start", "stop", "model_subscribe",
              "model_un_subscribe", "model_unsubscribe", "create_subscribe_config", "destroy_subscribe_config",
              "get_op_desc_size", "get_op_num", "get_op_type", "get_op_name", "get_op_type_v2", "get_op_name_v2",
              "get_op_start", "get_op_end", "get_op_duration", "get_model_id", "get_op_type_len",
              "get_op_name_len", "get_step_timestamp", "destroy_step_info", "create_step_info", "create_stamp",
              "destroy_stamp", "push", "pop", "range_start", "range_stop", "set_stamp_trace_message", "mark",
              "mark_ex", "set_config"}  # prof/pyprof_methods.cpp at 134e2edb


@pytest.fixture
def model(ready, tiny_models):
    model_id, ret = ready.mdl.load_from_file(tiny_models["static"])
    assert ret == 0
    ins, outs = ready.mdl.create_dataset(), ready.mdl.create_dataset()
    ptrs = []
    for ds in (ins, ins, outs, outs):
        p, _ = ready.rt.malloc(16, 0)
        ptrs.append(p)
        ready.mdl.add_dataset_buffer(ds, ready.create_data_buffer(p, 16))
    return model_id, ins, outs, ptrs


def _trace(folder):
    files = glob.glob(os.path.join(str(folder), "PROF_*_sim", "trace_view.json"))
    assert len(files) == 1, files
    with open(files[0], encoding="utf-8") as fh:
        return json.load(fh)


def test_acl_prof_has_the_bindings_names(acl):
    assert {n for n in dir(acl.prof) if not n.startswith("__")} == REAL_NAMES
    import sys
    sim.install(force=True)
    try:
        import acl.prof as p  # noqa: F811  (``import acl.prof`` works, as on a board)
        assert {n for n in dir(p) if not n.startswith("_")} == REAL_NAMES
        assert p.start is acl.prof.start
    finally:
        for name in [n for n in sys.modules if n == "acl" or n.startswith("acl.")]:
            del sys.modules[name]


def test_profiled_run_writes_a_timeline_with_the_tasks_in_order(ready, model, tmp_path):
    acl = ready
    model_id, ins, outs, ptrs = model
    out = tmp_path / "prof_out"
    assert acl.prof.init(str(out)) == 0
    cfg = acl.prof.create_config([0], P.ACL_AICORE_NONE, 0,
                                 P.ACL_PROF_ACL_API | P.ACL_PROF_TASK_TIME | P.ACL_PROF_MSPROFTX)
    assert cfg
    assert acl.prof.start(cfg) == 0
    assert acl.prof.start(cfg) == P.ACL_ERROR_PROF_ALREADY_RUN
    stream, _ = acl.rt.create_stream()
    x = np.arange(4, dtype=np.float32).tobytes()
    stamp = acl.prof.create_stamp()
    assert acl.prof.set_stamp_trace_message(stamp, "inference", len("inference")) == 0
    rid, ret = acl.prof.range_start(stamp)
    assert ret == 0 and rid >= 1
    acl.rt.memcpy_async(ptrs[0], 16, acl.util.bytes_to_ptr(x), 16, H2D, stream)
    acl.rt.memcpy_async(ptrs[1], 16, acl.util.bytes_to_ptr(x), 16, H2D, stream)
    acl.mdl.execute_async(model_id, ins, outs, stream)
    acl.rt.memcpy_async(acl.rt.malloc_host(16)[0], 16, ptrs[2], 16, D2H, stream)
    assert acl.prof.mark_ex("after D2H", stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.prof.range_stop(rid) == 0
    assert acl.prof.mark(stamp) == 0
    assert acl.prof.stop(cfg) == 0
    assert acl.prof.stop(cfg) == P.ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.destroy_config(cfg) == 0
    assert acl.prof.destroy_stamp(stamp) is None
    assert acl.prof.finalize() == 0
    doc = _trace(out)
    assert "simulator" in doc["otherData"]["note"]
    lanes = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e.get("name") == "thread_name"}
    lane = next(t for t, n in lanes.items() if n == f"stream {stream:#x}")
    tasks = [e for e in doc["traceEvents"] if e.get("tid") == lane and e["ph"] in ("X", "i") and e["cat"] != "op"]
    assert [e["cat"] for e in tasks] == ["memcpy", "memcpy", "model", "memcpy", "mark"]
    starts = [e["ts"] for e in tasks]
    assert starts == sorted(starts)
    for a, b in zip(tasks, tasks[1:]):
        if a["ph"] == "X":
            assert b["ts"] == pytest.approx(a["ts"] + a["dur"], abs=2e-3)  # back to back on one stream
    ops = [e for e in doc["traceEvents"] if e.get("cat") == "op"]
    assert [o["args"]["type"] for o in ops] == ["Add", "Mul"]
    model_ev = next(e for e in tasks if e["cat"] == "model")
    assert all(model_ev["ts"] <= o["ts"] and o["ts"] + o["dur"] <= model_ev["ts"] + model_ev["dur"] + 1e-3
               for o in ops)
    ranges = [e for e in doc["traceEvents"] if e.get("cat") == "range"]
    assert [r["name"] for r in ranges] == ["inference"]
    assert ranges[0]["dur"] == pytest.approx(sum(e["dur"] for e in tasks if e["ph"] == "X"), abs=5e-3)
    assert os.listdir(out) == [os.path.basename(os.path.dirname(glob.glob(str(out / "PROF_*" / "*"))[0]))]


def test_profiling_calls_in_the_wrong_order(ready):
    acl = ready
    cfg = acl.prof.create_config([0], 0, 0, P.ACL_PROF_TASK_TIME)
    assert acl.prof.start(cfg) == 100000  # before acl.prof.init
    assert acl.prof.finalize() == P.ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.create_config([5], 0, 0, 0) == 0  # no device 5
    with pytest.raises(TypeError):
        acl.prof.create_config(0, 0, 0, 0)
    with pytest.raises(TypeError, match=r"^acl\.prof\.Init args parse failed!"):  # the binding's own text (capital I)
        acl.prof.init(3)


def test_model_subscription_delivers_operator_records_through_the_pipe(ready, model, tmp_path):
    acl = ready
    model_id, ins, outs, ptrs = model
    r, w = os.pipe()
    try:
        sub = acl.prof.create_subscribe_config(1, P.ACL_AICORE_NONE, w)
        assert sub
        assert acl.prof.model_subscribe(model_id, sub) == 0
        assert acl.prof.model_subscribe(model_id, sub) == P.ACL_ERROR_PROF_REPEAT_SUBSCRIBE
        assert acl.prof.model_subscribe(999, sub) == 100011
        assert acl.mdl.execute(model_id, ins, outs) == 0
        size, ret = acl.prof.get_op_desc_size()
        assert ret == 0 and size > 0
        data = os.read(r, 2 * size)
        assert len(data) == 2 * size
        ptr = acl.util.bytes_to_ptr(data)
        assert acl.prof.get_op_num(ptr, len(data)) == (2, 0)
        assert acl.prof.get_op_type(ptr, len(data), 0, 65) == ("Add", 0)
        assert acl.prof.get_op_name(ptr, len(data), 1, 257) == ("mul0", 0)
        assert acl.prof.get_op_type_v2(ptr, len(data), 1) == ("Mul", 0)
        assert acl.prof.get_op_name_v2(ptr, len(data), 0) == ("add0", 0)
        assert acl.prof.get_op_type_len(ptr, len(data), 0) == (4, 0)
        assert acl.prof.get_op_name_len(ptr, len(data), 0) == (5, 0)
        assert acl.prof.get_op_type(ptr, len(data), 0, 2) == ("", 100000)
        assert acl.prof.get_op_type(ptr, len(data), 0, 5000) == ("", 100000)
        assert acl.prof.get_model_id(ptr, len(data), 0) == model_id
        s0, e0 = acl.prof.get_op_start(ptr, len(data), 0), acl.prof.get_op_end(ptr, len(data), 0)
        s1 = acl.prof.get_op_start(ptr, len(data), 1)
        assert 0 < s0 < e0 <= s1
        assert acl.prof.get_op_duration(ptr, len(data), 0) == e0 - s0
        assert acl.prof.get_op_num(ptr, size + 1) == (0, 100000)
        assert acl.prof.get_op_start(ptr, len(data), 7) == 0
        cfg = acl.prof.create_config([0], 0, 0, P.ACL_PROF_TASK_TIME)
        assert acl.prof.init(str(tmp_path / "unused")) == 0
        assert acl.prof.start(cfg) == P.ACL_ERROR_PROF_API_CONFLICT
        acl.prof.finalize()
        assert acl.prof.model_unsubscribe(model_id) == 0
        assert acl.prof.model_un_subscribe(model_id) == 100000
        assert acl.prof.destroy_subscribe_config(sub) == 0
    finally:
        os.close(r)
        os.close(w)
    assert os.listdir(tmp_path / "unused") == []  # no session ran: nothing written


def test_a_full_pipe_drops_records_with_a_warning_instead_of_hanging(ready, model, acl):
    model_id, ins, outs, _ = model
    r, w = os.pipe()
    try:
        sub = acl.prof.create_subscribe_config(1, 0, w)
        acl.prof.model_subscribe(model_id, sub)
        done = threading.Event()

        def run():
            for _ in range(400):  # 400 runs x 2 records x 256 bytes > a 64 KiB pipe
                acl.mdl.execute(model_id, ins, outs)
            done.set()
        t = threading.Thread(target=run)
        t.start()
        t.join(60)
        assert done.is_set()
        assert any("pipe is full" in x.message for x in sim.warnings())
    finally:
        os.close(r)
        os.close(w)


def test_acl_init_profiler_section_profiles_until_finalize(acl, tmp_path, tiny_models):
    out = tmp_path / "from_json"
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"profiler": {"switch": "on", "output": str(out), "task_time": "on"}}))
    assert acl.init(str(cfg)) == 0
    acl.rt.set_device(0)
    model_id, _ = acl.mdl.load_from_file(tiny_models["static"])
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    for ds in (ins, ins, outs, outs):
        p, _ = acl.rt.malloc(16, 0)
        acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(p, 16))
    assert acl.mdl.execute(model_id, ins, outs) == 0
    for ds in (ins, outs):
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i))
        acl.mdl.destroy_dataset(ds)
    acl.mdl.unload(model_id)
    acl.rt.reset_device(0)
    assert acl.finalize() == 0
    doc = _trace(out)
    cats = [e["cat"] for e in doc["traceEvents"] if e["ph"] == "X"]
    assert "model" in cats and cats.count("op") == 2


def test_acl_prof_init_is_refused_while_acl_inits_profiler_section_collects(acl, tmp_path):
    """The pyACL profiling guide: with profiling configured through acl.init, acl.prof.init … return an error."""
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"profiler": {"switch": "on", "output": str(tmp_path / "out")}}))
    assert acl.init(str(cfg)) == 0
    try:
        assert acl.prof.init(str(tmp_path / "api")) == 100042
        assert acl.prof.finalize() == 100043  # acl.prof.init never ran
    finally:
        assert acl.finalize() == 0
    assert acl.init() == 0  # a fresh process-wide init without the section: acl.prof works again
    try:
        assert acl.prof.init(str(tmp_path / "api")) == 0 and acl.prof.finalize() == 0
    finally:
        acl.finalize()


def test_acl_init_profiler_section_must_be_an_object(acl, tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"profiler": "on"}))
    assert acl.init(str(cfg)) == 100010


def test_inspection_api_lists_the_trace_files(ready, tmp_path):
    from acl_teach.sim import inspect as sim_inspect
    acl = ready
    assert sim_inspect.trace_files() == []
    acl.prof.init(str(tmp_path))
    cfg = acl.prof.create_config([0], 0, 0, P.ACL_PROF_TASK_TIME)
    acl.prof.start(cfg)
    dev, _ = acl.rt.malloc(1024, 0)
    before = sim_inspect.simulated_time_us()
    acl.rt.memset(dev, 1024, 0, 1024)
    assert sim_inspect.simulated_time_us() > before
    acl.prof.stop(cfg)
    files = sim_inspect.trace_files()
    assert len(files) == 1 and files[0].startswith(str(tmp_path)) and os.path.isfile(files[0])


def test_example_script_times_and_profiles_unmodified(tiny_models, tmp_path):
    """acl_teach/examples/time_and_profile.py (board-style pyACL) run with python -m acl_teach.sim."""
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = os.path.join(root, "acl_teach", "examples", "time_and_profile.py")
    out = tmp_path / "prof"
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", script, tiny_models["static"], str(out), "5"],
                          capture_output=True, text=True, timeout=300, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "leak report" not in proc.stderr and "Traceback" not in proc.stderr
    per_run = float(proc.stdout.split("runs: ")[1].split(" ms")[0])
    assert per_run > 0
    doc = _trace(out)
    models_run = [e for e in doc["traceEvents"] if e.get("cat") == "model"]
    assert len(models_run) == 5
    assert sum(e["dur"] for e in models_run) / 5 / 1000 == pytest.approx(per_run, abs=1e-3)
