"""The ``acl-teach`` command: one sub-command per job, a one-line reason on failure, no traceback.

``--debug`` (before the sub-command) shows the traceback of an unexpected error.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import sys
from typing import List, Optional

from . import notebook_meta
from .spec import errors
from .toolchain import assets, files

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


class UserError(Exception):
    """A mistake the user can fix; printed as one line, exit code 2."""


def cmd_explain(opts: argparse.Namespace) -> int:
    """Print what an aclError code means and how to fix it."""
    rc = 0
    for raw in opts.codes:
        try:
            code = int(raw, 0)
        except ValueError:
            raise UserError(f"{raw!r} is not an error code (expected a number such as 507033)") from None
        info = errors.explain(code)
        if info is None:
            print(f"{code}: not an aclError code acl-teach knows. Codes: 1xxxxx = your call or "
                  f"environment, 2xxxxx = resources, 3xxxxx = limits, 5xxxxx = internal.")
            rc = 1
            continue
        print(info.text())
    return rc


def cmd_demo(opts: argparse.Namespace) -> int:
    """The main job: classify the shipped photos with the embedded default on the simulator."""
    opts.paths = [os.path.join(assets.data_dir(), "images")]
    opts.model, opts.backend, opts.use_async, opts.top, opts.trace, opts.json = None, "sim", False, 5, False, False
    opts.recipe = None
    return cmd_classify(opts)


def cmd_classify(opts: argparse.Namespace) -> int:
    """The full flow on every image."""
    from . import classify
    if opts.top < 1:
        raise UserError(f"--top {opts.top}: show at least one class (--top 1 to --top 1000)")
    try:
        return classify.run(opts.paths, opts.model, opts.backend, opts.use_async, opts.top, opts.trace, opts.json,
                            recipe=opts.recipe)
    except errors.AclError as exc:
        raise UserError(exc.message().replace("\n", " |")) from None
    except (FileNotFoundError, ValueError, RuntimeError) as exc:  # incl. RecipeError, ToolchainError
        raise UserError(str(exc)) from None


def cmd_desc(opts: argparse.Namespace) -> int:
    """Print every acl.mdl.get_* value of a model."""
    from . import model, resources
    if not os.path.isfile(opts.model):
        raise UserError(f"model {opts.model!r} does not exist")
    try:
        resources.init()
        res = resources.request_resources(0, stream=False)
        m = model.load_model(opts.model)
        d = model.query_desc(m)
    except errors.AclError as exc:  # one short line: the call, the code and what happened (no repeated fix)
        head = f"{exc.api} returned {exc.code} ({exc.name})"
        what = exc.detail.split(" Fix:")[0] if exc.detail else f"{head}: {exc.info.en if exc.info else ''}"
        raise UserError(what if what.startswith(head) else f"{head}: {what}") from None
    print(f"model {opts.model} (model_id {m.model_id})")
    print(d.table())
    for t in d.inputs + d.outputs:
        print(f"  {t.name}: {t.size_arithmetic}")
    model.unload_model(m, d)
    resources.release_resources(res)
    resources.finalize()
    return 0


def lab_workspace(folder: str, notebooks: str, data: str) -> List[str]:
    """Copy the notebooks to folder/notebooks (the Chinese edition, if shipped, to folder/notebooks/zh) and the
    data to folder/data (so ``../data/...`` resolves).

    Never overwrites: returns the files (relative to ``folder``) the learner already had and kept.
    """
    kept = []
    pairs = []
    for sub in ("", "zh"):
        source = os.path.join(notebooks, sub)
        if os.path.isdir(source):
            pairs += [(os.path.join(source, f), os.path.join("notebooks", sub, f))
                      for f in sorted(os.listdir(source)) if f.endswith(".ipynb")]
    for top, _dirs, names in os.walk(data):
        pairs += [(os.path.join(top, f), os.path.join("data", os.path.relpath(top, data), f))
                  for f in sorted(names) if not f.startswith(".")]
    want = notebook_meta.local_kernel()  # copies open unmodified: JupyterLab writes what the kernel reports
    for src, rel in pairs:
        dst = os.path.normpath(os.path.join(folder, rel))
        if dst.endswith(".ipynb"):
            copied = notebook_meta.copy_new(folder, src, dst, want)
        else:
            copied = files.copy_new(folder, src, dst)
        if not copied:  # something is there (a link too: never written through)
            kept.append(os.path.relpath(dst, folder))
    return kept


def trust_notebooks(folder: str) -> int:
    """Sign the notebooks (as `jupyter trust` does), so JupyterLab shows their saved widgets before Run All."""
    import glob
    from nbformat import read
    from nbformat.sign import NotebookNotary
    notary, signed = NotebookNotary(), 0
    for path in sorted(glob.glob(os.path.join(folder, "*.ipynb"))):
        try:
            nb = read(path, as_version=4)
        except Exception:  # a learner's broken file: leave it, JupyterLab will say what is wrong
            continue
        if not notary.check_signature(nb):
            notary.sign(nb)
            signed += 1
    return signed


def _check_port(port: int) -> None:
    """Refuse a port JupyterLab cannot listen on (out of range, or taken) before starting it."""
    import socket
    if not 1 <= port <= 65535:
        raise UserError(f"--port {port}: a port is a number from 1 to 65535 (JupyterLab's default is 8888)")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            raise UserError(f"--port {port}: the port is in use (another JupyterLab?); choose another one, "
                            f"or leave --port out") from None


def cmd_lab(opts: argparse.Namespace) -> int:
    """Start JupyterLab on the notebooks: the repository's in a checkout, else a workspace copy (--dir).

    ``--lang zh`` opens the Chinese edition (notebooks/zh), built from the same sources as the English one.
    """
    import shutil
    import subprocess
    lang = getattr(opts, "lang", None) or "en"
    # the jupyter beside this Python first (its kernel has acl_teach even when the venv is not activated)
    exe = shutil.which(os.path.join(os.path.dirname(sys.executable), "jupyter")) or shutil.which("jupyter")
    if exe is None or importlib.util.find_spec("jupyterlab") is None:
        raise UserError('JupyterLab is not installed: pip install "acl-teach[lab]" (or, in a checkout, make lab)')
    if opts.port is not None:
        _check_port(opts.port)
    folder = assets.notebooks_dir()
    package = os.path.dirname(os.path.abspath(__file__))
    if lang == "zh" and not os.path.isdir(os.path.join(folder, "zh")):
        raise UserError(f"the Chinese edition is not installed ({os.path.join(folder, 'zh')} is missing); "
                        f"use --lang en, or install acl-teach from a checkout (pip install -e .)")
    if opts.dir or os.path.abspath(folder).startswith(package + os.sep):  # installed: never work in site-packages
        workspace = os.path.abspath(opts.dir or "acl-teach-notebooks")
        try:
            kept = lab_workspace(workspace, folder, assets.data_dir())
        except files.UnsafePath as exc:
            raise UserError(f"{exc}; the workspace {workspace} is left as it was") from None
        print(f"notebooks in {workspace}" + (f"; kept {len(kept)} file(s) you already have: {', '.join(kept)}"
                                             if kept else ""))
        folder = os.path.join(workspace, "notebooks")
    if lang == "zh":
        folder = os.path.join(folder, "zh")
    trust_notebooks(folder)
    argv = [exe, "lab", f"--notebook-dir={folder}"]
    if opts.port is not None:
        argv += [f"--port={opts.port}", "--ServerApp.port_retries=0"]  # this port or a clear failure, no other
    if opts.no_browser:
        argv.append("--no-browser")
    if opts.allow_root or getattr(os, "geteuid", lambda: -1)() == 0:
        if not opts.allow_root:
            print("running as root: passing --allow-root to JupyterLab")
        argv.append("--allow-root")
    return subprocess.call(argv)


def cmd_course(opts: argparse.Namespace) -> int:
    """Write an nbgrader course (config + source/<assignment>/) from the instructor notebooks."""
    from . import course
    if opts.action != "init":
        raise UserError("usage: acl-teach course init DIR")
    try:
        names = course.init(opts.dir, course_id=opts.course_id, lang=opts.lang, timeout=opts.timeout)
    except (ValueError, OSError) as exc:  # a bad --timeout, a link inside DIR (files.UnsafePath)
        raise UserError(str(exc)) from None
    if not names:
        raise UserError("no notebook with graded exercises found (are the notebooks installed?)")
    print(f"nbgrader course {opts.course_id!r} in {os.path.abspath(opts.dir)}: {len(names)} assignments "
          f"({names[0]} … {names[-1]})")
    print(f"next: cd {shlex.quote(opts.dir)} && nbgrader generate_assignment {names[0]}   (see docs/instructor.md)")
    return 0


def cmd_classroom(opts: argparse.Namespace) -> int:
    """A class on this server (JupyterHub + nbgrader): acl_teach/classroom, docs/instructor.md."""
    from .classroom import cli as classroom_cli
    return classroom_cli.run(opts, UserError)


def cmd_fetch(opts: argparse.Namespace) -> int:
    """Download an optional model (the only command that uses the network)."""
    from .toolchain.fetch import FetchError, fetch_resnet50
    try:
        path = fetch_resnet50(opts.url, force=opts.force, sha256=opts.sha256, insecure=opts.insecure)
    except FetchError as exc:
        raise UserError(str(exc)) from None
    print(f"ResNet-50 ready: {path} (used instead of the embedded default from now on)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """All sub-commands."""
    parser = argparse.ArgumentParser(prog="acl-teach", description="Learn pyACL inference step by step.")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("explain", help="explain aclError codes, e.g. acl-teach explain 507033")
    p.add_argument("codes", nargs="+")
    p.set_defaults(func=cmd_explain)
    sub.add_parser("atc", help="convert an ONNX model to a simulator .om with ATC's flags (--model=… …)")
    p = sub.add_parser("fetch", help="download an optional model: acl-teach fetch resnet50")
    p.add_argument("name", choices=["resnet50"])
    p.add_argument("--url", default=None, help="download from this URL (a mirror; needs --sha256 or --insecure)")
    p.add_argument("--sha256", default=None, metavar="DIGEST", help="the SHA-256 the file must have")
    p.add_argument("--insecure", action="store_true", help="accept http:// or another URL without a digest "
                   "(the file must still look like a real ResNet-50, and is reported as unverified)")
    p.add_argument("--force", action="store_true", help="download again even if cached")
    p.set_defaults(func=cmd_fetch)
    p = sub.add_parser("demo", help="classify the shipped photos with the embedded default model (simulator)")
    p.set_defaults(func=cmd_demo)
    p = sub.add_parser("classify", help="classify images: the whole pyACL flow")
    p.add_argument("paths", nargs="+", metavar="IMAGE_OR_DIR")
    p.add_argument("--model", default=None, help="an .om file (default: ResNet-50 if fetched, else the embedded one)")
    p.add_argument("--backend", choices=("sim", "npu", "auto"), default=None)
    p.add_argument("--async", dest="use_async", action="store_true", help="execute_async + synchronize_stream")
    p.add_argument("--top", type=int, default=5, metavar="K")
    p.add_argument("--trace", action="store_true", help="print the pyACL calls")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.add_argument("--recipe", default=None, help="preprocessing for a model without a .recipe.json beside it: "
                   "efficientnet-lite, caffe-resnet50, imagenet-onnx, or a .recipe.json path")
    p.set_defaults(func=cmd_classify)
    p = sub.add_parser("desc", help="print a model's desc (every acl.mdl.get_* value)")
    p.add_argument("model")
    p.set_defaults(func=cmd_desc)
    p = sub.add_parser("lab", help="start JupyterLab on the notebooks")
    p.add_argument("--dir", default=None, help="workspace for the notebooks and data, never overwritten (default "
                   "when installed: ./acl-teach-notebooks; in a checkout: the repository's notebooks/)")
    p.add_argument("--port", type=int, default=None, metavar="N", help="JupyterLab's port")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--allow-root", action="store_true", help="let JupyterLab run as root (automatic as root)")
    p.add_argument("--lang", choices=("en", "zh"), default="en",
                   help="which edition to open: en (notebooks/) or zh, 中文版 (notebooks/zh/)")
    p.set_defaults(func=cmd_lab)
    p = sub.add_parser("course", help="nbgrader course: acl-teach course init DIR (assignments from the notebooks)")
    p.add_argument("action", choices=["init"])
    p.add_argument("dir", metavar="DIR", help="the course directory (created; existing files are kept)")
    p.add_argument("--course-id", default="acl-teach", help="nbgrader's CourseDirectory.course_id")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="which edition becomes the assignments")
    p.add_argument("--timeout", type=int, default=180, metavar="S", help="seconds a cell may run when nbgrader "
                   "executes a notebook (ExecutePreprocessor.timeout)")
    p.set_defaults(func=cmd_course)
    from .classroom import cli as classroom_cli
    classroom_cli.add_parser(sub).set_defaults(func=cmd_classroom)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    rest = argv[1:] if argv[:1] == ["--debug"] else argv
    if rest[:1] == ["atc"]:  # ATC's own flag syntax: hand the words over untouched
        from .toolchain import atc
        return atc.run(rest[1:])
    parser = build_parser()
    opts = parser.parse_args(argv)
    if not getattr(opts, "func", None):
        parser.print_help()
        return 2
    from . import sim
    sim.configure(explain=False)  # the command's own one-line message carries the explanation
    try:
        return opts.func(opts)
    except UserError as exc:
        print(f"acl-teach: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # unexpected: one line unless --debug
        if opts.debug:
            raise
        print(f"acl-teach: {type(exc).__name__}: {exc} (run with --debug for the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
