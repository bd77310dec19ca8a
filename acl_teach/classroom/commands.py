"""What `acl-teach classroom …` runs: setup, add, cache, start, release, collect, autograde, feedback, status."""
from __future__ import annotations

import csv
import os
import pwd
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

from . import accounts, exchange, grading, hub, limits
from .config import LEARNERS_GROUP, Classroom, load


def _need_root(what: str) -> None:
    if os.geteuid() != 0:
        raise PermissionError(f"{what} creates accounts and root-owned folders: run it with sudo")


def readable_by_all(path: str) -> Optional[str]:
    """The first folder on path's way that other users cannot enter, or None (learners' servers run from it)."""
    path = os.path.abspath(path)
    while path not in ("/", ""):
        if not os.stat(path).st_mode & 0o001:
            return path
        path = os.path.dirname(path)
    return None


def as_user(user: str, argv: List[str], env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None,
            check: bool = True) -> subprocess.CompletedProcess:
    """Run a command as another local user (setpriv: their uid, groups, HOME), from root; as is when we are them."""
    entry = pwd.getpwnam(user)
    env = dict(env or os.environ, HOME=entry.pw_dir, USER=user, LOGNAME=user)
    if os.geteuid() == entry.pw_uid:
        prefix = []
    else:
        prefix = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--"]
    done = subprocess.run(prefix + argv, env=env, cwd=cwd or entry.pw_dir, capture_output=True, text=True)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(argv[:4])} … as {user} failed:\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}")
    return done


def _nbgrader(room: Classroom, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """An nbgrader command in the course, as the instructor, with the instructor's config."""
    nbgrader = os.path.join(os.path.dirname(sys.executable), "nbgrader")
    return as_user(room.instructor, [nbgrader, *args], env=grading.nbgrader_env(room), cwd=room.course(),
                   check=check)


def setup(room: Classroom, learners: List[str], build_cache: bool = True, log=print) -> Dict[str, str]:
    """Turn this server into the class: accounts, exchange, course, role configs, hub config, model cache.

    Safe to run again (it repairs modes and adds what is missing); returns the new accounts' passwords.
    """
    _need_root("classroom setup")
    blocked = readable_by_all(sys.prefix) or readable_by_all(os.path.realpath(sys.executable))
    if blocked:
        raise PermissionError(f"learners cannot reach this Python ({sys.prefix}): {blocked} is closed to other "
                              f"users; install acl-teach where everyone can read it (e.g. a venv in /opt/acl-teach)")
    os.makedirs(room.root, exist_ok=True)
    os.chown(room.root, 0, 0)
    os.chmod(room.root, 0o755)
    accounts.ensure_group(LEARNERS_GROUP)
    learners = accounts.check_names(learners)
    if room.instructor in learners:
        raise ValueError(f"{room.instructor!r} is the instructor and cannot also be a learner")
    passwords = accounts.create_all([room.instructor])
    passwords.update(accounts.create_all(learners, groups=[LEARNERS_GROUP]))
    room.learners = sorted(set(room.learners) | set(learners))
    room.save()
    exchange.make(room.exchange, room.course_id, room.instructor, room.learners)
    hub.write_role_configs(room)
    hub.write_hub_config(room)
    _course(room, log)
    _students(room, room.learners)
    if build_cache:
        cache(room, log)
    return passwords


def _course(room: Classroom, log) -> None:
    """The instructor's nbgrader course (acl-teach course init, as the instructor)."""
    course = room.course()
    as_user(room.instructor, [sys.executable, "-m", "acl_teach", "course", "init", course, "--lang", room.lang,
                              "--course-id", room.course_id, "--timeout", str(room.grade_timeout)])
    os.chmod(pwd.getpwnam(room.instructor).pw_dir, 0o700)
    log(f"course {room.course_id!r} in {course} (instructor {room.instructor})")


def _students(room: Classroom, names: List[str]) -> None:
    """Add the learners to the gradebook in one nbgrader call."""
    fd, path = tempfile.mkstemp(suffix=".csv")
    with os.fdopen(fd, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id"])
        writer.writerows([n] for n in names)
    os.chmod(path, 0o644)
    try:
        _nbgrader(room, "db", "student", "import", path)
    finally:
        os.unlink(path)


def add(room: Classroom, learners: List[str], log=print) -> Dict[str, str]:
    """Add learners to a class that exists: accounts, inbound folders, gradebook (the hub needs no restart)."""
    _need_root("classroom add")
    learners = accounts.check_names(learners)
    passwords = accounts.create_all(learners, groups=[LEARNERS_GROUP])
    room.learners = sorted(set(room.learners) | set(learners))
    room.save()
    exchange.make(room.exchange, room.course_id, room.instructor, room.learners)
    _students(room, learners)
    return passwords


def cache(room: Classroom, log=print) -> List[str]:
    """Build every shipped model once into the class's read-only cache (no learner builds one in their kernel)."""
    _need_root("classroom cache")
    env = dict(os.environ, ACL_TEACH_CACHE=room.cache)
    env.pop("ACL_TEACH_SHARED_CACHE", None)
    code = ("from acl_teach.toolchain import assets as a\n"
            "for p in (a.default_om(), a.dynamic_batch_om(), a.aipp_om(), a.op_model_dir()): print(p)\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    for top, dirs, files in os.walk(room.cache):
        os.chown(top, 0, 0)
        os.chmod(top, 0o755)
        for name in files:
            os.chown(os.path.join(top, name), 0, 0)
            os.chmod(os.path.join(top, name), 0o644)
    built = done.stdout.split()
    log(f"model cache {room.cache}: {len(built)} models, read-only for the class")
    return built


def start(room: Classroom) -> int:
    """Run JupyterHub for the class in the foreground (Ctrl-C stops it)."""
    _need_root("classroom start")
    if not hub.proxy_command():
        raise FileNotFoundError("configurable-http-proxy is not installed: npm install -g configurable-http-proxy")
    exe = os.path.join(os.path.dirname(sys.executable), "jupyterhub")
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.call([exe, "-f", os.path.join(room.root, "jupyterhub_config.py")],
                           cwd=os.path.join(room.root, "hub"), env=env)


def release(room: Classroom, assignment: str) -> None:
    """generate_assignment + release_assignment, as the instructor."""
    _nbgrader(room, "generate_assignment", assignment, "--force")
    _nbgrader(room, "release_assignment", assignment, "--force")


def collect(room: Classroom, assignment: str) -> str:
    """nbgrader collect (the class's collect: only submissions their learner owns); nbgrader's log."""
    done = _nbgrader(room, "collect", assignment, "--update")
    return done.stdout + done.stderr


def feedback(room: Classroom, assignment: str) -> None:
    """generate_feedback + release_feedback, as the instructor."""
    _nbgrader(room, "generate_feedback", assignment, "--force")
    _nbgrader(room, "release_feedback", assignment)


def status(room: Classroom) -> List[str]:
    """One line per fact an instructor checks: limits mechanism, accounts, exchange modes."""
    lines = [f"class {room.course_id!r} in {room.root}: instructor {room.instructor}, {len(room.learners)} learners, "
             f"edition {room.lang}", f"limits: {limits.mechanism()} (memory {room.mem_limit}, cpu {room.cpu_limit})",
             f"hub: http://{room.ip}:{room.port} (configurable-http-proxy: {hub.proxy_command() or 'MISSING'})"]
    root_mode = oct(os.stat(room.exchange).st_mode & 0o7777) if os.path.isdir(room.exchange) else "missing"
    lines.append(f"exchange {room.exchange}: {root_mode}")
    return lines


__all__ = ["setup", "add", "cache", "start", "release", "collect", "autograde", "feedback", "status", "load"]
autograde = grading.autograde
