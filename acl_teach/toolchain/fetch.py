"""``acl-teach fetch resnet50``: the only network access acl-teach ever makes, and only when asked.

Downloads the ONNX ResNet-50 of Ascend's quick-start sample with a progress bar, resumes an
interrupted download (HTTP Range), keeps it in the cache, checks it, then builds its OM the way
that sample runs ATC.

What is downloaded is not trusted:

- at most ``MAX_BYTES`` (the real file is about 102 MB);
- written only through a fresh file made by ``tempfile.mkstemp`` (O_EXCL, O_NOFOLLOW, mode 0600);
  a partial download is resumed only from a regular file of this user opened without following links,
  and a link planted at the resume path is replaced, never written through;
- verified against a SHA-256: ``--sha256 DIGEST`` or the one pinned for the known URL. No digest of
  the quick-start file is published (searched: Ascend/samples READMEs of sampleResnetQuickStart and the
  samples that download the same URL, which give only ``wget``), so ``PINNED_SHA256`` holds none and
  the file is checked for the structure of a real ResNet-50 instead (size, 53 Conv, 49 Relu,
  ~25.5 M parameters) and reported as UNVERIFIED, with its digest to pin;
- plain ``http://`` or any URL but the known one only with ``--sha256`` or ``--insecure``.
"""
from __future__ import annotations

import collections
import hashlib
import http.client
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Callable, Optional, TextIO

from . import assets as models
from .recipes import IMAGENET_ONNX as RESNET50_RECIPE  # the quick-start sample's preprocessing

RESNET50_URL = "https://obs-9be7.obs.cn-east-2.myhuaweicloud.com/003_Atc_Models/resnet50/resnet50.onnx"
PINNED_SHA256 = {RESNET50_URL: None}  # None: no published digest could be confirmed (see the module docstring)
RESNET50_INPUT = "actual_input_1"
MAX_BYTES = 200_000_000
# a real torchvision ResNet-50 in float32: 25,557,032 parameters (25,530,472 with BatchNorm folded into Conv)
RESNET50_SIZE = (95_000_000, 115_000_000)
RESNET50_PARAMS = (25_400_000, 25_700_000)
RESNET50_OPS = {"Conv": 53, "Relu": 49}
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


def expected_digest(url: str, sha256: Optional[str] = None, insecure: bool = False) -> Optional[str]:
    """The SHA-256 the download must have (None: unverified); refuse sources that cannot be trusted."""
    scheme = urllib.parse.urlsplit(url).scheme.lower()
    if scheme not in ("https", "http"):
        raise FetchError(f"cannot fetch {url}: only https:// URLs (or http:// with --sha256 or --insecure).")
    if sha256 is not None:
        digest = sha256.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise FetchError(f"--sha256 {sha256!r} is not a SHA-256 digest (64 hexadecimal digits).")
        return digest
    if scheme == "http" and not insecure:
        raise FetchError(f"refusing plain http:// ({url}): anyone on the way can swap the file. Use https://, or "
                         f"pass --sha256 DIGEST of the file you expect (or --insecure to accept it unverified).")
    if url != RESNET50_URL and not insecure:
        raise FetchError(f"{url} is not the quick-start sample's URL: pass --sha256 DIGEST of the file you expect "
                         f"(or --insecure to accept it unverified).")
    return PINNED_SHA256.get(url)


MAX_REDIRECTS = 5
DEADLINE_S = 1800.0    # the whole download (the real file is ~102 MB: minutes on any working link)
STALL_WINDOW_S = 30.0  # ... and in every window this long at least MIN_RATE bytes a second must arrive
MIN_RATE = 1024


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follow at most MAX_REDIRECTS redirects, only to http(s), never from https:// to anything else."""

    def http_error_302(self, req, fp, code, msg, headers):  # noqa: D102
        target = urllib.parse.urljoin(req.full_url, headers.get("location") or headers.get("uri") or "")
        scheme = urllib.parse.urlsplit(target).scheme.lower()
        if scheme not in ("http", "https"):
            raise FetchError(f"refusing the redirect from {req.full_url} to {target[:200]}: only http(s) is "
                             f"followed.")
        hops = getattr(req, "acl_teach_hops", 0) + 1
        if hops > MAX_REDIRECTS:
            raise FetchError(f"more than {MAX_REDIRECTS} redirects from {req.full_url} (a redirect loop?); pass "
                             f"--url with the file's final address.")
        try:
            return super().http_error_302(req, fp, code, msg, headers)
        except urllib.error.HTTPError as exc:
            if exc.code in (301, 302, 303, 307, 308):  # urllib's own loop check
                raise FetchError(f"a redirect loop at {req.full_url}; pass --url with the file's final "
                                 f"address.") from None
            raise

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D102
        if urllib.parse.urlsplit(req.full_url).scheme == "https" and \
                urllib.parse.urlsplit(newurl).scheme != "https":
            raise FetchError(f"refusing the redirect from {req.full_url} to {newurl[:200]}: it leaves https.")
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            new.acl_teach_hops = getattr(req, "acl_teach_hops", 0) + 1
        return new


_NoDowngrade = _Redirects  # the name before issue 19


def _said(exc: BaseException) -> str:
    """What an exception (often quoting the server) says, on one line and at most 120 characters."""
    return " ".join(str(exc).split())[:120]
_PROTOCOL_ERRORS = (http.client.HTTPException, ValueError)  # bad status line, >100 headers, cut chunks, bad lengths


def _open_regular(path: str, flags: int = os.O_RDONLY) -> Optional[int]:
    """A descriptor of ``path`` if it is a regular file of this user, opened without following a link; else None."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError:  # ELOOP: a symbolic link; or unreadable
        return None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_uid != getattr(os, "geteuid", lambda: st.st_uid)():
        os.close(fd)
        return None
    return fd


def _resume_into(part: str, fh, out: TextIO, max_bytes: int) -> int:
    """Copy a safe partial download into ``fh``; return how many bytes it held (0 when there is none)."""
    fd = _open_regular(part)
    if fd is None:
        if os.path.lexists(part):
            out.write(f"  not resuming from {part}: not a regular file of yours (a link?); it is replaced, "
                      f"never followed\n")
        return 0
    with os.fdopen(fd, "rb") as src:
        shutil.copyfileobj(src, fh, CHUNK)
    have = fh.tell()
    if have > max_bytes:
        fh.seek(0)
        fh.truncate()
        return 0
    return have


def _open_url(url: str, have: int, timeout: float):
    """The HTTP response for ``url`` from byte ``have`` on (None: the part file is already complete)."""
    request = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        return urllib.request.build_opener(_Redirects).open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # the part file is already complete
            return None
        raise FetchError(f"download failed: HTTP {exc.code} from {url}") from None
    except _PROTOCOL_ERRORS as exc:
        raise FetchError(f"{url} did not answer in HTTP ({type(exc).__name__}: {_said(exc)}); check the URL "
                         f"or pass --url with a mirror.") from None
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"cannot reach {url} ({_said(getattr(exc, 'reason', exc))}); check the network or pass "
                         f"--url with a mirror. A partial download is kept and resumed next time.") from None


class _Pace:
    """The overall deadline and the stall check: at least MIN_RATE bytes a second over every window."""

    def __init__(self, deadline: float, window: float, min_rate: int) -> None:
        self.start = self.mark = time.monotonic()
        self.deadline, self.window, self.min_rate, self.since_mark = deadline, window, min_rate, 0

    def check(self, got: int, done: int) -> None:
        now = time.monotonic()
        self.since_mark += got
        if now - self.start > self.deadline:
            raise FetchError(f"the download took more than {self.deadline:.0f} s (at {done} bytes); run the same "
                             f"command again to resume, or pass --url with a faster mirror.")
        if now - self.mark >= self.window:
            if self.since_mark < self.min_rate * (now - self.mark):
                raise FetchError(f"the download stalled at {done} bytes ({self.since_mark} bytes in the last "
                                 f"{now - self.mark:.0f} s); run the same command again to resume.")
            self.mark, self.since_mark = now, 0


def _stream(response, fh, have: int, out: TextIO, max_bytes: int, pace: Optional[_Pace] = None) -> None:
    """Append the response body to ``fh`` (from 0 if the server ignored the Range), within ``max_bytes``.

    Reads with ``read1`` (whatever one socket read gives), so a trickling server cannot hold a read
    open past the pace checks.
    """
    pace = pace or _Pace(DEADLINE_S, STALL_WINDOW_S, MIN_RATE)
    resumed = have and response.status == 206
    if not resumed:
        fh.seek(0)
        fh.truncate()
    length = (response.headers.get("Content-Length") or "").strip()
    if length and not re.fullmatch(r"[0-9]{1,15}", length):
        raise FetchError(f"the server sent a bad Content-Length ({length[:40]!r}); check the URL or pass --url "
                         f"with a mirror.")
    total = int(length) + (have if resumed else 0) if length else None
    if total is not None and total > max_bytes:
        raise FetchError(f"the server offers {total:,} bytes, more than the {max_bytes:,}-byte limit for "
                         f"resnet50.onnx (the real file is about 102 MB); refusing it.")
    done, show = fh.tell(), _progress(out)
    while True:
        try:
            chunk = response.read1(CHUNK)
        except (OSError, *_PROTOCOL_ERRORS) as exc:  # a timeout, a reset, a cut chunked body (IncompleteRead)
            raise FetchError(f"download interrupted at {done} bytes ({type(exc).__name__}: {_said(exc)}); "
                             f"run the same command again to resume.") from None
        pace.check(len(chunk), done)
        if not chunk:
            break
        done += len(chunk)
        if done > max_bytes:
            fh.seek(0)
            fh.truncate()
            raise FetchError(f"the download passed the {max_bytes:,}-byte limit for resnet50.onnx (the real file "
                             f"is about 102 MB); refusing it.")
        fh.write(chunk)
        show(done, total)
    out.write("\n")
    if total is not None and done != total:
        raise FetchError(f"download incomplete ({done} of {total} bytes); run the same command again to resume.")


def download(url: str, dest: str, out: TextIO = sys.stderr, timeout: float = 30.0,
             max_bytes: int = MAX_BYTES, deadline: float = DEADLINE_S, stall_window: float = STALL_WINDOW_S,
             min_rate: int = MIN_RATE) -> str:
    """Download ``url`` to ``dest``, resuming from ``dest + '.part'``; return ``dest``.

    ``timeout``: the longest a socket read may wait for any byte; ``deadline``: the whole download;
    ``stall_window`` / ``min_rate``: at least that many bytes a second over every window.

    The bytes go into a fresh private file (mkstemp: O_EXCL|O_NOFOLLOW) that then takes the part
    file's place by rename, so whatever was planted at that path is replaced, never written through.
    """
    part = dest + ".part"
    fd, tmp = tempfile.mkstemp(prefix=".resnet50-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(dest)))
    try:
        with os.fdopen(fd, "w+b") as fh:
            have = _resume_into(part, fh, out, max_bytes)
            try:
                os.replace(tmp, part)  # our own file is the part file from now on (resumable if interrupted)
            except OSError as exc:
                raise FetchError(f"cannot put the download at {part} ({exc.strerror}); remove it and run "
                                 f"again.") from None
            tmp = None
            response = _open_url(url, have, timeout)
            if response is not None:
                with response:
                    _stream(response, fh, have, out, max_bytes, _Pace(deadline, stall_window, min_rate))
    finally:
        if tmp is not None:
            os.unlink(tmp)
    os.replace(part, dest)
    return dest


def _read_regular(path: str, max_bytes: int) -> bytes:
    """The bytes of a regular file of this user, at most ``max_bytes``, read without following a link."""
    fd = _open_regular(path)
    if fd is None:
        raise FetchError(f"{path} is not a regular file of yours (a link?); delete it and fetch again.")
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FetchError(f"{path} is larger than the {max_bytes:,}-byte limit; delete it and fetch again.")
    return data


def _parse(path: str, data: bytes):
    import onnx
    try:
        return onnx.load_model_from_string(data)
    except Exception as exc:
        raise FetchError(f"{path} is not a loadable ONNX model ({type(exc).__name__}); delete it and fetch again.") \
            from None


def check_io(path: str, model) -> None:
    """The model must take actual_input_1 [N,3,224,224] float32 and give one 1000-way output."""
    inits = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    dims = lambda vi: [d.dim_value or d.dim_param for d in vi.type.tensor_type.shape.dim]  # noqa: E731
    if len(inputs) != 1 or inputs[0].name != RESNET50_INPUT or dims(inputs[0])[1:] != [3, 224, 224] or \
            inputs[0].type.tensor_type.elem_type != 1:
        raise FetchError(f"{path} does not have the quick-start ResNet-50's input ({RESNET50_INPUT}: float32 "
                         f"N x 3 x 224 x 224); got {[(i.name, dims(i)) for i in inputs]}.")
    if len(model.graph.output) != 1 or dims(model.graph.output[0])[-1:] != [1000]:
        raise FetchError(f"{path} does not have one 1000-class output.")


def _parameters(model) -> int:
    """Weights in initializers and Constant nodes: a real ResNet-50 has about 25.5 million."""
    import numpy as np
    tensors = list(model.graph.initializer) + [a.t for n in model.graph.node if n.op_type == "Constant"
                                               for a in n.attribute if a.name == "value"]
    return sum(int(np.prod(t.dims, dtype=np.int64)) for t in tensors)


def check_structure(path: str, model, size: int) -> str:
    """Refuse what is not shaped like a real ResNet-50 (size, Conv/Relu counts, parameters); a summary."""
    ops = collections.Counter(n.op_type for n in model.graph.node)
    params = _parameters(model)
    found = (f"{size / 1e6:.1f} MB, " + ", ".join(f"{ops[op]} {op}" for op in RESNET50_OPS) +
             f", {params / 1e6:.2f} M parameters")
    if not RESNET50_SIZE[0] <= size <= RESNET50_SIZE[1] or not RESNET50_PARAMS[0] <= params <= RESNET50_PARAMS[1] \
            or any(ops[op] != n for op, n in RESNET50_OPS.items()):
        want = ", ".join(f"{n} {op}" for op, n in RESNET50_OPS.items())
        raise FetchError(f"{path} is not the quick-start ResNet-50 ({found}; a real one is about 102 MB, {want}, "
                         f"25.5 M parameters); delete it, and fetch from the sample's URL or pass --sha256.")
    return found


def verify(path: str, digest: Optional[str], out: TextIO, max_bytes: int = MAX_BYTES) -> None:
    """Check the file against ``digest``, or (with none) against the structure of ResNet-50; say which."""
    data = _read_regular(path, max_bytes)
    actual = hashlib.sha256(data).hexdigest()
    if digest is not None and actual != digest:
        raise FetchError(f"{path}: SHA-256 mismatch (expected {digest}, got {actual}); the file is not the one "
                         f"expected; delete it and fetch again.")
    model = _parse(path, data)
    check_io(path, model)
    if digest is not None:
        out.write(f"  resnet50.onnx: SHA-256 {actual} verified\n")
        return
    found = check_structure(path, model, len(data))
    out.write(f"  resnet50.onnx: UNVERIFIED: no published SHA-256 to compare with; its structure matches "
              f"ResNet-50 ({found}). Its SHA-256 is {actual}: pass --sha256 {actual} to pin it.\n")


def fetch_resnet50(url: Optional[str] = None, out: TextIO = sys.stderr, force: bool = False,
                   sha256: Optional[str] = None, insecure: bool = False, max_bytes: int = MAX_BYTES) -> str:
    """Download (or reuse), verify, and build the OM; return the OM path."""
    url = url or os.environ.get("ACL_TEACH_RESNET50_URL") or RESNET50_URL
    digest = expected_digest(url, sha256, insecure)
    folder = os.path.join(models.cache_dir(), "resnet50")
    os.makedirs(folder, exist_ok=True)
    dest = os.path.join(folder, "resnet50.onnx")
    if force and os.path.lexists(dest):
        os.remove(dest)
    if os.path.lexists(dest):
        out.write(f"  using the cached {dest}\n")
        verify(dest, digest, out, max_bytes)
    else:
        out.write(f"  downloading {url}\n")
        download(url, dest + ".download", out, max_bytes=max_bytes)
        try:
            verify(dest + ".download", digest, out, max_bytes)
        except FetchError:
            os.remove(dest + ".download")
            raise
        os.replace(dest + ".download", dest)
    _write_private(os.path.join(folder, "resnet50.recipe.json"), json.dumps(RESNET50_RECIPE, indent=1))
    return models.build_om(dest, models.RESNET50_FLAGS, "resnet50")


def _write_private(path: str, text: str) -> None:
    """Write ``path`` through a fresh file renamed into place: a link planted there is replaced, not followed."""
    fd, tmp = tempfile.mkstemp(prefix=".resnet50-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
