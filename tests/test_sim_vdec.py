"""VDEC on the simulator, driven by sample-style programs: H.264/H.265 chunks in, strided YUV420SP out by callback."""
import numpy as np
import pytest

from acl_teach import models, sim
from acl_teach.spec import dvpp as D
from acl_teach.spec import video as V
from acl_teach.toolchain import video
from video_programs import stop_leftover_threads, Vdec, classify_nv12, nv12_visible, to_dvpp, vpc_resize

IMAGES = [models.image("coffee.png"), models.image("chelsea.png")]
W, H = 200, 130  # width not a multiple of 16: widthStride 208; height even: heightStride 130


@pytest.fixture(autouse=True)
def _threads():
    yield
    stop_leftover_threads()


@pytest.fixture(scope="module")
def h264():
    """Six frames of H.264 main, one access unit per chunk (as acllite's VideoCapture demuxes them)."""
    return video.encode(IMAGES, W, H, 6, "h264")


def _run(acl, units, **kwargs):
    vdec = Vdec(acl, **kwargs)
    assert vdec.create_ret == 0
    ws, hs = V.vdec_strides(W, H)
    for i, unit in enumerate(units):
        assert vdec.send(unit, i, V.yuv420sp_size(ws, hs)) == 0
    assert vdec.eos() == 0
    assert vdec.close() == 0
    return vdec.results


def test_h264_frames_come_back_by_callback_as_strided_nv12_equal_to_ffmpeg(ready, h264):
    results = _run(ready, h264)
    assert [r["user"] for r in results] == [0, 1, 2, 3, 4, 5, "eos"]
    reference = video.decode_nv12(h264)
    assert len(reference) == 6
    for got, want in zip(results, reference):
        assert got["ret_code"] == 0
        assert (got["width"], got["height"], got["width_stride"], got["height_stride"]) == (W, H, 208, 130)
        assert np.array_equal(nv12_visible(got["picture"], W, H, 208, 130), want)
    assert not np.array_equal(reference[0], reference[3])  # the frames really differ


def test_nv21_output_swaps_the_chroma_bytes(ready, h264):
    nv12 = _run(ready, h264[:2])[0]["picture"]
    nv21 = _run(ready, h264[:2], fmt=D.PIXEL_FORMAT_YVU_SEMIPLANAR_420, channel_id=1)[0]["picture"]
    ws, hs = V.vdec_strides(W, H)
    a, b = np.frombuffer(nv12, np.uint8), np.frombuffer(nv21, np.uint8)
    assert np.array_equal(a[:ws * hs], b[:ws * hs])
    uv12, uv21 = a[ws * hs:].reshape(-1, 2), b[ws * hs:].reshape(-1, 2)
    assert np.array_equal(uv12[:, 0], uv21[:, 1]) and np.array_equal(uv12[:, 1], uv21[:, 0])


def test_h265_decodes_on_an_h265_channel(ready):
    units = video.encode(IMAGES, W, H, 3, "h265")
    results = _run(ready, units, entype=V.H265_MAIN_LEVEL)
    reference = video.decode_nv12(units, "h265")
    assert [r["ret_code"] for r in results[:3]] == [0, 0, 0]
    for got, want in zip(results, reference):
        assert np.array_equal(nv12_visible(got["picture"], W, H, 208, 130), want)


def test_b_frames_arrive_in_display_order_and_the_rest_at_eos(ready):
    units = video.encode(IMAGES, W, H, 8, "h264", profile="high", bframes=2)
    results = _run(ready, units, entype=V.H264_HIGH_LEVEL)
    pictures = [r for r in results if not r.get("eos")]
    assert results[-1] == {"user": "eos", "eos": True}
    assert sorted(r["user"] for r in pictures) == list(range(8))
    assert [r["user"] for r in pictures] != list(range(8))  # reordered: decode order is not display order
    reference = video.decode_nv12(units)
    for got, want in zip(pictures, reference):
        assert np.array_equal(nv12_visible(got["picture"], W, H, 208, 130), want)


def test_a_whole_stream_in_one_chunk_gives_its_first_picture(ready, h264):
    results = _run(ready, [b"".join(h264)])
    assert results[0]["ret_code"] == 0
    assert np.array_equal(nv12_visible(results[0]["picture"], W, H, 208, 130), video.decode_nv12(h264)[0])


def test_garbage_fails_its_own_frame_only_and_the_channel_goes_on(ready, h264, capsys):
    chunks = h264[:2] + [bytes(range(256)) * 3] + h264[2:4]
    results = _run(ready, chunks)
    codes = {r["user"]: r["ret_code"] for r in results if not r.get("eos")}
    assert codes == {0: 0, 1: 0, 2: 507018, 3: 0, 4: 0}
    assert "channel 0 frame 2" in capsys.readouterr().err
    good = [r for r in results if r.get("ret_code") == 0]
    for got, want in zip(good, video.decode_nv12(h264[:4])):
        assert np.array_equal(nv12_visible(got["picture"], W, H, 208, 130), want)


def test_the_wrong_codec_fails_every_frame_without_hanging(ready):
    units = video.encode(IMAGES, W, H, 2, "h265")
    results = _run(ready, units, entype=V.H264_MAIN_LEVEL)
    assert [r.get("ret_code") for r in results] == [507018, 507018, None]


def test_an_output_buffer_too_small_or_in_host_memory_is_a_frame_failure(ready, h264):
    vdec = Vdec(ready)
    assert vdec.send(h264[0], "small", 208 * 130) == 0  # not * 3/2
    assert vdec.send(h264[1], "bad stride", V.yuv420sp_size(256, 130), strides=(200, 130)) == 0
    assert vdec.send(h264[2], "good", V.yuv420sp_size(256, 130), strides=(256, 130)) == 0
    assert vdec.close() == 0
    codes = {r["user"]: (r["ret_code"], r["width_stride"]) for r in vdec.results}
    assert codes == {"small": (507018, 0), "bad stride": (507018, 200), "good": (0, 256)}


def test_host_checks_return_their_codes(ready, h264):
    acl = ready
    desc = acl.media.vdec_create_channel_desc()
    with pytest.raises(RuntimeError, match="did not set callback, failed"):
        acl.media.vdec_send_frame(desc, 0, 0, 0, None)
    with pytest.raises(RuntimeError, match="did not set callback, failed"):
        acl.media.vdec_get_channel_desc_callback(desc)
    assert acl.media.vdec_create_channel(desc) == 100000  # no callback
    assert acl.media.vdec_set_channel_desc_callback(desc, lambda a, b, c: None) == 0
    assert acl.media.vdec_create_channel(desc) == 100000  # no thread id
    assert acl.media.vdec_set_channel_desc_out_pic_format(desc, D.PIXEL_FORMAT_RGB_888) == 0
    assert acl.media.vdec_set_channel_desc_thread_id(desc, 1) == 0
    assert acl.media.vdec_create_channel(desc) == 100000  # RGB output
    assert acl.media.vdec_set_channel_desc_out_pic_format(desc, 1) == 0
    assert acl.media.vdec_set_channel_desc_entype(desc, 7) == 0
    assert acl.media.vdec_create_channel(desc) == 100000  # no such stream format
    assert acl.media.vdec_send_frame(desc, 0, 0, 0, None) == 100000  # channel not created
    assert acl.media.vdec_set_channel_desc_channel_id(desc, 32) == 100000  # the 310 has 0..31
    with pytest.raises(TypeError, match="parameter must be callable"):
        acl.media.vdec_set_channel_desc_callback(desc, 5)
    assert acl.media.vdec_destroy_channel(desc) == 100000
    assert acl.media.vdec_destroy_channel_desc(desc) == 0
    vdec = Vdec(acl)
    assert acl.media.vdec_send_frame(vdec.desc, 0, 0, vdec.config, None) == 100000  # no input stream desc
    sd = acl.media.dvpp_create_stream_desc()
    assert acl.media.vdec_send_frame(vdec.desc, sd, 0, vdec.config, None) == 100000  # no output, no data
    assert acl.media.dvpp_destroy_stream_desc(sd) == 0
    assert vdec.close() == 0
    assert vdec.results == []


def test_desc_fields_round_trip_with_the_binding_shapes(ready):
    acl = ready
    desc = acl.media.vdec_create_channel_desc()
    for name, value in (("channel_id", 7), ("thread_id", 1 << 40), ("entype", V.H264_HIGH_LEVEL),
                        ("out_pic_format", 2), ("out_pic_width", 640), ("out_pic_height", 480),
                        ("ref_frame_num", 4), ("out_mode", 1), ("bit_depth", 0)):
        assert getattr(acl.media, f"vdec_set_channel_desc_{name}")(desc, value) == 0
        assert getattr(acl.media, f"vdec_get_channel_desc_{name}")(desc) == value
    assert acl.media.vdec_set_channel_desc_param(desc, V.ACL_VDEC_CSC_MATRIX_UINT32, 3) == (desc, 0)
    assert acl.media.vdec_get_channel_desc_param(desc, V.ACL_VDEC_CSC_MATRIX_UINT32) == (4, 3, 0)
    assert acl.media.vdec_destroy_channel_desc(desc) == 0


def test_stream_desc_fields_round_trip(ready):
    acl = ready
    sd = acl.media.dvpp_create_stream_desc()
    for name, value in (("data", 0x1000), ("size", 77), ("format", V.H264_MAIN_LEVEL), ("timestamp", 1 << 40),
                        ("ret_code", 5), ("eos", 1)):
        assert getattr(acl.media, f"dvpp_set_stream_desc_{name}")(sd, value) == 0
        assert getattr(acl.media, f"dvpp_get_stream_desc_{name}")(sd) == value
    assert acl.media.dvpp_set_stream_desc_eos(sd, 257) == 0 and acl.media.dvpp_get_stream_desc_eos(sd) == 1  # B
    assert acl.media.dvpp_destroy_stream_desc(sd) == 0
    assert acl.media.dvpp_destroy_stream_desc(sd) == 100000
    assert acl.media.dvpp_set_stream_desc_size(sd, 1) == 100000


def test_h264_to_vdec_to_vpc_to_the_aipp_model_classifies_every_frame(ready):
    acl = ready
    units = video.encode([models.image("coffee.png")], 320, 240, 3, "h264")
    model_id, ret = acl.mdl.load_from_file(models.aipp_om())
    assert ret == 0
    model_desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(model_desc, model_id) == 0
    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(channel) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    vdec = Vdec(acl, keep_pictures=False)
    ws, hs = V.vdec_strides(320, 240)
    for i, unit in enumerate(units):
        assert vdec.send(unit, i, V.yuv420sp_size(ws, hs)) == 0
    assert vdec.close() == 0
    tops = []
    for frame in vdec.results:
        assert frame["ret_code"] == 0
        small, size = vpc_resize(acl, channel, stream, frame["data"], frame["size"], 320, 240, ws, hs)
        scores = classify_nv12(acl, model_id, model_desc, small, size)
        tops.append(list(np.argsort(scores)[::-1][:5]))
        assert acl.media.dvpp_free(small) == 0 and acl.media.dvpp_free(frame["data"]) == 0
    assert len(tops) == 3 and all(top[0] == 967 for top in tops), tops  # espresso, every frame
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.media.dvpp_destroy_channel(channel) == 0 and acl.media.dvpp_destroy_channel_desc(channel) == 0
    assert acl.mdl.destroy_desc(model_desc) == 0 and acl.mdl.unload(model_id) == 0


def test_the_input_is_read_at_send_time_so_one_buffer_serves_every_frame(ready, h264):
    """acllite's VideoCapture copies every packet into the same DVPP buffer right after send_frame."""
    acl = ready
    vdec = Vdec(acl)
    size = max(len(u) for u in h264)
    shared = to_dvpp(acl, bytes(size))
    ws, hs = V.vdec_strides(W, H)
    for i, unit in enumerate(h264[:3]):
        assert acl.rt.memcpy(shared, size, acl.util.bytes_to_ptr(unit), len(unit), 1) == 0
        sd = acl.media.dvpp_create_stream_desc()
        acl.media.dvpp_set_stream_desc_data(sd, shared)
        acl.media.dvpp_set_stream_desc_size(sd, len(unit))
        out, _ = acl.media.dvpp_malloc(V.yuv420sp_size(ws, hs))
        pd = acl.media.dvpp_create_pic_desc()
        acl.media.dvpp_set_pic_desc_data(pd, out)
        acl.media.dvpp_set_pic_desc_size(pd, V.yuv420sp_size(ws, hs))
        assert acl.media.vdec_send_frame(vdec.desc, sd, pd, vdec.config, i) == 0
    assert vdec.close() == 0
    assert acl.media.dvpp_free(shared) == 0
    for got, want in zip(vdec.results, video.decode_nv12(h264[:3])):
        assert np.array_equal(nv12_visible(got["picture"], W, H, ws, hs), want)


def test_destroying_the_channel_drops_the_callback_so_its_owner_dies_at_del(ready, h264):
    """The vdec sample frees its input in Vdec.__del__: on a board that runs at `del`, before acl.finalize."""
    import gc
    import weakref
    vdec = Vdec(ready)
    assert vdec.send(h264[0], 0, V.yuv420sp_size(208, 130)) == 0
    assert vdec.close() == 0
    owner = weakref.ref(vdec)
    gc.disable()
    try:
        del vdec
        assert owner() is None  # no reference cycle left holding the bound-method callback
    finally:
        gc.enable()


def test_acllite_style_decode_thread_callback_thread_and_reader(ready, h264):
    """VideoCapture's shape: a decode thread (own set_context) sends, a callback thread reports, main reads a queue."""
    import queue
    acl = ready
    context, _ = acl.rt.get_context()
    frames, errors = queue.Queue(), []

    def decode(args):
        try:
            assert acl.rt.set_context(context) == 0
            vdec = Vdec(acl, channel_id=5, keep_pictures=True)
            for i, unit in enumerate(h264):
                assert vdec.send(unit, (5, i), V.yuv420sp_size(208, 130)) == 0
            assert vdec.close() == 0
            for result in vdec.results:
                frames.put(result)
        except Exception as exc:  # noqa: BLE001 - reported to the main thread
            errors.append(exc)

    tid, ret = acl.util.start_thread(decode, [])
    assert ret == 0
    got = [frames.get(timeout=30) for _ in range(len(h264))]
    assert acl.util.stop_thread(tid) == 0
    assert not errors, errors
    assert [g["user"] for g in got] == [(5, i) for i in range(len(h264))]
    for g, want in zip(got, video.decode_nv12(h264)):
        assert np.array_equal(nv12_visible(g["picture"], W, H, 208, 130), want)


def test_out_pic_width_and_height_scale_the_picture(ready, h264):
    acl = ready
    vdec = Vdec(acl)
    assert acl.media.vdec_destroy_channel(vdec.desc) == 0  # recreate with an output size
    assert acl.media.vdec_set_channel_desc_callback(vdec.desc, vdec._callback) == 0
    assert acl.media.vdec_set_channel_desc_out_pic_width(vdec.desc, 100) == 0
    assert acl.media.vdec_set_channel_desc_out_pic_height(vdec.desc, 64) == 0
    assert acl.media.vdec_create_channel(vdec.desc) == 0
    assert vdec.send(h264[0], "small", V.yuv420sp_size(112, 64)) == 0
    assert vdec.close() == 0
    (got,) = vdec.results
    assert (got["ret_code"], got["width"], got["height"], got["width_stride"], got["height_stride"]) == \
        (0, 100, 64, 112, 64)
    y = np.frombuffer(got["picture"], np.uint8)[:112 * 64].reshape(64, 112)[:, :100]
    full = video.decode_nv12(h264[:1])[0][:H]
    assert abs(float(y.mean()) - float(full.mean())) < 3  # the same picture, smaller


def test_vdec_needs_init_and_a_context(acl):
    desc = acl.media.vdec_create_channel_desc()
    assert desc == 0  # creators return NULL before acl.init
    assert acl.init() == 0
    desc = acl.media.vdec_create_channel_desc()
    assert acl.media.vdec_set_channel_desc_callback(desc, lambda a, b, c: None) == 0
    assert acl.media.vdec_create_channel(desc) == 107002  # no device set: no current context, as the other DVPP calls
    assert acl.media.vdec_send_frame(desc, 0, 0, 0, None) == 107002
    assert acl.media.vdec_destroy_channel_desc(desc) == 0
    assert acl.finalize() == 0


def test_send_frame_returns_before_the_frame_is_decoded(ready, h264):
    """The decode is device work run for the callback thread: nothing is written before that thread reports."""
    import threading
    gate = threading.Event()
    vdec = Vdec(ready, gate=gate)
    ws, hs = V.vdec_strides(W, H)
    for i, unit in enumerate(h264[:3]):
        assert vdec.send(unit, i, V.yuv420sp_size(ws, hs)) == 0
    assert vdec.results == []  # sent, not decoded: the callback thread has not called process_report yet
    gate.set()
    assert vdec.close() == 0  # waits for the three callbacks
    assert [r["user"] for r in vdec.results] == [0, 1, 2] and all(r["ret_code"] == 0 for r in vdec.results)


def test_destroy_without_a_callback_thread_warns_and_does_not_hang(ready, h264, capsys):
    acl = ready
    vdec = Vdec(acl)
    vdec.thread.stop()  # the sample's mistake: the callback thread ends before the channel is destroyed
    assert vdec.send(h264[0], 0, V.yuv420sp_size(208, 130)) == 0
    assert acl.media.vdec_destroy_channel(vdec.desc) == 0  # faithful: a board would wait; the simulator warns
    assert "never ran" in capsys.readouterr().err
    assert vdec.results == []
    acl.media.vdec_destroy_frame_config(vdec.config)
    acl.media.vdec_destroy_channel_desc(vdec.desc)
    sim.configure(strict=True)  # the simulator's extras are not on acl (surface.py)
    try:
        vdec = Vdec(acl, channel_id=1)
        vdec.thread.stop()
        assert vdec.send(h264[0], 0, V.yuv420sp_size(208, 130)) == 0
        assert acl.media.vdec_destroy_channel(vdec.desc) == 507046
    finally:
        sim.configure(strict=False)


def test_a_skipped_frame_is_decoded_as_a_reference_only(ready, h264):
    acl = ready
    vdec = Vdec(acl)
    ptr = to_dvpp(acl, h264[0])
    vdec.inputs.append(ptr)
    sd = acl.media.dvpp_create_stream_desc()
    acl.media.dvpp_set_stream_desc_data(sd, ptr)
    acl.media.dvpp_set_stream_desc_size(sd, len(h264[0]))
    assert acl.media.vdec_send_skipped_frame(vdec.desc, sd, vdec.config, "skipped") == 0
    assert vdec.send(h264[1], "next", V.yuv420sp_size(208, 130)) == 0  # a P-frame: needs frame 0 as reference
    assert vdec.close() == 0
    assert [(r["user"], r.get("eos", False)) for r in vdec.results] == [("skipped", True), ("next", False)]
    assert np.array_equal(nv12_visible(vdec.results[1]["picture"], W, H, 208, 130), video.decode_nv12(h264[:2])[1])


def test_a_stream_below_128x128_is_a_frame_failure(ready):
    units = video.encode(IMAGES, 96, 96, 2, "h264")
    vdec = Vdec(ready)
    for i, unit in enumerate(units):
        assert vdec.send(unit, i, V.yuv420sp_size(96, 96)) == 0
    assert vdec.close() == 0
    assert [r["ret_code"] for r in vdec.results] == [507018, 507018]


def test_a_422_stream_is_a_frame_failure_vdec_outputs_420_only(ready):
    import av
    from fractions import Fraction
    enc = av.CodecContext.create("libx264", "w")
    enc.width, enc.height, enc.pix_fmt, enc.time_base = 160, 128, "yuv422p", Fraction(1, 25)
    enc.options = {"preset": "ultrafast", "x264-params": "bframes=0"}
    frame = av.VideoFrame(160, 128, "yuv422p")
    frame.pts = 0
    units = [bytes(p) for p in enc.encode(frame)] + [bytes(p) for p in enc.encode(None)]
    vdec = Vdec(ready, entype=V.H264_HIGH_LEVEL)
    assert vdec.send(units[0], 0, V.yuv420sp_size(160, 128)) == 0
    assert vdec.close() == 0
    assert [r["ret_code"] for r in vdec.results] == [507018]
