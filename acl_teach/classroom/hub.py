"""The hub's configuration and each role's Jupyter config, written by `acl-teach classroom setup`.

``ROOT/jupyterhub_config.py`` only calls ``configure(c, ROOT)``: the settings live here, the class in
``ROOT/classroom.json``. PAM logs in the class's local accounts (members of acl-teach-learners and the
instructor); ``ClassroomSpawner`` enforces the limits; ``jupyterhub-idle-culler`` stops idle servers; learners'
servers read ``ROOT/jupyter/learner`` (assignment list and validate only, kernels culled when idle) and the
instructor's ``ROOT/jupyter/instructor`` (formgrader, the course, autograde as each learner).
"""
from __future__ import annotations

import json
import os
import shutil
import sys

from . import exchange
from .config import LEARNERS_GROUP, Classroom

HUB_CONFIG = '''"""JupyterHub for the acl-teach class (written by `acl-teach classroom setup`; the class is classroom.json)."""
from acl_teach.classroom import hub

hub.configure(c, {root!r})  # noqa: F821 (JupyterHub provides c)
'''
INSTRUCTOR_ONLY = {  # lab plug-ins and server extensions a learner must not see
    "labextensions": ["@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                      "@jupyter/nbgrader:course-list"],
    "server": ["nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list"],
}
LEARNER_EXTENSIONS = ["nbgrader.server_extensions.assignment_list", "nbgrader.server_extensions.validate_assignment"]
CULLER_SCOPES = ["list:users", "read:users:activity", "read:servers", "delete:servers"]  # no --cull-users


def configure(c, root: str) -> None:
    """Set the JupyterHub traits for the class in root (called from ROOT/jupyterhub_config.py)."""
    from .config import load
    room = load(root)
    state = os.path.join(root, "hub")
    c.JupyterHub.bind_url = f"http://{room.ip}:{room.port}"
    c.JupyterHub.hub_ip = "127.0.0.1"
    c.JupyterHub.hub_port = room.hub_port or room.port + 1
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{room.proxy_api_port or room.port + 2}"
    c.JupyterHub.db_url = "sqlite:///" + os.path.join(state, "jupyterhub.sqlite")
    c.JupyterHub.cookie_secret_file = os.path.join(state, "jupyterhub_cookie_secret")
    c.ConfigurableHTTPProxy.pid_file = os.path.join(state, "jupyterhub-proxy.pid")
    c.JupyterHub.authenticator_class = "pam"
    c.PAMAuthenticator.allowed_groups = {LEARNERS_GROUP}
    c.Authenticator.allowed_users = {room.instructor}
    c.Authenticator.admin_users = {room.instructor}
    c.PAMAuthenticator.open_sessions = False  # no login session per server start (no systemd-logind here)
    c.JupyterHub.spawner_class = "acl_teach.classroom.spawner.ClassroomSpawner"
    c.ClassroomSpawner.classroom_root = root
    c.Spawner.mem_limit = room.mem_limit
    c.Spawner.cpu_limit = float(room.cpu_limit)
    c.Spawner.cmd = [os.path.join(os.path.dirname(sys.executable), "jupyterhub-singleuser")]
    c.Spawner.default_url = "/lab"
    c.Spawner.notebook_dir = "~"
    c.Spawner.start_timeout = 300  # a loaded server (a class logging in at once) starts slowly
    c.Spawner.http_timeout = 180
    c.JupyterHub.services = [{"name": "idle-culler", "command": [
        sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={room.idle_timeout}", "--cull-every=300"]}]
    c.JupyterHub.load_roles = [{"name": "idle-culler", "scopes": CULLER_SCOPES, "services": ["idle-culler"]}]


def write_role_configs(room: Classroom) -> None:
    """ROOT/jupyter/{learner,instructor}: server extensions, lab plug-ins, nbgrader's exchange (root-owned)."""
    shared = exchange.config_lines(room.exchange, room.course_id)
    for role in ("learner", "instructor"):  # jupyter_core would try to write this marker into a read-only folder
        _text(os.path.join(room.config_dir(role), "migrated"), "acl-teach classroom: nothing to migrate\n")
    learner = room.config_dir("learner")
    server = {name: False for name in INSTRUCTOR_ONLY["server"]}
    server.update({name: True for name in LEARNER_EXTENSIONS})
    _json(os.path.join(learner, "jupyter_server_config.json"), {
        "ServerApp": {"jpserver_extensions": server},
        "MappingKernelManager": {"cull_idle_timeout": room.kernel_idle_timeout, "cull_interval": 120,
                                 "cull_connected": True}})
    _json(os.path.join(learner, "labconfig", "page_config.json"),
          {"disabledExtensions": {name: True for name in INSTRUCTOR_ONLY["labextensions"]},
           "lockedExtensions": {name: True for name in INSTRUCTOR_ONLY["labextensions"]}})  # not re-enabled in the UI
    _text(os.path.join(learner, "nbgrader_config.py"), "c = get_config()  # noqa: F821\n" + shared)
    instructor = room.config_dir("instructor")
    _json(os.path.join(instructor, "jupyter_server_config.json"), {"ServerApp": {"jpserver_extensions": {
        name: True for name in INSTRUCTOR_ONLY["server"] + LEARNER_EXTENSIONS}}})
    _json(os.path.join(instructor, "labconfig", "page_config.json"),  # on again where an image turned them off
          {"disabledExtensions": {name: False for name in INSTRUCTOR_ONLY["labextensions"]}})
    _text(os.path.join(instructor, "nbgrader_config.py"), "c = get_config()  # noqa: F821\n" + shared + (
        f"c.CourseDirectory.root = {room.course()!r}\n"
        "# autograde starts each learner's kernel as that learner (sudo acl-teach classroom autograde)\n"
        "c.Execute.kernel_manager_class = 'acl_teach.classroom.grading.LearnerKernelManager'\n"
        f"c.Execute.timeout = {int(room.grade_timeout)}\n"))


def write_hub_config(room: Classroom) -> str:
    """ROOT/jupyterhub_config.py and the hub's private state folder."""
    os.makedirs(os.path.join(room.root, "hub"), mode=0o700, exist_ok=True)
    os.chmod(os.path.join(room.root, "hub"), 0o700)
    path = os.path.join(room.root, "jupyterhub_config.py")
    _text(path, HUB_CONFIG.format(root=room.root))
    return path


def proxy_command() -> str:
    """configurable-http-proxy on PATH (npm install -g configurable-http-proxy), or None."""
    return shutil.which("configurable-http-proxy")


def _json(path: str, data) -> None:
    _text(path, json.dumps(data, indent=1) + "\n")


def _text(path: str, text: str) -> None:
    """Write a root-owned, world-readable file (its folders 0755)."""
    os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(path, 0o644)
