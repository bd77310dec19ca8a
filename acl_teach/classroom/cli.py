"""`acl-teach classroom ACTION …`: the argument parsing (the work is in commands.py)."""
from __future__ import annotations

import argparse

from .config import DEFAULT_ROOT

ACTIONS = ("setup", "add", "cache", "start", "release", "collect", "autograde", "feedback", "status")


def add_parser(sub) -> argparse.ArgumentParser:
    """Register `classroom` on the acl-teach parser."""
    p = sub.add_parser("classroom", help="a whole class on this server: JupyterHub, accounts, nbgrader exchange "
                       "(docs/instructor.md)")
    p.add_argument("action", choices=ACTIONS)
    p.add_argument("names", nargs="*", metavar="NAME", help="learners (add), or the assignment (release, collect, "
                   "autograde, feedback)")
    p.add_argument("--root", default=DEFAULT_ROOT, help=f"the class's folder (default {DEFAULT_ROOT})")
    p.add_argument("--class-list", default=None, metavar="FILE", help="setup/add: learners, one per line or CSV")
    p.add_argument("--instructor", default="instructor", help="setup: the instructor's account")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="setup: the edition learners get")
    p.add_argument("--course-id", default="acl-teach")
    p.add_argument("--mem-limit", default="2G", help="setup: memory per learner (server + kernels)")
    p.add_argument("--cpu-limit", type=float, default=1.0, help="setup: CPUs per learner")
    p.add_argument("--ip", default="127.0.0.1", help="setup: the hub's address")
    p.add_argument("--port", type=int, default=8000, help="setup: the hub's port")
    p.add_argument("--no-cache", action="store_true", help="setup: do not build the model cache now")
    return p


def run(opts, user_error) -> int:
    """Dispatch one action; user_error is the CLI's one-line error type."""
    from . import accounts, commands, config
    try:
        if opts.action == "setup":
            names = list(opts.names) + (accounts.read_class_list(opts.class_list) if opts.class_list else [])
            if not names:
                raise ValueError("setup needs the learners: --class-list FILE or their names")
            room = config.Classroom(root=opts.root, instructor=opts.instructor, course_id=opts.course_id,
                                    lang=opts.lang, mem_limit=opts.mem_limit, cpu_limit=opts.cpu_limit,
                                    ip=opts.ip, port=opts.port)
            _passwords(commands.setup(room, names, build_cache=not opts.no_cache))
            print(f"next: sudo acl-teach classroom start --root {opts.root}   (hub on http://{opts.ip}:{opts.port})")
            return 0
        room = config.load(opts.root)
        if opts.action == "add":
            names = list(opts.names) + (accounts.read_class_list(opts.class_list) if opts.class_list else [])
            _passwords(commands.add(room, names))
        elif opts.action == "cache":
            commands.cache(room)
        elif opts.action == "start":
            return commands.start(room)
        elif opts.action == "status":
            print("\n".join(commands.status(room)))
        else:
            if len(opts.names) != 1:
                raise ValueError(f"usage: acl-teach classroom {opts.action} ASSIGNMENT")
            assignment = opts.names[0]
            if opts.action == "release":
                commands.release(room, assignment)
            elif opts.action == "collect":
                print(commands.collect(room, assignment).strip())
            elif opts.action == "autograde":
                results = commands.autograde(room, assignment)
                return 0 if all(rc == 0 for rc in results.values()) else 1
            elif opts.action == "feedback":
                commands.feedback(room, assignment)
        return 0
    except (ValueError, PermissionError, FileNotFoundError, RuntimeError, KeyError) as exc:
        raise user_error(str(exc).strip()) from None


def _passwords(passwords) -> None:
    """Print the new accounts' passwords once (they are stored nowhere)."""
    if passwords:
        print("new accounts (hand each learner their line; the passwords are not stored):")
        for name, password in passwords.items():
            print(f"  {name}  {password}")
