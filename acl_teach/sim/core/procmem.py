"""Is this host address really memory of this process? The check behind raw host pointers.

pyACL passes an integer address straight to ``aclrtMemcpy`` / ``aclmdlLoadFromMem``: an
``ndarray.ctypes.data``, ``__array_interface__['data'][0]``, a ctypes buffer or an mmapped file all
work on a board. The simulator accepts them too, but first asks the operating system whether the
whole byte range is mapped with the access the copy needs, so a bad address gives an error code
instead of a segfault. One entry point, :func:`check_range`; Linux reads ``/proc/self/maps``
(fully), macOS asks ``mach_vm_region`` and Windows ``VirtualQuery`` through ctypes (best effort:
UNCONFIRMED, not exercised by the test suite). On any other system nothing is vouched for.

A range that passes can still be unmapped by another thread before the copy runs; that race is
the program's (as on a board).
"""
from __future__ import annotations

import ctypes
import os
import sys
from dataclasses import dataclass
from typing import List, Optional

_PAGE = 4096
# kernel pages that are mapped readable but fault or change under a plain read
_NEVER = ("[vvar]", "[vvar_vclock]", "[vsyscall]")


@dataclass
class Mapping:
    """One mapped span of the address space: [start, end), its access and what backs it."""

    start: int
    end: int
    readable: bool
    writable: bool
    name: str  # a file path, "[heap]", "[stack]" or "" for anonymous memory
    offset: int = 0  # offset of ``start`` in the backing file


def _linux_maps() -> List[Mapping]:
    """The process's mappings from /proc/self/maps, in address order."""
    out = []
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            parts = line.split(None, 5)
            if len(parts) < 5:
                continue
            start, end = (int(x, 16) for x in parts[0].split("-"))
            perms = parts[1]
            name = parts[5].strip() if len(parts) > 5 else ""
            out.append(Mapping(start, end, perms[0] == "r", perms[1] == "w", name, int(parts[2], 16)))
    return out


def _file_end(m: Mapping) -> int:
    """The address past which a file mapping has no file behind it (reading there raises SIGBUS)."""
    if not m.name.startswith("/"):
        return m.end
    try:
        size = os.stat(m.name).st_size
    except OSError:
        return m.end  # deleted or renamed file: the mapping stands as the kernel reports it
    last = m.start + max(0, size - m.offset)
    return min(m.end, (last + _PAGE - 1) // _PAGE * _PAGE)


def _windows_query(address: int) -> Optional[Mapping]:  # pragma: no cover - best effort, UNCONFIRMED
    """The region around ``address`` from VirtualQuery (MEM_COMMIT pages with a readable protection)."""
    class MBI(ctypes.Structure):
        _fields_ = [("BaseAddress", ctypes.c_void_p), ("AllocationBase", ctypes.c_void_p),
                    ("AllocationProtect", ctypes.c_ulong), ("PartitionId", ctypes.c_ushort),
                    ("RegionSize", ctypes.c_size_t), ("State", ctypes.c_ulong),
                    ("Protect", ctypes.c_ulong), ("Type", ctypes.c_ulong)]
    mbi = MBI()
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    if not kernel32.VirtualQuery(ctypes.c_void_p(address), ctypes.byref(mbi), ctypes.sizeof(mbi)):
        return None
    if mbi.State != 0x1000 or mbi.Protect & 0x101:  # not MEM_COMMIT, or PAGE_NOACCESS / PAGE_GUARD
        return None
    prot = mbi.Protect & 0xFF
    readable = prot in (0x02, 0x04, 0x08, 0x20, 0x40, 0x80)
    writable = prot in (0x04, 0x08, 0x40, 0x80)
    base = mbi.BaseAddress or 0
    return Mapping(base, base + mbi.RegionSize, readable, writable, "")


def _mac_query(address: int) -> Optional[Mapping]:  # pragma: no cover - best effort, UNCONFIRMED
    """The region at or after ``address`` from mach_vm_region (VM_REGION_BASIC_INFO_64)."""
    libc = ctypes.CDLL(None)
    task = ctypes.c_uint.in_dll(libc, "mach_task_self_")
    addr, size = ctypes.c_uint64(address), ctypes.c_uint64(0)
    info = (ctypes.c_int * 9)()
    count = ctypes.c_uint(9)  # VM_REGION_BASIC_INFO_COUNT_64
    obj = ctypes.c_uint(0)
    ret = libc.mach_vm_region(task, ctypes.byref(addr), ctypes.byref(size), 9, info, ctypes.byref(count),
                              ctypes.byref(obj))
    if ret != 0 or addr.value > address:
        return None
    prot = info[0]  # VM_PROT_READ 1, VM_PROT_WRITE 2
    return Mapping(addr.value, addr.value + size.value, bool(prot & 1), bool(prot & 2), "")


def _query_chain(address: int, end: int) -> Optional[List[Mapping]]:
    """Mappings covering [address, end) one after another on macOS/Windows, or None where a gap is."""
    query = _windows_query if sys.platform == "win32" else _mac_query
    out, at = [], address
    while at < end:
        m = query(at)
        if m is None or m.end <= at:
            return None
        out.append(m)
        at = m.end
    return out


def _covering(address: int, end: int) -> Optional[List[Mapping]]:
    """The mappings that together cover [address, end) without a gap, or None."""
    if sys.platform.startswith("linux"):
        try:
            maps = _linux_maps()
        except OSError:
            return None
        out, at = [], address
        for m in maps:
            if m.end <= at or m.start > at:
                if m.start > at:
                    break
                continue
            out.append(m)
            at = min(m.end, _file_end(m))
            if at >= end:
                return out
            if at < m.end:  # the file behind this mapping ends here
                return None
        return None
    if sys.platform == "darwin" or sys.platform == "win32":
        try:
            return _query_chain(address, end)
        except (OSError, AttributeError, ValueError):
            return None
    return None


def check_range(address: int, count: int, write: bool) -> Optional[str]:
    """None when ``count`` bytes at ``address`` are mapped readable (and writable if ``write``), else why not."""
    if address <= 0 or count < 0 or address + count > 1 << 64:
        return f"{address:#x} is not a user-space address"
    maps = _covering(address, address + max(count, 1))
    if maps is None:
        return (f"{count} bytes at {address:#x} are not all mapped in this process (the operating system's "
                f"memory map has no such pages): a dangling or mistyped pointer")
    for m in maps:
        if m.name in _NEVER:
            return f"{address:#x} lies in the kernel's {m.name} page, which a copy must not touch"
        if not m.readable:
            return f"the page at {max(address, m.start):#x} is mapped without read access ({label(m)})"
        if write and not m.writable:
            return (f"the page at {max(address, m.start):#x} is mapped read-only ({label(m)}), so it cannot be "
                    f"a copy's destination")
    return None


def label(m: Mapping) -> str:
    """What backs a mapping, in words."""
    if m.name.startswith("/"):
        return f"a mapping of the file {m.name}"
    if m.name:
        return f"the process {m.name.strip('[]')}"
    return "anonymous memory (an ndarray, a ctypes buffer, an mmap, the allocator)"


def describe(address: int) -> str:
    """What the process map says is at ``address`` (the raw pointer's name in messages and the ledger)."""
    if not sys.platform.startswith("linux"):
        return "host memory of this process (a raw pointer)"
    try:
        for m in _linux_maps():
            if m.start <= address < m.end:
                return f"host memory of this process at a raw pointer: {label(m)}"
    except OSError:
        pass
    return "host memory of this process (a raw pointer)"
