"""Run official Ascend samples unmodified on the simulator and report PASS/FAIL per sample with the reason.

    python tools/samples/run.py CHECKOUT [NAME ...] [--jobs N] [--timeout S] [--work DIR] [--commit REF] [--markdown]

CHECKOUT is an Ascend/samples checkout (or a bare git mirror of it); `make samples SAMPLES=…` runs
this in the samples' own venv. A report for the simulator's developers, not a test: it exits 0
whatever the samples do, 2 on a usage or runner error.
"""
from __future__ import annotations

import argparse
import fnmatch
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stage  # noqa: E402
import under_test  # noqa: E402
import verdict  # noqa: E402
from catalogue import SAMPLES, Sample  # noqa: E402


@dataclass
class Result:
    """What one sample did: the verdict, its reason (or what was checked), refused calls, time taken."""
    sample: Sample
    ok: bool
    reason: str
    seconds: float = 0.0
    refusals: List[str] = field(default_factory=list)
    runner_error: bool = False


HERE = os.path.dirname(os.path.abspath(__file__))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
ROOT = os.path.dirname(os.path.dirname(HERE))


class NoVenvPlace(Exception):
    """Where the side venvs go cannot be told: neither SAMPLES_VENV nor an acl-teach checkout around run.py."""


def samples_venv() -> str:
    """The samples' venv the side venvs sit beside: $SAMPLES_VENV (the Makefile's) or ROOT/.venv/samples."""
    given = os.environ.get("SAMPLES_VENV")
    if given:
        return os.path.join(ROOT, given)  # a relative one is the Makefile's, relative to the checkout
    if not os.path.isfile(os.path.join(ROOT, "acl_teach", "__init__.py")):
        raise NoVenvPlace(f"{ROOT} is not an acl-teach checkout, so the NumPy side venv has no place: "
                          "set SAMPLES_VENV to the samples' venv (e.g. .venv/samples) or run `make samples`")
    return os.path.join(ROOT, ".venv", "samples")


def side_venv(numpy: str) -> str:
    """The venv for a NumPy release line beside the samples' (never beside sys.prefix, which may be /usr)."""
    return f"{samples_venv()}-np{numpy.replace('.', '')}"


def python_for(sample: Sample) -> str:
    """The interpreter the sample runs in: this one, or its NumPy line's venv (made by ensure_side_venv)."""
    return os.path.join(side_venv(sample.numpy), "bin", "python") if sample.numpy else sys.executable


def side_requirements(numpy: str) -> List[str]:
    """The files a side venv installs: requirements.txt, then requirements-np123.txt for "1.23" if there is one."""
    extra = os.path.join(HERE, f"requirements-np{numpy.replace('.', '')}.txt")
    return [REQUIREMENTS] + ([extra] if os.path.isfile(extra) else [])


def ensure_side_venv(numpy: str) -> Tuple[bool, str]:
    """Make the venv for ``numpy`` (its requirement files, numpy~=X.0) unless its stamp matches: (made, a line)."""
    where, files = side_venv(numpy), side_requirements(numpy)
    stamp = f"numpy~={numpy}.0\n"
    for path in files:  # either file changing remakes the venv
        with open(path, encoding="utf-8") as fh:
            stamp += f"# {os.path.basename(path)}\n" + fh.read()
    marker = os.path.join(where, ".installed")
    if os.path.isfile(marker) and open(marker, encoding="utf-8").read() == stamp:
        return True, f"samples needing NumPy {numpy} run in {where}"
    names = " + ".join(f"tools/samples/{os.path.basename(p)}" for p in files)
    print(f"making {where} ({names} with numpy~={numpy}.0) ...", flush=True)
    base = getattr(sys, "_base_executable", sys.executable)
    pip = [os.path.join(where, "bin", "python"), "-m", "pip", "install", "-q"]
    for path in files:
        pip += ["-r", path]
    steps = (("venv", [base, "-m", "venv", "--clear", where]), ("pip install", pip + [f"numpy~={numpy}.0"]))
    for name, step in steps:
        proc = subprocess.run(step, capture_output=True, text=True)
        if proc.returncode:
            return False, f"could not make {where} ({name}): {verdict.tail(proc.stderr or proc.stdout) or '(no output)'}"
    with open(marker, "w", encoding="utf-8") as fh:
        fh.write(stamp)
    return True, f"made {where} for the samples needing NumPy {numpy}"


def side_venvs(chosen: List[Sample]) -> Dict[str, str]:
    """Make the chosen entries' side venvs; {NumPy line: why its venv could not be made} for those that failed."""
    failed = {}
    for numpy in sorted({s.numpy for s in chosen if s.numpy}):
        made, line = ensure_side_venv(numpy)
        print(line, flush=True)
        if not made:
            failed[numpy] = line
    return failed


def missing_modules(python: str, modules) -> List[str]:
    """The modules ``python`` cannot find (asked in-process for this interpreter, else in a child)."""
    import importlib.util
    if python == sys.executable:
        return [m for m in modules if importlib.util.find_spec(m) is None]
    probe = "import importlib.util, sys; print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))"
    out = subprocess.run([python, "-c", probe, *modules], capture_output=True, text=True).stdout
    return out.split()


def command(sample: Sample) -> List[str]:
    """The README command with its `python3…` replaced by the sample's interpreter running the simulator."""
    words = shlex.split(sample.run)
    if not re.fullmatch(r"python(3(\.\d+)?)?", words[0]):
        raise ValueError(f"{sample.name}: the command must start with python3: {sample.run!r}")
    return [python_for(sample), "-m", "acl_teach.sim", *sample.sim_options, *words[1:]]


def environment(sample: Sample, root: str) -> dict:
    """This environment (acl-teach's import root on PYTHONPATH) plus acllite as its README adds it."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", MPLBACKEND="Agg")
    if sample.acllite:
        acllite = os.path.join(root, sample.acllite_dir)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (acllite, os.environ.get("PYTHONPATH")) if p)
    return env


def _execute(sample: Sample, cwd: str, env: dict, timeout: float):
    """(exit code or None on timeout, stdout, stderr); a timed-out sample's process group is killed."""
    proc = subprocess.Popen(command(sample), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err


def run_one(sample: Sample, checkout: str, work: str, timeout: float) -> Result:
    """Stage, prepare, run and judge one sample; a failed preparation is the sample's FAIL."""
    start = time.monotonic()
    python = python_for(sample)
    missing = missing_modules(python, sample.needs)
    if missing:
        files = side_requirements(sample.numpy) if sample.numpy else [REQUIREMENTS]
        return Result(sample, False, f"the sample imports {', '.join(missing)}, which is not installed in "
                      f"{os.path.dirname(os.path.dirname(python))} (make samples installs "
                      f"{' + '.join('tools/samples/' + os.path.basename(p) for p in files)} there)")
    absent = [p for p in sample.programs if shutil.which(p) is None]
    if absent:
        return Result(sample, False, f"the sample runs the program(s) {', '.join(absent)}, not found on PATH "
                      f"(Debian/Ubuntu: apt-get install ffmpeg)")
    root = os.path.join(work, sample.name)
    log: List[str] = []
    try:
        sample_dir = stage.stage(sample, checkout, root)
        stage.prepare(sample, sample_dir, os.path.join(root, "substitutes"), timeout, log, python)
    except stage.PrepareError as exc:
        return Result(sample, False, f"prepare: {exc}", time.monotonic() - start)
    cwd = os.path.join(sample_dir, sample.cwd)
    timeout = min(timeout, sample.timeout or timeout)
    code, out, err = _execute(sample, cwd, environment(sample, root), timeout)
    with open(os.path.join(root, "run.log"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(log) + f"\n$ (cd {cwd} && {shlex.join(command(sample))})\n"
                 f"--- exit {code}\n--- stdout\n{out}\n--- stderr\n{err}")
    ok, reason = verdict.judge(sample, code, out, err, sample_dir, timeout)
    refused = verdict.refusals(err)
    if not ok and refused and refused[0] not in reason:
        reason += f" [first refusal: {refused[0]}]"
    return Result(sample, ok, reason, time.monotonic() - start, refused)


def run_safely(sample: Sample, checkout: str, work: str, timeout: float) -> Result:
    """run_one, with a bug of the runner's own reported as such (and exit status 2)."""
    try:
        return run_one(sample, checkout, work, timeout)
    except Exception as exc:
        return Result(sample, False, f"runner error: {type(exc).__name__}: {exc}", runner_error=True)


def usage_error(message: str) -> None:
    """One line on stderr and exit status 2, like argparse."""
    print(f"samples: {message}", file=sys.stderr)
    raise SystemExit(2)


def select(names: List[str]) -> List[Sample]:
    """Catalogue entries matching the names (exact, or shell patterns like 'resnet50_*'); all when none."""
    unknown = [n for n in names if not any(fnmatch.fnmatchcase(s.name, n) for s in SAMPLES)]
    if unknown:
        usage_error(f"unknown sample(s) {unknown}; see --list")
    return [s for s in SAMPLES if not names or any(fnmatch.fnmatchcase(s.name, n) for n in names)]


def report(result: Result, markdown: bool) -> str:
    """One result as a text line (or a markdown table row)."""
    word = "PASS" if result.ok else "FAIL"
    if markdown:
        return f"| `{result.sample.name}` | {word} | {result.reason.replace('|', '/')} |"
    line = f"{word}  {result.sample.name:<48} {result.seconds:6.1f}s  {result.reason}"
    if result.ok and result.refusals:
        line += f"\n      ({len(result.refusals)} refused call(s) the sample ignored; first: {result.refusals[0]})"
    return line


def main(argv: Optional[List[str]] = None) -> int:
    """Run the selection (in parallel), print each result in catalogue order, then the N/M line."""
    parser = argparse.ArgumentParser(prog="tools/samples/run.py", description=__doc__.splitlines()[0])
    parser.add_argument("checkout", nargs="?", help="an Ascend/samples checkout (or a bare git mirror of it)")
    parser.add_argument("names", nargs="*", help="catalogue names or shell patterns (default: all)")
    parser.add_argument("--jobs", "-j", type=int, default=min(4, os.cpu_count() or 1), help="samples at once")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per sample (default 300)")
    parser.add_argument("--work", default=None, help="scratch folder, kept (default: a temporary one, removed)")
    parser.add_argument("--commit", default=None, metavar="REF",
                        help="run on acl_teach/ and data/ as committed at REF (e.g. HEAD), not the working tree")
    parser.add_argument("--markdown", action="store_true", help="print the results as a markdown table")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    opts = parser.parse_args(argv)
    if opts.list:
        print("\n".join(f"{s.name:<48} {s.path}" + (f"  (NumPy {s.numpy})" if s.numpy else "") for s in SAMPLES))
        return 0
    if not opts.checkout:
        parser.error("give the path of an Ascend/samples checkout")
    checkout = stage.resolve_checkout(opts.checkout)
    if not checkout:
        usage_error(f"{opts.checkout} is not an Ascend/samples checkout (no {stage.COMMON}/ in it)")
    chosen = select(opts.names)
    try:
        no_venv = side_venvs(chosen)
    except NoVenvPlace as exc:
        usage_error(str(exc))
    scratch = None if opts.work else tempfile.TemporaryDirectory(prefix="acl-teach-samples-")
    work = os.path.abspath(opts.work) if opts.work else scratch.name
    print(f"{under_test.prepare(os.path.join(work, '.acl-teach'), opts.commit)}; samples from {checkout}", flush=True)
    if opts.markdown:
        print("| sample | result | reason, or what was checked |\n|---|---|---|")
    passed, broken = 0, False
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = [None if s.numpy in no_venv else pool.submit(run_safely, s, checkout, work, opts.timeout)
                   for s in chosen]
        for sample, future in zip(chosen, futures):
            result = future.result() if future else Result(sample, False, no_venv[sample.numpy])
            passed += result.ok
            broken |= result.runner_error
            print(report(result, opts.markdown), flush=True)
    if opts.work:
        print(f"(kept {work}: each sample's atc commands, command line and output are in {work}/NAME/run.log)")
    else:
        scratch.cleanup()
    print(f"\n{passed}/{len(chosen)} official samples run unmodified")
    return 2 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
