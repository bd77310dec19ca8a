"""The class's settings, kept in ``ROOT/classroom.json`` (root-owned, world-readable: no secrets in it).

Every classroom command and the hub's config read this one file, so the instructor, the learners, the edition,
the limits and the exchange are said once.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import List, Optional

DEFAULT_ROOT = "/srv/acl-teach"
FILE = "classroom.json"
LEARNERS_GROUP = "acl-teach-learners"


@dataclass
class Classroom:
    """One class on one server."""
    root: str = DEFAULT_ROOT
    instructor: str = "instructor"
    learners: List[str] = field(default_factory=list)
    course_id: str = "acl-teach"
    lang: str = "en"
    mem_limit: str = "2G"
    cpu_limit: float = 1.0
    idle_timeout: int = 3600  # seconds before the culler stops an idle learner server
    kernel_idle_timeout: int = 1200  # seconds before a learner's idle kernel is shut down
    ip: str = "127.0.0.1"
    port: int = 8000
    hub_port: int = 0  # the hub's own API port; 0: port + 1 (JupyterHub's 8081 default clashes with other hubs)
    proxy_api_port: int = 0  # configurable-http-proxy's API; 0: port + 2 (not CHP's 8001 default, same reason)
    grade_timeout: int = 180
    course_dir: Optional[str] = None  # default: ~instructor/<course_id>

    @property
    def exchange(self) -> str:
        """nbgrader's exchange root (root-owned, not world-writable)."""
        return os.path.join(self.root, "exchange")

    @property
    def cache(self) -> str:
        """The class's read-only model cache (ACL_TEACH_SHARED_CACHE for every learner)."""
        return os.path.join(self.root, "model-cache")

    def config_dir(self, role: str) -> str:
        """The Jupyter config folder of a role ('learner' or 'instructor'), JUPYTER_CONFIG_DIR of its servers."""
        return os.path.join(self.root, "jupyter", role)

    def course(self) -> str:
        """The instructor's nbgrader course folder."""
        if self.course_dir:
            return self.course_dir
        import pwd
        return os.path.join(pwd.getpwnam(self.instructor).pw_dir, self.course_id)

    def save(self) -> str:
        """Write ROOT/classroom.json atomically."""
        path = os.path.join(self.root, FILE)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(asdict(self), fh, indent=1)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        return path


def load(root: str = DEFAULT_ROOT) -> Classroom:
    """The class set up in root (ValueError saying what to run when there is none)."""
    path = os.path.join(root, FILE)
    if not os.path.isfile(path):
        raise ValueError(f"no class in {root} ({path} is missing): run `acl-teach classroom setup` first")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    known = set(Classroom.__dataclass_fields__)
    return Classroom(**{k: v for k, v in data.items() if k in known})
