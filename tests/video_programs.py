"""Sample-style pyACL video programs the VDEC/VENC tests run, written the way the official samples are.

A callback thread looping on ``acl.rt.process_report``, descs set field by field, DVPP memory for
every stream and picture, and ``check_ret``-style asserts on every return code. Constants come from
``acl_teach.spec`` (a board's ``acl`` has none).
"""
import numpy as np

from acl_teach.spec import constants as C
from acl_teach.spec import dvpp as D
from acl_teach.spec import video as V


class CallbackThread:
    """acl.util.start_thread of a loop on process_report until ``stop`` (the samples' _thread_func)."""

    live = []  # stopped by the tests' teardown when a failed assert skipped stop()

    def __init__(self, acl, context, gate=None):
        self.acl, self.context, self.running, self.gate = acl, context, True, gate
        self.tid, ret = acl.util.start_thread(self._loop, [20])
        assert ret == 0
        CallbackThread.live.append(self)

    def _loop(self, args):
        self.acl.rt.set_context(self.context)
        if self.gate is not None:  # a test holds the thread back to see what is still in flight
            self.gate.wait(30)
        while self.running:
            self.acl.rt.process_report(args[0])

    def stop(self):
        self.running = False
        if self in CallbackThread.live:
            CallbackThread.live.remove(self)
        assert self.acl.util.stop_thread(self.tid) == 0


def stop_leftover_threads():
    """Stop the callback threads a failed test left running (teardown)."""
    for thread in list(CallbackThread.live):
        thread.running = False
        CallbackThread.live.remove(thread)


def to_dvpp(acl, data):
    """Copy host bytes into fresh DVPP memory; the pointer."""
    ptr, ret = acl.media.dvpp_malloc(len(data))
    assert ret == 0
    assert acl.rt.memcpy(ptr, len(data), acl.util.bytes_to_ptr(data), len(data), C.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return ptr


def from_device(acl, ptr, size):
    """``size`` bytes of device memory, copied to the host."""
    host, ret = acl.rt.malloc_host(size)
    assert ret == 0
    assert acl.rt.memcpy(host, size, ptr, size, C.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    data = acl.util.ptr_to_bytes(host, size)
    assert acl.rt.free_host(host) == 0
    return data


class Vdec:
    """One VDEC channel: send chunks, collect what each callback brought back."""

    def __init__(self, acl, entype=V.H264_MAIN_LEVEL, fmt=D.PIXEL_FORMAT_YUV_SEMIPLANAR_420, channel_id=0,
                 keep_pictures=True, gate=None):
        self.acl, self.keep = acl, keep_pictures
        context, ret = acl.rt.get_context()
        assert ret == 0
        self.thread = CallbackThread(acl, context, gate)
        self.results, self.inputs = [], []
        self.desc = acl.media.vdec_create_channel_desc()
        assert acl.media.vdec_set_channel_desc_channel_id(self.desc, channel_id) == 0
        assert acl.media.vdec_set_channel_desc_thread_id(self.desc, self.thread.tid) == 0
        assert acl.media.vdec_set_channel_desc_callback(self.desc, self._callback) == 0
        assert acl.media.vdec_set_channel_desc_entype(self.desc, entype) == 0
        assert acl.media.vdec_set_channel_desc_out_pic_format(self.desc, fmt) == 0
        self.create_ret = acl.media.vdec_create_channel(self.desc)
        self.config = acl.media.vdec_create_frame_config()

    def _callback(self, stream_desc, pic_desc, user_data):
        acl = self.acl
        if stream_desc:
            assert acl.media.dvpp_destroy_stream_desc(stream_desc) == 0
        if not pic_desc:
            self.results.append({"user": user_data, "eos": True})
            return
        data, size = acl.media.dvpp_get_pic_desc_data(pic_desc), acl.media.dvpp_get_pic_desc_size(pic_desc)
        got = {"user": user_data, "ret_code": acl.media.dvpp_get_pic_desc_ret_code(pic_desc),
               "width": acl.media.dvpp_get_pic_desc_width(pic_desc),
               "height": acl.media.dvpp_get_pic_desc_height(pic_desc),
               "width_stride": acl.media.dvpp_get_pic_desc_width_stride(pic_desc),
               "height_stride": acl.media.dvpp_get_pic_desc_height_stride(pic_desc), "size": size}
        if got["ret_code"] == 0 and self.keep:
            got["picture"] = from_device(acl, data, size)
        if self.keep:
            assert acl.media.dvpp_free(data) == 0
        else:
            got["data"] = data
        assert acl.media.dvpp_destroy_pic_desc(pic_desc) == 0
        self.results.append(got)

    def send(self, chunk, user_data, out_size, strides=None):
        """vdec_send_frame of one chunk into a fresh output picture; its return code."""
        acl = self.acl
        ptr = to_dvpp(acl, chunk)
        self.inputs.append(ptr)
        sd = acl.media.dvpp_create_stream_desc()
        assert acl.media.dvpp_set_stream_desc_data(sd, ptr) == 0
        assert acl.media.dvpp_set_stream_desc_size(sd, len(chunk)) == 0
        out, ret = acl.media.dvpp_malloc(out_size)
        assert ret == 0
        pd = acl.media.dvpp_create_pic_desc()
        assert acl.media.dvpp_set_pic_desc_data(pd, out) == 0
        assert acl.media.dvpp_set_pic_desc_size(pd, out_size) == 0
        if strides:
            assert acl.media.dvpp_set_pic_desc_width_stride(pd, strides[0]) == 0
            assert acl.media.dvpp_set_pic_desc_height_stride(pd, strides[1]) == 0
        return acl.media.vdec_send_frame(self.desc, sd, pd, self.config, user_data)

    def eos(self):
        """The end-of-stream frame: a stream desc with eos = 1 and no output picture."""
        sd = self.acl.media.dvpp_create_stream_desc()
        assert self.acl.media.dvpp_set_stream_desc_eos(sd, 1) == 0
        return self.acl.media.vdec_send_frame(self.desc, sd, 0, self.config, "eos")

    def close(self):
        """vdec_destroy_channel (waits for the callbacks), then the thread, the descs and the inputs."""
        acl = self.acl
        ret = acl.media.vdec_destroy_channel(self.desc) if self.create_ret == 0 else 0
        self.thread.stop()
        assert acl.media.vdec_destroy_frame_config(self.config) == 0
        assert acl.media.vdec_destroy_channel_desc(self.desc) == 0
        for ptr in self.inputs:
            assert acl.media.dvpp_free(ptr) == 0
        return ret


def nv12_visible(picture, width, height, ws, hs):
    """The width x height NV12 picture inside a strided buffer, packed (h * 3/2, w)."""
    buf = np.frombuffer(picture, np.uint8)
    y = buf[:ws * hs].reshape(hs, ws)[:height, :width]
    uv = buf[ws * hs:ws * hs * 3 // 2].reshape(hs // 2, ws)[:height // 2, :width]
    return np.vstack([y, uv])


def classify_nv12(acl, model_id, model_desc, pic_ptr, pic_size):
    """Run the AIPP model on a DVPP picture (no host copy, as the vdec sample does): the 1000 scores."""
    ins = acl.mdl.create_dataset()
    buf = acl.create_data_buffer(pic_ptr, pic_size)
    _, ret = acl.mdl.add_dataset_buffer(ins, buf)
    assert ret == 0
    outs = acl.mdl.create_dataset()
    size = acl.mdl.get_output_size_by_index(model_desc, 0)
    out_ptr, ret = acl.rt.malloc(size, C.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0
    out_buf = acl.create_data_buffer(out_ptr, size)
    _, ret = acl.mdl.add_dataset_buffer(outs, out_buf)
    assert ret == 0
    assert acl.mdl.execute(model_id, ins, outs) == 0
    scores = np.frombuffer(from_device(acl, out_ptr, size), np.float32)
    for dataset, data_buffer in ((ins, buf), (outs, out_buf)):
        assert acl.destroy_data_buffer(data_buffer) == 0
        assert acl.mdl.destroy_dataset(dataset) == 0
    assert acl.rt.free(out_ptr) == 0
    return scores


def vpc_resize(acl, channel, stream, src_ptr, src_size, width, height, ws, hs, out_w=224, out_h=224):
    """dvpp_vpc_resize_async of an NV12 picture to out_w x out_h; (pointer, size) of the result."""
    src = acl.media.dvpp_create_pic_desc()
    for setter, value in (("data", src_ptr), ("size", src_size), ("format", D.PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          ("width", width), ("height", height), ("width_stride", ws), ("height_stride", hs)):
        assert getattr(acl.media, f"dvpp_set_pic_desc_{setter}")(src, value) == 0
    out_size = D.image_bytes(1, D.align_up(out_w, 16), D.align_up(out_h, 2))
    out_ptr, ret = acl.media.dvpp_malloc(out_size)
    assert ret == 0
    dst = acl.media.dvpp_create_pic_desc()
    for setter, value in (("data", out_ptr), ("size", out_size), ("format", D.PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          ("width", out_w), ("height", out_h), ("width_stride", D.align_up(out_w, 16)),
                          ("height_stride", D.align_up(out_h, 2))):
        assert getattr(acl.media, f"dvpp_set_pic_desc_{setter}")(dst, value) == 0
    cfg = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(channel, src, dst, cfg, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    for destroy, handle in (("dvpp_destroy_pic_desc", src), ("dvpp_destroy_pic_desc", dst),
                            ("dvpp_destroy_resize_config", cfg)):
        assert getattr(acl.media, destroy)(handle) == 0
    return out_ptr, out_size
