"""Autograde that runs each learner's code as that learner, never as the instructor.

nbgrader's autograde executes the submitted notebook in a kernel it starts itself, as whoever runs autograde —
on a plain set-up the instructor, so a submission could read the gradebook or write into the instructor's home.
Here ``acl-teach classroom autograde`` (run as root) calls ``nbgrader autograde --student S`` once per learner with
the course's ``Execute.kernel_manager_class`` set to ``LearnerKernelManager``: the kernel is started through
``setpriv`` as S (S's uid, S's groups, no new privileges), in a fresh folder S owns outside the course, with S's
HOME and nothing of the instructor's environment; nbgrader itself (gradebook, hidden tests) stays root's.
The manager refuses to start any kernel unless it was told which learner it runs (so formgrader's "autograde"
button, run as the instructor, fails with a message instead of running learners' code as the instructor).
"""
from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

from jupyter_client.manager import AsyncKernelManager

from . import config as classroom_config
from .limits import parse_bytes

ENV_USER = "ACL_TEACH_GRADE_AS"
ENV_MEMORY = "ACL_TEACH_GRADE_MEMORY"
KEEP_ENV = ("PATH", "LANG", "LC_ALL", "TZ", "ACL_TEACH_SHARED_CACHE", "ACL_TEACH_BACKEND")


class GradingRefused(RuntimeError):
    """A kernel would have run as someone other than the learner whose work it grades."""


def _learner(name: Optional[str]) -> pwd.struct_passwd:
    """The learner account autograde may run as: a member of the class's learners group, never root."""
    if not name:
        raise GradingRefused(f"autograde runs each submission as its learner: use `sudo acl-teach classroom "
                             f"autograde ASSIGNMENT` ({ENV_USER} is not set, so no kernel is started)")
    entry = pwd.getpwnam(name)
    members = grp.getgrnam(classroom_config.LEARNERS_GROUP).gr_mem
    if entry.pw_uid == 0 or name not in members:
        raise GradingRefused(f"{name!r} is not a learner of this class: autograde will not run code as them")
    if os.geteuid() != 0:
        raise GradingRefused("autograde must run as root to start each learner's kernel as that learner: "
                             "sudo acl-teach classroom autograde ASSIGNMENT")
    return entry


class LearnerKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels run as the learner named in ACL_TEACH_GRADE_AS (see module doc)."""

    async def _async_pre_start_kernel(self, **kw):
        entry = _learner(os.environ.get(ENV_USER))
        self._workdir = tempfile.mkdtemp(prefix=f"acl-teach-grade-{entry.pw_name}-")
        source = kw.get("cwd")
        if source and os.path.isdir(source):  # the submission's other files (data the learner shipped)
            for name in os.listdir(source):
                path = os.path.join(source, name)
                if os.path.isfile(path) and not os.path.islink(path) and not name.endswith(".ipynb"):
                    shutil.copyfile(path, os.path.join(self._workdir, name))
        self.connection_file = os.path.join(self._workdir, "kernel.json")
        kw["cwd"] = self._workdir
        kw["env"] = self._learner_env(entry, kw.get("env") or os.environ)
        cmd, kw = await super()._async_pre_start_kernel(**kw)
        for top, dirs, files in os.walk(self._workdir):
            for name in [top] + [os.path.join(top, n) for n in dirs + files]:
                os.chown(name, entry.pw_uid, entry.pw_gid)
        os.chmod(self._workdir, 0o700)
        prefix = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups",
                  "--no-new-privs", "--"]
        memory = os.environ.get(ENV_MEMORY)
        if memory:  # a bound on what one graded kernel may reserve (prlimit: address space)
            cap = parse_bytes(memory) * 4
            prefix = ["prlimit", f"--as={cap}", "--"] + prefix
        return prefix + cmd, kw

    @staticmethod
    def _learner_env(entry: pwd.struct_passwd, base) -> Dict[str, str]:
        """The learner's environment: their HOME and user name, a few neutral variables, nothing of root's."""
        env = {k: base[k] for k in KEEP_ENV if k in base}
        env.update(HOME=entry.pw_dir, USER=entry.pw_name, LOGNAME=entry.pw_name, SHELL=entry.pw_shell or "/bin/sh")
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        return env

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart and getattr(self, "_workdir", None):
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None


def submissions(course: str, assignment: str) -> List[str]:
    """The learners with a collected submission of an assignment."""
    folder = os.path.join(course, "submitted")
    if not os.path.isdir(folder):
        return []
    return sorted(s for s in os.listdir(folder) if os.path.isdir(os.path.join(folder, s, assignment)))


def nbgrader_env(room) -> Dict[str, str]:
    """The environment nbgrader commands run with: the instructor's config folder, the venv's bin first."""
    env = dict(os.environ)
    env["JUPYTER_CONFIG_DIR"] = room.config_dir("instructor")
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])
    env["ACL_TEACH_SHARED_CACHE"] = room.cache
    return env


def autograde(room, assignment: str, students: Optional[List[str]] = None, log=print) -> Dict[str, int]:
    """``nbgrader autograde`` of every collected submission, each learner's kernel as that learner.

    Runs as root (it starts kernels as other users); the course's files it writes are given back to the
    instructor afterwards. Returns {learner: nbgrader's exit code}.
    """
    if os.geteuid() != 0:
        raise PermissionError("autograde runs each learner's code as that learner, which needs root: "
                              "sudo acl-teach classroom autograde " + assignment)
    course = room.course()
    nbgrader = os.path.join(os.path.dirname(sys.executable), "nbgrader")
    results = {}
    for student in students or submissions(course, assignment):
        if student not in room.learners:
            log(f"skipped {student}: not a learner of this class")
            continue
        env = nbgrader_env(room)
        env[ENV_USER] = student
        env[ENV_MEMORY] = str(room.mem_limit)
        done = subprocess.run([nbgrader, "autograde", assignment, "--student", student, "--force"], cwd=course,
                              env=env, capture_output=True, text=True)
        results[student] = done.returncode
        log(f"autograded {student}: {'ok' if done.returncode == 0 else 'FAILED'}")
        if done.returncode:
            log(done.stderr[-3000:])
    give_back(room)
    return results


def give_back(room) -> None:
    """The course's files root wrote (gradebook, autograded/, feedback/) owned by the instructor again."""
    uid, gid = pwd.getpwnam(room.instructor).pw_uid, pwd.getpwnam(room.instructor).pw_gid
    course = room.course()
    for top, dirs, files in os.walk(course):
        for name in [top] + [os.path.join(top, n) for n in dirs + files]:
            if not os.path.islink(name) and os.lstat(name).st_uid == 0:
                os.chown(name, uid, gid)
