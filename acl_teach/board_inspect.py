"""Inspection on a real NPU, with documented calls only: what can be seen there, and what plainly cannot.

Memory is read by copying it to a temporary host buffer (malloc_host -> memcpy -> ptr_to_bytes ->
free_host); the runtime keeps no ledger a program can read, so ``live`` and ``leaks`` say so.
"""
from __future__ import annotations

import contextlib
from typing import Iterator, List, Optional, Tuple

from . import backend
from .spec.constants import ACL_DEVICE, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST

AVAILABLE = False  # no ledger on a board
UNAVAILABLE = "the resource ledger exists only on the simulator; on a board, check your release calls' rets"


def read(ptr: int, size: int) -> bytes:
    """``size`` bytes of device memory at ``ptr``, copied out through a temporary host buffer."""
    if not isinstance(size, int) or size < 0:
        raise ValueError(f"size must be a byte count >= 0, not {size!r}")
    acl = backend.acl()
    host, ret = acl.rt.malloc_host(size)
    if ret:
        raise ValueError(f"acl.rt.malloc_host({size}) returned {ret}")
    try:
        run_mode, _ = acl.rt.get_run_mode()
        kind = ACL_MEMCPY_DEVICE_TO_DEVICE if run_mode == ACL_DEVICE else ACL_MEMCPY_DEVICE_TO_HOST
        ret = acl.rt.memcpy(host, size, ptr, size, kind)
        if ret:
            raise ValueError(f"acl.rt.memcpy returned {ret}")
        return acl.util.ptr_to_bytes(host, size)
    finally:
        acl.rt.free_host(host)


def where(ptr: int) -> str:
    """A board does not tell; the widgets only show device buffers there."""
    return "device memory (as given; a board cannot tell)"


def live(include_init: bool = False) -> Optional[List]:
    """None: not available on a board."""
    return None


def leaks() -> Optional[List]:
    """None: not available on a board."""
    return None


def model_header(model_id: int) -> None:
    """None: a real OM's header is CANN's own; the caller reads the model's sidecar recipe instead."""
    return None


@contextlib.contextmanager
def machine(soc_name: str, run_mode: int) -> Iterator[Tuple[str, int]]:
    """A board is the machine it is: nothing changes; yields what it answers."""
    yield machine_now()


def machine_now() -> Tuple[str, int]:
    """(SoC name, run mode) of this board, from the documented calls."""
    acl = backend.acl()
    return acl.get_soc_name(), acl.rt.get_run_mode()[0]


def reset(config=None, explain=None, keep_process=True) -> None:
    """A real process cannot be reset from Python; nothing to do."""


def install() -> None:
    """Real pyACL is already ``acl``."""
