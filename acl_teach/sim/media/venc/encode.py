"""acl.media's video encoder (VENC): YUV420SP pictures in, an H.264/H.265 stream out, one callback per frame.

The engine is x264 / x265 through PyAV (preset ultrafast, zero latency: no B-frames, so each picture
comes back at once), set from the channel desc: entype (0 H.265 main, 1/2/3 H.264
baseline/main/high), key frame interval (GOP), max bit rate, source rate. Each encoded frame is
written into the channel's output buffer (the 310's fixed 3686400-byte DVPP buffer, or the one
given with ``venc_set_channel_desc_buf_addr``/``_size``) and handed to
``callback(input_pic_desc, output_stream_desc, user_data)`` on the channel's callback thread (the
encoding runs there too, in order, as the device's work: send_frame returns at once); the
output stream desc belongs to VENC and is freed when the callback returns, so copy the data
(acl.rt.memcpy device-to-host) inside it, as the venc_image sample does. Its timestamp is the
frame number (UNCONFIRMED).

The input picture is read when ``venc_send_frame`` is called (the venc_image sample frees it right
after sending) from the pic desc's data with the channel's width, height and format;
the desc's strides are used when set, else ALIGN_UP(width, 16) x ALIGN_UP(height, 2) (the sample
sets only data and size). A frame config with ``eos`` ends the stream (``venc_send_frame(ch, 0, 0,
cfg, None)``): the encoder is drained and starts afresh. Host checks (100000): the callback
(RuntimeError, as the binding raises), a created channel, a live frame config, a live pic desc.
Device checks, reported as the callback's output stream desc ``ret_code`` 507018 with size 0
(UNCONFIRMED code): input not in dvpp_malloc memory, strides or size too small, the encoded frame
larger than the output buffer.

Timeline (``acl.prof``): every frame is a slice "VENC frame N" (cat ``venc``) on the row "VENC
channel <id>", lasting dvpp_cost("venc", w*h) (*simulator:* a per-pixel rate per SoC, UNCONFIRMED);
its callback runs after the slice's end (video_lane.py).
"""
from __future__ import annotations

import itertools
import sys
from fractions import Fraction
from typing import Any, List, Optional, Tuple

import numpy as np

from ....spec import video as V
from ...core.args import CONTEXT, binding
from ..dvpp.common import DEVICE_FAULT, bad_handle, dvpp_region
from ..dvpp.cost import UNIT_LAUNCH_US, dvpp_cost
from ..dvpp.picdesc import pic
from ..dvpp.pixels import read
from ..dvpp.stream import StreamDesc
from ...rt.memory import space
from ...rt.runtime import Context, current_context
from ...core.state import create_handle, destroy_handle, fail, require_init, state, warn
from ...rt.stream import thread_alive
from ...core.timeline import clock
from .desc import VencChannelDesc, callbacks, frame_config, venc_desc
from .. import video_lane
from ..video_lane import Lane

_ids = itertools.count(0)


def _encoder(desc: VencChannelDesc):
    """A PyAV encoder for the channel desc's settings."""
    av = video_lane.av()  # PyAV bundles FFmpeg with x264 and x265: imported when the first channel opens
    rate = desc.src_rate or V.VENC_SRC_RATE_DEFAULT
    gop = max(desc.key_frame_interval, 1)
    if desc.en_type == V.H265_MAIN_LEVEL:
        ctx = av.CodecContext.create("libx265", "w")
        ctx.options = {"preset": "ultrafast", "tune": "zerolatency",
                       "x265-params": f"log-level=none:keyint={gop}:min-keyint={gop}:bframes=0"}
    else:
        ctx = av.CodecContext.create("libx264", "w")
        ctx.options = {"preset": "ultrafast", "tune": "zerolatency", "profile": V.X264_PROFILES[desc.en_type],
                       "x264-params": f"bframes=0:keyint={gop}"}
    ctx.width, ctx.height, ctx.pix_fmt = desc.pic_width, desc.pic_height, "yuv420p"
    ctx.time_base, ctx.framerate = Fraction(1, rate), Fraction(rate, 1)
    ctx.gop_size = gop
    ctx.bit_rate = (desc.max_bit_rate or V.VENC_MAX_BITRATE_DEFAULT) * 1000
    ctx.thread_count = 1
    return ctx


class Channel:
    """A created VENC channel: its encoder, output buffer and lane to the callback thread."""

    def __init__(self, handle: int, desc: VencChannelDesc, lane: Lane, device_id: int) -> None:
        self.handle, self.desc, self.lane = handle, desc, lane
        self.channel_id = next(_ids)
        lane.row = f"VENC channel {self.channel_id}"
        self.encoder = _encoder(desc)
        self.frames = 0
        self.offset = 0
        self.own_buffer = None
        self.outputs: List[int] = []  # stream descs handed to callbacks, freed after each one
        if not desc.buf_addr:
            self.own_buffer = space().allocate(desc.buf_size, True, "dvpp", device_id)

    def _buffer(self, count: int) -> Tuple[Optional[Any], int]:
        """(view of ``count`` bytes in the output ring, its address), or (None, 0) when it does not fit."""
        size = self.desc.buf_size if self.desc.buf_addr else self.own_buffer.size
        if count > size:
            return None, 0
        if self.offset + count > size:
            self.offset = 0
        if self.desc.buf_addr:
            region, base, _ = dvpp_region(self.desc.buf_addr + self.offset, count, "VENC output buffer")
            if region is None:
                return None, 0
            view, address = region.view(base, count), self.desc.buf_addr + self.offset
        else:
            view, address = self.own_buffer.view(self.offset, count), self.own_buffer.base + self.offset
        self.offset += count
        return view, address

    def _slice(self, ready_us: float, why: str = "") -> float:
        """This frame's slice on the channel's timeline row (media/dvpp/cost.py); when the unit finished it."""
        w, h = self.desc.pic_width, self.desc.pic_height
        args = {"frame": self.frames, "channel_id": self.channel_id, "width": w, "height": h,
                "result": f"failed: {why}" if why else "ok"}
        return self.lane.work(f"VENC frame {self.frames}{' (failed)' if why else ''}", "venc",
                              UNIT_LAUNCH_US if why else dvpp_cost("venc", w * h), ready_us, args)

    def _post(self, api: str, input_: int, data: bytes, user_data: Any, fn: Any, why: str = "", eos: int = 0) -> None:
        """One output stream desc for the callback: the encoded frame, or a failure with ret_code."""
        view, address = (None, 0) if why else self._buffer(len(data))
        if not why and view is None:
            why = f"the encoded frame ({len(data)} bytes) does not fit the output buffer ({self.desc.buf_size} bytes)"
        if view is not None:
            view[:] = np.frombuffer(data, np.uint8)
        if why:
            msg = f"{api}: channel {self.channel_id}: {why}; the callback's output stream desc gets ret_code " \
                  f"{DEVICE_FAULT} (simulated code, UNCONFIRMED)"
            state().tls.recent_err = msg
            if state().config.explain:
                print(f"[acl-teach sim] {msg}", file=sys.stderr)
        out = StreamDesc(address, 0 if why else len(data), self.desc.en_type, self.frames, DEVICE_FAULT if why else 0,
                         eos, owner="VENC")
        handle = create_handle(out, "venc output stream desc", f"frame {self.frames} of VENC channel {self.channel_id}")
        self.outputs.append(handle)

        def run() -> None:
            try:
                if fn is not None:
                    fn(input_, handle, user_data)
            finally:
                self._release(api, handle)
        self.lane.call(run, f"frame {self.frames}")

    def _release(self, api: str, handle: int) -> None:
        if handle in self.outputs:
            self.outputs.remove(handle)
            destroy_handle(api, handle, StreamDesc, "VENC output stream desc")

    def submit(self, api: str, input_: int, force_i: bool, user_data: Any) -> None:
        """Read the picture now (the venc_image sample frees its input right after sending), encode it later in order
        on the callback thread, as the device's work."""
        fn = callbacks().get(self.handle)  # the binding hands this callable to ACL with each frame
        planes, why = _picture(self, input_)
        sent = clock().host_us  # the unit starts the frame no earlier than the host sent it
        self.lane.post(lambda: self._encode_job(api, input_, planes, why, force_i, user_data, fn, sent),
                       f"encode {input_:#x}")

    def _encode_job(self, api: str, input_: int, planes, why: str, force_i: bool, user_data: Any, fn: Any,
                    sent_us: float) -> None:
        if planes is None:
            self._slice(sent_us, why)
            self._post(api, input_, b"", user_data, fn, why)
            self.frames += 1
        else:
            self.encode(api, input_, planes, force_i, user_data, fn, sent_us)

    def encode(self, api: str, input_: int, planes, force_i: bool, user_data: Any, fn: Any,
               sent_us: float) -> None:
        """Encode one picture and run the callback for each packet x264/x265 gives back."""
        av = video_lane.av()
        y, u, v = planes
        h, w = y.shape
        nv12 = np.empty((h * 3 // 2, w), np.uint8)
        nv12[:h] = y
        uv = nv12[h:].reshape(h // 2, w // 2, 2)
        uv[..., 0], uv[..., 1] = u, v
        frame = av.VideoFrame.from_ndarray(nv12, format="nv12").reformat(format="yuv420p")
        frame.pts = self.frames
        if force_i:
            frame.pict_type = av.video.frame.PictureType.I
        self._slice(sent_us)
        for packet in self.encoder.encode(frame):
            self._post(api, input_, bytes(packet), user_data, fn)
        self.frames += 1

    def _drain(self, api: str, fn: Any) -> None:
        for packet in self.encoder.encode(None):
            self._post(api, 0, bytes(packet), None, fn)
        self.encoder = _encoder(self.desc)

    def end_of_stream(self, api: str) -> None:
        """Queue the drain (zero latency: usually nothing is left); the encoder then starts a fresh stream."""
        fn = callbacks().get(self.handle)
        self.lane.post(lambda: self._drain(api, fn), "end of stream")

    def close(self, api: str) -> str:
        self.end_of_stream(api)
        why = self.lane.wait_all()
        self.lane.close()
        for handle in list(self.outputs):
            self._release(api, handle)
        if self.own_buffer is not None:
            space().release(self.own_buffer, api)
        return why


@binding("acl.media.venc_create_channel", "k", needs=CONTEXT)
def venc_create_channel(api, channel_desc):
    """Open an encode channel for this desc: its callback thread subscribed, its encoder and output buffer made."""
    desc = venc_desc(channel_desc)
    if desc is None:
        return bad_handle(api, channel_desc, "VENC channel desc (acl.media.venc_create_channel_desc)")
    if desc.channel is not None:
        return fail(100000, api, "this channel desc already has a channel (UNCONFIRMED code).")
    if callbacks().get(channel_desc) is None:
        return fail(100000, api, "no callback: call acl.media.venc_set_channel_desc_callback(desc, fn) first.")
    if desc.en_type not in V.STREAM_FORMATS:
        return fail(100000, api, f"entype {desc.en_type}: VENC encodes H265_MAIN_LEVEL (0) or H.264 baseline/main/"
                    f"high (1/2/3).")
    if desc.pic_format not in V.VIDEO_OUTPUT_FORMATS:
        return fail(100000, api, f"pic format {desc.pic_format}: VENC takes PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1) or "
                    f"PIXEL_FORMAT_YVU_SEMIPLANAR_420 (2).")
    w, h = desc.pic_width, desc.pic_height
    if not (V.VENC_MIN <= w <= V.VENC_MAX and V.VENC_MIN <= h <= V.VENC_MAX) or w % 2 or h % 2:
        return fail(100000, api, f"picture {w}x{h}: VENC encodes even sizes from {V.VENC_MIN}x{V.VENC_MIN} to "
                    f"{V.VENC_MAX}x{V.VENC_MAX} (set pic_width and pic_height; range UNCONFIRMED for newer SoCs).")
    if desc.thread_id == 0:
        return fail(100000, api, "no callback thread: call acl.media.venc_set_channel_desc_thread_id(desc, tid) with "
                    "the id from acl.util.start_thread of a thread looping on acl.rt.process_report.")
    if not thread_alive(desc.thread_id):
        ret = warn(100000, api, f"thread id {desc.thread_id} is not a running thread: nothing will call "
                   f"process_report for this channel, so its callbacks never run.")
        if ret:
            return ret
    ctx = current_context(api)[0]
    device_id = state().lookup(ctx, Context).device_id
    channel = Channel(channel_desc, desc, Lane(ctx, desc.thread_id, "VENC"), device_id)
    if not desc.buf_addr and channel.own_buffer is None:
        channel.lane.close()
        return fail(207001, api, f"no device memory left for VENC's {desc.buf_size}-byte output buffer.")
    desc.channel, desc.channel_id = channel, channel.channel_id
    state().ledger.add("venc channel", channel_desc, f"VENC channel {channel.channel_id} "
                       f"({V.STREAM_FORMATS[desc.en_type]} {w}x{h})", key=("venc channel", channel_desc))
    return 0


def close_channel(api: str, channel_desc: int, desc: VencChannelDesc) -> int:
    """Drain, wait for every callback, then close the channel: 0, or a warning's code when callbacks never ran."""
    why = desc.channel.close(api)
    desc.channel = None
    state().ledger.release(("venc channel", channel_desc), api)
    if why:
        return warn(507046, api, f"{why}; the channel is closed and those frames are lost (a board would keep "
                    f"waiting: keep the callback thread running until venc_destroy_channel returns).")
    return 0


@binding("acl.media.venc_destroy_channel", "k", needs=CONTEXT)
def venc_destroy_channel(api, channel_desc):
    """Close the channel once every frame sent has had its callback; the binding then forgets the callback."""
    desc = venc_desc(channel_desc)
    ret = (bad_handle(api, channel_desc, "VENC channel (acl.media.venc_create_channel)")
           if desc is None or desc.channel is None else close_channel(api, channel_desc, desc))
    callbacks()[channel_desc] = None
    return ret


def _picture(channel: Channel, input_: int):
    """(planes, '') of the input picture in DVPP memory, or (None, why the device refuses it)."""
    desc = channel.desc
    src = pic(input_)
    w, h = desc.pic_width, desc.pic_height
    wa, ha = V.VENC_STRIDE_ALIGN
    ws = src.width_stride or -(-w // wa) * wa
    hs = src.height_stride or -(-h // ha) * ha
    if ws % wa or ws < w or hs % ha or hs < h:
        return None, (f"input strides {ws}x{hs} for a {w}x{h} picture: widthStride a multiple of {wa} >= width, "
                      f"heightStride a multiple of {ha} >= height")
    need = V.yuv420sp_size(ws, hs)
    if src.size < need:
        return None, f"input size {src.size} < widthStride*heightStride*3/2 = {need}"
    region, offset, why = dvpp_region(src.data, need, "input picture data")
    if region is None:
        return None, why
    return tuple(p.copy() for p in read(region.view(offset, need), desc.pic_format, w, h, ws, hs)), ""


@binding("acl.media.venc_send_frame", "kkkkO")
def venc_send_frame(api, channel_desc, input_pic_desc, reserve, frame_config_, user_data):
    """Encode one picture (or end the stream when the frame config's eos is 1); the callback gets the frame."""
    if channel_desc not in callbacks():  # the binding's own check, before ACL is called
        raise RuntimeError("did not set callback, failed")
    ret = require_init(api) or current_context(api)[1]
    if ret:
        return ret
    desc = venc_desc(channel_desc)
    if desc is None:
        return bad_handle(api, channel_desc, "VENC channel desc")
    channel: Channel = desc.channel
    if channel is None:
        return fail(100000, api, "acl.media.venc_create_channel was not called on this channel desc.")
    cfg = frame_config(frame_config_)
    if cfg is None:
        return bad_handle(api, frame_config_, "VENC frame config (acl.media.venc_create_frame_config)")
    if cfg.eos:
        channel.end_of_stream(api)
        return 0
    if pic(input_pic_desc) is None:
        return bad_handle(api, input_pic_desc, "pic desc (the picture to encode)")
    channel.submit(api, input_pic_desc, bool(cfg.force_i_frame), user_data)  # the flag as it is now
    return 0


__all__ = [n for n, f in dict(globals()).items() if n.startswith("venc_") and hasattr(f, "__acl_api__")]
