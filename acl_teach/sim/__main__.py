"""``python -m acl_teach.sim [--run-mode host|device] [--soc NAME] [--devices N] [--strict] [--force] SCRIPT [ARGS…]``.

Runs an unmodified pyACL script with the simulator registered as ``acl`` for that process. The
"ended without acl.finalize()" check runs where a real process would notice: at interpreter exit,
after the script's own atexit handlers and after its objects are collected, so a program that
finalizes in ``atexit`` or in a ``__del__`` is not reported.
"""
from __future__ import annotations

import argparse
import atexit
import gc
import os
import runpy
import sys
from typing import Any, Dict, List, Optional


def _device_count(text: str) -> int:
    """argparse type for --devices: an int >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a device count (an integer >= 1)")
    return value


def _parser() -> argparse.ArgumentParser:
    """The command line (options come before the script; everything after it goes to the script)."""
    parser = argparse.ArgumentParser(prog="python -m acl_teach.sim",
                                     description="Run a pyACL script on the acl-teach CPU simulator.")
    parser.add_argument("--run-mode", choices=("host", "device"), default=None,
                        help="host = PC with an accelerator card (default), device = code on the board")
    parser.add_argument("--soc", default=None, help="SoC name reported by acl.get_soc_name()")
    parser.add_argument("--devices", type=_device_count, default=None, metavar="N",
                        help="number of simulated devices (default 1, or $ACL_TEACH_SIM_DEVICES)")
    parser.add_argument("--strict", action="store_true",
                        help="refuse what real pyACL accepts silently (copies past a bytes object, wrong "
                             "memcpy kinds …) instead of warning")
    parser.add_argument("--force", action="store_true", help="shadow an importable real 'acl' module")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def _end_of_run(script_globals: Dict[str, Any]) -> None:
    """At exit: drop the script's objects as interpreter shutdown would (running __del__), then check."""
    from acl_teach import sim
    for name in ("last_exc", "last_type", "last_value", "last_traceback"):
        if hasattr(sys, name):  # an uncaught exception's traceback keeps the script's frames alive
            setattr(sys, name, None)
    script_globals.clear()
    gc.collect()
    if sim.state().initialized:
        print("[acl-teach sim] the script ended without acl.finalize().", file=sys.stderr)
        report = sim.leak_report()
        if report:
            print(report, file=sys.stderr)


def main(argv: Optional[List[str]] = None) -> int:
    """Run the script; its exit status becomes ours (the finalize check runs at interpreter exit)."""
    opts = _parser().parse_args(argv)
    from acl_teach import sim
    sim.configure(run_mode=opts.run_mode, soc_name=opts.soc, device_count=opts.devices,
                  strict=True if opts.strict else None)
    if not os.path.isfile(opts.script):
        print(f"acl-teach: no such script: {opts.script}", file=sys.stderr)
        return 2
    try:
        sim.install(force=opts.force)
    except RuntimeError as exc:
        print(f"acl-teach: {exc}", file=sys.stderr)
        return 2
    sys.argv = [opts.script] + opts.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(opts.script)))
    script_globals: Dict[str, Any] = {}
    atexit.register(_end_of_run, script_globals)  # registered first, so it runs after the script's own
    code = 0
    try:
        script_globals.update(runpy.run_path(opts.script, run_name="__main__"))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
