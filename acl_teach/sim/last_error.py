"""``acl.rt.peek_at_last_error`` / ``get_last_error``: the code of the calling thread's latest failed call.

Every call that returns an error code records it for its thread (``state.fail``); ``peek`` reads it,
``get`` reads it and clears it to 0 (ACL_SUCCESS), as aclrtPeekAtLastError / aclrtGetLastError do
at ACL_RT_THREAD_LEVEL (0), the only level. Both return the bare code (rt_synchronize.cpp @134e2edb,
format ``"i"``). UNCONFIRMED: failures of every acl call count (a board records runtime errors), and
another level returns 100000 without touching the record.
"""
from __future__ import annotations

from ._args import binding
from .state import fail, state

ACL_RT_THREAD_LEVEL = 0


def _level_ok(api: str, level: int) -> int:
    if level == ACL_RT_THREAD_LEVEL:
        return 0
    return fail(100000, api, f"level {level} must be ACL_RT_THREAD_LEVEL (0).")


@binding("acl.rt.peek_at_last_error", "i")
def peek_at_last_error(api, level):
    """The code of this thread's latest failed call (0 if none since the last get_last_error)."""
    last = getattr(state().tls, "last_error", 0)
    ret = _level_ok(api, level)
    if ret:
        state().tls.last_error = last  # a wrong level is not an error the record keeps
        return ret
    return last


@binding("acl.rt.get_last_error", "i")
def get_last_error(api, level):
    """Like peek_at_last_error, then clear the record to 0."""
    last = getattr(state().tls, "last_error", 0)
    ret = _level_ok(api, level)
    if ret:
        state().tls.last_error = last
        return ret
    state().tls.last_error = 0
    return last


__all__ = ["peek_at_last_error", "get_last_error"]
