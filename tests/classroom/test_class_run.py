"""A real class on this machine: a hub, an instructor and three learners (local accounts), one assignment
released, fetched, answered right / wrong / blank, submitted, collected, autograded as each learner, fed back
and fetched — and every abuse the issue lists attempted by a learner and asserted to fail.

Heavy (about 3 minutes) and it creates Unix accounts: it runs only as root with ACL_TEACH_CLASS_RUN=1
(`make test-class`, which CI's .ci/run calls); `make test` skips it.
"""
import grp
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import nbformat
import pytest

if os.environ.get("ACL_TEACH_CLASS_RUN") != "1" or os.geteuid() != 0:
    pytest.skip("the class run needs root and ACL_TEACH_CLASS_RUN=1 (make test-class)", allow_module_level=True)
pytest.importorskip("jupyterhub")
pytest.importorskip("nbgrader")

ROOT = "/srv/acl-teach-ci"
INSTRUCTOR = "aclci-teacher"
RIGHT, WRONG, BLANK = "aclci-right", "aclci-wrong", "aclci-blank"
LEARNERS = [RIGHT, WRONG, BLANK]
ASSIGNMENT = "01_init_and_resources"
ACL_TEACH = [sys.executable, "-m", "acl_teach"]
BIN = os.path.dirname(sys.executable)
NBGRADER = os.path.join(BIN, "nbgrader")
MARKER = "/tmp/aclci-graded-as"  # the wrong answer writes here during autograde: whose uid ran it


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _busy(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _run(argv, check=True, **kw):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, **kw)
    if check:
        assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return done


def _as(user, code):
    """Run Python code as a learner (setpriv to their uid and groups, their HOME); (returncode, output)."""
    entry = pwd.getpwnam(user)
    env = {"HOME": entry.pw_dir, "USER": user, "PATH": f"{BIN}:/usr/bin:/bin",
           "JUPYTER_CONFIG_DIR": f"{ROOT}/jupyter/learner"}
    done = subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--",
                           sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=entry.pw_dir,
                          timeout=300)
    return done.returncode, done.stdout + done.stderr


def _nbgrader_as(user, *args):
    """An nbgrader command as a learner, from their home, with the learner's class config."""
    code = f"import sys; from nbgrader.apps.nbgraderapp import main; sys.argv = ['nbgrader'] + {list(args)!r}; main()"
    return _as(user, code)


def _cleanup():
    for name in LEARNERS + [INSTRUCTOR]:
        for _ in range(20):  # userdel refuses while a killed process of the user is still exiting
            subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
            if subprocess.run(["userdel", "--remove", name], capture_output=True).returncode in (0, 6):
                break  # 6: no such user
            time.sleep(0.5)
        from acl_teach.classroom import limits
        limits.remove(name)
    shutil.rmtree(ROOT, ignore_errors=True)
    for path in [MARKER]:
        if os.path.exists(path):
            os.unlink(path)


class Hub:
    """The class's JupyterHub, started by `acl-teach classroom start`, with a cookie session per user."""

    def __init__(self, port):
        self.url = f"http://127.0.0.1:{port}"
        self.log = open(os.path.join(ROOT, "hub.log"), "w")
        self.proc = subprocess.Popen(ACL_TEACH + ["classroom", "start", "--root", ROOT], stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/hub/api/", timeout=5)
                return
            except Exception:
                assert self.proc.poll() is None, open(self.log.name).read()[-3000:]
                time.sleep(1)
        raise AssertionError("the hub did not answer in 90 s:\n" + open(self.log.name).read()[-3000:])

    def login(self, user, password):
        """PAM login through the hub's form; a urllib opener holding the session cookies."""
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(self.url + "/hub/login", timeout=30).read()
        xsrf = next(c.value for c in jar if c.name == "_xsrf")
        data = urllib.parse.urlencode({"username": user, "password": password, "_xsrf": xsrf}).encode()
        try:  # a good login redirects to the spawn page, which starts the learner's server
            opener.open(self.url + "/hub/login", data=data, timeout=60).read()
        except urllib.error.HTTPError as exc:
            assert exc.code == 403, exc  # a refused login
            return opener, [c.name for c in jar]
        opener.xsrf = next(c.value for c in jar if c.name == "_xsrf")
        return opener, [c.name for c in jar]

    def token(self, opener, user):
        """An API token for user, requested with their login session."""
        req = urllib.request.Request(f"{self.url}/hub/api/users/{user}/tokens", method="POST",
                                     data=json.dumps({"note": "class run"}).encode(),
                                     headers={"X-XSRFToken": opener.xsrf, "Content-Type": "application/json"})
        return json.loads(opener.open(req, timeout=30).read())["token"]

    def api(self, path, token, method="GET", data=None):
        req = urllib.request.Request(self.url + path, method=method, headers={"Authorization": f"token {token}"},
                                     data=None if data is None else json.dumps(data).encode())
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return resp.status, resp.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")

    def spawn(self, user, token):
        status, body = self.api(f"/hub/api/users/{user}/server", token, "POST", {})
        assert status in (201, 202) or (status == 400 and "already running" in body), (status, body)
        deadline = time.time() + 330  # the hub's own start_timeout is 300 s: a loaded machine starts slowly
        while time.time() < deadline:
            status, body = self.api(f"/hub/api/users/{user}", token)
            info = json.loads(body)
            server = info.get("servers", {}).get("", {})
            if server.get("ready"):
                return server
            time.sleep(1)
        raise AssertionError(f"{user}'s server did not start:\n" + open(self.log.name).read()[-4000:])

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
        proxy = os.path.join(ROOT, "hub", "jupyterhub-proxy.pid")
        if os.path.exists(proxy):  # the proxy outlives a hub that was killed
            try:
                os.kill(int(open(proxy).read()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        self.log.close()
        shutil.copyfile(self.log.name, "/tmp/aclci-hub.log")  # kept for a failed run's reader


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """The class set up from a class list, its hub running; yields (hub, {user: password})."""
    _cleanup()
    class_list = tmp_path_factory.mktemp("class") / "learners.csv"
    class_list.write_text("username,name\n" + "".join(f"{n},Learner {i}\n" for i, n in enumerate(LEARNERS)))
    port = _free_port()
    while any(_busy(p) for p in (port + 1, port + 2)):  # the hub's API and the proxy's API use the next two
        port = _free_port()
    done = _run(ACL_TEACH + ["classroom", "setup", "--root", ROOT, "--instructor", INSTRUCTOR, "--class-list",
                             str(class_list), "--port", str(port), "--mem-limit", "1536M", "--cpu-limit", "1"])
    passwords = dict(re.findall(r"^  (aclci-[a-z]+)  ([a-z0-9]{12})$", done.stdout, re.M))
    assert sorted(passwords) == sorted(LEARNERS + [INSTRUCTOR]), done.stdout
    hub = Hub(port)
    try:
        yield hub, passwords
    finally:
        hub.stop()
        _cleanup()


def test_accounts_and_homes_are_private(klass):
    for name in LEARNERS + [INSTRUCTOR]:
        home = pwd.getpwnam(name).pw_dir
        assert os.stat(home).st_mode & 0o777 == 0o700, name
    assert sorted(grp.getgrnam("acl-teach-learners").gr_mem) >= sorted(LEARNERS)
    assert INSTRUCTOR not in grp.getgrnam("acl-teach-learners").gr_mem


def test_pam_login_bad_password_refused(klass):
    hub, passwords = klass
    _, cookies = hub.login(RIGHT, "not-the-password")
    assert "jupyterhub-session-id" not in cookies and "jupyterhub-hub-login" not in cookies


def test_class_run(klass):
    hub, passwords = klass
    tokens = {}
    for user in LEARNERS + [INSTRUCTOR]:
        opener, cookies = hub.login(user, passwords[user])
        assert "jupyterhub-hub-login" in cookies, (user, cookies)
        tokens[user] = hub.token(opener, user)
    # the idle culler runs as a hub service (the instructor is the hub's admin)
    status, body = hub.api("/hub/api/services", tokens[INSTRUCTOR])
    assert status == 200 and "idle-culler" in json.loads(body), body
    # each server starts, inside its learner's limits
    from acl_teach.classroom import limits
    for user in LEARNERS + [INSTRUCTOR]:
        hub.spawn(user, tokens[user])
        got = limits.limits_of(user)
        if got["mechanism"] != "rlimit":
            assert got["memory"] == 1536 << 20 and got["cpu"] == 1.0, got
            pids = limits.members(user)
            assert pids and all(os.stat(f"/proc/{p}").st_uid == pwd.getpwnam(user).pw_uid for p in pids)
    # the learner's lab shows no instructor tooling; the instructor's formgrader works through the hub
    status, page = hub.api(f"/user/{RIGHT}/lab", tokens[RIGHT])
    assert status == 200 and "@jupyter/nbgrader:formgrader" in page and "disabledExtensions" in page
    assert hub.api(f"/user/{RIGHT}/formgrader", tokens[RIGHT])[0] == 404
    status, page = hub.api(f"/user/{INSTRUCTOR}/formgrader", tokens[INSTRUCTOR])
    assert status == 200 and "formgrade" in page.lower(), status
    # the ungraded notebooks are in each learner's home (copied as the learner)
    welcome = os.path.join(pwd.getpwnam(RIGHT).pw_dir, "acl-teach-notebooks", "00_welcome.ipynb")
    assert os.stat(welcome).st_uid == pwd.getpwnam(RIGHT).pw_uid

    _run(ACL_TEACH + ["classroom", "release", ASSIGNMENT, "--root", ROOT])
    # fetch: one learner through the hub (the assignment list's REST call), two with nbgrader
    status, body = hub.api(f"/user/{RIGHT}/assignments/fetch", tokens[RIGHT], "POST",
                           {"course_id": "acl-teach", "assignment_id": ASSIGNMENT})
    assert status == 200 and json.loads(body)["success"], body
    for user in (WRONG, BLANK):
        rc, out = _nbgrader_as(user, "fetch_assignment", ASSIGNMENT)
        assert rc == 0, out
    source = nbformat.read(os.path.join(pwd.getpwnam(INSTRUCTOR).pw_dir, "acl-teach", "source", ASSIGNMENT,
                                        ASSIGNMENT + ".ipynb"), as_version=4)
    solution = next(c.source for c in source.cells if c.metadata.get("nbgrader", {}).get("solution"))
    wrong = ("def open_device(device_id):\n    import os\n"
             f"    open({MARKER!r}, 'w').write(str(os.getuid()))\n"
             f"    try:\n        open(os.path.expanduser('~{INSTRUCTOR}') + '/pwned', 'w').write('x')\n"
             "    except OSError:\n        pass\n    return 0, 0\n\n\n"
             "def close_device(device_id, context, stream):\n    pass\n")
    for user, text in ((RIGHT, solution), (WRONG, wrong)):
        path = os.path.join(pwd.getpwnam(user).pw_dir, ASSIGNMENT, ASSIGNMENT + ".ipynb")
        rc, out = _as(user, f"import nbformat\nnb = nbformat.read({path!r}, as_version=4)\n"
                            "cell = next(c for c in nb.cells if c.metadata.get('nbgrader', {}).get('solution'))\n"
                            f"cell.source = {text!r}\nnbformat.write(nb, {path!r})\n")
        assert rc == 0, out
    # submit: the right one through the hub, the others with nbgrader (the wrong one claims another name)
    status, body = hub.api(f"/user/{RIGHT}/assignments/submit", tokens[RIGHT], "POST",
                           {"course_id": "acl-teach", "assignment_id": ASSIGNMENT})
    assert status == 200 and json.loads(body)["success"], body
    rc, out = _nbgrader_as(WRONG, "submit", ASSIGNMENT, "--student", RIGHT)
    assert rc == 0, out
    rc, out = _nbgrader_as(BLANK, "submit", ASSIGNMENT)
    assert rc == 0, out
    inbound = os.path.join(ROOT, "exchange", "acl-teach", "inbound")
    assert [n.split("+")[0] for n in os.listdir(os.path.join(inbound, WRONG))] == [WRONG]  # --student ignored

    _abuse(inbound)

    out = _run(ACL_TEACH + ["classroom", "collect", ASSIGNMENT, "--root", ROOT]).stdout
    assert "refused" in out and "+link" in out, out  # the link to the solutions, though in its own folder
    course = os.path.join(pwd.getpwnam(INSTRUCTOR).pw_dir, "acl-teach")
    assert sorted(os.listdir(os.path.join(course, "submitted"))) == sorted(LEARNERS)
    for user in LEARNERS:  # each collected submission is its own learner's (not the planted or linked 2099 ones)
        stamp = open(os.path.join(course, "submitted", user, ASSIGNMENT, "timestamp.txt")).read()
        assert not stamp.startswith("2099"), (user, stamp)

    # formgrader's own autograde (as the instructor) refuses to run learners' code as the instructor (tried first:
    # a refused autograde --force leaves that submission ungraded until the real one below)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=f"{ROOT}/jupyter/instructor", PATH=f"{BIN}:/usr/bin:/bin")
    entry = pwd.getpwnam(INSTRUCTOR)
    done = _run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--", NBGRADER,
                 "autograde", ASSIGNMENT, "--student", BLANK, "--force"], check=False, cwd=course,
                env=dict(env, HOME=entry.pw_dir))
    assert "runs each submission as its learner" in done.stdout + done.stderr, done.stderr[-2000:]

    _run(ACL_TEACH + ["classroom", "autograde", ASSIGNMENT, "--root", ROOT])
    from nbgrader.api import Gradebook
    with Gradebook("sqlite:///" + os.path.join(course, "gradebook.db")) as gb:
        scores = {u: gb.find_submission(ASSIGNMENT, u).score for u in LEARNERS}
        max_score = gb.find_submission(ASSIGNMENT, RIGHT).max_score
    assert max_score == 2.0 and scores == {RIGHT: 2.0, WRONG: 0.0, BLANK: 0.0}, scores
    # the wrong answer's code ran as its learner, not as the instructor or root
    assert open(MARKER).read() == str(pwd.getpwnam(WRONG).pw_uid)
    assert os.stat(MARKER).st_uid == pwd.getpwnam(WRONG).pw_uid
    assert not os.path.exists(os.path.join(pwd.getpwnam(INSTRUCTOR).pw_dir, "pwned"))
    assert os.stat(os.path.join(course, "gradebook.db")).st_uid == pwd.getpwnam(INSTRUCTOR).pw_uid
    _run(ACL_TEACH + ["classroom", "feedback", ASSIGNMENT, "--root", ROOT])
    for user in LEARNERS:
        rc, out = _nbgrader_as(user, "fetch_feedback", ASSIGNMENT)
        assert rc == 0, out
        folder = os.path.join(pwd.getpwnam(user).pw_dir, ASSIGNMENT, "feedback")
        (stamp,) = os.listdir(folder)
        html = open(os.path.join(folder, stamp, ASSIGNMENT + ".html"), encoding="utf-8").read()
        assert ("Score: 2.0 / 2.0" if user == RIGHT else "Score: 0.0 / 2.0") in html, user
    # one learner cannot list the feedback folder to find another's
    rc, out = _as(WRONG, f"import os; os.listdir({os.path.join(ROOT, 'exchange', 'acl-teach', 'feedback')!r})")
    assert rc != 0 and "PermissionError" in out


def _abuse(inbound):
    """Every abuse the issue lists, tried by the wrong-answer learner; each must fail."""
    right_home = pwd.getpwnam(RIGHT).pw_dir
    course = os.path.join(pwd.getpwnam(INSTRUCTOR).pw_dir, "acl-teach")
    outbound = os.path.join(ROOT, "exchange", "acl-teach", "outbound", ASSIGNMENT)
    refused = {
        "read another learner's answer": f"open({right_home + '/' + ASSIGNMENT + '/' + ASSIGNMENT + '.ipynb'!r})",
        "list another learner's home": f"import os; os.listdir({right_home!r})",
        "read another's nbgrader cache": f"import os; os.listdir({right_home + '/.local/share/jupyter'!r})",
        "read the instructor's solutions": f"open({course + '/source/' + ASSIGNMENT + '/' + ASSIGNMENT + '.ipynb'!r})",
        "read the gradebook": f"open({course + '/gradebook.db'!r})",
        "list the inbound folder": f"import os; os.listdir({inbound!r})",
        "read another's submission": f"import os; os.listdir({os.path.join(inbound, RIGHT)!r})",
        "plant a submission for another": f"import os; os.mkdir({os.path.join(inbound, RIGHT, RIGHT + '+x+2026-01-01 00:00:00.000000 UTC')!r})",
        "overwrite another's submission": f"import os, glob; open(os.path.join({os.path.join(inbound, RIGHT)!r}, 'x'), 'w')",
        "squat a course": f"import os; os.mkdir({os.path.join(ROOT, 'exchange', 'squat')!r})",
        "write the release": f"open({outbound + '/' + ASSIGNMENT + '.ipynb'!r}, 'a')",
        "add a file to the release": f"open({outbound + '/extra.ipynb'!r}, 'w')",
        "change the learners' config": f"open({ROOT + '/jupyter/learner/jupyter_server_config.json'!r}, 'a')",
        "write the model cache": f"import os; open(os.path.join({ROOT + '/model-cache'!r}, 'x.om'), 'w')",
    }
    for what, code in refused.items():
        rc, out = _as(WRONG, code)
        assert rc != 0 and "PermissionError" in out, f"a learner could {what}: {out[-500:]}"
    # in their own inbound folder a learner can write, but collect takes only what is genuinely theirs:
    # a folder claiming another learner's name, and a link to the instructor's solutions, are refused
    own = os.path.join(inbound, WRONG)
    planted = os.path.join(own, f"{RIGHT}+{ASSIGNMENT}+2099-01-01 00:00:00.000000 UTC+planted")
    link = os.path.join(own, f"{WRONG}+{ASSIGNMENT}+2099-01-02 00:00:00.000000 UTC+link")
    source = os.path.join(course, "source", ASSIGNMENT)
    rc, out = _as(WRONG, f"import os\nos.mkdir({planted!r})\nopen({planted!r} + '/{ASSIGNMENT}.ipynb', 'w').write('{{}}')\n"
                         f"os.symlink({source!r}, {link!r})\n")
    assert rc == 0, out
