"""Make small H.264/H.265 elementary streams (Annex B) from still pictures, with PyAV: inputs for VDEC programs.

The official video samples ship camera clips we cannot redistribute; these streams stand in for
them (``make samples``, the tests, ``acl_teach/examples/video_classify.py``). Each frame is the
picture slowly panned, so consecutive frames differ and P-frames carry real motion.
"""
from __future__ import annotations

import os
from fractions import Fraction
from typing import List, Optional, Sequence

import numpy as np
from PIL import Image

CODECS = {"h264": "libx264", "h265": "libx265", "hevc": "libx265"}


def _frames(images: Sequence[str], width: int, height: int, count: int) -> List[Image.Image]:
    """``count`` width x height RGB frames: each picture in turn, panned a few pixels per frame."""
    pictures = [Image.open(p).convert("RGB") for p in images]
    out = []
    for i in range(count):
        src = pictures[(i * len(pictures)) // max(count, 1)]
        big = src.resize((width + 32, height + 32), Image.BILINEAR)
        dx = (i * 3) % 32
        out.append(big.crop((dx, dx // 2, dx + width, dx // 2 + height)))
    return out


def encode(images: Sequence[str], width: int, height: int, frames: int, codec: str = "h264",
           profile: Optional[str] = "main", gop: int = 0, bframes: int = 0) -> List[bytes]:
    """The stream as a list of access units (one bytes object per frame, decode order), SPS/PPS in the first."""
    import av
    name = CODECS[codec]
    ctx = av.CodecContext.create(name, "w")
    ctx.width, ctx.height, ctx.pix_fmt = width, height, "yuv420p"
    ctx.time_base, ctx.framerate = Fraction(1, 25), Fraction(25, 1)
    ctx.thread_count = 1
    keyint = gop or frames
    if name == "libx265":
        ctx.options = {"preset": "ultrafast", "x265-params": f"log-level=none:keyint={keyint}:bframes={bframes}"}
    else:
        ctx.options = {"preset": "ultrafast", "x264-params": f"bframes={bframes}:keyint={keyint}"}
        if profile:
            ctx.options = dict(ctx.options, profile=profile)
    units = []
    for i, picture in enumerate(_frames(images, width, height, frames)):
        frame = av.VideoFrame.from_image(picture).reformat(format="yuv420p")
        frame.pts = i
        units += [bytes(p) for p in ctx.encode(frame)]
    units += [bytes(p) for p in ctx.encode(None)]
    return units


def write_stream(path: str, images: Sequence[str], width: int, height: int, frames: int, codec: str = "h264",
                 **kwargs) -> str:
    """Write an Annex-B elementary stream file (.h264 / .h265) and return its path."""
    units = encode(images, width, height, frames, codec, **kwargs)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(b"".join(units))
    return path


def decode_nv12(units: Sequence[bytes], codec: str = "h264") -> List[np.ndarray]:
    """FFmpeg's own decode of the stream, each picture as a packed NV12 array (h * 3/2, w): the reference."""
    import av
    ctx = av.CodecContext.create("hevc" if codec in ("h265", "hevc") else "h264", "r")
    ctx.thread_count = 1
    pictures = []
    for unit in list(units) + [None]:
        packets = [None] if unit is None else ctx.parse(unit) + ctx.parse(None)
        for packet in packets:
            for frame in ctx.decode(packet):
                nv12 = frame.reformat(format="nv12")
                y = np.frombuffer(nv12.planes[0], np.uint8).reshape(-1, nv12.planes[0].line_size)
                uv = np.frombuffer(nv12.planes[1], np.uint8).reshape(-1, nv12.planes[1].line_size)
                pictures.append(np.vstack([y[:frame.height, :frame.width], uv[:(frame.height + 1) // 2,
                                                                              :frame.width]]))
    return pictures
