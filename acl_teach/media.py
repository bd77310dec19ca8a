"""Media data processing as steps: ``decode_jpeg`` (JPEGD), ``resize`` and ``crop`` (VPC), each a record of its calls.

The third branch of the flow beside model inference and single operators. DVPP works only on DVPP
memory (``acl.media.dvpp_malloc``) described by a picture desc; its outputs are laid out with
width/height *strides* (JPEGD on the 310: width up to a multiple of 128, height of 16; VPC: 16 and
2), so a picture's buffer is ``width_stride × height_stride × 3/2`` bytes, not ``w × h × 3/2``.
Every call is queued on the stream: the bytes are there only after ``synchronize_stream``.
``picture_dataset`` hands a picture straight to an AIPP model, and ``apply_recipe`` does a recipe's
geometry (resize-short + centre crop) in one VPC crop, so the model sees what the host path gives it.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple, Union

from . import trace
from .dataset import Buffer, Dataset, release_dataset
from .model import Desc
from .resources import Release, Resources
from .spec import dvpp
from .spec.constants import ACL_MEMCPY_DEVICE_TO_DEVICE as D2D, ACL_MEMCPY_HOST_TO_DEVICE as H2D, MEMCPY_KIND_NAMES
from .step import Step

FORMATS = {"NV12": dvpp.PIXEL_FORMAT_YUV_SEMIPLANAR_420, "NV21": dvpp.PIXEL_FORMAT_YVU_SEMIPLANAR_420}
PIC_DESC_SETTERS = ("data", "size", "format", "width", "height", "width_stride", "height_stride")


@dataclass(repr=False)
class Channel(Step):
    """A DVPP channel (JPEGD and VPC share it) and its channel desc."""

    channel_desc: int = 0
    released: bool = False


@dataclass(repr=False)
class Picture(Step):
    """A picture in DVPP memory: the pic desc describing it and the layout its strides give."""

    width: int = 0
    height: int = 0
    width_stride: int = 0
    height_stride: int = 0
    format: str = "NV12"
    size: int = 0
    ptr: int = field(default=0, repr=False)
    pic_desc: int = field(default=0, repr=False)
    released: bool = False

    @property
    def arithmetic(self) -> str:
        """The buffer size as the rule writes it, with this picture's numbers."""
        return f"{self.width_stride} x {self.height_stride} x 3 / 2 = {self.size} bytes"

    def shown(self):
        return [("picture", f"{self.width} x {self.height} {self.format}"),
                ("strides", f"{self.width_stride} x {self.height_stride}"), ("buffer", self.arithmetic),
                ("released", self.released)]


def open_channel() -> Channel:
    """dvpp_create_channel_desc -> dvpp_create_channel: one channel serves JPEGD and VPC."""
    rec = Channel()
    rec.channel_desc = rec.call("acl.media.dvpp_create_channel_desc")
    try:
        rec.check("acl.media.dvpp_create_channel", rec.channel_desc)
    except Exception:
        rec.call("acl.media.dvpp_destroy_channel_desc", rec.channel_desc)
        raise
    return rec


def close_channel(channel: Channel) -> Release:
    """dvpp_destroy_channel -> dvpp_destroy_channel_desc (twice is a no-op that says so)."""
    return _release(channel, "DVPP channel", (("acl.media.dvpp_destroy_channel", channel.channel_desc),
                                              ("acl.media.dvpp_destroy_channel_desc", channel.channel_desc)))


def _release(record: Any, what: str, calls: Tuple[Tuple[str, int], ...]) -> Release:
    """Make the release calls once; a second release (a re-run cell) changes nothing and says so."""
    if record.released:
        return Release.nothing_to_do(what, f"this {what} was already released; nothing to do.")
    rec = Release(what=what)
    for api, handle in calls:
        rec.check(api, handle)
    record.released = True
    return rec


def _format(name: str) -> int:
    if name not in FORMATS:
        raise ValueError(f"format {name!r}: DVPP outputs here are 'NV12' (YUV420SP, U first) or 'NV21' (V first)")
    return FORMATS[name]


def _usable(channel: Optional[Channel] = None, *pictures: Picture) -> None:
    """Refuse released records here: on a board their handles would be a use-after-free in C."""
    if channel is not None and channel.released:
        raise ValueError("this DVPP channel was closed (close_channel): open a new one with at.media.open_channel()")
    for p in pictures:
        if p.released:
            raise ValueError(f"this {p.width}x{p.height} picture was released (release_picture): its DVPP memory and "
                             f"pic desc are gone; decode or resize again to get a new one")


def _size(what: str, value: Any) -> int:
    """A width/height/offset must be a plain non-negative int, said before any call is made."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{what} must be a non-negative whole number of pixels, not {value!r}")
    return value


def _new_picture(rec: Picture, at_least: int = 0) -> Picture:
    """dvpp_malloc the stride-sized buffer (or what the runtime predicted, if more) and describe it with a pic desc."""
    rec.size = max(dvpp.image_bytes(FORMATS[rec.format], rec.width_stride, rec.height_stride), at_least)
    rec.ptr, _ = rec.check("acl.media.dvpp_malloc", rec.size)
    rec.pic_desc = rec.call("acl.media.dvpp_create_pic_desc")
    values = (rec.ptr, rec.size, FORMATS[rec.format], rec.width, rec.height, rec.width_stride, rec.height_stride)
    for name, value in zip(PIC_DESC_SETTERS, values):
        rec.check(f"acl.media.dvpp_set_pic_desc_{name}", rec.pic_desc, value)
    return rec


def _discard(rec: Picture) -> None:
    """Undo a half-built picture so a failed step leaks nothing."""
    if rec.pic_desc:
        rec.call("acl.media.dvpp_destroy_pic_desc", rec.pic_desc)
    if rec.ptr:
        rec.call("acl.media.dvpp_free", rec.ptr)
    rec.released = True


MAX_JPEG_BYTES = 64 << 20  # far above any 8192 x 8192 baseline JPEG a camera writes; bounds a file read


def _read_jpeg(jpeg: Union[bytes, str, os.PathLike]) -> bytes:
    """The JPEG's bytes from bytes or a file path (never an int: open() would take it for a file descriptor)."""
    if isinstance(jpeg, (bytes, bytearray)):
        return bytes(jpeg)
    if not isinstance(jpeg, (str, os.PathLike)):
        raise ValueError(f"give the JPEG as bytes or a file path, not {type(jpeg).__name__}")
    fd = os.open(jpeg, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO cannot block the open
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # a FIFO, /dev/zero (or a link to it), a directory
            raise ValueError(f"{os.fspath(jpeg)} is not a regular file: give the JPEG file itself")
        data = fh.read(MAX_JPEG_BYTES + 1)
    if len(data) > MAX_JPEG_BYTES:
        raise ValueError(f"{os.fspath(jpeg)} is larger than {MAX_JPEG_BYTES:,} bytes: not a photo JPEGD decodes "
                         f"(at most {dvpp.JPEG_MAX} x {dvpp.JPEG_MAX} pixels)")
    return data


def _soc() -> str:
    """The SoC the strides are for (JPEGD's alignment differs between the 310 and newer chips)."""
    return trace.resolve("acl.get_soc_name")() or ""


def decode_jpeg(jpeg: Union[bytes, str, os.PathLike], channel: Channel, resources: Resources,
                format: str = "NV12") -> Picture:
    """get_image_info -> dvpp_malloc + memcpy the JPEG -> a stride-sized output -> decode_async -> synchronize."""
    _usable(channel)
    data, fmt = _read_jpeg(jpeg), _format(format)
    rec = Picture(format=format)
    ptr = rec.call("acl.util.bytes_to_ptr", data)
    rec.width, rec.height, _, _ = rec.check("acl.media.dvpp_jpeg_get_image_info", ptr, len(data))
    wa, ha = dvpp.jpegd_stride_align(_soc())
    rec.width_stride, rec.height_stride = dvpp.align_up(rec.width, wa), dvpp.align_up(rec.height, ha)
    src = 0
    try:
        predicted, _ = rec.check("acl.media.dvpp_jpeg_predict_dec_size", ptr, len(data), fmt)
        src, _ = rec.check("acl.media.dvpp_malloc", len(data))
        kind = D2D if resources.on_board else H2D
        rec.check("acl.rt.memcpy", src, len(data), ptr, len(data), kind)
        _new_picture(rec, at_least=predicted)  # the runtime's prediction wins if it asks for more
        rec.check("acl.media.dvpp_jpeg_decode_async", channel.channel_desc, src, len(data), rec.pic_desc,
                  resources.stream)
        rec.check("acl.rt.synchronize_stream", resources.stream)
    except Exception:
        _discard(rec)
        raise
    finally:
        if src:
            rec.call("acl.media.dvpp_free", src)
    rec.notes.append(f"JPEG {len(data)} bytes copied {MEMCPY_KIND_NAMES[kind]} into DVPP memory, freed after "
                     f"the decode; width {rec.width} -> stride {rec.width_stride} (multiple of {wa}), height "
                     f"{rec.height} -> {rec.height_stride} (multiple of {ha}).")
    return rec


def _vpc_output(width: int, height: int, format: str) -> Picture:
    """A VPC output picture: width stride a multiple of 16, height stride of 2 (NV12/NV21)."""
    wa, ha = dvpp.VPC_STRIDE_ALIGN
    return Picture(width=width, height=height, width_stride=dvpp.align_up(width, wa),
                   height_stride=dvpp.align_up(height, ha), format=format)


def _vpc(rec: Picture, picture: Picture, channel: Channel, resources: Resources, api: str, create: tuple,
         destroy: str) -> Picture:
    """Output picture -> its config -> the VPC call -> synchronize; the config always destroyed, a failed output freed."""
    config = 0
    try:
        _new_picture(rec)
        config = rec.call(*create)
        rec.check(api, channel.channel_desc, picture.pic_desc, rec.pic_desc, config, resources.stream)
        rec.check("acl.rt.synchronize_stream", resources.stream)
    except Exception:
        _discard(rec)
        raise
    finally:
        if config:
            rec.call(destroy, config)
    return rec


def resize(picture: Picture, width: int, height: int, channel: Channel, resources: Resources,
           format: Optional[str] = None) -> Picture:
    """A VPC output picture -> resize config -> dvpp_vpc_resize_async -> synchronize."""
    _usable(channel, picture)
    rec = _vpc_output(_size("width", width), _size("height", height), format or picture.format)
    _format(rec.format)
    return _vpc(rec, picture, channel, resources, "acl.media.dvpp_vpc_resize_async",
                ("acl.media.dvpp_create_resize_config",), "acl.media.dvpp_destroy_resize_config")


def crop(picture: Picture, left: int, top: int, width: int, height: int, channel: Channel, resources: Resources,
         out_size: Optional[Tuple[int, int]] = None) -> Picture:
    """ROI (left, right=left+width-1, top, bottom=top+height-1) -> dvpp_vpc_crop_async, scaled to ``out_size``.

    The ROI rule is the hardware's: left and top even, right and bottom odd. This step does not round
    for you; an odd ``left`` is refused by DVPP itself, with its code, as on a board.
    """
    _usable(channel, picture)
    for what, value in (("left", left), ("top", top), ("width", width), ("height", height)):
        _size(what, value)
    out_w, out_h = out_size or (width, height)
    rec = _vpc_output(_size("output width", out_w), _size("output height", out_h), picture.format)
    return _vpc(rec, picture, channel, resources, "acl.media.dvpp_vpc_crop_async",
                ("acl.media.dvpp_create_roi_config", left, left + width - 1, top, top + height - 1),
                "acl.media.dvpp_destroy_roi_config")


def release_picture(picture: Picture) -> Release:
    """dvpp_destroy_pic_desc -> dvpp_free (DVPP memory goes back through acl.media, never acl.rt.free)."""
    return _release(picture, "picture", (("acl.media.dvpp_destroy_pic_desc", picture.pic_desc),
                                         ("acl.media.dvpp_free", picture.ptr)))


def picture_dataset(picture: Picture, desc: Optional[Desc] = None) -> Dataset:
    """An input dataset whose one buffer is the picture's DVPP memory: no copy into the AIPP model.

    With ``desc`` the picture's size is checked against the model's input first (an un-resized
    picture would otherwise run and give a wrong answer). ``release_dataset`` destroys the buffer
    and the dataset but leaves the memory to ``release_picture``.
    """
    _usable(None, picture)
    if desc is not None and desc.inputs and desc.inputs[0].size != picture.size:
        t = desc.inputs[0]
        raise ValueError(f"the model's input #0 ({t.name}) is {t.size} bytes ({t.size_arithmetic}); this picture "
                         f"is {picture.arithmetic} ({picture.width}x{picture.height}): resize or apply_recipe "
                         f"to the model's size first")
    rec = Dataset(kind="input", owns_memory=False)
    rec.dataset = rec.call("acl.mdl.create_dataset")
    try:
        buf = Buffer(0, f"picture {picture.width}x{picture.height} {picture.format}", picture.ptr, picture.size, 0)
        rec.buffers.append(buf)
        buf.data_buffer = rec.call("acl.create_data_buffer", picture.ptr, picture.size)
        rec.check("acl.mdl.add_dataset_buffer", rec.dataset, buf.data_buffer)
    except Exception:
        release_dataset(rec)
        raise
    return rec


def even_roi(width: int, height: int, recipe: Dict[str, Any]) -> Tuple[int, int, int, int]:
    """(left, top, w, h) of the recipe's centre crop in source pixels, with even offsets and sizes."""
    if not isinstance(recipe, dict):
        raise ValueError(f"the recipe must be a dict such as {{'resize_short': 256, 'crop': 224}}, not "
                         f"{type(recipe).__name__}")
    sizes = [("crop", recipe.get("crop", 224))] + [("resize_short", v) for v in [recipe.get("resize_short")]
                                                   if "resize_short" in recipe]
    exact = recipe.get("resize_exact", [])
    sizes += [("resize_exact", v) for v in (exact if isinstance(exact, (list, tuple)) else [exact])]
    bad = [(k, v) for k, v in sizes if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1 << 16]
    if bad or ("resize_exact" in recipe and (not isinstance(exact, (list, tuple)) or len(exact) != 2)):
        key, value = bad[0] if bad else ("resize_exact", recipe["resize_exact"])
        raise ValueError(f"the recipe's {key} is {value!r}: sizes are positive pixel counts (resize_exact is "
                         f"[height, width])")
    crop_px = recipe.get("crop", 224)
    if "resize_short" in recipe:
        side = min(width, height) * crop_px / recipe["resize_short"]
        cw, ch = side, side
    else:
        rh, rw = recipe.get("resize_exact", [crop_px, crop_px])
        cw, ch = width * crop_px / rw, height * crop_px / rh
    cw, ch = min(int(cw) // 2 * 2, width // 2 * 2), min(int(ch) // 2 * 2, height // 2 * 2)  # even, inside
    if cw < dvpp.VPC_MIN_W or ch < dvpp.VPC_MIN_H:
        raise ValueError(f"the recipe's crop of a {width}x{height} picture is {cw}x{ch}, below VPC's minimum "
                         f"{dvpp.VPC_MIN_W}x{dvpp.VPC_MIN_H}")
    left, top = (width - cw) // 2 // 2 * 2, (height - ch) // 2 // 2 * 2
    return left, top, cw, ch


def apply_recipe(picture: Picture, recipe: Dict[str, Any], channel: Channel, resources: Resources) -> Picture:
    """The recipe's geometry on VPC: its centre-crop region of the source, scaled to crop x crop in one call."""
    left, top, w, h = even_roi(picture.width, picture.height, recipe)
    side = recipe.get("crop", 224)
    return crop(picture, left, top, w, h, channel, resources, out_size=(side, side))

