"""`make test`'s scheduling over pytest-xdist workers: groups that share a run stay on one worker, slow work first.

pytest-xdist's own ``--dist loadgroup`` tells its controller a test's ``xdist_group`` by appending
``@group`` to the test's node id, which pytest 9.2 no longer allows (node ids became structured), so
every grouped test would be spread over the workers and each worker would redo the shared run. Here
the first worker writes {node id: group} to a file the controller hands it, and the controller's
scheduler (xdist's LoadScopeScheduling) reads it: a group is one unit of work, any other test its own.
Works the same where xdist's suffix does come through.

Groups: each ``pytest.mark.xdist_group(NAME)``, and every nbval cell of one notebook (one kernel each).
Order (a stable sort, applied with or without xdist): ``e2e-`` groups, then the other groups and
``pytest.mark.heavy`` tests, then everything else, so the longest runs start first and the quick tests
even out the end.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest

GROUP_FILE = "acl_teach_group_file"


def _groups(item, root: str) -> list:
    names = [str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")]
    if type(item).__name__ == "IPyNbCell":  # nbval: the cells of one notebook share its kernel
        names.append("nbval-" + os.path.relpath(str(item.fspath), root))
    return names


def _rank(groups: list, item) -> int:
    if any(g.startswith("e2e-") for g in groups):
        return 0
    return 1 if groups or item.get_closest_marker("heavy") else 2


def order_and_group(config, items, root: str) -> None:
    """Sort the slow work first; on the first xdist worker, write each grouped test's group for the controller."""
    found = {item.nodeid: _groups(item, root) for item in items}
    items.sort(key=lambda item: _rank(found[item.nodeid], item))
    target = getattr(config, "workerinput", {}).get(GROUP_FILE)
    if target and config.workerinput.get("workerid") == "gw0":
        table = {nodeid: "+".join(sorted(set(g))) for nodeid, g in found.items() if g}
        with open(target + ".tmp", "w", encoding="utf-8") as fh:
            json.dump(table, fh)
        os.replace(target + ".tmp", target)


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # pytest-xdist not installed: the suite runs in one process
    LoadScopeScheduling = object


class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc,valid-type]
    """xdist's scope scheduling with the scope of a test read from the group table (else the test itself)."""

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self.table = None
        self.group_file = config.stash.get(_FILE_KEY, None)

    def _split_scope(self, nodeid: str) -> str:
        if self.table is None:
            try:
                with open(self.group_file, encoding="utf-8") as fh:
                    self.table = json.load(fh)
            except (OSError, TypeError, ValueError):
                raise RuntimeError("tests/xdist_groups.py: the first worker wrote no group table; run with "
                                   "-p xdist (pytest-xdist >= 3.6) or -n 0") from None
        if nodeid in self.table:
            return "group:" + self.table[nodeid]
        if nodeid.rfind("@") > nodeid.rfind("]"):  # xdist's own suffix, where pytest still allows it
            return "group:" + nodeid.rsplit("@", 1)[1]
        return nodeid

    def remove_node(self, node):
        """A worker that died mid-unit: its crashed test is done (xdist reports it failed), the rest goes back.

        xdist's own LoadScopeScheduling re-queues the crashed test too, so every replacement worker
        crashes on it again, and it hands work to a replacement that has not collected yet (a KeyError
        inside the controller, which then waits forever: CI's 90 minutes gone on one segfault).
        """
        workload = self.assigned_work.pop(node)
        pending = [(scope, unit) for scope, unit in workload.items() if not all(unit.values())]
        if not pending:
            return None
        scope, unit = pending[0]
        crashitem = next(nodeid for nodeid, done in unit.items() if not done)
        unit[crashitem] = True
        for scope, unit in pending:
            if not all(unit.values()):
                self.workqueue[scope] = unit
        for other in list(self.assigned_work):
            self._reschedule(other)
        return crashitem

    def _reschedule(self, node) -> None:
        """Keep a collected worker two tests ahead, and tell it when nothing is left.

        A worker runs a test only once it knows the next one (or that none follows), so a replacement
        given one single-test unit by xdist's heuristic would wait for ever; a replacement still
        collecting cannot take work yet.
        """
        if node not in self.registered_collections or node.shutting_down:
            return
        while self.workqueue and self._pending_of(self.assigned_work[node]) < 2:
            self._assign_work_unit(node)
        if not self.workqueue:
            node.shutdown()


_FILE_KEY = pytest.StashKey[str]()


def configure(config) -> None:
    """On the xdist controller with --dist loadgroup: a private folder for the workers' group table."""
    if getattr(config.option, "dist", "no") == "loadgroup" and not hasattr(config, "workerinput"):
        folder = tempfile.mkdtemp(prefix="acl-teach-xdist-")
        config.stash[_FILE_KEY] = os.path.join(folder, "groups.json")
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def configure_node(node) -> None:
    """Tell each worker where the group table goes."""
    path = node.config.stash.get(_FILE_KEY, None)
    if path:
        node.workerinput[GROUP_FILE] = path


def make_scheduler(config, log):
    """Our scheduler for --dist loadgroup; xdist's for every other mode."""
    if config.stash.get(_FILE_KEY, None) and LoadScopeScheduling is not object:
        config.option.loadscopereorder = False  # keep the order order_and_group made: slow work first
        return GroupScheduling(config, log)
    return None
