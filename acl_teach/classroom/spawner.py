"""The class's JupyterHub spawner: a local process per learner, with limits, its role's config and a workspace.

``ClassroomSpawner`` is JupyterHub's LocalProcessSpawner plus what a class needs:
* ``mem_limit``/``cpu_limit`` enforced (limits.py: one cgroup per learner, rlimits where there are none);
* ``JUPYTER_CONFIG_DIR`` set to the role's read-only config folder (learner: no formgrader, no create-assignment,
  kernel culling; instructor: formgrader and the course) — a learner's own ``~/.jupyter`` is not read;
* the ungraded notebooks copied into a learner's home, as the learner, before the first start;
* the class's read-only model cache (ACL_TEACH_SHARED_CACHE);
* thread pools sized to the learner's CPU share (limits.thread_env).
"""
from __future__ import annotations

import os
import subprocess
import sys

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from traitlets import Unicode

from . import limits


class ClassroomSpawner(LocalProcessSpawner):
    """LocalProcessSpawner with per-learner limits, role config and the learner's workspace."""

    classroom_root = Unicode("/srv/acl-teach", config=True, help="the folder `acl-teach classroom setup` made")

    def _room(self):
        from . import config
        return config.load(self.classroom_root)

    def _role(self) -> str:
        return "instructor" if self.user.name == self._room().instructor else "learner"

    def get_env(self):
        env = super().get_env()
        room = self._room()
        env["JUPYTER_CONFIG_DIR"] = room.config_dir(self._role())
        env["ACL_TEACH_SHARED_CACHE"] = room.cache
        for name, value in limits.thread_env(self.cpu_limit).items():
            env.setdefault(name, value)
        env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "/usr/bin:/bin")
        return env

    def make_preexec_fn(self, name):
        """Join the learner's cgroup (still root), then drop to the learner as LocalProcessSpawner does."""
        setuid = set_user_setuid(name)
        mem = limits.parse_bytes(self.mem_limit) if self.mem_limit else None
        kind = self._limit_kind

        def preexec():
            limits.join(name, mem, kind)
            setuid()
        return preexec

    async def start(self):
        room = self._room()
        mem = limits.parse_bytes(self.mem_limit) if self.mem_limit else None
        self._limit_kind = limits.prepare(self.user.name, mem, self.cpu_limit)
        self.log.info("limits for %s: %s (memory %s, cpu %s)", self.user.name, self._limit_kind, self.mem_limit,
                      self.cpu_limit)
        if self._role() == "learner":
            self._workspace(room)
        return await super().start()

    def _workspace(self, room) -> None:
        """Copy the ungraded notebooks into the learner's home, run as the learner (never root in their home)."""
        argv = ["setpriv", f"--reuid={self.user.name}", f"--regid={self.user.name}", "--init-groups", "--",
                sys.executable, "-m", "acl_teach.classroom.workspace", "--lang", room.lang]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                              env={"HOME": os.path.expanduser(f"~{self.user.name}"), "PATH": "/usr/bin:/bin"})
        if done.returncode:
            self.log.warning("workspace for %s: %s", self.user.name, done.stderr.strip()[-500:])
