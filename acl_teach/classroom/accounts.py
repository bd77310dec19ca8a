"""One Unix account per learner, from a class list; homes private (0700); passwords generated, shown once.

Why local accounts and PAM: each learner needs their own Unix user anyway — file permissions are what keep one
learner out of another's work and out of the instructor's course, and autograde runs a submission as its
author. PAM then logs them in with no second user database; the instructor hands out the printed passwords and
a learner may change theirs with ``passwd`` in a hub terminal. Names are checked before anything is created.
"""
from __future__ import annotations

import grp
import os
import pwd
import re
import secrets
import subprocess
from typing import Dict, Iterable, List, Tuple

NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")  # portable POSIX user names; no '+' (nbgrader splits on it)
RESERVED = {"root", "daemon", "bin", "sys", "nobody", "admin", "jovyan"}
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no look-alikes (l/1, o/0) on a printed slip


def read_class_list(path: str) -> List[str]:
    """Learner names from a file: one per line or CSV (first column); '#' comments and a 'username' header skipped."""
    names = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            name = text.split(",")[0].strip().strip('"')
            if number == 1 and name.lower() in ("username", "user", "id", "student", "name"):
                continue
            names.append(name)
    return check_names(names)


def check_names(names: Iterable[str]) -> List[str]:
    """The names, unique, in order; ValueError naming every bad one."""
    seen, bad = [], []
    for name in names:
        if not NAME.match(name) or name in RESERVED:
            bad.append(name)
        elif name not in seen:
            seen.append(name)
    if bad:
        raise ValueError(f"not usable as account names: {', '.join(map(repr, bad))} (lower-case letters, digits, "
                         f"'_' and '-', starting with a letter, at most 32 characters)")
    return seen


def exists(name: str) -> bool:
    """True if the Unix account exists."""
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def new_password() -> str:
    """A 12-character password from an unambiguous alphabet."""
    return "".join(secrets.choice(ALPHABET) for _ in range(12))


def ensure_group(group: str) -> None:
    """Create a system group if missing."""
    try:
        grp.getgrnam(group)
    except KeyError:
        subprocess.run(["groupadd", "--system", group], check=True, capture_output=True)


def create(name: str, groups: Iterable[str] = ()) -> Tuple[bool, str]:
    """Create the account (own group, home 0700, bash) if missing; (created?, password or '')."""
    password = ""
    created = not exists(name)
    if created:
        subprocess.run(["useradd", "--create-home", "--user-group", "--shell", "/bin/bash", name],
                       check=True, capture_output=True)
        password = new_password()
        subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True, capture_output=True)
    for group in groups:
        subprocess.run(["usermod", "--append", "--groups", group, name], check=True, capture_output=True)
    os.chmod(pwd.getpwnam(name).pw_dir, 0o700)  # Debian's useradd makes homes 0755: everyone could read them
    return created, password


def create_all(names: Iterable[str], groups: Iterable[str] = ()) -> Dict[str, str]:
    """Create every missing account; {name: password} of the new ones (existing accounts keep theirs)."""
    passwords = {}
    for name in names:
        created, password = create(name, groups)
        if created:
            passwords[name] = password
    return passwords


def ids(name: str) -> Tuple[int, int, str]:
    """(uid, gid, home) of an account."""
    entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid, entry.pw_dir
