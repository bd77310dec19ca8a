"""``acl-teach classify``: the full flow on every image, top-k with labels, per-stage timings.

One broken image is reported and the others still get their results; the exit code is 1 when
any image failed, 0 otherwise.
"""
from __future__ import annotations

import json
import os
import sys
from typing import List, Optional, TextIO

from .toolchain.images import ImageError
from .session import Session

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")


def expand(paths: List[str]) -> List[str]:
    """Files as given; folders expand to their image files, sorted."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            out += sorted(os.path.join(path, f) for f in os.listdir(path) if f.lower().endswith(IMAGE_EXTENSIONS))
        else:
            out.append(path)
    return out


def _progress(err: TextIO, i: int, n: int, name: str) -> None:
    if not getattr(err, "isatty", lambda: False)():
        return  # a bar only makes sense on a terminal
    filled = int(20 * i / n) if n else 20
    err.write(f"\r[{'#' * filled}{'.' * (20 - filled)}] {i}/{n} {os.path.basename(name)[:40]:<40}")
    if i == n:
        err.write("\n")
    err.flush()


def run(paths: List[str], model: Optional[str] = None, backend_name: Optional[str] = None, use_async: bool = False,
        k: int = 5, show_trace: bool = False, as_json: bool = False, out: Optional[TextIO] = None,
        err: Optional[TextIO] = None, recipe: Optional[str] = None) -> int:
    """Classify ``paths``; print results; return the exit code."""
    out, err = out or sys.stdout, err or sys.stderr  # looked up now: a notebook or test may have replaced them
    images = expand(paths)
    if not images:
        raise ValueError(f"no images found in {' '.join(paths)}")
    failures = 0
    session = Session(model, backend_name=backend_name, recipe=recipe)
    with session:
        if not as_json:
            out.write(f"model: {session.model_path}\nbackend: {_backend()}, run mode {session.resources.run_mode}\n")
        for i, path in enumerate(images, 1):
            try:
                result = session.classify(path, k, use_async)
            except (ImageError, MemoryError) as exc:  # one image's problem: the others still run
                failures += 1
                why = str(exc) if isinstance(exc, ImageError) else \
                    f"{path}: not enough memory to process this image; resize it and try again."
                out.write(json.dumps({"image": path, "error": why}) + "\n" if as_json
                          else f"\n{path}\n  error: {why}\n")
                continue
            finally:
                if not as_json:
                    _progress(err, i, len(images), path)
            if as_json:
                out.write(json.dumps({"image": path, "top": result.topk.as_json(),
                                      "timings_ms": {s: round(v, 3) for s, v in result.timings_ms.items()}}) + "\n")
            else:
                out.write(f"\n{path}\n")
                for p in result.topk.top:
                    out.write(f"  {p.index:>4}  {p.prob:8.4f}  {p.label}\n")
                out.write("  timings: " + ", ".join(f"{s} {v:.1f} ms" for s, v in result.timings_ms.items()) + "\n")
    if show_trace:
        out.write("\n# the pyACL calls this run made (per-image calls: the last image's)\n" + session.code() + "\n")
    if not as_json:
        t = session.timings_ms
        out.write(f"\nsession: init {t.get('init', 0):.1f} ms, load {t.get('load', 0):.1f} ms, "
                  f"release {t.get('release', 0):.1f} ms; {len(images) - failures} of {len(images)} image(s) "
                  f"classified\n")
    return 1 if failures else 0


def _backend() -> str:
    from . import backend
    return "real pyACL (NPU)" if backend.name() == "npu" else "acl-teach simulator"
