"""Every simulated function returns one of the binding's Py_BuildValue shapes, on good and on bad arguments.

Table-driven: for each simulated name the arguments are built from its PyArg_ParseTuple format (and the
parameter names of the simulator's function, to pick a device pointer, a stream, a size …) in an initialised
simulator with device 0, a context and a stream; then the same call with every handle 0 and with every handle
a bogus address. Whatever comes back (bare int / str / None or a tuple of N) must match one of the shapes the
binding's wrapper builds (data/binding/pyacl_binding.json). Exceptions are not returns (the binding raises too:
its CHECK texts for dicts and lists) and are ignored here; tests/test_binding_table.py checks parse failures.
"""
import signal

import numpy as np
import pytest

from acl_teach import sim
from acl_teach.sim.core import args as _args
from acl_teach.sim import inspect as sim_inspect, surface
from acl_teach.spec.binding import TABLE

BOGUS = 0x7777_0000_1230
PROP = {"handleType": 0, "allocationType": 0, "memAttr": 1, "location": {"id": 0, "type": 1}, "reserve": 0}
SKIP = set()  # (module, name) pairs not called here; none today, a name here would need a reason
# Argument sets the format alone does not give (lists, arrays, callables), tried as well.
EXTRA = {
    ("acl", "set_tensor_value_range"): lambda env: [(0, [[0, 1]])],
    ("acl.rt", "set_exception_info_callback"): lambda env: [(), (lambda info: None,)],
    ("acl.mdl", "set_config_opt"): lambda env: [(0, 0, 1), (BOGUS, 0, 1)],
    ("acl.op", "create_handle"): lambda env: [("Add", [], [], 0)],
    ("acl.op", "update_params"): lambda env: [("Add", [], [], 0)],
    ("acl.op", "execute"): lambda env: [("Add", [], [], [], [], 0, env["stream"])],
    ("acl.op", "execute_v2"): lambda env: [("Add", [], [], [], [], 0, env["stream"])],
    ("acl.op", "infer_shape"): lambda env: [("Add", [], [], 0, [], 0)],
    ("acl.util", "numpy_to_ptr"): lambda env: [(np.zeros(4, np.uint8),)],
    ("acl.util", "numpy_contiguous_to_ptr"): lambda env: [(np.zeros((2, 2), np.uint8)[:, :1],)],
    ("acl.util", "bytes_to_ptr"): lambda env: [(b"abcd",)],
    ("acl.util", "ptr_to_numpy"): lambda env: [(env["host"], (4,), 2)],
    ("acl.rt", "mem_uce_repair"): lambda env: [(0, []), (0, [{"addr": 0, "len": 0}])],
    ("acl.rt", "mem_get_allocation_granularity"): lambda env: [(PROP, 0), (PROP, 7)],
    ("acl.rt", "malloc_physical"): lambda env: [(2 << 20, PROP, 0), (1, PROP, 0)],
    ("acl.rt", "mem_set_pid_to_shareable_handle"): lambda env: [(0, [1]), (BOGUS, [])],
    ("acl.rt", "ipc_mem_set_import_pid"): lambda env: [("x", [1])],
    ("acl.rt", "notify_set_import_pid"): lambda env: [(0, [1]), (BOGUS, [1])],
}
# Functions no argument set above makes return (each raises, as the binding does, on these arguments).
NEVER_RETURN = {"acl.mdl.set_input_dynamic_dims", "acl.media.vdec_set_channel_desc_callback",
                "acl.media.vdec_get_channel_desc_callback", "acl.media.vdec_send_frame",
                "acl.media.vdec_send_skipped_frame", "acl.media.venc_send_frame",
                "acl.media.venc_set_channel_desc_callback", "acl.media.venc_get_channel_desc_callback",
                "acl.media.venc_set_channel_desc_param", "acl.util.start_thread"}
_POINTER_WORDS = ("ptr", "dst", "src", "addr", "buf", "data", "dev_ptr", "host")
_SIZE_WORDS = ("size", "count", "max", "len", "pitch", "width", "height", "num", "length", "granularity")


def _names(func):
    inner = getattr(func, "__wrapped__", func)
    code = inner.__code__
    return code.co_varnames[1:code.co_argcount]


def _plausible(letter, name, env):
    """A value a learner would plausibly pass for a parameter called ``name`` parsed as ``letter``."""
    low = name.lower()
    if letter in "kK":
        if "stream" in low:
            return env["stream"]
        if "context" in low or low == "ctx":
            return env["context"]
        if any(w in low for w in _SIZE_WORDS):
            return 64
        if any(w in low for w in _POINTER_WORDS):
            return env["dev"]
        return 0
    if letter in "bhilLBHI":
        return 1 if ("timeout" in low or "num" in low or "size" in low) else 0
    if letter in "fd":
        return 1.0
    if letter == "s":
        return "x"
    if letter == "O":
        if "list" in low or low.endswith("s") or "dims" in low:
            return []
        return {}
    return 0


def _argsets(module, name, func, env):
    fmt = TABLE[module][name][0] or ""
    letters = fmt.replace("|", "")
    names = list(_names(func)) + [f"arg{i}" for i in range(len(letters))]
    good = [_plausible(l, n, env) for l, n in zip(letters, names)]
    zero = [0 if l in "kK" else v for l, v in zip(letters, good)]
    bogus = [BOGUS if l in "kK" else v for l, v in zip(letters, good)]
    return [good, zero, bogus] + [list(a) for a in EXTRA.get((module, name), lambda env: [])(env)]


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _env(acl):
    sim_inspect.reset(explain=False)
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    context, ret = acl.rt.create_context(0)
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    dev, ret = acl.rt.malloc(4096, 0)
    assert ret == 0
    host, ret = acl.rt.malloc_host(4096)
    assert ret == 0
    return {"context": context, "stream": stream, "dev": dev, "host": host}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_every_simulated_function_returns_a_binding_shape():
    acl = sim.acl()
    funcs = [(m, n, getattr(mod, n)) for m, mod in surface.modules().items() for n in TABLE[m]
             if not getattr(getattr(mod, n), "__acl_not_simulated__", False) and (m, n) not in SKIP]
    config = sim.state().config
    wrong, called, timed_out, never = [], 0, [], []
    old = signal.signal(signal.SIGALRM, _alarm)
    _args.check_returns(False)
    try:
        for module, name, func in funcs:
            shapes = TABLE[module][name][3]
            env = _env(acl)
            sim.configure(wait_timeout_s=0.2)
            sets = _argsets(module, name, func, env)
            returned = 0
            for n, args in enumerate(sets + [sets[0]]):
                if n == len(sets):  # the same call in a process without acl.init (the precondition's shape)
                    sim_inspect.reset(explain=False)
                    sim.configure(wait_timeout_s=0.2)
                signal.setitimer(signal.ITIMER_REAL, 2.0)
                try:
                    result = func(*args)
                except _Timeout:
                    timed_out.append(f"{module}.{name}{tuple(args)}")
                    continue
                except Exception:  # noqa: BLE001  (the binding raises too; not a return)
                    continue
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                called += 1
                returned += 1
                if not any(_args.shape_matches(result, s) for s in shapes):
                    wrong.append(f"{module}.{name}{tuple(args)} -> {result!r}; binding builds {list(shapes)}")
            if not returned:
                never.append(f"{module}.{name}")
    finally:
        signal.signal(signal.SIGALRM, old)
        _args.check_returns(True)
        sim_inspect.reset(config)
    print(f"\n{len(funcs)} functions, {called} returning calls checked; never returned: {never}")
    assert not timed_out, timed_out
    assert not wrong, "\n".join(wrong)
    assert set(never) <= NEVER_RETURN, sorted(set(never) - NEVER_RETURN)
    assert called >= 2 * len(funcs)
