"""acl.mdl dump: init_dump / set_dump / finalize_dump order and codes, files written at execute, the callback."""
import contextlib
import json
import os
import signal

import numpy as np
import pytest

from acl_teach import sim

H2D = 1
A = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
B = np.array([[10.0, 20.0, 30.0, 40.0]], np.float32)


def _cfg(tmp_path, body, name="dump.json"):
    path = tmp_path / name
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    return str(path)


def _run_tiny(acl, path, before_execute=None):
    model_id, ret = acl.mdl.load_from_file(path)
    assert ret == 0
    if before_execute:
        before_execute(model_id)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    for arr in (A, B):
        ptr, _ = acl.rt.malloc(arr.nbytes, 0)
        assert acl.rt.memcpy(ptr, arr.nbytes, acl.util.bytes_to_ptr(arr.tobytes()), arr.nbytes, H2D) == 0
        acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(ptr, arr.nbytes))
    for _ in range(2):
        ptr, _ = acl.rt.malloc(16, 0)
        acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(ptr, 16))
    assert acl.mdl.execute(model_id, ins, outs) == 0
    return model_id


def test_order_and_codes(acl, tmp_path):
    sim.configure(explain=False)
    assert acl.mdl.init_dump() == 100001
    assert acl.init() == 0
    good = _cfg(tmp_path, {"dump": {"dump_path": str(tmp_path / "out"), "dump_list": []}})
    assert acl.mdl.set_dump(good) == 100045                        # init_dump first
    assert acl.mdl.finalize_dump() == 100045
    assert acl.mdl.init_dump() == 0
    assert acl.mdl.init_dump() == 100002
    assert acl.mdl.set_dump() == 100000                            # no path
    assert acl.mdl.set_dump(str(tmp_path / "missing.json")) == 100003
    assert acl.mdl.set_dump(_cfg(tmp_path, "", "empty.json")) == 0  # an empty file sets nothing
    assert acl.mdl.set_dump(_cfg(tmp_path, "{not json", "bad.json")) == 100009
    assert acl.mdl.set_dump(_cfg(tmp_path, {"dump": {"dump_list": []}}, "nopath.json")) == 100009
    assert acl.mdl.set_dump(_cfg(tmp_path, {"dump": {"dump_path": "x", "dump_mode": "some"}}, "mode.json")) == 100009
    assert acl.mdl.set_dump(good) == 0
    assert acl.mdl.finalize_dump() == 0
    assert acl.mdl.finalize_dump() == 100045
    assert acl.mdl.dump_reg_callback(print, 1) == 500001
    assert acl.mdl.dump_reg_callback(print, 0) == 0
    assert acl.mdl.dump_unreg_callback() is None
    assert acl.mdl.init_dump() == 0 and acl.finalize() == 0 and acl.init() == 0
    assert acl.mdl.init_dump() == 0                                 # finalize ended the dump service


def test_models_loaded_after_set_dump_write_their_tensors(ready, tiny_models, tmp_path):
    acl = ready
    early = _run_tiny(acl, tiny_models["static"])                   # loaded before set_dump: not dumped
    out = tmp_path / "out"
    cfg = _cfg(tmp_path, {"dump": {"dump_path": str(out), "dump_list": [{"model_name": "tiny"}], "dump_mode": "all"}})
    assert acl.mdl.init_dump() == 0 and acl.mdl.set_dump(cfg) == 0
    model_id = _run_tiny(acl, tiny_models["static"])
    files = sorted(p.relative_to(out) for p in out.rglob("*.npy"))
    assert len(files) == 4 and all(str(early) != f.parts[3] for f in files)
    assert [f.parts[1:] for f in files] == [("0", "tiny", str(model_id), "0", n) for n in
                                            ("input.0.a.npy", "input.1.b.npy", "output.0.add0_0_sum.npy",
                                             "output.1.mul0_0_scaled.npy")]
    assert np.array_equal(np.load(out / files[0]), A)
    assert np.array_equal(np.load(out / files[2]), A + B)
    assert acl.mdl.finalize_dump() == 0
    _run_tiny(acl, tiny_models["static"])
    assert len(list(out.rglob("*.npy"))) == 4                      # nothing more after finalize_dump


def test_callback_gets_chunks_and_unlisted_models_are_skipped(ready, tiny_models, tmp_path):
    acl = ready
    chunks = []
    def on_chunk(chunk):
        data = acl.util.ptr_to_numpy(chunk["data_buf"], (chunk["buf_len"],), 2).tobytes()  # NPY_UINT8
        chunks.append((chunk["file_name"], chunk["is_last_chunk"], chunk["offset"], data))
    assert acl.mdl.dump_reg_callback(on_chunk, 0) == 0
    assert acl.mdl.init_dump() == 0
    assert acl.mdl.set_dump(_cfg(tmp_path, {"dump": {"dump_list": [{"model_name": "other"}]}})) == 0
    _run_tiny(acl, tiny_models["static"])
    assert chunks == []                                            # not in dump_list
    assert acl.mdl.set_dump(_cfg(tmp_path, {"dump": {"dump_list": [{"model_name": "tiny"}]}}, "b.json")) == 0
    _run_tiny(acl, tiny_models["static"])
    assert [c[0].rsplit("/", 1)[-1] for c in chunks] == ["output.0.add0_0_sum.npy", "output.1.mul0_0_scaled.npy"]
    assert chunks[0][1:3] == (1, 0)
    assert np.frombuffer(chunks[1][3], np.float32).tolist() == (2 * A).ravel().tolist()     # scaled = 2 * a
    acl.mdl.dump_unreg_callback()


class _Hung(BaseException):
    """Raised by the alarm: a BaseException, so the dump's own ``except Exception`` cannot swallow it."""


@contextlib.contextmanager
def _within(seconds):
    """Fail (never hang the suite) when the body blocks, e.g. opening a FIFO nobody reads."""
    def ring(signum, frame):
        raise _Hung(f"blocked for more than {seconds} s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _dump_with(acl, tiny_models, tmp_path, monkeypatch, plant):
    """Dump the tiny model's outputs into tmp_path/out after ``plant(step folder)`` put something in the way."""
    from acl_teach.sim.mdl import dump
    monkeypatch.setattr(dump.time, "strftime", lambda fmt: "20261202000000")
    out = tmp_path / "out"
    cfg = _cfg(tmp_path, {"dump": {"dump_path": str(out), "dump_list": [{"model_name": "tiny"}]}})
    assert acl.mdl.init_dump() == 0 and acl.mdl.set_dump(cfg) == 0
    with _within(10):
        _run_tiny(acl, tiny_models["static"], lambda model_id: plant(out, out / "20261202000000" / "0" / "tiny"
                                                                          / str(model_id) / "0"))
    assert acl.mdl.finalize_dump() == 0
    return out


def _regular_dumps(out):
    return {p.name: np.load(p).tolist() for p in out.rglob("*.npy") if p.is_file() and not p.is_symlink()}


SUM = "output.0.add0_0_sum.npy"


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "fifo"])
def test_a_link_planted_at_a_dump_file_is_not_written_through(ready, tiny_models, tmp_path, monkeypatch, kind):
    """The dump folder is the user's: a link, hard link or FIFO at a tensor's file name is replaced by the
    dump (the entry, not its target), never written through or blocked on; the target stays untouched."""
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")

    def plant(out, where):
        where.mkdir(parents=True)
        entry = where / SUM
        {"symlink": lambda: entry.symlink_to(victim), "hardlink": lambda: os.link(victim, entry),
         "fifo": lambda: os.mkfifo(entry)}[kind]()
    out = _dump_with(ready, tiny_models, tmp_path, monkeypatch, plant)
    assert victim.read_text() == "mine"
    dumps = _regular_dumps(out)
    assert sorted(dumps) == [SUM, "output.1.mul0_0_scaled.npy"]
    assert dumps[SUM] == (A + B).tolist() and dumps["output.1.mul0_0_scaled.npy"] == (2 * A).tolist()
    assert os.stat(victim).st_nlink == 1                             # the hard link's entry was swapped out


def test_a_link_planted_at_a_dump_folder_is_not_followed(ready, tiny_models, tmp_path, monkeypatch):
    """A symbolic link at a folder level (<dump_path>/<stamp> -> elsewhere) fails that dump with 500000."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def plant(out, where):
        out.mkdir()
        (out / "20261202000000").symlink_to(elsewhere, target_is_directory=True)
    out = _dump_with(ready, tiny_models, tmp_path, monkeypatch, plant)
    assert list(elsewhere.iterdir()) == []
    assert _regular_dumps(out) == {}
    assert "symbolic link" in ready.get_recent_err_msg()
