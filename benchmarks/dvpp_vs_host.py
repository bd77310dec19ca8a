"""DVPP path vs host path per shipped photo, on the simulator, in one run.

DVPP: JPEG bytes -> H2D into dvpp_malloc memory -> dvpp_jpeg_decode_async (NV12, 128/16 strides) ->
dvpp_vpc_resize_async to 224x224 -> synchronize_stream -> execute the static-AIPP model (our ATC emulator,
``--insert_op_conf`` with the shipped YUV420SP -> RGB + (x - 127) / 128 cfg) -> D2H of the scores.
Host: Pillow decode -> resize to 224x224 -> numpy (x - 127) / 128 in fp16 -> H2D -> execute the fp16
default model -> D2H of the scores. Buffers, descs and models are set up once per image, outside the
timed loop (a steady-state pipeline). Runs alternate so machine noise hits both alike; medians.

Aim: DVPP / host <= 1.5.
"""
from __future__ import annotations

import io
import os
import statistics
import sys
import time
import warnings

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from acl_teach import sim as acl  # noqa: E402
from acl_teach.spec.dvpp import align_up  # noqa: E402
from acl_teach.toolchain import assets as models  # noqa: E402

ROUNDS = 10
AIM = 1.5
SIDE = 224


def jpeg_bytes(path: str) -> bytes:
    """The photo as JPEG bytes (a PNG is saved as a baseline JPEG at quality 95 first, outside the timing)."""
    if path.lower().endswith((".jpg", ".jpeg")):
        with open(path, "rb") as fh:
            return fh.read()
    buf = io.BytesIO()
    Image.open(path).convert("RGB").save(buf, "JPEG", quality=95)
    return buf.getvalue()


class Model:
    """A loaded model with one input buffer (ours, or set per run) and its output buffer and host copy."""

    def __init__(self, path: str):
        self.id, ret = acl.mdl.load_from_file(path)
        assert ret == 0, ret
        self.desc = acl.mdl.create_desc()
        acl.mdl.get_desc(self.desc, self.id)
        self.in_size = acl.mdl.get_input_size_by_index(self.desc, 0)
        self.out_size = acl.mdl.get_output_size_by_index(self.desc, 0)
        self.out_dev, _ = acl.rt.malloc(self.out_size, 0)
        self.host = np.zeros(self.out_size // 4, np.float32)
        self.ins, self.outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        self.outs_buf = acl.create_data_buffer(self.out_dev, self.out_size)
        acl.mdl.add_dataset_buffer(self.outs, self.outs_buf)
        self.in_buf = None

    def feed(self, ptr: int) -> None:
        """Point the model's input at ``ptr`` (DVPP memory straight in, as the samples do)."""
        self.in_buf = acl.create_data_buffer(ptr, self.in_size)
        acl.mdl.add_dataset_buffer(self.ins, self.in_buf)

    def run(self) -> int:
        """Execute and copy the scores back; the top-1 class."""
        assert acl.mdl.execute(self.id, self.ins, self.outs) == 0
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(self.host), self.out_size, self.out_dev, self.out_size, 2) == 0
        return int(self.host.argmax())

    def release(self) -> None:
        for ds, buf in ((self.ins, self.in_buf), (self.outs, self.outs_buf)):
            acl.destroy_data_buffer(buf)
            acl.mdl.destroy_dataset(ds)
        acl.rt.free(self.out_dev)
        acl.mdl.unload(self.id)
        acl.mdl.destroy_desc(self.desc)


def pic_desc(media, data: int, size: int, w: int, h: int, ws: int, hs: int) -> int:
    d = media.dvpp_create_pic_desc()
    for name, value in (("data", data), ("size", size), ("format", 1), ("width", w), ("height", h),
                        ("width_stride", ws), ("height_stride", hs)):
        getattr(media, f"dvpp_set_pic_desc_{name}")(d, value)
    return d


class DvppPath:
    """JPEGD -> VPC resize -> AIPP model, with the channel, stream, buffers and descs made once."""

    def __init__(self, raw: bytes, model: Model, stream: int, channel: int):
        media = acl.media
        self.raw, self.model, self.stream, self.ch = raw, model, stream, channel
        self.host_ptr = acl.util.bytes_to_ptr(raw)
        w, h, _, ret = media.dvpp_jpeg_get_image_info(self.host_ptr, len(raw))
        assert ret == 0
        self.jpeg, _ = media.dvpp_malloc(len(raw))
        dec_size, _ = media.dvpp_jpeg_predict_dec_size(self.host_ptr, len(raw), 1)
        self.dec_dev, _ = media.dvpp_malloc(dec_size)
        self.dec = pic_desc(media, self.dec_dev, dec_size, w, h, align_up(w, 128), align_up(h, 16))
        out_size = SIDE * SIDE * 3 // 2
        self.out_dev, _ = media.dvpp_malloc(out_size)
        self.out = pic_desc(media, self.out_dev, out_size, SIDE, SIDE, SIDE, SIDE)
        self.cfg = media.dvpp_create_resize_config()
        model.feed(self.out_dev)

    def run(self) -> int:
        media, raw = acl.media, self.raw
        assert acl.rt.memcpy(self.jpeg, len(raw), self.host_ptr, len(raw), 1) == 0
        assert media.dvpp_jpeg_decode_async(self.ch, self.jpeg, len(raw), self.dec, self.stream) == 0
        assert media.dvpp_vpc_resize_async(self.ch, self.dec, self.out, self.cfg, self.stream) == 0
        assert acl.rt.synchronize_stream(self.stream) == 0
        return self.model.run()

    def release(self) -> None:
        media = acl.media
        for d in (self.dec, self.out):
            media.dvpp_destroy_pic_desc(d)
        media.dvpp_destroy_resize_config(self.cfg)
        for ptr in (self.jpeg, self.dec_dev, self.out_dev):
            media.dvpp_free(ptr)


class HostPath:
    """Pillow decode + resize, numpy normalisation to fp16, H2D, the fp16 default model."""

    def __init__(self, raw: bytes, model: Model):
        self.raw, self.model = raw, model
        self.dev, _ = acl.rt.malloc(model.in_size, 0)
        model.feed(self.dev)

    def run(self) -> int:
        im = Image.open(io.BytesIO(self.raw)).convert("RGB").resize((SIDE, SIDE), Image.BILINEAR)
        x = ((np.asarray(im, np.float32) - 127.0) / 128.0).transpose(2, 0, 1)[None].astype(np.float16)
        x = np.ascontiguousarray(x)
        assert acl.rt.memcpy(self.dev, self.model.in_size, acl.util.numpy_to_ptr(x), x.nbytes, 1) == 0
        return self.model.run()

    def release(self) -> None:
        acl.rt.free(self.dev)


def measure(path: str, aipp_om: str, fp16_om: str, stream: int, channel: int) -> float:
    """Median DVPP-path time / median host-path time for one photo; prints both."""
    raw = jpeg_bytes(path)
    dvpp_model, host_model = Model(aipp_om), Model(fp16_om)
    dvpp, host = DvppPath(raw, dvpp_model, stream, channel), HostPath(raw, host_model)
    top = (dvpp.run(), host.run())  # warm-up (ONNX Runtime sessions, caches)
    d_t, h_t = [], []
    for _ in range(ROUNDS):
        t0 = time.perf_counter(); dvpp.run(); d_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter(); host.run(); h_t.append(time.perf_counter() - t0)
    d, h = statistics.median(d_t), statistics.median(h_t)
    with Image.open(path) as im:
        size = f"{im.size[0]}x{im.size[1]}"
    print(f"  {os.path.basename(path):12s} {size:>8s}: DVPP {1000 * d:7.2f} ms, host {1000 * h:7.2f} ms, "
          f"ratio {d / h:4.2f} {'ok' if d / h <= AIM else 'ABOVE AIM'}  (top-1 {top[0]} / {top[1]})")
    for item in (dvpp, host, dvpp_model, host_model):
        item.release()
    return d / h


def main() -> None:
    warnings.filterwarnings("ignore", "acl.util.numpy_to_ptr", DeprecationWarning)  # the sim's pyACL notice
    acl.reset(acl.Config(explain=False))
    acl.init()
    acl.rt.set_device(0)
    aipp_om, fp16_om = models.aipp_om(), models.default_om()
    stream, _ = acl.rt.create_stream()
    channel = acl.media.dvpp_create_channel_desc()
    acl.media.dvpp_create_channel(channel)
    print(f"DVPP (JPEGD -> VPC -> AIPP model) vs host (Pillow -> numpy -> fp16 model) per image, ratio <= {AIM} "
          f"is the aim")
    ratios = [measure(p, aipp_om, fp16_om, stream, channel) for p in models.sample_images()]
    print(f"  median ratio {statistics.median(ratios):4.2f}")
    acl.media.dvpp_destroy_channel(channel)
    acl.media.dvpp_destroy_channel_desc(channel)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main()
