"""``python -m acl_teach.sim [--run-mode host|device] [--soc NAME] [--force] SCRIPT [ARGS…]``.

Runs an unmodified pyACL script with the simulator registered as ``acl`` for that process.
"""
from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    """Run the script; its exit status becomes ours."""
    parser = argparse.ArgumentParser(prog="python -m acl_teach.sim",
                                     description="Run a pyACL script on the acl-teach CPU simulator.")
    parser.add_argument("--run-mode", choices=("host", "device"), default=None,
                        help="host = PC with an accelerator card (default), device = code on the board")
    parser.add_argument("--soc", default=None, help="SoC name reported by acl.get_soc_name()")
    parser.add_argument("--force", action="store_true", help="shadow an importable real 'acl' module")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args(argv)
    from acl_teach import sim
    sim.configure(run_mode=opts.run_mode, soc_name=opts.soc)
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
    code = 0
    try:
        runpy.run_path(opts.script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    if sim.state().initialized:
        print("[acl-teach sim] the script ended without acl.finalize().", file=sys.stderr)
        report = sim.leak_report()
        if report:
            print(report, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
