"""PASS or FAIL for one run, and the precise reason: the first uncaught exception and where it was raised.

Tracebacks at teardown (acllite's ``__del__`` after a failure) are noise; the first traceback in
stderr is the cause. Calls the simulator refused (its ``[acl-teach sim] API returned CODE`` lines)
are collected up to that point so a report can name the refusal that started it.
"""
from __future__ import annotations

import os
import re
from typing import List, Optional, Tuple

from catalogue import Sample

REFUSAL = re.compile(r"^\[acl-teach sim\] (\S+) returned (\d+)")
FRAME = re.compile(r'\s+File "([^"]+)", line (\d+), in (\S+)')


def tail(text: str, n: int = 3) -> str:
    """The last ``n`` non-empty lines, joined."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return " | ".join(lines[-n:])


def first_exception(err: str) -> Optional[Tuple[int, str]]:
    """(line index, 'file:line in func: Error: message') of the first traceback in stderr, or None."""
    lines = err.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("Traceback (most recent call last)"):
            continue
        where = ""
        for later in lines[i + 1:]:
            frame = FRAME.match(later)
            if frame:
                where = f"{os.path.basename(frame.group(1))}:{frame.group(2)} in {frame.group(3)}: "
            elif later and not later.startswith(" "):
                return i, where + later.strip()
    return None


def refusals(err: str) -> List[str]:
    """The simulator's refusal lines before the first traceback (later ones are teardown noise)."""
    crash = first_exception(err)
    lines = err.splitlines()[:crash[0]] if crash else err.splitlines()
    return [ln.strip() for ln in lines if REFUSAL.match(ln.strip())]


def cause(out: str, err: str) -> str:
    """The first uncaught exception with its location, else the last lines of stderr (or stdout)."""
    found = first_exception(err)
    return found[1] if found else tail(err or out)


def judge(sample: Sample, code: Optional[int], out: str, err: str, sample_dir: str, timeout: float) -> Tuple[bool, str]:
    """PASS when exit 0, each expect regex printed, no reject regex printed, and the sample's check holds."""
    both = out + "\n" + err
    if code is None:
        return False, f"timeout after {timeout:.0f} s: {cause(out, err)}"
    if code != 0:
        return False, f"exit {code}: {cause(out, err)}"
    for pattern in sample.reject:
        m = re.search(pattern, both, re.M)
        if m:
            line = both[both.rfind("\n", 0, m.start()) + 1:].split("\n", 1)[0].strip()
            return False, f"printed {line!r}: {cause(out, err)}"
    for pattern in sample.expect:
        if not re.search(pattern, both, re.M):
            return False, f"expected /{pattern}/ not printed: {cause(out, err)}"
    if sample.check:
        return sample.check(both, sample_dir)
    return True, "expected output printed"
