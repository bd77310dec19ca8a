"""nbgrader's exchange for a class on one server, laid out so that learners cannot abuse it.

nbgrader's default exchange wants a world-writable root and one shared ``inbound/`` that everyone may write:
a learner can then create a course others see, and plant a submission under another learner's name (collect
only warns "cheating attempt?"). nbgrader has no option that fixes this (``groupshared`` only changes modes), so
we keep nbgrader's own exchange code and file names and change where submissions go, through nbgrader's
``ExchangeFactory`` plug-in points:

* ``ROOT/exchange``                root:root 0755 — nobody but root creates a course
* ``ROOT/exchange/<course>``       instructor 0755; ``outbound/`` instructor 0755 — learners read the release only
* ``.../inbound``                  instructor 0711 — nobody lists who submitted
* ``.../inbound/<learner>``        instructor:<learner's own group> 2770 — only that learner (and the instructor)
* ``.../feedback``                 instructor 0711 — nbgrader's files named by each submission's secret

``ClassSubmit`` writes into the learner's own inbound folder under their own Unix name (``--student`` cannot
change it); ``ClassCollect`` takes a submission only when its folder, the name in it and every file's owner
agree, and never follows a link; ``ClassList`` lists the learner's own inbound folder. The exchange root check
(nbgrader requires a world-writable root) is replaced by one that requires the opposite.
"""
from __future__ import annotations

import base64
import glob
import os
import pwd
import shutil
import stat

from nbgrader.exchange.default import (ExchangeCollect, ExchangeList, ExchangeReleaseAssignment,
                                       ExchangeSubmit, ExchangeFetchAssignment, ExchangeFetchFeedback,
                                       ExchangeReleaseFeedback)
from nbgrader.exchange.default.exchange import Exchange
from nbgrader.utils import get_osusername

FACTORY = {  # c.ExchangeFactory.<key> = this module's class (both learner's and instructor's config)
    "submit": "ClassSubmit", "collect": "ClassCollect", "list": "ClassList",
    "release_assignment": "ClassReleaseAssignment", "fetch_assignment": "ClassFetchAssignment",
    "fetch_feedback": "ClassFetchFeedback", "release_feedback": "ClassReleaseFeedback",
}


def _check_root(exchange: Exchange) -> None:
    """The exchange root must exist and be writable by root alone (the opposite of nbgrader's default check)."""
    try:
        st = os.stat(exchange.root)
    except OSError:
        exchange.fail(f"the class exchange {exchange.root} is missing: ask your instructor to run "
                      f"`acl-teach classroom setup`")
    if st.st_uid != 0 or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        exchange.fail(f"the class exchange {exchange.root} is writable by others than root: run "
                      f"`acl-teach classroom setup` again to repair it")


class _ClassRoot:
    """Mixin: the root check of a class exchange."""

    def ensure_root(self):
        """Called by nbgrader's Exchange.start instead of its world-writable check."""
        _check_root(self)


def learner_inbound(root: str, course_id: str, student: str) -> str:
    """The learner's own inbound folder."""
    return os.path.join(root, course_id, "inbound", student)


class ClassSubmit(_ClassRoot, ExchangeSubmit):
    """nbgrader submit into inbound/<unix user>/, always under the learner's own Unix name."""

    def init_dest(self):
        if self.coursedir.course_id == '':
            self.fail("No course id specified. Re-run with --course flag.")
        student = get_osusername()  # a learner submits as themselves, whatever --student says
        self.inbound_path = learner_inbound(self.root, self.coursedir.course_id, student)
        if not os.path.isdir(self.inbound_path) or not os.access(self.inbound_path, os.W_OK | os.X_OK):
            self.fail(f"you have no submission folder in this class ({self.inbound_path}): ask your instructor "
                      f"to add you (`acl-teach classroom add`)")
        self.cache_path = os.path.join(self.cache, self.coursedir.course_id)
        stem = f"{student}+{self.coursedir.assignment_id}+{self.timestamp}"
        if self.add_random_string:
            stem += "+" + base64.urlsafe_b64encode(os.urandom(9)).decode("ascii")
        self.assignment_filename = stem


def _owned_by(path: str, uid: int) -> bool:
    """True if path and everything below it is owned by uid and nothing is a symbolic link."""
    if os.path.islink(path) or os.lstat(path).st_uid != uid:
        return False
    for top, dirs, files in os.walk(path):
        for name in dirs + files:
            entry = os.path.join(top, name)
            if os.path.islink(entry) or os.lstat(entry).st_uid != uid:
                return False
    return True


class ClassCollect(_ClassRoot, ExchangeCollect):
    """nbgrader collect from every inbound/<learner>/, taking only what that learner owns."""

    def init_src(self):
        if self.coursedir.course_id == '':
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        base = os.path.join(self.course_path, "inbound")
        student = self.coursedir.student_id or "*"
        records = []
        for folder in sorted(glob.glob(os.path.join(base, student))):
            name = os.path.basename(folder)
            pattern = os.path.join(folder, f"{glob.escape(name)}+{glob.escape(self.coursedir.assignment_id)}+*")
            for path in glob.glob(pattern):
                rec = self._path_to_record(path)
                if self._genuine(rec, path, name):
                    rec["filename"] = os.path.join(name, rec["filename"])
                    records.append(rec)
        self.inbound_path = base
        self._choose(records)

    def _genuine(self, rec: dict, path: str, folder_owner: str) -> bool:
        """A submission counts only if its name, its folder and the owner of every file in it agree."""
        try:
            uid = pwd.getpwnam(folder_owner).pw_uid
        except KeyError:
            uid = None
        if rec["username"] != folder_owner or uid is None or not _owned_by(path, uid):
            self.log.warning("refused %s: not a submission by %s alone (another owner, a link, or another name)",
                             path, folder_owner)
            return False
        return True

    def _choose(self, records):
        """nbgrader's choice of one submission per student (latest, or latest before the due date)."""
        from nbgrader.api import Gradebook, MissingEntry
        from nbgrader.exchange.default.collect import groupby
        usergroups = groupby(records, lambda item: item['username'])
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                self.duedate = gb.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                self.duedate = None
        chosen = []
        for recs in usergroups.values():
            recs = self._sort_by_timestamp(recs)
            if self.duedate is not None and self.before_duedate:
                early = [r for r in recs if r['timestamp'] <= self.duedate]
                recs = early or recs
            chosen.append(recs[0])
        self.src_records = chosen

    def do_copy(self, src, dest, log=None):
        """Copy without following links (the owner check already refused them) and keep nothing executable."""
        shutil.copytree(src, dest, symlinks=True)
        for top, dirs, files in os.walk(dest):
            for name in dirs + files:
                if os.path.islink(os.path.join(top, name)):  # swapped in after the owner check: never graded
                    self.log.warning("dropped the link %s from %s's submission", name, os.path.basename(dest))
                    os.unlink(os.path.join(top, name))
        self.set_perms(dest, fileperms=0o640, dirperms=0o750)


class ClassList(_ClassRoot, ExchangeList):
    """nbgrader list; --inbound / the assignment list's "submitted" part read the learner's own folder."""

    def init_dest(self):
        super().init_dest()
        if self.inbound:
            course_id = self.coursedir.course_id or "*"
            assignment_id = self.coursedir.assignment_id or "*"
            student = self.coursedir.student_id or get_osusername()
            self.assignments = sorted(glob.glob(os.path.join(
                self.root, course_id, "inbound", student, f"{student}+{assignment_id}+*")))

    def parse_assignment(self, assignment):
        if self.inbound:  # <root>/<course>/inbound/<student>/<student>+<assignment>+<timestamp>[+random]
            parts = os.path.basename(assignment).split("+")
            course_id = os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(assignment))))
            info = {"course_id": course_id, "student_id": parts[0], "assignment_id": parts[1],
                    "timestamp": parts[2], "random_string": ("+" + parts[3]) if len(parts) > 3 else None}
            return info
        return super().parse_assignment(assignment)


class ClassReleaseAssignment(_ClassRoot, ExchangeReleaseAssignment):
    """nbgrader release_assignment into a course folder `classroom setup` made (it never chmods the root)."""


class ClassFetchAssignment(_ClassRoot, ExchangeFetchAssignment):
    """nbgrader fetch_assignment with the class root check."""


class ClassFetchFeedback(_ClassRoot, ExchangeFetchFeedback):
    """nbgrader fetch_feedback with the class root check."""


class ClassReleaseFeedback(_ClassRoot, ExchangeReleaseFeedback):
    """nbgrader release_feedback with the class root check."""


def config_lines(root: str, course_id: str) -> str:
    """The nbgrader config both roles share: the exchange root, the course and these classes."""
    lines = [f"c.Exchange.root = {root!r}", f"c.CourseDirectory.course_id = {course_id!r}"]
    lines += [f"c.ExchangeFactory.{key} = 'acl_teach.classroom.exchange.{cls}'" for key, cls in FACTORY.items()]
    return "\n".join(lines) + "\n"


def make(root: str, course_id: str, instructor: str, learners) -> None:
    """Create (or repair) the exchange folders with the modes above; run as root."""
    iuid, igid = pwd.getpwnam(instructor).pw_uid, pwd.getpwnam(instructor).pw_gid
    _dir(root, 0, 0, 0o755)
    course = os.path.join(root, course_id)
    _dir(course, iuid, igid, 0o755)
    _dir(os.path.join(course, "outbound"), iuid, igid, 0o755)
    _dir(os.path.join(course, "inbound"), iuid, igid, 0o711)
    _dir(os.path.join(course, "feedback"), iuid, igid, 0o711)
    for name in learners:
        entry = pwd.getpwnam(name)
        _dir(learner_inbound(root, course_id, name), iuid, entry.pw_gid, 0o2770)


def _dir(path: str, uid: int, gid: int, mode: int) -> None:
    """A real folder (never a link) with this owner and mode."""
    if os.path.islink(path):
        raise ValueError(f"{path} is a symbolic link; remove it and run the command again")
    os.makedirs(path, exist_ok=True)
    os.chown(path, uid, gid)
    os.chmod(path, mode)
