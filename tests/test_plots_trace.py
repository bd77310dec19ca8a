"""plots.trace_timeline draws the Chrome trace acl.prof writes (the simulator's trace_view.json) and refuses an empty one."""
import glob
import json
import os

import pytest

from acl_teach.widgets import plots


def _doc(events):
    meta = [{"name": "thread_name", "ph": "M", "pid": 0, "tid": 1, "args": {"name": "stream 0x10"}},
            {"name": "thread_name", "ph": "M", "pid": 0, "tid": 2, "args": {"name": "thread 77 (msproftx)"}}]
    return {"traceEvents": meta + events}


def test_lanes_and_rows_from_the_metadata():
    events = [{"name": "copy", "cat": "memcpy", "ph": "X", "tid": 1, "ts": 10.0, "dur": 5.0, "args": {}},
              {"name": "conv", "cat": "op", "ph": "X", "tid": 1, "ts": 16.0, "dur": 3.0, "args": {"type": "Conv"}},
              {"name": "mine", "cat": "range", "ph": "X", "tid": 2, "ts": 10.0, "dur": 9.0, "args": {}}]
    doc = _doc(events)
    lanes = {tid: {"stream 0x10": "compute"}.get(n, n) for tid, n in plots._lanes(doc["traceEvents"]).items()}
    rows = plots._rows(doc["traceEvents"], lanes)
    assert [name for name, _ in rows] == ["compute", "compute · operators", "your program (msproftx)"]
    assert [len(evs) for _, evs in rows] == [1, 1, 1]
    image = plots.trace_timeline(doc, "t", {"stream 0x10": "compute"})
    assert image.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_empty_trace_is_a_clear_error():
    with pytest.raises(ValueError, match="no timed events"):
        plots.trace_timeline(_doc([]))


def test_draws_what_the_simulators_profiler_wrote(step_api, tmp_path):
    from acl_teach import backend
    acl = backend.acl()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    try:
        stream, _ = acl.rt.create_stream()
        ptr, _ = acl.rt.malloc(4096, 0)
        assert acl.prof.init(str(tmp_path)) == 0
        config = acl.prof.create_config([0], 0xFF, 0, 0x1 | 0x2)
        assert acl.prof.start(config) == 0
        assert acl.rt.memset(ptr, 4096, 0, 4096) == 0
        assert acl.rt.memcpy_async(ptr, 4096, ptr, 4096, 3, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert acl.prof.stop(config) == 0 and acl.prof.destroy_config(config) == 0 and acl.prof.finalize() == 0
        (path,) = glob.glob(os.path.join(str(tmp_path), "PROF_*_sim", "trace_view.json"))
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        names = [n for n, _ in plots._rows(doc["traceEvents"], plots._lanes(doc["traceEvents"]))]
        assert names == ["synchronous calls", f"stream {stream:#x}"]
        assert plots.trace_timeline(doc).data[:4] == b"\x89PNG"
        acl.rt.free(ptr)
        acl.rt.destroy_stream(stream)
    finally:
        acl.rt.reset_device(0)
        acl.finalize()


def test_thousands_of_operators_draw_as_one_collection_per_colour_and_lane(monkeypatch):
    """An inference's operators are drawn per colour, not one artist each (notebook 16 took 35 CPU-s that way)."""
    ops = [{"name": f"op{i}", "ph": "X", "pid": 0, "tid": 1, "ts": 10.0 * i, "dur": 8.0, "cat": "op",
            "args": {"type": ("Conv", "Relu", "Add")[i % 3]}} for i in range(3000)]
    task = [{"name": "memcpy_async", "ph": "X", "pid": 0, "tid": 1, "ts": 0.0, "dur": 5.0, "cat": "memcpy"}]
    drawn = []
    monkeypatch.setattr(plots, "_png", lambda fig: drawn.append(fig) or b"png")
    plots.trace_timeline(_doc(ops + task))
    (ax,) = [a for a in drawn[0].axes if a.collections]
    assert len(ax.collections) == 4  # Conv, Relu, Add, the memcpy task
    assert sum(len(c.get_paths()) for c in ax.collections) == 3001
