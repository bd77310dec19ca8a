"""VENC on the simulator, driven by a sample-style program: NV12 pictures in, an H.264/H.265 stream out by callback."""
import numpy as np
import pytest

from acl_teach import models
from acl_teach.spec import dvpp as D
from acl_teach.spec import video as V
from acl_teach.toolchain import video
from video_programs import stop_leftover_threads, CallbackThread, Vdec, from_device, nv12_visible, to_dvpp

IMAGES = [models.image("chelsea.png"), models.image("coffee.png")]
W, H = 160, 128


@pytest.fixture(autouse=True)
def _threads():
    yield
    stop_leftover_threads()


@pytest.fixture(scope="module")
def pictures():
    """Four 160 x 128 NV12 pictures (packed, no padding: widthStride 160, heightStride 128)."""
    return video.decode_nv12(video.encode(IMAGES, W, H, 4, "h264"))


class Venc:
    """One VENC channel as the venc_image sample drives it: desc, thread, callback appending to a stream."""

    def __init__(self, acl, entype=V.H264_MAIN_LEVEL, width=W, height=H, gop=16):
        self.acl = acl
        context, _ = acl.rt.get_context()
        self.thread = CallbackThread(acl, context)
        self.stream, self.frames = b"", []
        self.desc = acl.media.venc_create_channel_desc()
        assert acl.media.venc_set_channel_desc_thread_id(self.desc, self.thread.tid) == 0
        assert acl.media.venc_set_channel_desc_callback(self.desc, self._callback) == 0
        assert acl.media.venc_set_channel_desc_entype(self.desc, entype) == 0
        assert acl.media.venc_set_channel_desc_pic_format(self.desc, D.PIXEL_FORMAT_YUV_SEMIPLANAR_420) == 0
        assert acl.media.venc_set_channel_desc_key_frame_interval(self.desc, gop) == 0
        assert acl.media.venc_set_channel_desc_pic_width(self.desc, width) == 0
        assert acl.media.venc_set_channel_desc_pic_height(self.desc, height) == 0
        self.create_ret = acl.media.venc_create_channel(self.desc)
        self.config = acl.media.venc_create_frame_config()
        self.inputs = []

    def _callback(self, pic_desc, stream_desc, user_data):
        acl = self.acl
        ret_code = acl.media.dvpp_get_stream_desc_ret_code(stream_desc)
        size = acl.media.dvpp_get_stream_desc_size(stream_desc)
        data = from_device(acl, acl.media.dvpp_get_stream_desc_data(stream_desc), size) if size else b""
        self.frames.append({"user": user_data, "ret_code": ret_code, "data": data, "pic": pic_desc,
                            "timestamp": acl.media.dvpp_get_stream_desc_timestamp(stream_desc)})
        self.stream += data

    def send(self, nv12, user_data, force_i=0, size=None):
        acl = self.acl
        ptr = to_dvpp(acl, nv12)
        pd = acl.media.dvpp_create_pic_desc()
        assert acl.media.dvpp_set_pic_desc_data(pd, ptr) == 0
        assert acl.media.dvpp_set_pic_desc_size(pd, size or len(nv12)) == 0
        self.inputs.append((ptr, pd))
        assert acl.media.venc_set_frame_config_force_i_frame(self.config, force_i) == 0
        return acl.media.venc_send_frame(self.desc, pd, 0, self.config, user_data)

    def close(self):
        acl = self.acl
        assert acl.media.venc_set_frame_config_eos(self.config, 1) == 0
        assert acl.media.venc_send_frame(self.desc, 0, 0, self.config, None) == 0
        ret = acl.media.venc_destroy_channel(self.desc)
        self.thread.stop()
        for ptr, pd in self.inputs:
            assert acl.media.dvpp_destroy_pic_desc(pd) == 0 and acl.media.dvpp_free(ptr) == 0
        assert acl.media.venc_destroy_frame_config(self.config) == 0
        assert acl.media.venc_destroy_channel_desc(self.desc) == 0
        return ret


def _nal_types(stream):
    """H.264 NAL unit types in an Annex-B stream, in order."""
    parts = stream.split(b"\x00\x00\x01")[1:]
    return [p[0] & 0x1F for p in parts if p]


def _psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def test_venc_h264_round_trip_through_ffmpeg_and_vdec(ready, pictures):
    venc = Venc(ready)
    assert venc.create_ret == 0
    for i, picture in enumerate(pictures):
        assert venc.send(picture.tobytes(), i) == 0
    assert venc.close() == 0
    assert [f["user"] for f in venc.frames] == [0, 1, 2, 3]
    assert [f["ret_code"] for f in venc.frames] == [0] * 4
    assert [f["timestamp"] for f in venc.frames] == [0, 1, 2, 3]
    assert [f["pic"] for f in venc.frames] == [pd for _, pd in venc.inputs]  # the input desc comes back
    decoded = video.decode_nv12([f["data"] for f in venc.frames])
    assert len(decoded) == 4
    for got, want in zip(decoded, pictures):
        assert got.shape == want.shape and _psnr(got, want) > 30
    # ... and the simulator's own VDEC decodes VENC's frames exactly as FFmpeg does
    vdec = Vdec(ready)
    for i, frame in enumerate(venc.frames):
        assert vdec.send(frame["data"], i, V.yuv420sp_size(W, H)) == 0
    assert vdec.close() == 0
    for got, want in zip(vdec.results, decoded):
        assert np.array_equal(nv12_visible(got["picture"], W, H, W, H), want)


def test_venc_h265_like_the_venc_image_sample(ready):
    picture = video.decode_nv12(video.encode(IMAGES, 128, 128, 1, "h264"))[0].tobytes()
    venc = Venc(ready, entype=V.H265_MAIN_LEVEL, width=128, height=128)
    for i in range(16):
        assert venc.send(picture, None) == 0
    assert venc.close() == 0
    assert len(venc.frames) == 16 and all(f["ret_code"] == 0 for f in venc.frames)
    decoded = video.decode_nv12([venc.stream], "h265")
    assert len(decoded) == 16 and _psnr(decoded[0], np.frombuffer(picture, np.uint8).reshape(192, 128)) > 30


def test_force_i_frame_makes_an_idr_and_the_gop_is_the_key_frame_interval(ready, pictures):
    venc = Venc(ready, gop=3)
    for i in range(7):
        assert venc.send(pictures[i % 4].tobytes(), i, force_i=1 if i == 4 else 0) == 0
    assert venc.close() == 0
    idr = [5 in _nal_types(f["data"]) for f in venc.frames]
    assert idr[0] and idr[3] and idr[4] and not idr[1] and not idr[2], idr


def test_venc_errors(ready, pictures):
    acl = ready
    desc = acl.media.venc_create_channel_desc()
    with pytest.raises(RuntimeError, match="did not set callback, failed"):
        acl.media.venc_send_frame(desc, 0, 0, 0, None)
    assert acl.media.venc_create_channel(desc) == 100000  # no callback
    acl.media.venc_destroy_channel_desc(desc)
    assert Venc(acl, width=100).create_ret == 100000  # below 128
    venc = Venc(acl)
    assert acl.media.venc_send_frame(venc.desc, 0, 0, 0, None) == 100000  # no frame config
    assert venc.send(pictures[0].tobytes(), "short", size=100) == 0  # the device refuses it: ret_code
    assert venc.send(pictures[1].tobytes(), "good") == 0
    assert venc.close() == 0
    assert [(f["user"], f["ret_code"], len(f["data"])) for f in venc.frames][0] == ("short", 507018, 0)
    assert venc.frames[1]["ret_code"] == 0 and len(venc.frames[1]["data"]) > 0


def test_venc_desc_fields_and_params_round_trip_with_the_binding_shapes(ready):
    acl = ready
    desc = acl.media.venc_create_channel_desc()
    assert acl.media.venc_get_channel_desc_buf_size(desc) == 3686400
    for name, value in (("thread_id", 1 << 40), ("entype", 2), ("pic_format", 2), ("pic_width", 640),
                        ("pic_height", 480), ("key_frame_interval", 25), ("buf_addr", 0x1234), ("buf_size", 1 << 22),
                        ("max_bit_rate", 2000), ("rc_mode", 1), ("src_rate", 25)):
        assert getattr(acl.media, f"venc_set_channel_desc_{name}")(desc, value) == 0, name
        assert getattr(acl.media, f"venc_get_channel_desc_{name}")(desc) == value, name
    assert acl.media.venc_set_channel_desc_max_bit_rate(desc, 5) == 100000  # 0 or 10..30000 on the 310
    assert acl.media.venc_set_channel_desc_param(desc, V.ACL_VENC_PIC_WIDTH_UINT32, 320) == 0
    assert acl.media.venc_get_channel_desc_param(desc, V.ACL_VENC_PIC_WIDTH_UINT32) == (320, 0)
    assert acl.media.venc_set_channel_desc_param(desc, V.ACL_VENC_THREAD_ID_UINT64, 1 << 50) == 0
    assert acl.media.venc_get_channel_desc_param(desc, V.ACL_VENC_THREAD_ID_UINT64) == (1 << 50, 0)
    fn = lambda a, b, c: None  # noqa: E731
    assert acl.media.venc_set_channel_desc_param(desc, V.ACL_VENC_CALLBACK_PTR, fn) == 0
    assert acl.media.venc_get_channel_desc_param(desc, V.ACL_VENC_CALLBACK_PTR) == (fn, 0)
    assert acl.media.venc_get_channel_desc_callback(desc) is fn
    assert acl.media.venc_get_channel_desc_param(desc, 13) == (0, 100000)
    with pytest.raises(SystemError, match="returned a result with an exception set"):
        acl.media.venc_set_channel_desc_param(desc, V.ACL_VENC_CALLBACK_PTR, 5)
    with pytest.raises(TypeError, match="args parse failed!"):
        acl.media.venc_set_channel_desc_param(desc, V.ACL_VENC_PIC_WIDTH_UINT32, "wide")
    cfg = acl.media.venc_create_frame_config()
    assert acl.media.venc_set_frame_config_eos(cfg, 1) == 0 and acl.media.venc_get_frame_config_eos(cfg) == 1
    assert acl.media.venc_set_frame_config_force_i_frame(cfg, 256) == 0  # B masks to 0
    assert acl.media.venc_get_frame_config_force_i_frame(cfg) == 0
    assert acl.media.venc_destroy_frame_config(cfg) == 0 and acl.media.venc_destroy_channel_desc(desc) == 0


def test_the_picture_is_read_at_send_time_so_it_may_be_freed_at_once(ready, pictures):
    """venc_image frees its input with dvpp_free right after the last venc_send_frame, before destroying the channel."""
    acl = ready
    venc = Venc(acl)
    ptr = to_dvpp(acl, pictures[0].tobytes())
    pd = acl.media.dvpp_create_pic_desc()
    acl.media.dvpp_set_pic_desc_data(pd, ptr)
    acl.media.dvpp_set_pic_desc_size(pd, pictures[0].size)
    for i in range(3):
        assert acl.media.venc_send_frame(venc.desc, pd, 0, venc.config, i) == 0
    assert acl.media.dvpp_free(ptr) == 0
    assert venc.close() == 0
    assert [(f["user"], f["ret_code"]) for f in venc.frames] == [(0, 0), (1, 0), (2, 0)]
    assert len(video.decode_nv12([venc.stream])) == 3
    assert acl.media.dvpp_destroy_pic_desc(pd) == 0
