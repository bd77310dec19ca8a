"""Video: VDEC -> VPC -> model per frame on the simulator vs the same job with PyAV + Pillow + ONNX Runtime.

Ours is ``acl_teach/examples/video_classify.py`` (raw pyACL: each access unit to VDEC from DVPP memory,
the callback thread, VPC resize to 224 x 224 NV12, the AIPP model); bare decodes the same file with
PyAV, resizes the RGB frame to 224 x 224 with Pillow and runs the shipped ONNX model. Both load their
model once per run, the OM is built beforehand (cached). Aim: ratio <= 1.3. A report, not a gate.

    python benchmarks/video_overhead.py [FRAMES]   (default 16 frames of 320 x 240 H.264)
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
AIM = 1.3
WIDTH, HEIGHT = 320, 240


def missing() -> str:
    """Why the benchmark cannot run here ('' when it can)."""
    from acl_teach import sim
    if not hasattr(sim.media, "vdec_create_channel"):
        return "the simulator has no VDEC (acl.media.vdec_*) yet"
    sim.install(force=True)  # the example program does `import acl`, as on a board
    try:
        import av  # noqa: F401
        from acl_teach.examples import video_classify  # noqa: F401
        from acl_teach.toolchain import video  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not importable"
    return ""


def make_stream(folder: str, frames: int) -> str:
    from acl_teach.toolchain import assets, video
    return video.write_stream(os.path.join(folder, "clip.h264"), assets.sample_images(), WIDTH, HEIGHT, frames)


def ours(path: str, om: str, frames: int) -> list:
    """The example's VideoClassifier on the simulator: top-1 of each decoded frame."""
    from acl_teach import sim
    sim.reset(sim.Config(explain=False))
    from acl_teach.examples import video_classify
    net = video_classify.VideoClassifier(om)
    try:
        net.decode(path, frames)
        top = []
        for _, data, size, ret_code in sorted(net.frames):
            assert ret_code == 0, f"VDEC failed a frame: ret_code {ret_code}"
            top.append(int(np.argmax(net.classify(data, size))))
            sim.media.dvpp_free(data)
    finally:
        net.release()
    return top


def bare(path: str, frames: int) -> list:
    """PyAV decode -> RGB -> Pillow resize 224 x 224 -> normalise -> ONNX Runtime: top-1 of each frame."""
    import av
    import onnxruntime as ort
    from PIL import Image
    from acl_teach.toolchain import assets
    session = ort.InferenceSession(assets.default_onnx(), providers=["CPUExecutionProvider"])
    top = []
    with av.open(path) as container:
        for frame in container.decode(video=0):
            if len(top) == frames:
                break
            img = frame.to_image().resize((224, 224), Image.BILINEAR)
            x = (np.asarray(img, np.float32) - 127.0) / 128.0
            top.append(int(np.argmax(session.run(None, {"data": x.transpose(2, 0, 1)[None]})[0][0])))
    return top


def timed(fn, *args):
    """(wall seconds, CPU seconds of this process, result)."""
    w, c = time.perf_counter(), time.process_time()
    result = fn(*args)
    return time.perf_counter() - w, time.process_time() - c, result


def main(argv) -> None:
    frames = int(argv[1]) if len(argv) > 1 else 16
    print(f"VDEC -> VPC -> model per frame vs PyAV + Pillow + ONNX Runtime ({frames} frames {WIDTH}x{HEIGHT} "
          f"H.264; aim: <= {AIM})")
    why = missing()
    if why:
        print(f"  skipped: {why}")
        return
    from acl_teach.toolchain import assets
    om = assets.aipp_om()
    with tempfile.TemporaryDirectory() as folder:
        path = make_stream(folder, frames)
        with contextlib.redirect_stdout(io.StringIO()):
            ours(path, om, 2)  # warm: imports, the OM cache
        runs = []
        for _ in range(2):  # alternate, best of two each: a busy machine hurts both sides alike
            with contextlib.redirect_stdout(io.StringIO()):
                runs.append((timed(ours, path, om, frames), timed(bare, path, frames)))
    (ow, oc, otop), (bw, bc, btop) = min(r[0] for r in runs), min(r[1] for r in runs)
    same = sum(a == b for a, b in zip(otop, btop))
    print(f"  acl-teach {ow:6.2f} s ({oc:.2f} s CPU), bare {bw:6.2f} s ({bc:.2f} s CPU), ratio {ow / bw:4.2f} wall, "
          f"{oc / bc:4.2f} CPU {'ok' if ow / bw <= AIM else 'ABOVE AIM'}; {len(otop)} frames, "
          f"top-1 equal on {same}")


if __name__ == "__main__":
    main(sys.argv)
