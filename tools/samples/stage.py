"""Lay a sample out in a scratch tree with the checkout's relative layout, then make its models and input files.

Samples find acllite through relative paths (``../../../../common/acllite``) and the README's
PYTHONPATH, so each is copied to the same path under the work dir, with ``python/common`` beside it.
The checkout is never written to. A bare git mirror is accepted too: the needed folders are exported
from HEAD (blobs missing from a partial mirror are skipped).
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from typing import List, Optional

import convert
from catalogue import Sample

COMMON = "python/common"


class PrepareError(Exception):
    """Making a model or an input file failed; the message is the reason for the report."""


def is_bare_git(path: str) -> bool:
    """A bare repository (HEAD and objects/ at the top, no work tree)."""
    return os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects"))


def resolve_checkout(path: str) -> Optional[str]:
    """The checkout root holding python/ (also accepts the python/ folder itself), or None."""
    path = os.path.abspath(path)
    if os.path.isdir(os.path.join(path, COMMON)) or is_bare_git(path):
        return path
    if os.path.basename(path) == "python" and os.path.isdir(os.path.join(path, "common")):
        return os.path.dirname(path)
    return None


def _export(git_dir: str, folder: str, dest: str, ref: str = "HEAD") -> None:
    """Write ref:folder/** under dest/folder, skipping blobs a partial mirror lacks."""
    listing = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", ref, "--", folder],
                             capture_output=True, check=True).stdout.decode()
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob" or mode == "120000":
            continue
        blob = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", sha], capture_output=True)
        if blob.returncode:
            continue
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(blob.stdout)


def _git_dir(checkout: str) -> Optional[str]:
    """The checkout's git directory (itself when bare), or None when it is not a git checkout."""
    if is_bare_git(checkout):
        return checkout
    inner = os.path.join(checkout, ".git")
    return inner if os.path.exists(inner) else None


def copy_folder(checkout: str, folder: str, work: str, ref: str = "") -> None:
    """checkout/folder -> work/folder (from the files, or exported from git: a bare repository's HEAD, or ``ref``)."""
    target = os.path.join(work, folder)
    git_dir = _git_dir(checkout)
    if ref and not git_dir:
        raise PrepareError(f"the entry is taken from commit {ref}: {checkout} is not a git checkout")
    if ref:
        try:
            _export(git_dir, folder, work, ref)
        except subprocess.CalledProcessError:
            raise PrepareError(f"commit {ref} is not in {checkout} (fetch the full history)") from None
    elif is_bare_git(checkout):
        _export(checkout, folder, work)
    elif os.path.isdir(os.path.join(checkout, folder)):
        shutil.copytree(os.path.join(checkout, folder), target, symlinks=True)
    if not os.path.isdir(target):
        raise PrepareError(f"{folder} is not in the checkout {checkout}")


def stage(sample: Sample, checkout: str, root: str) -> str:
    """Copy the sample (at its commit, when the entry names one) and python/common for acllite samples (from HEAD
    or the files, as for every entry) under a fresh ``root``; the staged sample dir."""
    if os.path.lexists(root):
        shutil.rmtree(root)
    copy_folder(checkout, sample.path, root, sample.commit)
    if sample.acllite:
        copy_folder(checkout, COMMON if sample.acllite_dir.startswith(COMMON) else sample.acllite_dir, root)
    return os.path.join(root, sample.path)


def prepare(sample: Sample, sample_dir: str, scratch: str, timeout: float, log: List[str],
            python: str = sys.executable) -> None:
    """Write the input files, build substitute ONNX graphs, run the translated atc commands (setup scripts in
    ``python``, the sample's interpreter)."""
    for item in sample.files:
        item.make(os.path.join(sample_dir, item.path))
        log.append(f"made {item.path}")
    for command, cwd in sample.setup:
        _setup(command, os.path.join(sample_dir, cwd), timeout, log, python)
    for model in sample.models:
        os.makedirs(scratch, exist_ok=True)
        onnx_path = os.path.join(scratch, os.path.splitext(os.path.basename(model.om))[0] + ".onnx")
        with open(onnx_path, "wb") as fh:
            fh.write(model.build().SerializeToString())
        argv, dropped = convert.translate(model.atc, onnx_path)
        _atc(argv, os.path.join(sample_dir, model.cwd), timeout, log, dropped)
        if not os.path.isfile(os.path.join(sample_dir, model.om)):
            raise PrepareError(f"atc succeeded but {model.om} was not written")
    for ops in sample.op_models:
        argv, _ = convert.translate(ops.atc, None)
        _atc(argv, os.path.join(sample_dir, ops.cwd), timeout, log, [])


def _setup(command: str, cwd: str, timeout: float, log: List[str], python: str) -> None:
    """A README step before conversion (``python3 script.py``, e.g. building a post-processing ONNX), run as is."""
    words = shlex.split(command)
    if not words or not re.fullmatch(r"python(3(\.\d+)?)?", words[0]):
        raise PrepareError(f"setup command must start with python3: {command!r}")
    log.append(f"(cd {cwd} && {command})")
    try:
        proc = subprocess.run([python, *words[1:]], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise PrepareError(f"{command} did not finish in {timeout:.0f} s") from None
    log.append((proc.stdout + proc.stderr).strip())
    if proc.returncode:
        raise PrepareError(f"{command} failed: {(proc.stdout + proc.stderr).strip().splitlines()[-1:]}")


def _atc(argv: List[str], cwd: str, timeout: float, log: List[str], dropped: Optional[List[str]]) -> None:
    os.makedirs(cwd, exist_ok=True)
    note = f"  # dropped {' '.join(dropped)}" if dropped else ""
    log.append(f"(cd {cwd} && acl-teach atc {' '.join(argv)}){note}")
    try:
        code, output = convert.run(argv, cwd, timeout)
    except subprocess.TimeoutExpired:
        raise PrepareError(f"atc did not finish in {timeout:.0f} s") from None
    log.append(output)
    if code:
        lines = [ln for ln in output.splitlines() if ln.strip() and not ln.startswith("ATC start")]
        raise PrepareError("atc failed: " + " | ".join(lines[-2:]))
