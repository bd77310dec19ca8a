"""Issue 19: nothing a file, a learner or a server sends can kill a stream, eat the machine, hang, or write
outside its folder. One regression test per bug the fuzzing campaign found (each failed before its fix).

Codes: a task the device rejects is 507018 (UNCONFIRMED, reference §6.1, sim/media/dvpp/common.py); a task whose
body raises is reported once with its task's fault code (sim/rt/stream.run_task) and the stream keeps working.
"""
import io

import numpy as np
import pytest
from PIL import Image
from test_dvpp_accuracy import blocky_jpeg
from test_dvpp_bad_input import FAULT, NV12, Kit, good_jpeg, info

from acl_teach.sim import inspect as sim_inspect


@pytest.fixture
def kit(ready):
    return Kit(ready)


def zero_chroma_factors(raw):
    """The JPEG with both chroma components' sampling factors set to 0 (byte 0x00 in the SOF0 record)."""
    raw = bytearray(raw)
    sof = raw.index(b"\xff\xc0")
    for comp in (1, 2):
        raw[sof + 2 + 2 + 6 + 3 * comp + 1] = 0x00
    return bytes(raw)


# --- a task that raises never poisons its stream ---------------------------------------------------------
def test_a_raising_task_fails_once_with_its_code_and_the_stream_keeps_working(ready):
    """Whatever is queued (VDEC/VENC included, later): its exception is one failed sync, not a dead stream."""
    from acl_teach.sim.rt.memory import _queue
    stream, _ = ready.rt.create_stream()
    ran = []
    assert _queue("acl.test", stream, "a kind queued later", lambda: 1 // 0) == 0
    assert _queue("acl.test", stream, "the next task", lambda: ran.append(1)) == 0
    assert ready.rt.synchronize_stream(stream) == 507000
    msg = ready.get_recent_err_msg()
    assert "a kind queued later failed on the device" in msg and "ZeroDivisionError" in msg
    assert ran == [1]  # the task behind it still ran
    assert ready.rt.synchronize_stream(stream) == 0  # reported once
    assert _queue("acl.test", stream, "dvpp-like", lambda: (_ for _ in ()).throw(MemoryError("x" * 10**6)),
                  fault=507018) == 0
    assert ready.rt.synchronize_stream(stream) == 507018
    assert len(ready.get_recent_err_msg()) < 2000  # a huge exception text is bounded
    assert ready.rt.synchronize_stream(stream) == 0
    assert ready.rt.destroy_stream(stream) == 0


def test_jpeg_with_zero_chroma_sampling_factors(ready, kit):
    """High 1: get_image_info_v2 raised ZeroDivisionError and the queued decode raised at every sync."""
    raw = zero_chroma_factors(blocky_jpeg(64, 48, [(2, 2), (1, 1), (1, 1)]))
    w, h, comps, css, ret = info(ready, raw, v2=True)
    assert (w, h, comps, css, ret) == (0, 0, 0, 0, 500001)  # libjpeg: bogus sampling factors
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "JPEGD")
    assert ready.rt.synchronize_stream(kit.stream) == 0  # failed once, not at every sync
    kit.finish()


def nv12_desc(kit, w, h, ws, hs):
    d = kit.desc(w, h, ws, hs)
    data = kit.media.dvpp_get_pic_desc_data(d)
    assert kit.acl.rt.memset(data, ws * hs * 3 // 2, 0x80, ws * hs * 3 // 2) == 0
    return d


def encode(kit, d):
    cfg = kit.media.dvpp_create_jpege_config()
    size, ret = kit.media.dvpp_jpeg_predict_enc_size(d, cfg)
    assert ret == 0
    out = kit.mem(size)
    cap = np.array([size], np.uint32).tobytes()  # as the samples build it; the size lands in this object
    kit.keep.append(cap)
    queued = kit.media.dvpp_jpeg_encode_async(kit.ch, d, out, kit.acl.util.bytes_to_ptr(cap), cfg, kit.stream)
    return queued, cfg, cap


def test_jpege_of_an_odd_height_picture(ready, kit):
    """High 2: heightStride == height == 33 is accepted by predict_enc_size; the device refuses odd sizes
    (JPEGE input: NV12/NV21 with even width and height [DOC-JPEGE]) instead of a ValueError at every sync."""
    d = nv12_desc(kit, 64, 33, 64, 33)
    queued, cfg, _ = encode(kit, d)
    assert queued == 0
    assert ready.rt.synchronize_stream(kit.stream) == FAULT
    assert "even" in ready.get_recent_err_msg()
    assert ready.rt.synchronize_stream(kit.stream) == 0
    good = nv12_desc(kit, 64, 32, 64, 32)
    queued, cfg2, cap = encode(kit, good)
    assert queued == 0 and ready.rt.synchronize_stream(kit.stream) == 0
    assert 0 < int.from_bytes(cap, "little") < 2 ** 21
    for c in (cfg, cfg2):
        assert kit.media.dvpp_destroy_jpege_config(c) == 0
    kit.finish()


def test_batch_pic_desc_of_minus_one_is_refused_at_once(ready):
    """High 5: 'I' wraps -1 to 4294967295; building that many descs hung, then ran out of memory."""
    import time
    start = time.monotonic()
    assert ready.media.dvpp_create_batch_pic_desc(-1) == 0
    assert ready.media.dvpp_create_batch_pic_desc(2 ** 20) == 0
    assert time.monotonic() - start < 1
    assert "batch_size" in ready.get_recent_err_msg()
    batch = ready.media.dvpp_create_batch_pic_desc(256)
    assert batch and ready.media.dvpp_get_pic_desc(batch, 255)
    assert ready.media.dvpp_destroy_batch_pic_desc(batch) == 0


def test_batch_vpc_with_a_negative_roi_count(ready, kit):
    """Low: roi_nums [3, -2] adds up to one ROI; it raised IndexError instead of 100000."""
    media = ready.media
    src, dst = media.dvpp_create_batch_pic_desc(2), media.dvpp_create_batch_pic_desc(2)
    roi = kit.roi(0, 63, 0, 47)
    for nums in ([3, -2], [-1, 2]):
        got = media.dvpp_vpc_batch_crop_async(kit.ch, src, nums, dst, [roi], kit.stream)
        assert got == (dst, 100000)
    assert media.dvpp_destroy_batch_pic_desc(src) == 0 and media.dvpp_destroy_batch_pic_desc(dst) == 0
    kit.finish()


# --- dynamic AIPP: a block not written by set_input_aipp ------------------------------------------------
def aipp_session(acl, tmp_path, n=1):
    from test_aipp_dynamic import Session, convert
    return Session(acl, convert(tmp_path, n=n, max_size=4096))


def write_block(acl, s, block):
    ptr, size = s.ptrs[1]
    assert acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(block), len(block), 1) == 0


def hand_block(**fields):
    from acl_teach.spec import aipp as A
    head = np.zeros(1, A.DYNAMIC_HEAD)
    batch = np.zeros(1, A.DYNAMIC_BATCH)
    head["inputFormat"], head["batchNum"], head["srcImageSizeW"], head["srcImageSizeH"] = 1, 1, 8, 8
    batch["varReci"] = A.fp16_bits(1.0)
    for key, value in fields.items():
        (head if key in A.DYNAMIC_HEAD.names else batch)[key] = value
    return head.tobytes() + batch.tobytes()


@pytest.mark.parametrize("fields", [
    {"srcImageSizeW": 2 ** 31 - 1, "srcImageSizeH": 2 ** 31 - 1},  # asked for 8 PiB (MemoryError)
    {"srcImageSizeW": 4096, "srcImageSizeH": 4096},                  # fits the ranges, not the model
    {"cropSwitch": 1, "crop": [0, 0, 2 ** 30, 2 ** 30]},
    {"paddingSwitch": 1, "padding": [2 ** 20, 2 ** 20, 2 ** 20, 2 ** 20]},  # +14.9 GB for a 160-byte block
    {"paddingSwitch": 1, "padding": [-5, 0, 0, 0]},
    {"cscSwitch": 7},
    {"varReci": [0x7E00] * 4},   # NaN
    {"srcImageSizeW": 7},        # odd YUV420SP: reshape ValueError
])
def test_execute_with_a_hand_made_aipp_block_fails_cleanly(ready, tmp_path, fields):
    """High 3: a memset or hand-made ascend_dynamic_aipp_data block is 507011 from execute, bounded memory."""
    import tracemalloc
    s = aipp_session(ready, tmp_path)
    write_block(ready, s, hand_block(**fields))
    tracemalloc.start()
    try:
        assert s.execute()[1] == 507011
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20
    assert "no valid AIPP parameters" in ready.get_recent_err_msg()
    write_block(ready, s, hand_block())  # a good block on the same model still runs
    out, ret = s.execute()
    assert ret == 0 and out.shape == (3 * 8 * 8,)


def test_execute_with_a_memset_aipp_block(ready, tmp_path):
    s = aipp_session(ready, tmp_path)
    ptr, size = s.ptrs[1]
    for value in (0, 0xFF, 0x01):
        assert ready.rt.memset(ptr, size, value, size) == 0
        assert s.execute()[1] == 507011


def test_get_aipp_data_size_of_a_huge_batch(ready):
    """Low: 2**64-1 returned 1.77e21 with ret 0; the block's batchNum is an int8."""
    assert ready.mdl.get_aipp_data_size(2 ** 64 - 1) == (0, 100000)
    assert ready.mdl.get_aipp_data_size(128) == (0, 100000)
    assert ready.mdl.get_aipp_data_size(127) == (64 + 96 * 127, 0)


def test_a_4d_output_of_an_aipp_model_keeps_the_model_format(ready, tmp_path):
    """Low: with AIPP inserted the 4-D output reported NHWC (the AIPP input's format) instead of NCHW."""
    from acl_teach.spec.constants import ACL_FORMAT_NCHW
    s = aipp_session(ready, tmp_path)
    assert ready.mdl.get_output_format(s.desc, 0) == ACL_FORMAT_NCHW


# --- widgets given garbage -----------------------------------------------------------------------------
def peak_of(func, *args):
    """(result or exception, peak bytes traced) of one call."""
    import tracemalloc
    tracemalloc.start()
    try:
        try:
            got = func(*args)
        except Exception as exc:  # noqa: BLE001 - the caller checks which
            got = exc
        return got, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("ws, hs", [(8192, 8192), (1024, 1024), (2 ** 20, 64), (64, 2 ** 31)])
def test_yuv_view_bounds_the_strides_before_allocating(ready, ws, hs):
    """High 4: 8192 x 8192 strides over a 6 KB buffer took 3 GB, then MemoryError."""
    pytest.importorskip("ipywidgets")
    from acl_teach.widgets import YuvView
    media = ready.media
    ptr, _ = media.dvpp_malloc(6144)
    d = media.dvpp_create_pic_desc()
    for field, value in (("data", ptr), ("size", 6144), ("format", 1), ("width", 64), ("height", 48),
                         ("width_stride", ws), ("height_stride", hs)):
        assert getattr(media, f"dvpp_set_pic_desc_{field}")(d, value) == 0
    got, peak = peak_of(YuvView, d)
    if ws * hs <= 4096 * 4096:
        assert isinstance(got, YuvView) and "holds only 6144" in repr(got)
    else:
        assert isinstance(got, ValueError) and "strides" in str(got)
    assert peak < 1 << 30
    assert media.dvpp_destroy_pic_desc(d) == 0 and media.dvpp_free(ptr) == 0


@pytest.mark.parametrize("make", ["DimsView", "Top5View", "DescExplorer"])
@pytest.mark.parametrize("garbage", [None, 0, "model.om", {}, [1, 2]])
def test_widgets_given_the_wrong_type_say_what_they_take(step_api, make, garbage):
    """Low: DimsView / Top5View / DescExplorer raised AttributeError or KeyError: None."""
    pytest.importorskip("ipywidgets")
    from acl_teach import widgets
    with pytest.raises(TypeError, match="takes a|empty dict|labels"):
        getattr(widgets, make)(garbage)


def test_inspect_read_of_a_negative_size(ready):
    """Low: read(ptr, -5) returned nearly the whole buffer."""
    ptr, _ = ready.rt.malloc(64, 0)
    with pytest.raises(ValueError, match="size"):
        sim_inspect.read(ptr, -5)
    assert sim_inspect.read(ptr, 0) == b""
    assert len(sim_inspect.read(ptr, 64)) == 64
    assert ready.rt.free(ptr) == 0


def test_buffer_view_of_a_negative_size(ready):
    """Low: BufferView showed '-5 bytes'."""
    pytest.importorskip("ipywidgets")
    from acl_teach.widgets import BufferView
    ptr, _ = ready.rt.malloc(64, 0)
    with pytest.raises(ValueError, match="size"):
        BufferView(ptr, -5)
    assert ready.rt.free(ptr) == 0


# --- tampered OM headers (format 1, or re-sealed with a valid digest) --------------------------------------
AIPP_EDITS = {
    "aipp not a dict": lambda e, b: e.update(aipp=[1, 2]),
    "aipp type 9": lambda e, b: e["aipp"].update(type=9),
    "aipp type unhashable": lambda e, b: e["aipp"].update(type=[2]),
    "aipp no cfg": lambda e, b: e["aipp"].pop("cfg"),
    "aipp src_dims short": lambda e, b: e["aipp"].update(src_dims=[1]),
    "aipp model_hw text": lambda e, b: e["aipp"].update(model_hw="8x8"),
    "aipp max_src huge": lambda e, b: e["aipp"]["cfg"].update(max_src_image_size=1 << 62),
    "aipp data input lost": lambda e, b: b.pop("aipp"),  # StopIteration: no ascend_dynamic_aipp_data node
    "aipp data input twice": lambda e, b: e.update(aipp=dict(b["aipp"])),
    "data type unhashable": lambda e, b: e.update(data_type=[0]),
    "onnx type unhashable": lambda e, b: e.update(onnx_type={"a": 1}),
    "format unhashable": lambda e, b: b.update(format=[2]),
}


def six_mdl_calls(acl, model_id):
    """The acl.mdl calls that read a loaded model's input records."""
    desc = acl.mdl.create_desc()
    got = [acl.mdl.get_desc(desc, model_id)]
    for i in range(2):
        got += [acl.mdl.get_aipp_type(model_id, i), acl.mdl.get_first_aipp_info(model_id, i),
                acl.mdl.get_input_dims(desc, i), acl.mdl.get_input_dims_v2(desc, i), acl.mdl.get_input_format(desc, i)]
    acl.mdl.destroy_desc(desc)
    return got


@pytest.mark.parametrize("edit", sorted(AIPP_EDITS))
def test_tampered_aipp_records_fail_to_load(ready, tmp_path, edit):
    """Medium 6: TypeError / KeyError / StopIteration / ValueError escaped from six acl.mdl calls."""
    from test_aipp_dynamic import convert
    from test_sim_robustness import legacy_om, load_bytes, split_om

    from acl_teach.spec import om
    header, graph = split_om(convert(tmp_path))
    entry, block = header["inputs"]
    AIPP_EDITS[edit](entry, block)
    for data in (om.dumps(header, graph), legacy_om(header, graph)):
        model_id, ret = load_bytes(ready, data)
        if ret == 0:  # only an edit the loader may accept loads; then no call raises
            six_mdl_calls(ready, model_id)
            assert ready.mdl.unload(model_id) == 0
        assert ret == 100012, edit
    assert not [e for e in sim_inspect.live() if e.kind == "model"]


def test_a_deeply_nested_header_is_a_corrupted_header(ready):
    from acl_teach.spec import om
    import struct
    blob = b"[" * 200000 + b"]" * 200000
    data = om.MAGIC_V1 + struct.pack("<I", len(blob)) + blob
    with pytest.raises(om.OmError) as info:
        om.loads(data, "m.om")
    assert info.value.code == 100012


# --- ATC: Python's own errors are ATC's failure line ------------------------------------------------------
STATIC_CFG = """aipp_op {
aipp_mode : static
input_format : RGB888_U8
%s
}
"""


def atc_with_cfg(tmp_path, body):
    """(exit code, stderr) of the ATC emulator converting an 8x8 identity model with this cfg."""
    import io as _io
    from test_aipp import identity_onnx

    from acl_teach.toolchain import atc
    onnx_path = identity_onnx(tmp_path / "x.onnx", 8, 8)
    (tmp_path / "x.cfg").write_text(STATIC_CFG % body if "aipp_op" not in body else body)
    err = _io.StringIO()
    code = atc.run([f"--model={onnx_path}", "--framework=5", f"--output={tmp_path / 'x'}", "--soc_version=Ascend310",
                    f"--insert_op_conf={tmp_path / 'x.cfg'}"], out=_io.StringIO(), err=err)
    return code, err.getvalue()


@pytest.mark.parametrize("body, words", [
    ("mean_chn_0 : " + "9" * 400, "integer"),          # medium 7: OverflowError traceback
    ("matrix_r0c0 : 1_000", "integer"),                 # accepted as 1000
    ("mean_chn_0 : \u0661\u0662", "integer"),            # Arabic-Indic digits accepted as 12
    ("var_reci_chn_0 : nan", "finite"), ("min_chn_0 : inf", "finite"), ("var_reci_chn_0 : 1e999", "finite"),
    ("src_image_size_w : 10\nsrc_image_size_h : 10\ncrop : true\nload_start_pos_w : -2\ncrop_size_w : 8\n"
     "crop_size_h : 8", "load_start_pos"),  # 0-byte output
    ("mean_chn_0 = 10", "key : value"),                 # silently dropped
    ("mean_chn_0 : 300", "outside"),
    ("bogus words here", "key : value"),
])
def test_atc_refuses_what_its_cfg_parser_used_to_take_or_trip_on(tmp_path, body, words):
    code, err = atc_with_cfg(tmp_path, body)
    assert code == 1 and "ATC run failed" in err and words in err, err
    assert "Traceback" not in err and not (tmp_path / "x.om").exists()


def test_atc_cfg_outside_any_block_is_refused(tmp_path):
    code, err = atc_with_cfg(tmp_path, "mean_chn_0 : 1\n" + STATIC_CFG % "")
    assert code == 1 and "aipp_op {" in err


def test_atc_cfg_parsing_is_linear(tmp_path):
    """Low: a 40 KB token took 16-29 s (the block regex backtracked quadratically)."""
    import time
    start = time.monotonic()
    code, err = atc_with_cfg(tmp_path, "a" * 40000)
    assert code == 1 and time.monotonic() - start < 5
    from acl_teach.toolchain import aipp
    start = time.monotonic()
    with pytest.raises(aipp.AippError):
        aipp.parse("aipp_op {" + "x" * 400000)
    with pytest.raises(aipp.AippError):
        aipp.parse("aipp_op { mean_chn_0 " * 20000)
    assert time.monotonic() - start < 2


@pytest.mark.parametrize("text", [
    '[{"op": "Add", "input_desc": [{"format": "ND", "shape": [Infinity], "type": "float32"}]}]',
    '[{"op": "Add", "input_desc": [{"format": "ND", "shape": [1e999], "type": "float32"}]}]',
    "[" * 200000 + "]" * 200000,
    '[{"op": "Add", "input_desc": ' + "[" * 200000 + "]" * 200000 + "}]",
])
def test_atc_singleop_with_infinity_or_deep_nesting(tmp_path, text):
    """Medium 8: OverflowError / RecursionError tracebacks instead of ATC's failure line."""
    from test_sim_op_helpers import run_atc
    rc, out, err, folder = run_atc(tmp_path, text)
    assert rc == 1 and "ATC run failed" in err and "E100" in err, err
    assert len(err) < 2000


# --- fetch against a hostile local HTTP server -------------------------------------------------------------
class Hostile:
    """A raw TCP server answering every connection with a scripted byte sequence (pauses between parts)."""

    def __init__(self, script):
        import socket
        import threading
        self.script, self.sock = script, socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port, self.stop = self.sock.getsockname()[1], threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        import threading
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn):
        import time
        try:
            conn.recv(65536)
            for part in self.script(self.port):
                if isinstance(part, float):
                    if self.stop.wait(part):
                        return
                else:
                    conn.sendall(part)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self):
        self.stop.set()
        self.sock.close()


def head(status=b"200 OK", *headers):
    return b"HTTP/1.1 " + status + b"\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n"


HOSTILE = {
    "bad content-length": lambda port: [head(b"200 OK", b"Content-Length: abc"), b"x" * 10],
    "negative content-length": lambda port: [head(b"200 OK", b"Content-Length: -5"), b"x" * 10],
    "cut chunked body": lambda port: [head(b"200 OK", b"Transfer-Encoding: chunked"), b"10\r\n12345"],
    "bad chunk size": lambda port: [head(b"200 OK", b"Transfer-Encoding: chunked"), b"zz\r\n12345\r\n"],
    "bad status line": lambda port: [b"HTTQ/9 banana\r\n\r\n"],
    "101 headers": lambda port: [head(b"200 OK", *[b"X-%d: y" % i for i in range(101)])],
    "redirect loop": lambda port: [head(b"302 Found", b"Location: /again", b"Content-Length: 0")],
    "redirect to file": lambda port: [head(b"302 Found", b"Location: file:///etc/passwd", b"Content-Length: 0")],
    "redirect to ftp": lambda port: [head(b"302 Found", b"Location: ftp://127.0.0.1/x", b"Content-Length: 0")],
    "trickle": lambda port: [head(b"200 OK", b"Content-Length: 1000")] + [b"x", 0.2] * 100,
    "silent": lambda port: [head(b"200 OK", b"Content-Length: 1000"), 30.0],
}
HOSTILE_WORDS = {"redirect loop": "redirect", "redirect to file": "only http(s)", "redirect to ftp": "only http(s)",
                 "trickle": "stalled", "silent": "interrupted"}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_fetch_against_a_hostile_server_fails_with_one_line(tmp_path, case):
    """Medium 10 and low: raw ValueError / IncompleteRead / BadStatusLine / HTTPException, 'HTTP 302' for loops
    and file:// redirects, ftp:// followed, a 1 byte/s server kept forever."""
    import time

    from acl_teach.toolchain import fetch
    server = Hostile(HOSTILE[case])
    start = time.monotonic()
    try:
        with pytest.raises(fetch.FetchError) as info:
            fetch.download(f"http://127.0.0.1:{server.port}/resnet50.onnx", str(tmp_path / "r.onnx"), io.StringIO(),
                           timeout=1.0, deadline=20.0, stall_window=1.0, min_rate=100)
    finally:
        server.close()
    text = str(info.value)
    assert "\n" not in text and len(text) < 500 and "HTTP 302" not in text
    assert HOSTILE_WORDS.get(case, "") in text, text
    assert time.monotonic() - start < 10


def test_fetch_has_an_overall_deadline(tmp_path):
    """A server fast enough for the stall check but endless: the deadline ends it."""
    import time

    from acl_teach.toolchain import fetch
    server = Hostile(lambda port: [head(b"200 OK")] + [b"x" * 2000, 0.05] * 1000)
    start = time.monotonic()
    try:
        with pytest.raises(fetch.FetchError, match="took more than 2 s"):
            fetch.download(f"http://127.0.0.1:{server.port}/r.onnx", str(tmp_path / "r.onnx"), io.StringIO(),
                           timeout=1.0, deadline=2.0, stall_window=1.0, min_rate=100)
    finally:
        server.close()
    assert time.monotonic() - start < 6


# --- never write through a link: course init, lab --dir ---------------------------------------------------
def test_course_init_never_writes_through_a_dangling_link(tmp_path, capsys):
    """Medium 9: exists() is false for a dangling link, copyfile/open followed it out of DIR."""
    import os

    from acl_teach import cli
    outside = tmp_path / "outside"
    outside.mkdir()
    course_dir = tmp_path / "c d"  # a space: the printed 'next: cd' hint must be shell-quoted (low)
    os.makedirs(course_dir / "source" / "01_init_and_resources")
    os.symlink(outside / "config.py", course_dir / "nbgrader_config.py")
    os.symlink(outside / "nb.ipynb", course_dir / "source" / "01_init_and_resources" / "01_init_and_resources.ipynb")
    assert cli.main(["course", "init", str(course_dir)]) == 0
    assert os.listdir(outside) == []
    assert "next: cd '" + str(course_dir) + "' &&" in capsys.readouterr().out
    assert os.path.isfile(course_dir / "source" / "02_load_model" / "02_load_model.ipynb")


def test_course_init_refuses_a_linked_folder_inside_dir(tmp_path, capsys):
    import os

    from acl_teach import cli
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "c").mkdir()
    os.symlink(outside, tmp_path / "c" / "source")
    assert cli.main(["course", "init", str(tmp_path / "c")]) == 2
    assert "symbolic link" in capsys.readouterr().err and os.listdir(outside) == []


@pytest.mark.parametrize("timeout", ["0", "-5"])
def test_course_init_refuses_a_timeout_that_disables_nbgraders(tmp_path, capsys, timeout):
    """Low: --timeout 0 (or negative) switched nbgrader's cell timeout off."""
    import os

    from acl_teach import cli
    assert cli.main(["course", "init", str(tmp_path / "c"), "--timeout", timeout]) == 2
    assert "positive" in capsys.readouterr().err and not os.path.exists(tmp_path / "c" / "nbgrader_config.py")


def test_lab_workspace_never_writes_through_a_dangling_link(tmp_path):
    import os

    from acl_teach import cli
    notebooks, data = tmp_path / "pkg" / "notebooks", tmp_path / "pkg" / "data"
    (data / "images").mkdir(parents=True)
    notebooks.mkdir()
    (notebooks / "00_welcome.ipynb").write_text("shipped")
    (data / "labels.txt").write_text("labels")
    outside = tmp_path / "outside"
    outside.mkdir()
    ws = tmp_path / "ws"
    (ws / "notebooks").mkdir(parents=True)
    os.symlink(outside / "welcome.ipynb", ws / "notebooks" / "00_welcome.ipynb")
    kept = cli.lab_workspace(str(ws), str(notebooks), str(data))
    assert kept == [os.path.join("notebooks", "00_welcome.ipynb")] and os.listdir(outside) == []
    import shutil
    shutil.rmtree(ws / "data")
    os.symlink(outside, ws / "data")
    with pytest.raises(OSError, match="symbolic link"):
        cli.lab_workspace(str(ws), str(notebooks), str(data))
    assert os.listdir(outside) == []


# --- files read only if regular, with a cap ----------------------------------------------------------------
def special_files(tmp_path):
    import os
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    os.symlink("/dev/zero", zero)
    return [fifo, zero]


def test_recipe_from_a_fifo_or_dev_zero(tmp_path):
    """Medium 12: --recipe on a FIFO hung forever; on a link to /dev/zero it read until MemoryError."""
    import time

    from acl_teach.toolchain import recipes
    for path in special_files(tmp_path):
        start = time.monotonic()
        with pytest.raises(recipes.RecipeError, match="not a regular file"):
            recipes.resolve(str(path), "model.om")
        assert time.monotonic() - start < 2
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 << 20) + b"{}")
    with pytest.raises(recipes.RecipeError, match="limit"):
        recipes.resolve(str(big), "model.om")


def test_decode_jpeg_from_a_fifo_or_dev_zero(step_api, tmp_path):
    at = step_api
    at.init()
    res = at.request_resources(0)
    ch = at.media.open_channel()
    try:
        for path in special_files(tmp_path):
            with pytest.raises(ValueError, match="not a regular file"):
                at.media.decode_jpeg(str(path), ch, res)
    finally:
        at.media.close_channel(ch)
        at.release_resources(res)
        at.finalize()


# --- checkers survive anything the learner's code does -----------------------------------------------------
@pytest.fixture
def lab_acl(step_api):
    from acl_teach import backend
    acl = backend.acl()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield acl
    acl.rt.reset_device(0)
    acl.finalize()


def leaving(acl, exc_factory):
    """A learner's load_with_my_memory that allocates device memory, then raises ``exc_factory()``."""
    def load_with_my_memory(path):
        acl.rt.malloc(1024, 0)
        raise exc_factory()
    return load_with_my_memory


@pytest.mark.parametrize("make, name", [
    (lambda: SystemExit(3), "SystemExit"), (lambda: KeyboardInterrupt(), "KeyboardInterrupt"),
    (lambda: type("Boom", (BaseException,), {})(), "Boom"), (lambda: GeneratorExit(), "GeneratorExit"),
])
def test_a_learner_function_that_exits_is_feedback_and_cleanup_runs(lab_acl, default_om, make, name):
    """Medium 11: sys.exit() / exit() / BaseException escaped the checker and its cleanup was skipped."""
    from acl_teach import lab
    fb = lab.check_model_memory(leaving(lab_acl, make), default_om)
    assert not fb and name in fb.message and fb.message_zh
    free, total, _ = lab_acl.rt.get_mem_info(0)
    assert free == total, "cleanup skipped: the learner's allocation is alive"


def test_a_huge_learner_message_is_bounded(lab_acl, default_om):
    """Low: a learner's 50 MB exception message was copied whole into the feedback."""
    from acl_teach import lab
    fb = lab.check_model_memory(leaving(lab_acl, lambda: ValueError("x" * (50 << 20))), default_om)
    assert not fb and len(fb.message) < 1000 and len(fb.message_zh) < 1000 and "characters" in fb.message


def test_two_checkers_in_two_threads_always_unwrap(lab_acl, default_om):
    """Low: the second checker to finish put back the first checker's wrappers, leaving acl recorded forever."""
    import threading

    from acl_teach import lab
    originals = {name: getattr(lab_acl.rt, name) for name in ("malloc", "free")}
    gate = threading.Barrier(2)

    def learner(path):
        gate.wait(5)
        lab_acl.rt.malloc(64, 0)
        gate.wait(5)
        return 0

    results = []
    threads = [threading.Thread(target=lambda: results.append(lab.check_model_memory(learner, default_om)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(results) == 2
    assert {name: getattr(lab_acl.rt, name) for name in originals} == originals  # unwrapped
    free, total, _ = lab_acl.rt.get_mem_info(0)
    assert free == total  # each checker cleaned its learner's allocation up


# --- EXIF-rotated JPEGs ------------------------------------------------------------------------------------
def exif_jpeg(orientation, size=(96, 64)):
    from test_dvpp_accuracy import photo_jpeg
    im = Image.open(io.BytesIO(photo_jpeg("chelsea.png", size)))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=95, exif=exif.tobytes())
    return buf.getvalue()


@pytest.mark.parametrize("orientation", [1, 3, 5, 6, 7, 8])
def test_exif_rotated_jpegs_decode_through_the_step_api(step_api, orientation):
    """Medium 13: get_image_info swapped width/height for 5-8, predict_dec_size and JPEGD did not: 507018."""
    at = step_api
    raw = exif_jpeg(orientation)
    at.init()
    res = at.request_resources(0)
    ch = at.media.open_channel()
    try:
        pic = at.media.decode_jpeg(raw, ch, res)
        want = (64, 96) if orientation >= 5 else (96, 64)
        assert (pic.width, pic.height) == want
        upright = Image.open(io.BytesIO(raw))
        upright.draft("YCbCr", None)
        from acl_teach.sim.media.dvpp.jpeg import _TRANSPOSE
        turn = _TRANSPOSE.get(orientation)
        luma = np.asarray(upright.transpose(turn) if turn is not None else upright)[..., 0]
        from acl_teach import backend
        data = backend.inspector().read(pic.ptr, pic.width_stride * pic.height)
        y = np.frombuffer(data, np.uint8).reshape(pic.height, pic.width_stride)[:, :pic.width]
        assert np.array_equal(y, luma)
        at.media.release_picture(pic)
    finally:
        at.media.close_channel(ch)
        at.release_resources(res)
        at.finalize()


def huge_header(width, height):
    """A JPEG whose frame header says width x height (only the header: the pixels never decode)."""
    raw = bytearray(blocky_jpeg(64, 48, [(2, 2), (1, 1), (1, 1)]))
    sof = raw.index(b"\xff\xc0")
    raw[sof + 5:sof + 7] = height.to_bytes(2, "big")
    raw[sof + 7:sof + 9] = width.to_bytes(2, "big")
    return bytes(raw)


@pytest.mark.parametrize("width, height", [(12000, 9000), (65000, 65000)])
def test_jpeg_headers_above_pillows_pixel_limit(ready, kit, recwarn, width, height):
    """Low: DecompressionBombWarning printed, or 500001 instead of the dimensions."""
    raw = huge_header(width, height)
    assert info(ready, raw) == (width, height, 3, 0)
    assert ready.media.dvpp_jpeg_predict_dec_size(ready.util.bytes_to_ptr(raw), len(raw), NV12) == (0, 100000)
    out = kit.decode_desc(64, 48)
    kit.device_fault(kit.decode(raw, out), out, "outside 32..8192")
    assert not [w for w in recwarn if "DecompressionBomb" in type(w.message).__name__]
    kit.finish()


# --- memory: the first-use race, the freed-range list ------------------------------------------------------
def test_two_threads_first_allocations_land_in_one_memory_space(acl, monkeypatch):
    """Medium 14: space() made the space lazily without a lock; one thread's allocation could be dropped."""
    import threading
    import time

    from acl_teach.sim.rt import memory
    real_init = memory.MemorySpace.__init__

    def slow_init(self):  # widen the window two first users race through
        time.sleep(0.02)
        real_init(self)
    monkeypatch.setattr(memory.MemorySpace, "__init__", slow_init)
    for _ in range(5):
        sim_inspect.reset()
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        gate, ptrs = threading.Barrier(2), []
        context, _ = acl.rt.get_context()

        def first_alloc():
            acl.rt.set_context(context)
            gate.wait(5)
            ptrs.append(acl.rt.malloc(64, 0))
        threads = [threading.Thread(target=first_alloc) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(5)
        assert [ret for _, ret in ptrs] == [0, 0]
        for ptr, _ in ptrs:
            assert len(sim_inspect.read(ptr, 64)) == 64  # both live in the one space
            assert acl.rt.free(ptr) == 0
        assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0


def test_the_freed_range_list_is_bounded(ready):
    """Low: +146 MB per 200,000 malloc/free pairs, and unknown-pointer lookups scanned the whole list."""
    from acl_teach.sim.rt.memory import MAX_FREED, space
    last = None
    for _ in range(MAX_FREED + 2000):
        last, ret = ready.rt.malloc(32, 0)
        assert ret == 0 and ready.rt.free(last) == 0
    assert len(space().freed) == MAX_FREED
    assert ready.rt.memset(last, 32, 0, 32) == 0  # a use after free: warned, with who freed it
    assert "already freed by acl.rt.free" in space().why_unknown(last)
    assert "not inside any live device allocation" in space().why_unknown(last + (1 << 30))


@pytest.mark.parametrize("recipe", [{"crop": 0}, {"resize_short": 0, "crop": 224}, {"resize_exact": [0, 224]},
                                    {"crop": -4}, {"crop": "224"}, {"resize_exact": [224]}])
def test_apply_recipe_with_a_zero_crop_or_size(recipe):
    """Low: ZeroDivisionError from apply_recipe's geometry."""
    from acl_teach import media
    with pytest.raises(ValueError, match="recipe's"):
        media.even_roi(640, 480, recipe)


# --- found by the audit of issue 19: the same classes on surfaces the campaign did not reach ---------------
DEEP_JSON = "[" * 200000 + "]" * 200000  # nesting deeper than json can read: RecursionError, not ValueError


def test_acl_init_with_a_deeply_nested_config_is_a_code(acl, tmp_path):
    """Python's RecursionError escaped acl.init(config_path) (only OSError/ValueError were the bad-JSON code)."""
    path = tmp_path / "acl.json"
    path.write_text(DEEP_JSON)
    assert acl.init(str(path)) == 100006
    assert "not valid JSON" in acl.get_recent_err_msg()
    assert acl.init() == 0 and acl.finalize() == 0  # the process was not left initialised


def test_set_dump_reads_only_a_regular_file_with_a_cap(ready, tmp_path):
    """set_dump hung on a FIFO, read a link to /dev/zero until MemoryError, and raised RecursionError on deep JSON."""
    import time
    assert ready.mdl.init_dump() == 0
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP_JSON)
    assert ready.mdl.set_dump(str(deep)) == 100009
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 << 20) + b"{}")
    assert ready.mdl.set_dump(str(big)) == 100003 and "limit" in ready.get_recent_err_msg()
    for path in special_files(tmp_path):
        start = time.monotonic()
        assert ready.mdl.set_dump(str(path)) == 100003
        assert "not a regular file" in ready.get_recent_err_msg()
        assert time.monotonic() - start < 2
    assert ready.mdl.finalize_dump() == 0


def test_an_op_model_with_a_deeply_nested_header_is_skipped(ready, tmp_path):
    """spec/opmodel caught ValueError only: a deep header raised RecursionError out of set_model_dir / load."""
    import struct

    from acl_teach.spec import opmodel
    blob = DEEP_JSON.encode()
    raw = opmodel.MAGIC + struct.pack("<I", len(blob)) + blob
    with pytest.raises(opmodel.OpModelError, match="corrupted header"):
        opmodel.loads(raw)
    folder = tmp_path / "ops"
    folder.mkdir()
    (folder / "deep.om").write_bytes(raw)
    assert ready.op.set_model_dir(str(folder)) == 0  # skipped, as any unusable file
    assert ready.op.load(ready.util.bytes_to_ptr(raw), len(raw)) == 100000


def plant_tmp_links(tmp_path, *targets):
    """A dangling link at each ``target``'s per-process temporary name, pointing outside (where a write would land)."""
    import os
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    for i, target in enumerate(targets):
        os.makedirs(os.path.dirname(str(target)), exist_ok=True)
        os.symlink(outside / f"landed{i}", f"{target}.{os.getpid()}.tmp")
    return outside


def test_atc_never_writes_its_om_through_a_link(tmp_path):
    """ATC wrote `OUT.om.<pid>.tmp` with open('wb'), which follows a link planted there out of the folder."""
    import os
    out = tmp_path / "built" / "x.om"
    outside = plant_tmp_links(tmp_path, out)
    import io as _io
    from test_aipp import identity_onnx

    from acl_teach.toolchain import atc
    onnx_path = identity_onnx(tmp_path / "y.onnx", 8, 8)
    err = _io.StringIO()
    assert atc.run([f"--model={onnx_path}", "--framework=5", f"--output={out}", "--soc_version=Ascend310"],
                   out=_io.StringIO(), err=err) == 0, err.getvalue()
    assert os.listdir(outside) == [] and os.path.isfile(out) and not os.path.islink(out)


def test_atc_singleop_never_writes_an_op_model_through_a_link(tmp_path):
    import os
    from test_sim_op_api import ADD
    from test_sim_op_helpers import run_atc

    from acl_teach.toolchain import singleop
    entry = singleop.read_op_list
    (tmp_path / "probe.json").write_text(__import__("json").dumps([ADD]))
    [(index, op)] = entry(str(tmp_path / "probe.json"))
    name = singleop.compile_entry(index, op, "Ascend310", str(tmp_path / "probe.json"), "atc")[0]
    outside = plant_tmp_links(tmp_path, tmp_path / "op_models" / name)
    rc, out, err, folder = run_atc(tmp_path, [ADD])
    assert rc == 0, err
    assert os.listdir(outside) == [] and os.path.isfile(os.path.join(folder, name))


def test_a_recipe_sidecar_is_never_written_through_a_link(tmp_path):
    import os

    from acl_teach.toolchain import recipes
    model = tmp_path / "m.om"
    model.write_bytes(b"x")
    outside = plant_tmp_links(tmp_path, recipes.sidecar(str(model)))
    recipe = {"crop": 224}
    recipes.keep(str(model), recipe)
    assert os.listdir(outside) == [] and recipes.read_sidecar(str(model))["crop"] == 224


def atc_identity(tmp_path, *flags):
    """(exit code, stderr) of the ATC emulator on an 8x8 identity model with these extra flags."""
    import io as _io
    from test_aipp import identity_onnx

    from acl_teach.toolchain import atc
    onnx_path = identity_onnx(tmp_path / "x.onnx", 8, 8)
    err = _io.StringIO()
    code = atc.run([f"--model={onnx_path}", "--framework=5", f"--output={tmp_path / 'x'}", "--soc_version=Ascend310",
                    *flags], out=_io.StringIO(), err=err)
    return code, err.getvalue()


@pytest.mark.parametrize("dim", ["9" * 400, str(2 ** 63), str(2 ** 40), str((1 << 31) + 1)])
def test_atc_input_shape_dims_are_bounded_at_parse(tmp_path, dim):
    """A 400-digit or 2**63 dim raised protobuf's ValueError out of atc.run; 2**40 reached numpy (768 TiB)."""
    code, err = atc_identity(tmp_path, f"--input_shape=data:{dim},3,8,8")
    assert code == 1 and "ATC run failed" in err and "E10002" in err and "at most" in err, err
    assert "Traceback" not in err and len(err) < 2000


def test_atc_caps_the_inputs_it_runs_the_graph_on(tmp_path, monkeypatch):
    """ATC runs the graph on zeros of every gear's shape to find the outputs: their size is capped before np.zeros
    (data:100000,3,64,64 asked for 4.9 GB of inputs and as much output)."""
    from acl_teach.toolchain import atc
    monkeypatch.setattr(atc, "MAX_PROBE_BYTES", 1 << 20)
    code, err = atc_identity(tmp_path, "--input_shape=data:-1,3,8,8", "--dynamic_batch_size=1,8192")
    assert code == 1 and "E19010" in err and "limit" in err and "8192" in err, err
    assert atc_identity(tmp_path, "--input_shape=data:-1,3,8,8", "--dynamic_batch_size=1,8")[0] == 0


def test_feedback_quoting_a_huge_learner_value_is_bounded(lab_acl):
    """A learner's returned value is quoted whole (`{got!r}`): a 50 MB name became a 50 MB feedback message."""
    from acl_teach import lab

    def where_am_i():
        assert lab_acl.rt.set_device(0) == 0
        soc, mode = lab_acl.get_soc_name(), lab_acl.rt.get_run_mode()[0]
        assert lab_acl.rt.reset_device(0) == 0
        return soc + "x" * (50 << 20), mode
    fb = lab.check_where_am_i(where_am_i)
    assert not fb and "you returned" in fb.message
    assert len(fb.message) < 5000 and len(fb.message_zh) < 5000 and "characters" in fb.message


def test_two_threads_first_space_calls_get_one_space(acl, monkeypatch):
    """Medium 14, at the unit: the acl-level test above passes on the old code too (its malloc path happened to
    serialise the first use), so the lazy creation itself is raced here — two spaces made, one dropped."""
    import threading
    import time

    from acl_teach.sim.rt import memory
    real_init = memory.MemorySpace.__init__

    def slow_init(self):
        time.sleep(0.05)
        real_init(self)
    monkeypatch.setattr(memory.MemorySpace, "__init__", slow_init)
    for _ in range(3):
        sim_inspect.reset()
        gate, got = threading.Barrier(2), []

        def first_use():
            gate.wait(5)
            got.append(memory.space())
        threads = [threading.Thread(target=first_use) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(5)
        assert len(got) == 2 and got[0] is got[1] is memory.space()


@pytest.mark.parametrize("garbage", ["100002", {}, [1, 2], 1.5, float("nan"), True])
def test_error_explainer_given_the_wrong_type_says_what_it_takes(garbage):
    """The widgets class (low): ErrorExplainer('x') raised traitlets' TraitError from inside ipywidgets."""
    pytest.importorskip("ipywidgets")
    from acl_teach.widgets import ErrorExplainer
    with pytest.raises(TypeError, match="takes an ACL error code"):
        ErrorExplainer(garbage)
    assert "507018" in repr(ErrorExplainer(507018).code.value)


def test_a_learner_value_that_raises_base_exception_inside_a_verdict_is_feedback(lab_acl):
    """Learner code also runs inside a verdict (its returned value's __eq__): a BaseException there escaped
    @checker, which caught only Exception and SystemExit."""
    from acl_teach import lab

    class Boom(BaseException):
        pass

    class Sly(str):
        def __eq__(self, other):
            raise Boom("from __eq__")
        __hash__ = str.__hash__

    def where_am_i():
        assert lab_acl.rt.set_device(0) == 0
        soc, mode = lab_acl.get_soc_name(), lab_acl.rt.get_run_mode()[0]
        assert lab_acl.rt.reset_device(0) == 0
        return Sly(soc), mode
    fb = lab.check_where_am_i(where_am_i)
    assert not fb and "Boom" in fb.message


def test_an_exception_whose_str_raises_is_still_feedback(lab_acl):
    """_short quoted str(exc): a learner's exception whose __str__ raises escaped the checker's own handler."""
    from acl_teach import lab

    class Mute(Exception):
        def __str__(self):
            raise RuntimeError("no text for you")

    def where_am_i():
        raise Mute()
    fb = lab.check_where_am_i(where_am_i)                                # raised by the learner's function
    assert not fb and "Mute" in fb.message

    @lab.checker
    def inspect(value):                                                  # raised while a checker inspects
        raise Mute()
    fb = inspect(1)
    assert not fb and "could not inspect your answer (Mute)" in fb.message
