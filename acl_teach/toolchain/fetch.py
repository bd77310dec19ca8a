"""``acl-teach fetch resnet50``: the only network access acl-teach ever makes, and only when asked.

Downloads the ONNX ResNet-50 of Ascend's quick-start sample with a progress bar, resumes an
interrupted download (HTTP Range), keeps it in the cache, checks that the file is an ONNX model
with the expected input/output, then builds its OM the way that sample runs ATC.
"""
from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Callable, Optional, TextIO

from . import assets as models
from .recipes import IMAGENET_ONNX as RESNET50_RECIPE  # the quick-start sample's preprocessing

RESNET50_URL = "https://obs-9be7.obs.cn-east-2.myhuaweicloud.com/003_Atc_Models/resnet50/resnet50.onnx"
RESNET50_INPUT = "actual_input_1"
CHUNK = 1 << 16


class FetchError(Exception):
    """A download or check failed; the message says what to do."""


def _progress(out: TextIO) -> Callable[[int, Optional[int]], None]:
    last = [0.0]

    def show(done: int, total: Optional[int]) -> None:
        now = time.monotonic()
        if now - last[0] < 0.2 and (total is None or done < total):
            return
        last[0] = now
        if total:
            filled = int(30 * done / total)
            out.write(f"\r  resnet50.onnx {100 * done // total:3d}% [{'#' * filled}{'.' * (30 - filled)}] "
                      f"{done / 1e6:.1f}/{total / 1e6:.1f} MB")
        else:
            out.write(f"\r  resnet50.onnx {done / 1e6:.1f} MB")
        out.flush()
    return show


def download(url: str, dest: str, out: TextIO = sys.stderr, timeout: float = 30.0) -> str:
    """Download ``url`` to ``dest``, resuming from ``dest + '.part'``; return ``dest``."""
    part = dest + ".part"
    have = os.path.getsize(part) if os.path.exists(part) else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # the part file is already complete
            os.replace(part, dest)
            return dest
        raise FetchError(f"download failed: HTTP {exc.code} from {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"cannot reach {url} ({getattr(exc, 'reason', exc)}); check the network or pass "
                         f"--url with a mirror. A partial download is kept and resumed next time.") from None
    with response:
        resumed = have and response.status == 206
        total = response.headers.get("Content-Length")
        total = int(total) + (have if resumed else 0) if total else None
        done = have if resumed else 0
        show = _progress(out)
        with open(part, "ab" if resumed else "wb") as fh:
            while True:
                try:
                    chunk = response.read(CHUNK)
                except OSError as exc:
                    raise FetchError(f"download interrupted at {done} bytes ({exc}); run the same command "
                                     f"again to resume.") from None
                if not chunk:
                    break
                fh.write(chunk)
                done += len(chunk)
                show(done, total)
    out.write("\n")
    if total is not None and done != total:
        raise FetchError(f"download incomplete ({done} of {total} bytes); run the same command again to resume.")
    os.replace(part, dest)
    return dest


def check_resnet50(path: str) -> None:
    """The file must be an ONNX model: input actual_input_1 [N,3,224,224] float32, one 1000-way output."""
    import onnx
    try:
        model = onnx.load(path)
    except Exception as exc:
        raise FetchError(f"{path} is not a loadable ONNX model ({type(exc).__name__}); delete it and fetch again.") \
            from None
    inits = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    dims = lambda vi: [d.dim_value or d.dim_param for d in vi.type.tensor_type.shape.dim]  # noqa: E731
    if len(inputs) != 1 or inputs[0].name != RESNET50_INPUT or dims(inputs[0])[1:] != [3, 224, 224] or \
            inputs[0].type.tensor_type.elem_type != 1:
        raise FetchError(f"{path} does not have the quick-start ResNet-50's input ({RESNET50_INPUT}: float32 "
                         f"N x 3 x 224 x 224); got {[(i.name, dims(i)) for i in inputs]}.")
    if len(model.graph.output) != 1 or dims(model.graph.output[0])[-1:] != [1000]:
        raise FetchError(f"{path} does not have one 1000-class output.")


def fetch_resnet50(url: Optional[str] = None, out: TextIO = sys.stderr, force: bool = False) -> str:
    """Download (or reuse), check, and build the OM; return the OM path."""
    url = url or os.environ.get("ACL_TEACH_RESNET50_URL") or RESNET50_URL
    folder = os.path.join(models.cache_dir(), "resnet50")
    os.makedirs(folder, exist_ok=True)
    dest = os.path.join(folder, "resnet50.onnx")
    if force and os.path.exists(dest):
        os.remove(dest)
    if os.path.exists(dest):
        out.write(f"  using the cached {dest}\n")
    else:
        out.write(f"  downloading {url}\n")
        download(url, dest + ".download", out)
        try:
            check_resnet50(dest + ".download")
        except FetchError:
            os.remove(dest + ".download")
            raise
        os.replace(dest + ".download", dest)
    check_resnet50(dest)
    with open(os.path.join(folder, "resnet50.recipe.json"), "w", encoding="utf-8") as fh:
        json.dump(RESNET50_RECIPE, fh, indent=1)
    return models.build_om(dest, models.RESNET50_FLAGS, "resnet50")
