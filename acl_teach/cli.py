"""The ``acl-teach`` command: one sub-command per job, a one-line reason on failure, no traceback.

``--debug`` (before the sub-command) shows the traceback of an unexpected error.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from . import errors

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
    """Run the shipped pyACL memory round-trip script on the simulator."""
    from .sim.__main__ import main as run_sim
    return run_sim([os.path.join(EXAMPLES, "memory_roundtrip.py")])


def cmd_fetch(opts: argparse.Namespace) -> int:
    """Download an optional model (the only command that uses the network)."""
    from .fetch import FetchError, fetch_resnet50
    try:
        path = fetch_resnet50(opts.url, force=opts.force)
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
    p.add_argument("--url", default=None, help="download from this URL (a mirror)")
    p.add_argument("--force", action="store_true", help="download again even if cached")
    p.set_defaults(func=cmd_fetch)
    p = sub.add_parser("demo", help="run the main demo on the simulator")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    rest = argv[1:] if argv[:1] == ["--debug"] else argv
    if rest[:1] == ["atc"]:  # ATC's own flag syntax: hand the words over untouched
        from . import atc
        return atc.run(rest[1:])
    parser = build_parser()
    opts = parser.parse_args(argv)
    if not getattr(opts, "func", None):
        parser.print_help()
        return 2
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
