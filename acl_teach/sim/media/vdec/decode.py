"""acl.media's video decoder (VDEC): H.264/H.265 chunks in, YUV420SP pictures out, each through the callback.

The engine is FFmpeg's decoder (PyAV), one per channel, fed each ``vdec_send_frame`` chunk (a
frame, as acllite's VideoCapture sends one demuxed packet at a time; a chunk holding several frames
is split by FFmpeg's parser and its first picture used). Each decoded picture goes into the output
pic desc of the chunk it came from, as NV12/NV21 with widthStride ALIGN_UP(w, 16) and heightStride
ALIGN_UP(h, 2) (or the strides the desc carries, if valid), and the callback
``callback(input_stream_desc, output_pic_desc, user_data)`` runs on the channel's callback thread in
its ``acl.rt.process_report`` — in display order, so a stream with B-frames delivers some frames late.
The decoding itself is the device's work, done in order on that thread (see ``Channel``): send_frame
only reads the chunk and queues it.

What is checked where:
- on the host, by ``vdec_send_frame`` (its return code): the callback set through the binding
  (RuntimeError otherwise, as the binding raises), a created channel, a live input stream desc with
  data and size (unless it is the EOS frame), a live output pic desc (100000);
- on the device, reported as the output desc's ``ret_code`` in the callback (send_frame returned 0):
  input not in dvpp_malloc memory, a chunk FFmpeg cannot decode (garbage, the wrong codec for the
  channel's entype), a stream outside 128x128..4096x4096, strides or buffer too small, a picture other
  than 8-bit 4:2:0, or a chunk that
  gave no picture by the end of the stream — code 507018 (UNCONFIRMED: the VDEC firmware's own
  codes are not published for pyACL). A bad chunk never stops the channel: the next one decodes.

EOS (a stream desc with eos=1): the decoder is drained, every waiting chunk gets its callback, then
the EOS chunk's own callback runs (output desc as passed, usually 0) and the channel is ready for
a new stream. ``vdec_destroy_channel`` does the same without the EOS callback and returns once
every callback has run (UNCONFIRMED: the simulator stops waiting after config.wait_timeout_s).

Timeline (``acl.prof``): every chunk is a slice "VDEC frame N" (cat ``vdec``) on the row "VDEC
channel <id>", in the order the pictures come out, lasting dvpp_cost("vdec", w*h) (*simulator:*
a per-pixel rate per SoC, UNCONFIRMED), placed when the callback thread decodes it, after the
host sent it; its callback runs after the slice's end (video_lane.py). FRAME_S only paces the
wall clock (so a reader racing the decoder sees frames in flight); the timeline's times are
dvpp_cost's.
"""
from __future__ import annotations

import collections
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Deque, List, Optional

import numpy as np

from ....spec import video as V
from ...core.args import CONTEXT, binding
from ..dvpp.common import DEVICE_FAULT, bad_handle, dvpp_region
from ..dvpp.cost import UNIT_LAUNCH_US, dvpp_cost
from ..dvpp.picdesc import PicDesc, pic
from ..dvpp.pixels import write
from ..dvpp.stream import stream_desc
from ...rt.runtime import current_context
from ...core.state import fail, require_init, state, warn
from ...rt.stream import thread_alive
from ...core.timeline import clock
from .desc import VdecChannelDesc, VdecFrameConfig, callbacks, vdec_desc
from ..video_lane import Lane, av

FRAME_S = 0.001  # simulated device time per frame (a simulator choice: a board's VDEC is of this order)
REORDER_LIMIT = 16  # a chunk still without a picture after this many later ones decoded has failed (UNCONFIRMED)


@dataclass
class Chunk:
    """One vdec_send_frame waiting for its picture."""

    index: int
    input: int
    output: int
    user_data: Any
    skipped: bool = False
    fn: Any = None  # the callback as it was when the chunk was sent
    sent_us: float = 0.0  # host clock when vdec_send_frame handed it over (timeline.py)


class Decoder:
    """One channel's FFmpeg decoder and the chunks waiting for their pictures."""

    def __init__(self, codec: str) -> None:
        self.codec = codec
        self.lock = threading.RLock()  # a callback may destroy the channel from inside the decode
        self.waiting: Deque[Chunk] = collections.deque()
        self.sent = 0
        self.decoded = 0
        self.ctx = self._open()

    def _open(self):
        ctx = av().CodecContext.create(self.codec, "r")  # PyAV, imported when the first channel opens
        ctx.thread_count = 1  # deterministic, and frugal: one frame in, one frame out
        return ctx

    def feed(self, raw: bytes, index: int) -> List[Any]:
        """Pictures FFmpeg gives for this chunk (each tagged with its chunk's index); raises on bad data."""
        packets = self.ctx.parse(raw) + self.ctx.parse(None)
        frames = []
        for packet in packets:
            packet.pts = packet.dts = index
            frames += self.ctx.decode(packet)
        return frames

    def drain(self) -> List[Any]:
        """The pictures FFmpeg still holds (end of stream); the decoder is then fresh for a new stream."""
        try:
            frames = list(self.ctx.decode(None))
        except Exception:  # noqa: BLE001 - a broken tail gives no more pictures
            frames = []
        self.ctx = self._open()
        return frames


def _note(api: str, why: str) -> None:
    """A device-side failure: shown on stderr and in get_recent_err_msg; the code reaches the callback only."""
    msg = f"{api}: {why}; the callback's output pic desc gets ret_code {DEVICE_FAULT} (simulated code, UNCONFIRMED)"
    state().tls.recent_err = msg
    if state().config.explain:
        print(f"[acl-teach sim] {msg}", file=sys.stderr)


def _planes(frame):
    """(Y, U, V) uint8 arrays of an 8-bit 4:2:0 picture, or None for any other kind."""
    if frame.format.name not in ("yuv420p", "yuvj420p"):
        return None
    out = []
    for plane in frame.planes:
        arr = np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)
        out.append(arr[:, :plane.width])
    return tuple(out)


def _scaled(frame, desc: VdecChannelDesc):
    """The picture at the channel's out_pic_width x out_pic_height when those are set (UNCONFIRMED on the 310)."""
    w, h = desc.out_pic_width or frame.width, desc.out_pic_height or frame.height
    if (w, h) == (frame.width, frame.height):
        return frame
    return frame.reformat(width=w, height=h, format="yuv420p")


def _fill(frame, out: PicDesc, desc: VdecChannelDesc) -> str:
    """Write one picture into the output desc's buffer: '' or why the device refused."""
    if not (V.VIDEO_MIN <= frame.width <= V.VIDEO_MAX and V.VIDEO_MIN <= frame.height <= V.VIDEO_MAX):
        return (f"the stream is {frame.width}x{frame.height}; VDEC decodes {V.VIDEO_MIN}x{V.VIDEO_MIN} to "
                f"{V.VIDEO_MAX}x{V.VIDEO_MAX}")
    frame = _scaled(frame, desc)
    planes = _planes(frame)
    if planes is None:
        return f"VDEC outputs 8-bit 4:2:0 pictures only; this stream decodes to {frame.format.name}"
    w, h = frame.width, frame.height
    ws, hs = out.width_stride or V.vdec_strides(w, h)[0], out.height_stride or V.vdec_strides(w, h)[1]
    wa, ha = V.VDEC_STRIDE_ALIGN
    if ws % wa or ws < w or hs % ha or hs < h:
        return (f"output strides {ws}x{hs} for a {w}x{h} picture: widthStride must be a multiple of {wa} >= width, "
                f"heightStride a multiple of {ha} >= height ({V.vdec_strides(w, h)[0]}x{V.vdec_strides(w, h)[1]})")
    need = V.yuv420sp_size(ws, hs)
    if out.size < need:
        return f"output size {out.size} < widthStride*heightStride*3/2 = {ws}*{hs}*3/2 = {need}"
    region, offset, why = dvpp_region(out.data, need, "output picture data")
    if region is None:
        return why
    fmt = desc.out_pic_format
    write(region.view(offset, need), fmt, planes, 0, 0, ws, hs)
    out.format = fmt
    out.width, out.height = out.width or w, out.height or h
    out.width_stride, out.height_stride = ws, hs
    return ""


class Channel:
    """A created VDEC channel: its decoder and its lane to the callback thread, where the decoding runs.

    The decode is the device's work: each sent chunk becomes a job on the lane, run in order by the
    callback thread's process_report, no earlier than FRAME_S after the previous frame (a simulated
    device time, UNCONFIRMED) — so, as on a board, send_frame returns before its callback, and a
    reader racing the decoder (acllite's VideoCapture) sees frames still in flight.
    """

    def __init__(self, handle: int, desc: VdecChannelDesc, lane: Lane) -> None:
        self.handle, self.desc, self.lane = handle, desc, lane
        self.decoder = Decoder(V.STREAM_FORMATS[desc.en_type])
        self.due = 0.0

    def _deliver(self, chunk: Chunk, api: str, frame: Any = None, why: str = "") -> None:
        """Finish a chunk: write its picture (or its failure) into its output desc, then run its callback."""
        out = pic(chunk.output) if chunk.output else None
        if out is not None and not chunk.skipped:
            if frame is not None and not why:
                why = _fill(frame, out, self.desc)
            out.ret_code = DEVICE_FAULT if why else 0
        if why:
            _note(api, f"channel {self.desc.channel_id} frame {chunk.index}: {why}")
        done = self._timeline(chunk, frame, why)
        if chunk.fn is not None:
            output = 0 if chunk.skipped else chunk.output
            self.lane.call(lambda: chunk.fn(chunk.input, output, chunk.user_data), f"frame {chunk.index}", done)

    def _timeline(self, chunk: Chunk, frame: Any, why: str) -> float:
        """The chunk's slice on this channel's timeline row (media/dvpp/cost.py); when the unit finished it."""
        w, h = (frame.width, frame.height) if frame is not None else (0, 0)
        kind = " (skipped)" if chunk.skipped else " (failed)" if why else ""
        args = {"frame": chunk.index, "channel_id": self.desc.channel_id, "result": f"failed: {why}" if why else "ok"}
        if frame is not None:
            args.update(width=w, height=h)
        cost = dvpp_cost("vdec", w * h) if frame is not None else UNIT_LAUNCH_US
        return self.lane.work(f"VDEC frame {chunk.index}{kind}", "vdec", cost, chunk.sent_us, args)

    def _settle(self, frames: List[Any], api: str) -> None:
        """Give each picture to the chunk it came from; fail chunks that fell too far behind."""
        dec = self.decoder
        for frame in frames:
            dec.decoded += 1
            chunk = next((c for c in dec.waiting if c.index == frame.pts), None)
            if chunk is None:
                continue  # a second picture from one chunk: VDEC has one output desc per send_frame
            dec.waiting.remove(chunk)
            self._deliver(chunk, api, frame)
        newest = max((f.pts for f in frames), default=None)
        while newest is not None and dec.waiting and newest - dec.waiting[0].index > REORDER_LIMIT:
            self._deliver(dec.waiting.popleft(), api, why="the chunk gave no picture (not a whole frame?)")

    def _decode(self, api: str, chunk: Chunk, raw: Optional[bytes], why: str, due: float) -> None:
        """The device side of one chunk: decode it (or fail it with ``why``), deliver every picture that is ready."""
        time.sleep(max(0.0, due - time.monotonic()))
        with self.decoder.lock:
            if why:
                self._deliver(chunk, api, why=why)
                return
            self.decoder.waiting.append(chunk)
            try:
                frames = self.decoder.feed(raw, chunk.index)
            except Exception as exc:  # noqa: BLE001 - FFmpeg refuses the data: this chunk fails, the channel goes on
                self.decoder.waiting.remove(chunk)
                self._deliver(chunk, api, why=f"the decoder cannot decode this chunk as {self.decoder.codec} "
                              f"({type(exc).__name__}: {exc})")
                return
            self._settle(frames, api)

    def send(self, api: str, chunk: Chunk, raw: Optional[bytes], why: str) -> None:
        """Queue one chunk for the device (its bytes were read already)."""
        self.due = max(self.due, time.monotonic()) + FRAME_S
        due = self.due
        self.lane.post(lambda: self._decode(api, chunk, raw, why, due), f"decode frame {chunk.index}")

    def _drain(self, api: str, eos: Optional[Chunk]) -> None:
        with self.decoder.lock:
            self._settle(self.decoder.drain(), api)
            while self.decoder.waiting:
                self._deliver(self.decoder.waiting.popleft(), api, why="the chunk gave no picture by the end "
                              "of the stream")
        if eos is not None and eos.fn is not None:
            self.lane.call(lambda: eos.fn(eos.input, eos.output, eos.user_data), "end of stream")

    def end_of_stream(self, api: str, eos: Optional[Chunk] = None) -> None:
        """Queue the drain: every waiting chunk gets its picture or its failure, then the EOS chunk its callback."""
        self.lane.post(lambda: self._drain(api, eos), "end of stream")


@binding("acl.media.vdec_create_channel", "k", needs=CONTEXT)
def vdec_create_channel(api, channel_desc):
    """Open a decode channel for this desc: its callback thread is subscribed, its decoder made."""
    desc = vdec_desc(channel_desc)
    if desc is None:
        return bad_handle(api, channel_desc, "VDEC channel desc (acl.media.vdec_create_channel_desc)")
    if desc.channel is not None:
        return fail(100000, api, "this channel desc already has a channel (UNCONFIRMED code).")
    if callbacks().get(channel_desc) is None:
        return fail(100000, api, "no callback: call acl.media.vdec_set_channel_desc_callback(desc, fn) first.")
    if desc.en_type not in V.STREAM_FORMATS:
        return fail(100000, api, f"entype {desc.en_type}: VDEC decodes H265_MAIN_LEVEL (0), H264_BASELINE_LEVEL (1), "
                    f"H264_MAIN_LEVEL (2) and H264_HIGH_LEVEL (3) (UNCONFIRMED code).")
    if desc.out_pic_format not in V.VIDEO_OUTPUT_FORMATS:
        return fail(100000, api, f"out pic format {desc.out_pic_format}: VDEC outputs PIXEL_FORMAT_YUV_SEMIPLANAR_420 "
                    f"(1) or PIXEL_FORMAT_YVU_SEMIPLANAR_420 (2) (UNCONFIRMED code).")
    if desc.thread_id == 0:
        return fail(100000, api, "no callback thread: call acl.media.vdec_set_channel_desc_thread_id(desc, tid) with "
                    "the id from acl.util.start_thread of a thread looping on acl.rt.process_report.")
    busy = [c for c in _channels() if c.desc.channel_id == desc.channel_id]
    if busy:
        return fail(100000, api, f"VDEC channel id {desc.channel_id} is already in use by another channel; give each "
                    f"channel its own id (UNCONFIRMED code).")
    if not thread_alive(desc.thread_id):
        ret = warn(100000, api, f"thread id {desc.thread_id} is not a running thread: nothing will call "
                   f"process_report for this channel, so its callbacks never run.")
        if ret:
            return ret
    lane = Lane(current_context(api)[0], desc.thread_id, "VDEC")
    lane.row = f"VDEC channel {desc.channel_id}"
    desc.channel = Channel(channel_desc, desc, lane)
    state().ledger.add("vdec channel", channel_desc, f"VDEC channel {desc.channel_id} "
                       f"({V.STREAM_FORMATS[desc.en_type]})", key=("vdec channel", channel_desc))
    return 0


def _channels() -> List[Channel]:
    return [obj.channel for obj in list(state().handles.values())
            if isinstance(obj, VdecChannelDesc) and obj.channel is not None]


def close_channel(api: str, channel_desc: int, desc: VdecChannelDesc) -> int:
    """Drain, wait for every callback, then close the channel: 0, or a warning's code when callbacks never ran."""
    channel = desc.channel
    channel.end_of_stream(api)
    why = channel.lane.wait_all()
    channel.lane.close()
    desc.channel = None
    state().ledger.release(("vdec channel", channel_desc), api)
    if why:
        return warn(507046, api, f"{why}; the channel is closed and those frames are lost (a board would keep "
                    f"waiting: keep the callback thread running until vdec_destroy_channel returns).")
    return 0


@binding("acl.media.vdec_destroy_channel", "k", needs=CONTEXT)
def vdec_destroy_channel(api, channel_desc):
    """Close the channel once every frame sent has had its callback; the binding then forgets the callback."""
    desc = vdec_desc(channel_desc)
    ret = (bad_handle(api, channel_desc, "VDEC channel (acl.media.vdec_create_channel)")
           if desc is None or desc.channel is None else close_channel(api, channel_desc, desc))
    callbacks()[channel_desc] = None  # the binding drops its reference whatever ACL returned
    return ret


def _chunk_bytes(sd) -> "tuple[Optional[bytes], str]":
    """The chunk's bytes, read now (VDEC takes the data at send time: acllite reuses one input buffer)."""
    region, offset, why = dvpp_region(sd.data, sd.size, "input stream data")
    if region is None:
        return None, why
    return bytes(region.view(offset, sd.size)), ""


def _send(api: str, channel_desc: int, input_: int, output: int, config: int, user_data: Any, skipped: bool) -> int:
    """The shared body of vdec_send_frame and vdec_send_skipped_frame."""
    if channel_desc not in callbacks():  # the binding's own check, before ACL is called
        raise RuntimeError("did not set callback, failed")
    ret = require_init(api) or current_context(api)[1]
    if ret:
        return ret
    desc = vdec_desc(channel_desc)
    if desc is None:
        return bad_handle(api, channel_desc, "VDEC channel desc")
    if desc.channel is None:
        return fail(100000, api, "acl.media.vdec_create_channel was not called on this channel desc.")
    sd = stream_desc(input_)
    if sd is None:
        return bad_handle(api, input_, "stream desc (acl.media.dvpp_create_stream_desc) for the input")
    if config and state().lookup(config, VdecFrameConfig) is None:
        return bad_handle(api, config, "VDEC frame config (acl.media.vdec_create_frame_config)")
    channel: Channel = desc.channel
    fn = callbacks().get(channel_desc)  # the binding hands this callable to ACL with each frame
    if sd.eos:
        channel.end_of_stream(api, Chunk(-1, input_, output, user_data, fn=fn))  # its callback after every frame
        return 0
    if not skipped and pic(output) is None:
        return bad_handle(api, output, "pic desc (the decoded picture's output)")
    if sd.data == 0 or sd.size == 0:
        return fail(100000, api, "the input stream desc has no data or size 0: dvpp_set_stream_desc_data and "
                    "dvpp_set_stream_desc_size first.")
    raw, why = _chunk_bytes(sd)
    with channel.decoder.lock:
        index = channel.decoder.sent
        channel.decoder.sent += 1
    chunk = Chunk(index, input_, 0 if skipped else output, user_data, skipped, fn, clock().host_us)
    channel.send(api, chunk, raw, why)
    return 0


@binding("acl.media.vdec_send_frame", "kkkkO")
def vdec_send_frame(api, channel_desc, input_stream_desc, output_pic_desc, frame_config, user_data):
    """Send one chunk to decode into ``output_pic_desc``; its callback brings both descs back with ``user_data``."""
    return _send(api, channel_desc, input_stream_desc, output_pic_desc, frame_config, user_data, False)


@binding("acl.media.vdec_send_skipped_frame", "kkkO")
def vdec_send_skipped_frame(api, channel_desc, input_stream_desc, frame_config, user_data):
    """Decode a chunk only as a reference: no picture out, the callback gets output desc 0."""
    return _send(api, channel_desc, input_stream_desc, 0, frame_config, user_data, True)


__all__ = [n for n, f in dict(globals()).items() if n.startswith("vdec_") and hasattr(f, "__acl_api__")]
