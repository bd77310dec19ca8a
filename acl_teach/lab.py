"""Notebook helpers: ``setup()`` for the first cell, and the exercise checkers with specific feedback.

A checker looks at what the learner built, never at numbers the learner typed: it runs the learner's
function with every ``acl`` call recorded (so it sees the real rets), then inspects the result through
documented pyACL calls and ``backend.inspector()`` (the simulator's ledger and memory). A checker never
raises: a wrong answer, ``None`` or a wrong type is a ``Feedback`` in English and Chinese.
"""
from __future__ import annotations

import os
import sys
import threading
import types
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import backend, state
from .spec import dtypes

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep  # calls from here are acl_teach's, not the learner's
MEMCPY_DEVICE_TO_HOST = 2
MEMCPY_HOST_TO_DEVICE = 1


@dataclass
class Feedback:
    """A checker's verdict, in English (``message``) and Chinese (``message_zh``)."""

    ok: bool
    message: str
    message_zh: str = ""

    def __post_init__(self) -> None:
        """Bounded, whatever learner value a verdict quotes (a 50 MB return value is not a 50 MB message)."""
        self.message, self.message_zh = _bounded(self.message), _bounded(self.message_zh)

    def __repr__(self) -> str:
        sign = "✓ " if self.ok else "✗ "
        return sign + self.message + (f"\n  {self.message_zh}" if self.message_zh else "")

    __str__ = __repr__

    def __bool__(self) -> bool:
        return self.ok


MAX_FEEDBACK = 2000  # characters of one feedback message; the middle of a longer one is cut


def _bounded(text: str) -> str:
    """``text``, its middle cut when longer than MAX_FEEDBACK (the advice at its end is kept)."""
    if len(text) <= MAX_FEEDBACK:
        return text
    return text[:MAX_FEEDBACK // 2] + f" … ({len(text):,} characters) … " + text[-MAX_FEEDBACK // 4:]


def checker(fn: Callable[..., Feedback]) -> Callable[..., Feedback]:
    """Make a checker total: whatever the learner passes, an unexpected error becomes feedback, never a traceback."""
    import functools

    @functools.wraps(fn)
    def guarded(*args: Any, **kwargs: Any) -> Feedback:
        before = _live_host_objects()
        try:
            return fn(*args, **kwargs)
        except KeyboardInterrupt:  # the user's Ctrl-C stops a checker (cleanup below still runs)
            raise
        except BaseException as exc:  # noqa: BLE001 - a handle from another process, a freed buffer, a learner
            # value's __eq__ raising anything: still an answer
            return _no(f"the checker could not inspect your answer ({_short(exc)}); check the "
                       "arguments you passed.",
                       f"检查器无法检查你的答案（{_short(exc)}）；请检查你传入的参数。")
        finally:
            _destroy_host_objects(before)
    return guarded


def _uses_process(fn: Callable[..., Feedback]) -> Callable[..., Feedback]:
    """A checker that runs acl calls in the learner's initialised process: say so clearly when it is not."""
    import functools

    @functools.wraps(fn)
    def ready_first(*args: Any, **kwargs: Any) -> Feedback:
        bad = _not_ready()
        return bad if bad is not None else fn(*args, **kwargs)
    return ready_first


_HOST_OBJECTS = {"dataset": ("mdl", "destroy_dataset"), "data buffer": (None, "destroy_data_buffer")}


def _live_host_objects() -> set:
    """Datasets and data buffers alive now: host objects that outlive acl.finalize, as on a board."""
    try:
        return {(e.kind, e.handle) for e in backend.inspector().live(include_init=True) if e.kind in _HOST_OBJECTS}
    except Exception:  # noqa: BLE001 - a backend without a ledger (a board): nothing to tidy
        return set()


def _destroy_host_objects(before: set) -> None:
    """Destroy the datasets/data buffers the judged code left behind, so the next check starts clean."""
    acl = backend.acl()
    for kind, handle in _live_host_objects() - before:
        module, name = _HOST_OBJECTS[kind]
        getattr(getattr(acl, module) if module else acl, name)(handle)


def _ok(en: str, zh: str) -> Feedback:
    """A pass, in both languages."""
    return Feedback(True, en, zh)


def _no(en: str, zh: str) -> Feedback:
    """A fail, in both languages."""
    return Feedback(False, en, zh)


def setup(quiet: Optional[bool] = None) -> ModuleType:
    """Pick the backend (real pyACL if present, else a fresh simulator registered as ``acl``); return it.

    ``quiet=False`` turns the simulator's explanations on: why a call failed, warnings, and the leak
    report of ``acl.finalize()``, all on stderr. The default is quiet unless the environment variable
    ``ACL_TEACH_EXPLAIN=1`` is set (the notebook leak test sets it, so a leak cannot hide).
    Re-running it (Run All again) gives the simulator fresh resources but the same process, as a kernel is
    one process on a board: if acl.init already ran, the next acl.init returns 100002.
    """
    if quiet is None:
        quiet = os.environ.get("ACL_TEACH_EXPLAIN", "") not in ("1", "true", "yes", "on")
    name = backend.use("auto")
    state.reset(simulator=False)
    backend.inspector().reset(explain=not quiet, keep_process=True)
    backend.inspector().install()
    module = backend.acl()
    print(f"backend: {'real pyACL on an Ascend NPU' if name == 'npu' else 'acl-teach simulator'}, "
          f"SoC {module.get_soc_name()}")
    return module


def run_program(source: str, name: str = "program.py", env: Optional[Dict[str, str]] = None) -> int:
    """Run a complete pyACL program in a child process (its own acl.init … acl.finalize) and print its output.

    A kernel is one process: it inits once and finalizes when it exits. A program that must init and finalize
    itself (or show init -> finalize -> init) gets a process of its own: ``python3 program.py`` on a board,
    ``python -m acl_teach.sim program.py`` on the simulator. Returns the exit status.
    """
    import subprocess
    import tempfile
    folder = tempfile.mkdtemp(prefix="acl_teach_program_")
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(source)
    argv = [sys.executable] + (["-m", "acl_teach.sim"] if on_simulator() else []) + [path]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=folder, env=dict(os.environ, **(env or {})),
                          timeout=600)
    print(done.stdout, end="")
    if done.stderr:
        print(done.stderr.replace(folder + os.sep, ""), end="", file=sys.stderr)
    return done.returncode


def on_simulator() -> bool:
    """True on the acl-teach simulator, False on real pyACL: guards the cells that only the simulator can run."""
    return backend.name() == "sim"


def check_ret(api: str, ret: int) -> None:
    """The samples' check_ret habit: raise ``at.AclError`` on a non-zero code (the call, the code, its meaning, the fix).

    It wraps a call and returns nothing, so a cell's last line shows no stray 0:
    ``check_ret("acl.rt.free", acl.rt.free(ptr))``.
    """
    if ret != 0:
        from .spec.errors import AclError
        raise AclError(api, ret)


# -- recording the learner's calls -------------------------------------------------------------------------------
@dataclass
class Call:
    """One acl call the learner's code made: the API, its arguments, what it returned, and in which thread."""

    api: str
    args: tuple
    out: Any
    thread: int
    mine: bool = True  # made by the learner's code, not by acl_teach (the step API) on its behalf

    @property
    def ret(self) -> Any:
        """The return code (the last item of a tuple) or the bare value of a creator/getter."""
        return self.out[-1] if isinstance(self.out, tuple) and self.out else self.out

    @property
    def value(self) -> Any:
        """The first out-value ((value, ret) shapes) or the bare value."""
        return self.out[0] if isinstance(self.out, tuple) and self.out else self.out


@dataclass
class Run:
    """What running the learner's function gave: its result, the acl calls it made, and any exception."""

    result: Any = None
    calls: List[Call] = field(default_factory=list)
    error: Optional[BaseException] = None
    warnings: List[Any] = field(default_factory=list)  # the simulator's warnings during the run (board: none)

    def named_all(self) -> List[Call]:
        """Every call the learner's own code made, in order."""
        return [c for c in self.calls if c.mine]

    def named(self, api: str) -> List[Call]:
        """The learner's own calls of one API, in order (the step API's calls on its behalf do not count)."""
        return [c for c in self.calls if c.api == api and c.mine]


def _patch_points(acl: ModuleType):
    """(namespace, attribute, function, 'acl.x.y') for every public function of acl, acl.rt, acl.mdl, acl.util,
    acl.op, acl.media."""
    for space in ("", "rt", "mdl", "util", "op", "media"):
        mod = getattr(acl, space, None) if space else acl
        if mod is None:
            continue
        for name in dir(mod):
            fn = getattr(mod, name, None)
            if not name.startswith("_") and isinstance(fn, (types.FunctionType, types.BuiltinFunctionType)):
                yield mod, name, fn, "acl." + (space + "." if space else "") + name


@dataclass(frozen=True)
class Summary:
    """What the recorder keeps of an object argument (bytes, an array, a function): a description, never the
    object, so a pointer into a temporary (``bytes_to_ptr(arr.tobytes())``) dangles here as it does on a board."""

    text: str

    def __repr__(self) -> str:
        return f"<{self.text}>"


_SCALARS = (int, float, str, bool, type(None), np.integer, np.floating)


def summary(value: Any) -> Any:
    """Scalars as they are; tuples, lists and dicts of them item by item; any other object by a Summary."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(summary(v) for v in value)
    if isinstance(value, dict):
        return {k: summary(v) for k, v in value.items()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return Summary(f"{type(value).__name__} of {len(value)} bytes")
    if isinstance(value, np.ndarray):
        return Summary(f"ndarray {value.dtype} {list(value.shape)}")
    return Summary(getattr(value, "__name__", type(value).__name__))


def _recording(fn: Callable, api: str, calls: List[Call]) -> Callable:
    """A wrapper that appends a summary of each call of ``fn`` to ``calls`` (arguments are not kept alive)."""
    def wrapper(*args, **kwargs):
        caller = os.path.abspath(sys._getframe(1).f_code.co_filename)
        out = fn(*args, **kwargs)
        calls.append(Call(api, summary(args), summary(out), threading.get_ident(), not caller.startswith(_PACKAGE)))
        return out
    wrapper.__name__ = getattr(fn, "__name__", api)
    return wrapper


class _Sinks:
    """Where the recording wrappers append: every live recorder's list (checkers may run in several threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.lists: List[List[Call]] = []
        self.patched: List[tuple] = []  # (namespace, name, original) while any recorder is live

    def append(self, call: Call) -> None:
        with self.lock:
            targets = list(self.lists)
        for calls in targets:
            calls.append(call)

    def enter(self, calls: List[Call]) -> None:
        """Start recording into ``calls``; the first recorder wraps the acl functions."""
        with self.lock:
            if not self.lists:
                for mod, name, orig, api in list(_patch_points(backend.acl())):
                    setattr(mod, name, _recording(orig, api, self))
                    self.patched.append((mod, name, orig))
            self.lists.append(calls)

    def leave(self, calls: List[Call]) -> None:
        """Stop recording into ``calls``; the last recorder always puts the original functions back."""
        with self.lock:
            self.lists = [c for c in self.lists if c is not calls]
            if not self.lists:
                for mod, name, orig in self.patched:
                    setattr(mod, name, orig)
                self.patched = []


_SINKS = _Sinks()
MAX_MESSAGE = 300  # characters of a learner's exception text quoted in feedback


def _short(exc: BaseException) -> str:
    """'Type: text' of an exception, bounded (a learner's 50 MB message is not copied into the feedback);
    just 'Type' when its ``__str__`` itself raises (the feedback must still be given)."""
    try:
        text = str(exc)
    except KeyboardInterrupt:  # the user's Ctrl-C still stops the checker
        raise
    except BaseException:  # noqa: BLE001 - a learner's __str__ raising anything, even SystemExit
        return type(exc).__name__
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + f" … ({len(text):,} characters)"
    return f"{type(exc).__name__}: {text}"


def run_recorded(fn: Callable, *args: Any) -> Run:
    """Run the learner's ``fn(*args)`` with every acl call recorded; anything it raises is caught, never raised.

    BaseException too: a learner's ``sys.exit()``, ``exit()`` or ``raise KeyboardInterrupt`` is feedback, and the
    checker's cleanup still runs.
    """
    run = Run()
    seen = _sim_warnings()
    _SINKS.enter(run.calls)
    try:
        run.result = fn(*args)
    except BaseException as exc:  # noqa: BLE001 - the learner's bug is feedback, not a crash
        run.error = exc
    finally:
        _SINKS.leave(run.calls)
        run.warnings = _sim_warnings()[len(seen):]
    return run


def _sim_warnings() -> list:
    """The simulator's warnings so far (calls a board accepts although it then misbehaves); [] on a board."""
    found = getattr(backend.inspector(), "warnings", None)
    try:
        return list(found() or []) if found else []
    except Exception:  # noqa: BLE001 - a look never breaks a check
        return []


_DANGLING = ("no longer exists", "freed memory", "dangl")


def _dangling(run: Run) -> Optional[Feedback]:
    """Feedback when the run used a pointer whose object was gone: on a board that reads freed memory."""
    for w in run.warnings:
        text = getattr(w, "message", str(w))
        if any(k in text for k in _DANGLING):
            return _no(f"{getattr(w, 'api', 'a call')} used a pointer whose object no longer exists — on a board it "
                       "reads freed memory. Keep the object in a variable while its pointer is used: "
                       "data = array.tobytes(); ptr = acl.util.bytes_to_ptr(data); then memcpy.",
                       f"{getattr(w, 'api', '某个调用')} 使用了一个其对象已不存在的指针——在开发板上它读的是已释放的内存。"
                       "使用指针期间要用变量保存对象：data = array.tobytes(); ptr = acl.util.bytes_to_ptr(data)；然后再 memcpy。")
    return None


RELEASE_OF = {"acl.rt.malloc": "acl.rt.free", "acl.rt.malloc_host": "acl.rt.free_host",
              "acl.create_data_buffer": "acl.destroy_data_buffer", "acl.mdl.create_dataset": "acl.mdl.destroy_dataset",
              "acl.mdl.create_desc": "acl.mdl.destroy_desc", "acl.mdl.load_from_file": "acl.mdl.unload",
              "acl.mdl.load_from_mem": "acl.mdl.unload", "acl.mdl.load_from_file_with_mem": "acl.mdl.unload",
              "acl.mdl.load_from_mem_with_mem": "acl.mdl.unload", "acl.rt.create_stream": "acl.rt.destroy_stream",
              "acl.rt.create_context": "acl.rt.destroy_context", "acl.create_tensor_desc": "acl.destroy_tensor_desc",
              "acl.op.create_attr": "acl.op.destroy_attr", "acl.rt.create_event": "acl.rt.destroy_event",
              "acl.rt.create_event_with_flag": "acl.rt.destroy_event",
              "acl.rt.create_event_ex_with_flag": "acl.rt.destroy_event"}


def _handle(call: Call) -> Any:
    """The handle a creator call made (0/None when it failed)."""
    if isinstance(call.out, tuple):
        return call.out[0] if call.ret == 0 else None
    return call.out


def _resolve(path: str) -> Callable:
    """The acl function named 'acl.x.y'."""
    obj: Any = backend.acl()
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def cleanup(run: Run, keep: Sequence[Any] = ()) -> int:
    """Release, newest first, what the learner's function created and did not release (except ``keep``)."""
    released = {(c.api, c.args[0]) for c in run.calls if c.args}
    undone = 0
    for call in reversed(run.calls):
        release = RELEASE_OF.get(call.api)
        handle = _handle(call) if release else None
        if handle and handle not in keep and (release, handle) not in released:
            _resolve(release)(handle)
            undone += 1
    return undone


def _not_ready() -> Optional[Feedback]:
    """Feedback when this kernel's process is not initialised: checkers use the learner's process, never init it."""
    initialised = getattr(backend.inspector(), "initialized", None)
    if initialised is None or initialised():
        return None
    return _no("this kernel's process is not initialised: acl.init has not run, or acl.finalize already ran "
               "(on CANN <= 8.0 a finalized process cannot init again). Run the notebook's first cells "
               "(lab.setup() and acl.init()); if acl.finalize ran, restart the kernel and Run All.",
               "本内核的进程没有初始化：acl.init 还没有运行，或 acl.finalize 已经运行过（CANN 8.0 及以前，进程 finalize 后"
               "不能再次初始化）。请运行 notebook 开头的单元格（lab.setup() 和 acl.init()）；如果 finalize 已经运行，"
               "请重启内核后 Run All。")


def copy_kinds(direction: int) -> Tuple[int, ...]:
    """The memcpy kinds a checker accepts for a host<->device copy: the direction itself, and on ACL_DEVICE
    (a board) also DEVICE_TO_DEVICE, which notebook 13's run-mode rule and acllite use there."""
    try:
        run_mode, ret = backend.acl().rt.get_run_mode()
    except Exception:
        return (direction,)
    return (direction, 3) if ret == 0 and run_mode == 0 else (direction,)


def _first(*verdicts: Optional[Feedback]) -> Optional[Feedback]:
    """The first verdict that is not None (a failing Feedback is falsy, so ``or`` cannot chain them)."""
    return next((v for v in verdicts if v is not None), None)


def _wrong_type(what: str, got: Any, zh_what: str) -> Feedback:
    """The feedback for an argument of the wrong type (None included)."""
    return _no(f"expected {what}, got {type(got).__name__} {got!r:.40}.",
               f"这里需要{zh_what}，你给的是 {type(got).__name__} {got!r:.40}。")


def _need_function(got: Any, name: str) -> Optional[Feedback]:
    """None if ``got`` is callable, else feedback asking for the learner's function (numbers prove nothing)."""
    if callable(got):
        return None
    return _no(f"pass your function {name} itself (the checker runs it and watches its acl calls), not "
               f"{type(got).__name__} {got!r:.40}.",
               f"请传入你的函数 {name} 本身（检查器会运行它并观察其中的 acl 调用），而不是 {type(got).__name__} {got!r:.40}。")


def _raised(run: Run, name: str) -> Optional[Feedback]:
    """Feedback when the learner's function raised (NotImplementedError: not written yet)."""
    if run.error is None:
        return None
    if isinstance(run.error, NotImplementedError):
        return _no(f"{name} is not written yet: replace `raise NotImplementedError()` with your code.",
                   f"{name} 还没有写：把 `raise NotImplementedError()` 换成你的代码。")
    err = _short(run.error)
    return _no(f"{name} raised {err}", f"{name} 抛出了异常 {err}")


def _explain(code: Any) -> str:
    """'507011 (ACL_ERROR_…)' for a return code."""
    from .spec.errors import explain
    info = explain(code) if isinstance(code, int) else None
    return f"{code} ({info.name})" if info else str(code)


def _failed_calls(run: Run, allowed: Sequence[str] = ()) -> Optional[Feedback]:
    """Feedback for the first call whose ret was not 0 (pyACL never raises: a learner must look)."""
    for c in run.calls:
        if not c.mine or c.api in allowed or not isinstance(c.out, (int, tuple)) or isinstance(c.ret, bool):
            continue
        returns_ret = isinstance(c.out, tuple) or c.api in _RET_ONLY
        if returns_ret and isinstance(c.ret, int) and c.ret != 0:
            return _no(f"{c.api} returned {_explain(c.ret)}: that call failed.",
                       f"{c.api} 返回 {_explain(c.ret)}：这个调用失败了。")
    return None


_RET_ONLY = {"acl.init", "acl.finalize", "acl.rt.set_device", "acl.rt.reset_device", "acl.rt.free", "acl.rt.free_host",
             "acl.rt.memcpy", "acl.rt.memset", "acl.destroy_data_buffer", "acl.mdl.destroy_dataset",
             "acl.mdl.destroy_desc", "acl.mdl.unload", "acl.rt.destroy_stream", "acl.rt.destroy_context",
             "acl.mdl.execute", "acl.mdl.execute_async", "acl.rt.synchronize_stream", "acl.mdl.get_desc",
             "acl.rt.set_context", "acl.mdl.set_dynamic_batch_size", "acl.rt.launch_callback",
             "acl.rt.subscribe_report", "acl.rt.unsubscribe_report", "acl.util.stop_thread", "acl.rt.record_event",
             "acl.rt.synchronize_event", "acl.rt.destroy_event", "acl.rt.stream_wait_event", "acl.rt.reset_event"}


# -- reading what the learner built -----------------------------------------------------------------------------
def _desc(desc: Any):
    """An ``at.Desc`` for a step-API desc, a record holding one (``.model_desc``) or a raw model desc handle (read
    with documented calls); None if none of these."""
    from .model import Desc, _tensors
    if isinstance(desc, Desc):
        return None if desc.destroyed else desc
    desc = getattr(desc, "model_desc", desc)
    if not isinstance(desc, int) or isinstance(desc, bool) or desc == 0:
        return None
    acl = backend.acl()
    rec = Desc(model_desc=desc)
    try:
        rec.inputs, rec.outputs = _tensors(rec, "inputs"), _tensors(rec, "outputs")
        batch, _ = acl.mdl.get_dynamic_batch(desc)
        rec.dynamic_batch = list(batch.get("batch", []))
    except Exception:
        return None
    return rec if rec.inputs and rec.outputs else None  # a destroyed desc answers 0 inputs: never judge on it


def _dataset_handle(dataset: Any) -> Optional[int]:
    """The raw aclmdlDataset of a step-API Dataset or a handle; None for anything else."""
    handle = getattr(dataset, "dataset", dataset)
    if isinstance(handle, bool) or not isinstance(handle, int) or handle == 0:
        return None
    return handle


def _buffers(handle: int) -> List[tuple]:
    """(device address, size) of each data buffer in a dataset, through documented calls."""
    acl = backend.acl()
    out = []
    for i in range(acl.mdl.get_dataset_num_buffers(handle)):
        buf = acl.mdl.get_dataset_buffer(handle, i)
        out.append((acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)))
    return out


def read_device(ptr: int, size: int) -> Optional[bytes]:
    """The bytes at a device address, read through the inspection API (None if it cannot)."""
    try:
        return backend.inspector().read(ptr, size)
    except Exception:
        return None


# -- 00 ----------------------------------------------------------------------------------------------------------
_WHERE_CALLS = ("acl.rt.set_device", "acl.get_soc_name", "acl.rt.get_run_mode", "acl.rt.reset_device")


def _other_machine(soc: str, mode: int) -> Tuple[str, int]:
    """A second machine to judge on: another SoC and the other run mode (a simulator choice; a board stays put)."""
    return ("Ascend310P3" if soc != "Ascend310P3" else "Ascend310"), (1 - mode if mode in (0, 1) else 0)


@checker
@_uses_process
def check_where_am_i(where_fn: Any) -> Feedback:
    """Notebook 00: where_fn() sets Device 0, asks the SoC name and run mode, resets the Device and returns
    (soc_name, run_mode); judged on this machine and, on the simulator, on a second one, so typed-in answers fail."""
    bad = _need_function(where_fn, "where_am_i")
    if bad is not None:
        return bad
    ins = backend.inspector()
    here = ins.machine_now()
    seen = []
    for soc, mode in (here, _other_machine(*here)):
        with ins.machine(soc, mode) as truth:
            run = run_recorded(where_fn)
        bad = _where_verdict(run, truth)
        if bad is not None:
            return bad
        seen.append(truth)
    names = {0: "ACL_DEVICE", 1: "ACL_HOST"}
    return _ok(f"this machine is {here[0]}, run mode {here[1]} ({names.get(here[1], '?')}) — your function asked "
               f"it (and answered {seen[-1]} when the checker made it another machine).",
               f"本机是 {here[0]}，运行模式 {here[1]}（{names.get(here[1], '?')}）——这是你的函数问出来的"
               f"（检查器把它换成另一台机器时，它答出了 {seen[-1]}）。")


def _where_verdict(run: Run, truth: Tuple[str, int]) -> Optional[Feedback]:
    """Feedback when the run did not really ask the machine, left Device 0 set, or returned something else."""
    bad = _first(_raised(run, "where_am_i"), _failed_calls(run))
    if bad is not None:
        return bad
    missing = [api for api in _WHERE_CALLS if not run.named(api)]
    if missing:
        return _no(f"call {', '.join(missing)} in where_am_i: the answer must come from the machine, not be typed in.",
                   f"请在 where_am_i 中调用 {'、'.join(missing)}：答案要从机器上问出来，而不是直接写出来。")
    if len(run.named("acl.rt.set_device")) != len(run.named("acl.rt.reset_device")):
        return _no("reset the Device you set: one acl.rt.reset_device(0) for each acl.rt.set_device(0).",
                   "设置了 Device 就要复位：每个 acl.rt.set_device(0) 对应一个 acl.rt.reset_device(0)。")
    got = run.result
    if isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], tuple):
        return _no("acl.rt.get_run_mode() returns (run_mode, ret): return its first item, not the pair.",
                   "acl.rt.get_run_mode() 返回 (run_mode, ret)：请返回它的第一项，而不是整个二元组。")
    if not isinstance(got, tuple) or len(got) != 2:
        return _wrong_type("a pair (soc_name, run_mode)", got, "二元组 (soc_name, run_mode)")
    if tuple(got) != tuple(truth):
        return _no(f"you returned {got!r}; the machine answered {truth!r} to acl.get_soc_name() and "
                   "acl.rt.get_run_mode() — return what the calls give you.",
                   f"你返回了 {got!r}；机器对 acl.get_soc_name() 和 acl.rt.get_run_mode() 的回答是 {truth!r}——"
                   "请返回调用给出的值。")
    return None


# -- 01 ----------------------------------------------------------------------------------------------------------
@checker
@_uses_process
def check_open_close(open_fn: Any, close_fn: Any) -> Feedback:
    """Exercise 01: open_device(0) -> (context, stream) explicitly; close_device(0, context, stream) in reverse order."""
    bad = _first(_need_function(open_fn, "open_device"), _need_function(close_fn, "close_device"))
    if bad is not None:
        return bad
    opened = run_recorded(open_fn, 0)
    bad = _first(_raised(opened, "open_device"), _process_calls(opened, "open_device"), _failed_calls(opened))
    if bad is not None:
        cleanup(opened)
        return bad
    made = {api: [_handle(c) for c in opened.named(api)] for api in ("acl.rt.create_context", "acl.rt.create_stream")}
    verdict = _opened_verdict(opened, made)
    if not verdict:
        cleanup(opened)
        return verdict
    context, stream = opened.result
    closed = run_recorded(close_fn, 0, context, stream)
    bad = _first(_raised(closed, "close_device"), _process_calls(closed, "close_device"))
    if bad is not None:
        cleanup(opened)
        return bad
    return _closed_verdict(opened, closed, context, stream)


def _opened_verdict(run: Run, made: Dict[str, list]) -> Feedback:
    """set_device, then an explicit context and stream, returned as (context, stream)."""
    if not run.named("acl.rt.set_device"):
        return _no("open the device first: acl.rt.set_device(device_id).", "先打开 Device：acl.rt.set_device(device_id)。")
    if not made["acl.rt.create_context"] or not made["acl.rt.create_stream"]:
        return _no("create the Context and the Stream explicitly: acl.rt.create_context(device_id), then "
                   "acl.rt.create_stream().",
                   "请显式创建 Context 和 Stream：acl.rt.create_context(device_id)，然后 acl.rt.create_stream()。")
    got = run.result
    want = (made["acl.rt.create_context"][-1], made["acl.rt.create_stream"][-1])
    if not isinstance(got, (tuple, list)) or tuple(got) != want:
        return _no(f"return (context, stream), the two handles your calls made, not {got!r:.40}.",
                   f"请返回 (context, stream)，也就是你的调用创建的两个句柄，而不是 {got!r:.40}。")
    return _ok("", "")


def _closed_verdict(opened: Run, closed: Run, context: int, stream: int) -> Feedback:
    """Stream, then Context, then Device released by their own calls; nothing of open_device left alive."""
    order = [c.api for c in closed.named_all() if c.api in ("acl.rt.destroy_stream", "acl.rt.destroy_context",
                                                            "acl.rt.reset_device")]
    if order != ["acl.rt.destroy_stream", "acl.rt.destroy_context", "acl.rt.reset_device"]:
        cleanup(opened)
        return _no(f"close_device released {order or 'nothing'}; release in the reverse order of creation: "
                   "destroy_stream, destroy_context, reset_device.",
                   f"close_device 释放的顺序是 {order or '无'}；请按创建的相反顺序释放：destroy_stream、destroy_context、"
                   "reset_device。")
    bad = _failed_calls(closed)
    if bad is not None:
        cleanup(opened)
        return bad
    if [c.args[:1] for c in closed.named_all() if c.api == "acl.rt.destroy_stream"] != [(stream,)] or \
            [c.args[:1] for c in closed.named_all() if c.api == "acl.rt.destroy_context"] != [(context,)]:
        cleanup(opened)
        return _no("destroy the stream and the context that open_device returned.",
                   "请销毁 open_device 返回的 Stream 和 Context。")
    live = backend.inspector().live()
    if live:
        return _no(f"still alive after close_device: {', '.join(e.kind for e in live)}.",
                   f"close_device 之后仍然存活：{', '.join(e.kind for e in live)}。")
    return _ok("Device -> Context -> Stream opened explicitly and released Stream -> Context -> Device; the process "
               "stays initialised for the rest of the notebook.",
               "按 Device -> Context -> Stream 显式打开，按 Stream -> Context -> Device 释放；进程在本 notebook 余下部分"
               "保持初始化状态。")


# -- 02 ----------------------------------------------------------------------------------------------------------
def _allocated(run: Run) -> Dict[int, int]:
    """Device address -> size of every successful acl.rt.malloc in the run."""
    return {c.value: c.args[0] for c in run.named("acl.rt.malloc") if c.ret == 0 and c.args}


@checker
@_uses_process
def check_model_memory(load_fn: Any, path: Any) -> Feedback:
    """Exercise 02: the learner queries the sizes, allocates work and weight memory, loads with it."""
    bad = _need_function(load_fn, "load_with_my_memory")
    if bad is not None:
        return bad
    if not isinstance(path, str):
        return _wrong_type("the model's path (a str)", path, "模型路径（str）")
    run = run_recorded(load_fn, path)
    try:
        return _model_memory_verdict(run)
    finally:
        cleanup(run)


def _model_memory_verdict(run: Run) -> Feedback:
    """The verdict on a recorded load_with_my_memory run."""
    bad = _first(_raised(run, "load_with_my_memory"), _failed_calls(run))
    if bad is not None:
        return bad
    queries, loads = run.named("acl.mdl.query_size"), run.named("acl.mdl.load_from_file_with_mem")
    if not queries:
        return _no("call acl.mdl.query_size(path) first: it says how much work and weight memory the model needs.",
                   "先调用 acl.mdl.query_size(path)：它告诉你模型需要多少工作内存和权值内存。")
    if not loads:
        return _no("load with acl.mdl.load_from_file_with_mem(path, work_ptr, work_size, weight_ptr, weight_size).",
                   "请用 acl.mdl.load_from_file_with_mem(path, work_ptr, work_size, weight_ptr, weight_size) 加载。")
    work, weight = queries[0].out[0], queries[0].out[1]
    _, work_ptr, work_size, weight_ptr, weight_size = loads[0].args[:5]
    mine = _allocated(run)
    for label, zh, ptr, size, need in (("work", "工作", work_ptr, work_size, work),
                                       ("weight", "权值", weight_ptr, weight_size, weight)):
        if ptr not in mine:
            return _no(f"the {label} pointer you passed was not allocated by your acl.rt.malloc calls.",
                       f"你传入的{zh}内存指针不是你用 acl.rt.malloc 申请的。")
        if mine[ptr] < need or size < need:
            return _no(f"your {label} memory is {mine[ptr]} bytes (you said {size}); query_size says the {label} "
                       f"needs {need}. Did you swap work and weights?",
                       f"你的{zh}内存是 {mine[ptr]} 字节（你传的大小是 {size}）；query_size 说需要 {need} 字节。"
                       "是不是把工作内存和权值内存弄反了？")
    model_id = loads[0].value
    if run.result != model_id:
        return _no(f"return the model_id acl.mdl.load_from_file_with_mem gave you ({model_id}), "
                   f"not {run.result!r:.30}.",
                   f"请返回 acl.mdl.load_from_file_with_mem 给出的 model_id（{model_id}），而不是 {run.result!r:.30}。")
    acl = backend.acl()
    desc = acl.mdl.create_desc()
    loaded = acl.mdl.get_desc(desc, model_id)
    acl.mdl.destroy_desc(desc)
    if loaded != 0:
        return _no(f"model {model_id} is not loaded any more (get_desc returned {_explain(loaded)}).",
                   f"模型 {model_id} 已不在加载状态（get_desc 返回 {_explain(loaded)}）。")
    return _ok(f"loaded with your memory: work {work} + weights {weight} = {work + weight} bytes of device memory.",
               f"用你自己的内存加载成功：工作内存 {work} + 权值内存 {weight} = {work + weight} 字节 Device 内存。")


# -- 03 ----------------------------------------------------------------------------------------------------------
def _size_hint(size: int, t: Any, kind: str) -> Feedback:
    """A wrong byte size explained with the arithmetic (fp16/fp32 swapped, element count only)."""
    elements = int(np.prod([d for d in t.dims if d > 0]))
    item = dtypes.itemsize(t.data_type)
    hint, hint_zh = "", ""
    if elements and size == elements * 4 and item == 2:
        hint = " You counted 4 bytes per element, but this tensor is fp16 (2 bytes)."
        hint_zh = "你按每元素 4 字节算了，但它是 fp16（2 字节）。"
    elif elements and size == elements * 2 and item == 4:
        hint = " You counted 2 bytes per element, but this tensor is fp32 (4 bytes)."
        hint_zh = "你按每元素 2 字节算了，但它是 fp32（4 字节）。"
    elif size == elements:
        hint = " That is the element count; multiply by the bytes per element."
        hint_zh = "这是元素个数；还要乘以每个元素的字节数。"
    return _no(f"your {kind} buffer is {size} bytes; the model's {kind} #{t.index} ({t.name}) needs "
               f"{t.size} = {elements} x {item}-byte {t.type_name}.{hint}",
               f"你的{'输入' if kind == 'input' else '输出'}缓冲是 {size} 字节；模型的 #{t.index}（{t.name}）需要 "
               f"{t.size} = {elements} x {item} 字节 {t.type_name}。{hint_zh}")


def _desc_tensors(desc: Any, kind: str) -> Tuple[Any, list]:
    """(the desc, its input or output tensors), or (None, []) when either argument is not usable."""
    d = _desc(desc)
    if d is None or kind not in ("input", "output"):
        return None, []
    return d, d.inputs if kind == "input" else d.outputs


def _wrong_kind(desc: Any) -> Feedback:
    """The feedback for a checker given something other than a live desc and 'input'/'output'."""
    if isinstance(getattr(desc, "model_desc", desc), int) and not isinstance(desc, bool):
        return _no(f"{getattr(desc, 'model_desc', desc)!r:.24} is not a live model desc: a model always has inputs "
                   "and outputs, this one answers none. It was destroyed — after Run All the notebook's release "
                   "cell destroys it. Re-run the cells that load the model and create the desc, then this check.",
                   f"{getattr(desc, 'model_desc', desc)!r:.24} 不是有效的模型描述：模型总有输入和输出，它却一个也没有。"
                   "它已被销毁——Run All 之后 notebook 的释放单元格会销毁它。请重新运行加载模型、创建 desc 的单元格，再运行本检查。")
    return _wrong_type("a model desc and kind 'input' or 'output'", desc, "模型描述和 kind（'input' 或 'output'）")


@checker
@_uses_process
def check_buffer_size(size_fn: Any, desc: Any, kind: str = "output") -> Feedback:
    """Exercise 03: the learner's size_fn(model_desc, index) computes bytes from dims and data type, on the given
    desc and on a second model of other sizes and types (so numbers typed in from the first one fail)."""
    bad = _need_function(size_fn, "tensor_bytes")
    if bad is not None:
        return bad
    d, tensors = _desc_tensors(desc, kind)
    if d is None:
        return _wrong_kind(desc)
    bad = _sizes_verdict(size_fn, d, kind)
    if bad is not None:
        return bad
    bad, probe = _on_probe(size_fn, kind)
    if bad is not None:
        return bad
    return _ok(f"every {kind} size matches the desc: " + "; ".join(t.size_arithmetic for t in tensors)
               + " — and on a second model: " + "; ".join(probe),
               "每个大小都与 desc 一致：" + "；".join(t.size_arithmetic for t in tensors) + "——在第二个模型上也是："
               + "；".join(probe))


def _sizes_verdict(size_fn: Callable, d: Any, kind: str) -> Optional[Feedback]:
    """Feedback on the first tensor of ``d`` whose size size_fn gets wrong, or not from dims and data type."""
    _, tensors = _desc_tensors(d, kind)
    for t in tensors:
        run = run_recorded(size_fn, d.model_desc, t.index)
        bad = _raised(run, "tensor_bytes")
        if bad is not None:
            return bad
        if run.named(f"acl.mdl.get_{kind}_size_by_index") or not run.named(f"acl.mdl.get_{kind}_data_type") \
                or not run.named(f"acl.mdl.get_{kind}_dims"):
            return _no(f"compute the size from acl.mdl.get_{kind}_dims and acl.mdl.get_{kind}_data_type of the desc "
                       "you are given: a number typed in, or get_*_size_by_index, is not the exercise.",
                       f"请用所给 desc 的 acl.mdl.get_{kind}_dims 和 acl.mdl.get_{kind}_data_type 计算大小："
                       "直接写数字或调用 get_*_size_by_index 不算完成练习。")
        if not isinstance(run.result, (int, np.integer)) or isinstance(run.result, bool):
            return _wrong_type("a byte count (int)", run.result, "字节数（int）")
        if int(run.result) != t.size:
            return _size_hint(int(run.result), t, kind)
    return None


def _on_probe(size_fn: Callable, kind: str) -> Tuple[Optional[Feedback], List[str]]:
    """(feedback if size_fn fails on the probe model, its size arithmetic): the checker loads and releases it."""
    from . import models
    acl = backend.acl()
    model_id, ret = acl.mdl.load_from_file(models.probe_om())
    if ret != 0:
        return _no(f"the checker could not load its second model (load_from_file returned {_explain(ret)}): is a "
                   "Device set and a Context current? Re-run the notebook's first cells, then this check.",
                   f"检查器无法加载它的第二个模型（load_from_file 返回 {_explain(ret)}）：Device 是否已设置、Context 是否为当前？"
                   "请重新运行 notebook 开头的单元格，再运行本检查。"), []
    handle = acl.mdl.create_desc()
    try:
        d = _desc(handle) if acl.mdl.get_desc(handle, model_id) == 0 else None
        if d is None:
            return _no("the checker could not describe its second model; re-run this check.",
                       "检查器无法读取它的第二个模型的描述；请重新运行本检查。"), []
        bad = _sizes_verdict(size_fn, d, kind)
        if bad is not None:
            return _no("on a second model (the checker's, with other sizes and data types): " + bad.message,
                       "在第二个模型上（检查器自己的，大小和数据类型都不同）：" + bad.message_zh), []
        return None, [t.size_arithmetic for t in (d.inputs if kind == "input" else d.outputs)]
    finally:
        acl.mdl.destroy_desc(handle)
        acl.mdl.unload(model_id)


# -- 04 ----------------------------------------------------------------------------------------------------------
@checker
@_uses_process
def check_dataset(build_fn: Any, desc: Any, kind: str = "output") -> Feedback:
    """Exercise 04: the learner's build_fn(model_desc) returns a dataset of right-sized device buffers."""
    bad = _need_function(build_fn, "build_dataset")
    if bad is not None:
        return bad
    d, _ = _desc_tensors(desc, kind)
    if d is None:
        return _wrong_kind(desc)
    run = run_recorded(build_fn, d.model_desc)
    try:
        bad = _bad_dataset(run, d, kind)
        return bad if bad is not None else _dataset_verdict(run, d, kind)
    finally:
        cleanup(run)


def _bad_dataset(run: Run, d: Any, kind: str) -> Optional[Feedback]:
    """Feedback when the run did not build a dataset of its own."""
    bad = _first(_raised(run, "build_dataset"), _failed_calls(run))
    if bad is not None:
        return bad
    made = [c.out for c in run.named("acl.mdl.create_dataset")]
    if _dataset_handle(run.result) not in made or not made:
        return _no("return the dataset your function made with acl.mdl.create_dataset().",
                   "请返回你的函数用 acl.mdl.create_dataset() 创建的数据集。")
    return None


def _dataset_verdict(run: Run, d: Any, kind: str) -> Feedback:
    """Count, size and placement of each buffer of the learner's dataset."""
    _, tensors = _desc_tensors(d, kind)
    bufs = _buffers(run.result)
    if len(bufs) != len(tensors):
        return _no(f"your {kind} dataset holds {len(bufs)} data buffer(s); the model has {len(tensors)} {kind}(s) — "
                   f"add one aclDataBuffer per {kind}, in index order.",
                   f"你的数据集有 {len(bufs)} 个数据缓冲；模型有 {len(tensors)} 个{'输入' if kind == 'input' else '输出'}——"
                   "每个一个 aclDataBuffer，按索引顺序添加。")
    mine = _allocated(run)
    for t, (ptr, size) in zip(tensors, bufs):
        if size != t.size:
            return _size_hint(size, t, kind)
        if ptr not in mine:
            return _no(f"buffer #{t.index} does not point at device memory from your acl.rt.malloc (the model "
                       "reads and writes device memory).",
                       f"缓冲 #{t.index} 指向的不是你用 acl.rt.malloc 申请的 Device 内存（模型只读写 Device 内存）。")
    return _ok(f"{len(bufs)} buffer(s) in device memory, each the size the desc asks for.",
               f"{len(bufs)} 个缓冲，都在 Device 内存中，大小都与 desc 要求一致。")


# -- 05 ----------------------------------------------------------------------------------------------------------
def _reference(image: str, t: Any, recipe: Optional[dict]) -> np.ndarray:
    """The reference recipe's preprocess of the same image, as float32."""
    from . import preprocess
    return preprocess(image, recipe, dims=t.dims, dtype=t.numpy_dtype).astype(np.float32)


@checker
@_uses_process
def check_input_array(array: Any, desc: Any, image: Any, recipe: Optional[dict] = None, index: int = 0) -> Feedback:
    """Exercise 05: the learner's array (or preprocess function) matches the reference recipe on ``image``."""
    d = _desc(desc)
    if d is None or not 0 <= index < len(d.inputs):
        return _wrong_type("the model's desc", desc, "模型描述")
    if not isinstance(image, str) or not os.path.isfile(image):
        return _wrong_type("the path of the image you preprocessed", image, "你预处理的图片的路径")
    if callable(array):
        run, used_reference = _without_reference(array, image)
        bad = _raised(run, "preprocess")
        if bad is not None:
            return bad
        if used_reference:
            return _no("write the recipe yourself: at.preprocess is the reference the checker compares with.",
                       "请自己实现预处理配方：at.preprocess 正是检查器用来比较的参考实现。")
        array = run.result
    if not isinstance(array, np.ndarray):
        return _wrong_type("a numpy array", array, "numpy 数组")
    t = d.inputs[index]
    bad = _array_layout(array, t)
    return bad if bad is not None else _array_values(array, t, _reference(image, t, recipe))


def _without_reference(fn: Callable, image: str) -> tuple:
    """Run the learner's preprocess watching for the reference: (run, whether it called it).

    The profiler sees every Python call in this thread, so the reference is caught under any name it was
    imported as (``from acl_teach import preprocess as pp``) and through any path into its module.
    """
    from . import preprocess as public_preprocess  # the step API's name for the reference (not toolchain internals)
    reference = os.path.abspath(public_preprocess.__code__.co_filename)
    used: List[bool] = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and not used and os.path.abspath(frame.f_code.co_filename) == reference \
                and frame.f_code.co_name in ("preprocess", "_resize_crop", "_resized_size"):
            used.append(True)
    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        return run_recorded(fn, image), bool(used)
    finally:
        sys.setprofile(previous)


def _array_layout(arr: np.ndarray, t: Any) -> Optional[Feedback]:
    """Feedback on dtype, shape and memory order; None when they fit the input."""
    dims = list(t.dims)
    if arr.dtype != t.numpy_dtype:
        return _no(f"your array is {arr.dtype} ({arr.nbytes} bytes); input {t.name} is {t.type_name}: "
                   f"use .astype(np.{t.numpy_dtype}) so it is {t.size} bytes.",
                   f"你的数组是 {arr.dtype}（{arr.nbytes} 字节）；输入 {t.name} 是 {t.type_name}："
                   f"用 .astype(np.{t.numpy_dtype}) 使它成为 {t.size} 字节。")
    if list(arr.shape) != dims:
        return _no(f"your array has shape {list(arr.shape)}; input {t.name} is {dims} (NCHW: move the channel axis "
                   "with .transpose(2, 0, 1) and add the batch axis).",
                   f"你的数组形状是 {list(arr.shape)}；输入 {t.name} 是 {dims}（NCHW：用 .transpose(2, 0, 1) "
                   "把通道轴移到前面，再加上 batch 维）。")
    if not arr.flags.c_contiguous:
        return _no("the array is not C-contiguous: its bytes are not in NCHW order; use np.ascontiguousarray "
                   "before tobytes()/bytes_to_ptr.",
                   "数组不是 C 连续的：字节不是按 NCHW 排列；在 tobytes()/bytes_to_ptr 之前用 np.ascontiguousarray。")
    return None


TOLERANCE = 0.02  # mean absolute difference from the reference preprocess (fp16 rounding, resampling details)


def _array_values(arr: np.ndarray, t: Any, ref: np.ndarray) -> Feedback:
    """Compare the values with the reference recipe's; name the typical mistake."""
    x = arr.astype(np.float32)
    if not np.isfinite(x).all():
        return _no("your array holds NaN or inf.", "你的数组里有 NaN 或 inf。")
    if not x.any():
        return _no("your array is all zeros: it has the right shape but no image in it.",
                   "你的数组全是 0：形状对了，但里面没有图像。")
    if x.max() > 3 * max(1.0, float(np.abs(ref).max())):
        return _no(f"values run from {x.min():.0f} to {x.max():.0f}: these are raw 0–255 pixels or another model's "
                   "recipe; this model's recipe scales each value as (x − 127) / 128.",
                   f"取值范围是 {x.min():.0f} 到 {x.max():.0f}：这是未归一化的 0–255 像素或其他模型的预处理；"
                   "这个模型的预处理是 (x − 127) / 128。")
    err = float(np.abs(x - ref).mean())
    if err <= TOLERANCE:
        return _ok(f"matches the model's recipe (mean difference {err:.4f}); {t.size} bytes ready for memcpy.",
                   f"与模型的预处理一致（平均差 {err:.4f}）；{t.size} 字节，可以 memcpy 了。")
    if float(np.abs(x[:, ::-1] - ref).mean()) <= TOLERANCE:
        return _no("the channels are in BGR order; this model takes RGB.", "通道顺序是 BGR；这个模型要 RGB。")
    return _no(f"the values differ from the recipe's (mean difference {err:.3f}, tolerance {TOLERANCE}): resize the "
               "short side to 256 (bicubic), centre-crop 224, (x − 127) / 128, RGB, NCHW.",
               f"数值与预处理配方不符（平均差 {err:.3f}，容差 {TOLERANCE}）：短边缩放到 256（双三次），居中裁剪 224，"
               "(x − 127) / 128，RGB，NCHW。")


@checker
@_uses_process
def check_device_input(copy_fn: Any, dataset: Any, desc: Any, image: Any, recipe: Optional[dict] = None,
                       index: int = 0) -> Feedback:
    """Exercise 05: the learner's copy_fn(array, dataset) puts the array into the input's device memory."""
    bad = _need_function(copy_fn, "copy_in")
    if bad is not None:
        return bad
    handle, d = _dataset_handle(dataset), _desc(desc)
    if handle is None or d is None or not isinstance(image, str):
        return _wrong_type("the input dataset, the model's desc and the image path", dataset,
                           "输入数据集、模型描述和图片路径")
    bufs = _buffers(handle)
    if index >= len(bufs):
        return _no(f"the dataset has no buffer #{index}.", f"数据集没有缓冲 #{index}。")
    t = d.inputs[index]
    ptr, size = bufs[index]
    backend.acl().rt.memset(ptr, size, 0xA5, size)  # a sentinel: bytes left from an earlier run cannot pass
    run = run_recorded(copy_fn, _reference(image, t, recipe).astype(t.numpy_dtype), dataset)
    bad = _first(_raised(run, "copy_in"), _failed_calls(run), _dangling(run))
    if bad is not None:
        return bad
    if not any(c.args[:1] == (ptr,) and c.args[4:5] in [(k,) for k in copy_kinds(MEMCPY_HOST_TO_DEVICE)]
               for c in run.named("acl.rt.memcpy")):
        return _no("copy_in must copy into the input buffer's device address with acl.rt.memcpy(dev_ptr, size, "
                   "host_ptr, size, 1) (ACL_MEMCPY_HOST_TO_DEVICE).",
                   "copy_in 必须用 acl.rt.memcpy(dev_ptr, size, host_ptr, size, 1)（ACL_MEMCPY_HOST_TO_DEVICE）"
                   "复制到输入缓冲的 Device 地址。")
    return device_input_feedback(bufs[index], t, image, recipe, d, index)


def device_input_feedback(buf: tuple, t: Any, image: str, recipe: Optional[dict], d: Any, index: int) -> Feedback:
    """The bytes in an input buffer on the device against the recipe's preprocess of ``image``."""
    raw = read_device(*buf)
    if raw is None or len(raw) != t.size:
        return _no("the input buffer cannot be read back; is it device memory of the input's size?",
                   "读不回输入缓冲；它是输入大小的 Device 内存吗？")
    if len(set(raw)) == 1:
        return _no(f"the input buffer on the device holds one repeated byte ({raw[0]:#04x}): nothing was copied in; "
                   "copy your array with acl.rt.memcpy(..., 1) (ACL_MEMCPY_HOST_TO_DEVICE).",
                   f"Device 上的输入缓冲只有一个重复的字节（{raw[0]:#04x}）：什么都没复制进去；"
                   "用 acl.rt.memcpy(..., 1)（ACL_MEMCPY_HOST_TO_DEVICE）把数组复制进去。")
    return check_input_array(np.frombuffer(raw, t.numpy_dtype).reshape(t.dims), d, image, recipe, index)


# -- 06 ----------------------------------------------------------------------------------------------------------
@checker
@_uses_process
def check_execute(run_fn: Any, model_id: Any, inputs: Any, outputs: Any) -> Feedback:
    """Exercise 06: the learner's run_fn(model_id, inputs, outputs) executes, returns the ret, and fills the outputs."""
    bad = _need_function(run_fn, "run_model")
    if bad is not None:
        return bad
    ins, outs = _dataset_handle(inputs), _dataset_handle(outputs)
    if ins is None or outs is None or not isinstance(model_id, int):
        return _wrong_type("model_id, the input dataset and the output dataset", model_id, "model_id、输入数据集和输出数据集")
    acl = backend.acl()
    bufs = _buffers(outs)
    for ptr, size in bufs:
        acl.rt.memset(ptr, size, 0xFF, size)  # a sentinel: an execute overwrites it
    run = run_recorded(run_fn, model_id, inputs, outputs)
    bad = _raised(run, "run_model")
    if bad is not None:
        return bad
    execs = run.named("acl.mdl.execute") + run.named("acl.mdl.execute_async")
    if not execs:
        return _no("run_model must call acl.mdl.execute(model_id, input_dataset, output_dataset).",
                   "run_model 必须调用 acl.mdl.execute(model_id, input_dataset, output_dataset)。")
    if run.result != execs[-1].ret:
        return _no(f"return the ret of acl.mdl.execute ({execs[-1].ret}), not {run.result!r:.30}.",
                   f"请返回 acl.mdl.execute 的返回值（{execs[-1].ret}），而不是 {run.result!r:.30}。")
    if execs[-1].ret != 0:
        return _explain_execute(execs[-1].ret)
    if any(read_device(p, s) == b"\xff" * s for p, s in bufs):
        return _no("the outputs are untouched: execute wrote nothing (an execute_async needs synchronize_stream).",
                   "输出没有被写入：execute 什么也没写（execute_async 之后需要 synchronize_stream）。")
    return _ok("execute returned 0 and the outputs are in their device buffers.",
               "execute 返回 0，输出已经在它们的 Device 缓冲里了。")


def _explain_execute(ret: int) -> Feedback:
    """An execute's non-zero code, its cause and fix."""
    from .spec.errors import explain
    info = explain(ret)
    name = info.name if info else "unknown"
    return _no(f"execute returned {ret} ({name}): {info.cause if info else ''} Fix: {info.fix if info else ''}",
               f"execute 返回 {ret}（{name}）：{info.cause_zh if info else ''} 修改：{info.fix_zh if info else ''}")


def _made_here(run: Run, api: str) -> Dict[Any, Call]:
    """The handles the learner's run made with ``api`` (creator calls that succeeded), by handle."""
    return {_handle(c): c for c in run.named(api) if _handle(c)}


def _reference_outputs(model_id: int, inputs: int, d: Any) -> Optional[List[bytes]]:
    """Each output's bytes from the checker's own execute on the same inputs (its buffers released after)."""
    acl = backend.acl()
    ds, held = acl.mdl.create_dataset(), []
    try:
        for t in d.outputs:
            ptr, ret = acl.rt.malloc(t.size, 0)
            if ret:
                return None
            held.append((ptr, acl.create_data_buffer(ptr, t.size), t.size))
            acl.mdl.add_dataset_buffer(ds, held[-1][1])
        if acl.mdl.execute(model_id, inputs, ds) != 0:
            return None
        return [read_device(ptr, size) for ptr, _, size in held]
    finally:
        for ptr, buf, _ in held:
            acl.destroy_data_buffer(buf)
            acl.rt.free(ptr)
        acl.mdl.destroy_dataset(ds)


@checker
@_uses_process
def check_run_model(run_fn: Any, model_id: Any, desc: Any, inputs: Any) -> Feedback:
    """Exercise 06: run_fn(model_id, model_desc, input_dataset) builds its own output dataset from the desc,
    executes into it and returns it; the checker compares every output with its own execute."""
    bad = _need_function(run_fn, "run_model")
    if bad is not None:
        return bad
    d, ins = _desc(desc), _dataset_handle(inputs)
    if d is None or ins is None or not isinstance(model_id, int) or isinstance(model_id, bool):
        return _wrong_type("model_id, the model desc and the input dataset", desc, "model_id、模型描述和输入数据集")
    want = _reference_outputs(model_id, ins, d)
    if want is None or None in want:
        return _no("the checker's own execute on these inputs failed: load the model and fill the input dataset "
                   "first (the cells above).", "检查器用这些输入执行推理失败：请先加载模型并填好输入数据集（上面的单元格）。")
    run = run_recorded(run_fn, model_id, d.model_desc, ins)
    try:
        bad = _first(_raised(run, "run_model"), _process_calls(run, "run_model"), _failed_calls(run))
        return bad if bad is not None else _run_model_verdict(run, model_id, ins, d, want)
    finally:
        cleanup(run)  # the dataset the learner returned, its buffers and memory: released here


def _run_model_verdict(run: Run, model_id: int, ins: int, d: Any, want: List[bytes]) -> Feedback:
    """Did run_model build an output dataset of its own, sized by the desc, execute into it and return it?"""
    made = _made_here(run, "acl.mdl.create_dataset")
    out = run.result if isinstance(run.result, int) and not isinstance(run.result, bool) else None
    if out not in made:
        return _no("return the output dataset your function created with acl.mdl.create_dataset (not the notebook's "
                   f"`outputs`, not a ret); got {type(run.result).__name__} {run.result!r:.30}.",
                   "请返回你的函数用 acl.mdl.create_dataset 新建的输出数据集（不是 notebook 里的 `outputs`，也不是 ret）；"
                   f"你返回的是 {type(run.result).__name__} {run.result!r:.30}。")
    execs = [c for c in run.named("acl.mdl.execute") + run.named("acl.mdl.execute_async") if c.args[:3] == (model_id, ins, out)]
    if not execs:
        return _no("call acl.mdl.execute(model_id, input_dataset, output_dataset) with the dataset you return.",
                   "请用你返回的数据集调用 acl.mdl.execute(model_id, input_dataset, output_dataset)。")
    bufs = _buffers(out)
    mine = _made_here(run, "acl.rt.malloc")
    if len(bufs) != len(d.outputs):
        return _no(f"the model has {len(d.outputs)} output(s) (acl.mdl.get_num_outputs); your dataset holds "
                   f"{len(bufs)} buffer(s).",
                   f"模型有 {len(d.outputs)} 个输出（acl.mdl.get_num_outputs）；你的数据集里有 {len(bufs)} 个缓冲。")
    for i, ((ptr, size), t) in enumerate(zip(bufs, d.outputs)):
        if size != t.size:
            return _size_hint(size, t, "output")
        if ptr not in mine:
            return _no(f"output buffer {i} is memory your function did not allocate: acl.rt.malloc a buffer of "
                       "get_output_size_by_index bytes for each output.",
                       f"输出缓冲 {i} 不是你的函数申请的内存：请为每个输出用 acl.rt.malloc 申请 get_output_size_by_index 字节。")
        if read_device(ptr, size) != want[i]:
            return _no(f"output {i} differs from the checker's own execute on the same inputs: did the execute "
                       "finish (execute_async needs synchronize_stream) into these buffers?",
                       f"输出 {i} 与检查器用同样输入执行的结果不同：推理是否真的写进了这些缓冲（execute_async 之后需要 synchronize_stream）？")
    return _ok(f"your own output dataset ({len(bufs)} buffer(s), sized by the desc) holds what execute wrote.",
               f"你自己建的输出数据集（{len(bufs)} 个缓冲，大小按 desc）里就是推理写入的结果。")


# -- 07 / 11 / 13 ------------------------------------------------------------------------------------------------
@checker
def top5_feedback(indices: Any, scores: Any) -> Feedback:
    """Top-5 indices, best first, against the scores: with the typical mistakes named."""
    try:
        got = [int(i) for i in np.asarray(indices).reshape(-1)]
    except (TypeError, ValueError):
        return _wrong_type("five class indices", indices, "五个类别索引")
    x = np.asarray(scores, dtype=np.float64).reshape(-1)
    want = [int(i) for i in np.argsort(-x, kind="stable")[:5]]
    if got == want:
        return _ok(f"top-5 {got}, best first.", f"top-5 {got}，从高到低。")
    if got == [int(i) for i in np.argsort(x, kind="stable")[:5]] or set(got) == set(np.argsort(x)[:5].tolist()):
        return _no("these are the five *lowest* scores: argsort sorts ascending, so [:5] takes the worst; take "
                   "argsort()[-1:-6:-1] (or argsort(-x)[:5]) for the best first.",
                   "这是得分*最低*的五个：argsort 按升序排序，[:5] 取的是最差的；用 argsort()[-1:-6:-1]"
                   "（或 argsort(-x)[:5]）取从高到低的前五个。")
    if got == want[::-1]:
        return _no("right classes, wrong order: argsort is ascending, so take [-1:-6:-1] (best first).",
                   "类别对了，顺序反了：argsort 是升序，用 [-1:-6:-1]（从高到低）。")
    if sorted(got) == sorted(want):
        return _no(f"right classes in the wrong order; expected {want}.", f"类别对了但顺序不对；应为 {want}。")
    if len(got) != 5:
        return _no(f"you gave {len(got)} indices; top-5 means 5.", f"你给了 {len(got)} 个索引；top-5 是 5 个。")
    return _no(f"expected {want}; got {got}. Did you read the whole output (all its bytes, as float32)?",
               f"应为 {want}；你的是 {got}。你是否读回了整个输出（全部字节，按 float32 解释）？")


@checker
@_uses_process
def check_top5(top5_fn: Any, outputs: Any, index: int = 0) -> Feedback:
    """Exercises 07/11/13: the learner's top5_fn(outputs) copies the output to the host itself and ranks it."""
    bad = _need_function(top5_fn, "top5")
    if bad is not None:
        return bad
    handle = _dataset_handle(outputs)
    if handle is None:
        return _wrong_type("the output dataset", outputs, "输出数据集")
    ptr, size = _buffers(handle)[index]
    raw = read_device(ptr, size)
    run = run_recorded(top5_fn, outputs)
    try:
        bad = _first(_raised(run, "top5"), _failed_calls(run), _dangling(run))
        if bad is not None:
            return bad
        copies = run.named("acl.rt.memcpy")
        if not any(c.args[2:3] == (ptr,) and c.args[4:5] in [(k,) for k in copy_kinds(MEMCPY_DEVICE_TO_HOST)]
                   for c in copies):
            return _no("top5 must copy the output buffer to the host itself: acl.rt.memcpy(host, size, device_ptr, "
                       "size, 2) (ACL_MEMCPY_DEVICE_TO_HOST).",
                       "top5 必须自己把输出缓冲复制到 Host：acl.rt.memcpy(host, size, device_ptr, size, 2)"
                       "（ACL_MEMCPY_DEVICE_TO_HOST）。")
        left = _left_behind(run)
        if left:
            return _no(f"top5 left {', '.join(left)} allocated: free what your function allocates (acl.rt.free_host "
                       "for malloc_host, acl.rt.free for malloc) before it returns — the checker released it.",
                       f"top5 留下了未释放的 {', '.join(left)}：函数返回前要释放它申请的内存（malloc_host 用 acl.rt.free_host，"
                       "malloc 用 acl.rt.free）——检查器已替你释放。")
        return top5_feedback(run.result, np.frombuffer(raw, np.float32)) if raw is not None else \
            _no("the output buffer cannot be read back.", "读不回输出缓冲。")
    finally:
        cleanup(run)


def _left_behind(run: Run) -> List[str]:
    """'acl.rt.malloc_host(...)' for each allocation or handle of the learner's run that was not released."""
    released = {(c.api, c.args[0]) for c in run.calls if c.args}
    return [c.api for c in run.named_all() if c.api in RELEASE_OF and _handle(c) and (RELEASE_OF[c.api], _handle(c)) not in released]


# -- 07: a single operator ---------------------------------------------------------------------------------------
_OP_EXECUTE = ("acl.op.execute_v2", "acl.op.execute")


def _pos(run: Run, call: Call) -> int:
    """Where one call (this very record) sits in the run's order."""
    return next(i for i, c in enumerate(run.calls) if c is call)


def _op_inputs(rng: np.random.Generator, n: int) -> Tuple[np.ndarray, np.ndarray]:
    """Two float32 score vectors the learner cannot know in advance."""
    return rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


@checker
@_uses_process
def check_device_add(add_fn: Any, stream: Any, n: int = 1000) -> Feedback:
    """Exercise 07: add_fn(a, b, stream) runs the Add operator on the device (its op model loaded) and returns a + b.

    Twice, on fresh random vectors: the copies in, the operator on those buffers, the copy out of its output buffer,
    the synchronize, and every buffer, desc and attr released."""
    bad = _need_function(add_fn, "device_add")
    if bad is not None:
        return bad
    if not isinstance(stream, int) or isinstance(stream, bool):
        return _wrong_type("the stream", stream, "Stream")
    rng = np.random.default_rng(7)
    for _ in range(2):
        a, b = _op_inputs(rng, n)
        seen = _watch_op_inputs()
        try:
            run = run_recorded(add_fn, a, b, stream)
        finally:
            seen.stop()
        try:
            bad = _first(_raised(run, "device_add"), _process_calls(run, "device_add"), _failed_calls(run),
                         _dangling(run))
            if bad is None:
                bad = _first(_device_add_verdict(run, a, b), _op_saw(seen.inputs, a, b))
        finally:
            backend.acl().rt.synchronize_stream(stream)  # drain what the learner queued before its buffers go
            cleanup(run)
        if bad is not None:
            return bad
    return _ok("Add ran on the device: your copies in, the operator on those buffers, the result copied back and "
               "everything released — right on two random inputs.",
               "Add 在 Device 上运行：你把数据复制进去、算子作用在这些缓冲上、结果复制回来、全部资源都已释放——两组随机输入都正确。")


class _watch_op_inputs:
    """While the learner's function runs: the bytes in each operator input buffer when acl.op.execute_v2 was called."""

    def __init__(self) -> None:
        self.acl = backend.acl()
        self.original = self.acl.op.execute_v2
        self.inputs: List[List[Optional[bytes]]] = []

        def execute_v2(op_type, input_desc, inputs, *rest):
            try:
                bufs = [(self.acl.get_data_buffer_addr(h), self.acl.get_data_buffer_size_v2(h)) for h in inputs]
                self.inputs.append([read_device(p, n) for p, n in bufs])
            except Exception:  # noqa: BLE001 - a bad argument is the call's to refuse, not the watcher's
                self.inputs.append([])
            return self.original(op_type, input_desc, inputs, *rest)
        self.acl.op.execute_v2 = execute_v2

    def stop(self) -> None:
        self.acl.op.execute_v2 = self.original


def _op_saw(inputs: List[List[Optional[bytes]]], a: np.ndarray, b: np.ndarray) -> Optional[Feedback]:
    """Feedback unless the last operator call found a and b in its input buffers."""
    if inputs and inputs[-1] == [a.tobytes(), b.tobytes()]:
        return None
    return _no("when acl.op.execute_v2 ran, its input buffers did not hold a and b: copy a.tobytes() and b.tobytes() "
               "in (kind 1) before the operator call.",
               "acl.op.execute_v2 运行时，它的输入缓冲里不是 a 和 b：请在调用算子之前把 a.tobytes() 和 b.tobytes() 复制进去（kind 1）。")


def _device_add_verdict(run: Run, a: np.ndarray, b: np.ndarray) -> Optional[Feedback]:
    """None when the run's calls and result are those of a real Add on the device, else why not."""
    ops = [c for c in run.named_all() if c.api in _OP_EXECUTE]
    adds = [c for c in ops if c.args[:1] == ("Add",)]
    if not adds:
        return _no("run the operator on the device: acl.op.execute_v2(\"Add\", [a_desc, b_desc], [a_buf, b_buf], "
                   "[out_desc], [out_buf], attr, stream)" + (f" (you ran {ops[0].args[0]!r})" if ops else "") + ".",
                   "请在 Device 上运行算子：acl.op.execute_v2(\"Add\", [a_desc, b_desc], [a_buf, b_buf], [out_desc], "
                   "[out_buf], attr, stream)" + (f"（你运行的是 {ops[0].args[0]!r}）" if ops else "") + "。")
    op = adds[-1]
    where = {_handle(c): c.args[0] for c in run.named("acl.create_data_buffer") if _handle(c)}
    in_bufs = op.args[2] if isinstance(op.args[2], list) else []
    out_bufs = op.args[4] if len(op.args) > 4 and isinstance(op.args[4], list) else []
    in_ptrs, out_ptrs = [where.get(h) for h in in_bufs], [where.get(h) for h in out_bufs]
    if len(in_ptrs) != 2 or len(out_ptrs) != 1 or None in in_ptrs + out_ptrs:
        return _no("give the operator data buffers your function made with acl.create_data_buffer: two inputs, "
                   "one output.", "请把你的函数用 acl.create_data_buffer 创建的数据缓冲交给算子：两个输入，一个输出。")
    copies = run.named("acl.rt.memcpy") + run.named("acl.rt.memcpy_async")
    filled = {c.args[0] for c in copies if c.args[4:5] in [(k,) for k in copy_kinds(MEMCPY_HOST_TO_DEVICE)]}
    if not all(p in filled for p in in_ptrs):
        return _no("copy a and b into the operator's input buffers yourself: acl.rt.memcpy(dev, size, host, size, 1).",
                   "请自己把 a 和 b 复制进算子的输入缓冲：acl.rt.memcpy(dev, size, host, size, 1)。")
    order = _pos(run, op)
    back = [c for c in copies if c.args[2:3] == (out_ptrs[0],) and _pos(run, c) > order
            and c.args[4:5] in [(k,) for k in copy_kinds(MEMCPY_DEVICE_TO_HOST)]]
    if not back:
        return _no("copy the result out of the operator's output buffer: acl.rt.memcpy(host, size, out_ptr, size, 2) "
                   "after the operator ran.",
                   "请在算子运行之后把结果从算子的输出缓冲复制出来：acl.rt.memcpy(host, size, out_ptr, size, 2)。")
    syncs = [c for c in run.named("acl.rt.synchronize_stream") if order < _pos(run, c) < _pos(run, back[0])]
    if not syncs and op.api == "acl.op.execute_v2":
        return _no("the operator is only queued on the stream: call acl.rt.synchronize_stream(stream) before you copy "
                   "its result.", "算子只是在 Stream 上排队：复制结果之前先调用 acl.rt.synchronize_stream(stream)。")
    left = _left_behind(run)
    if left:
        return _no(f"device_add left {', '.join(left)} behind: release the buffers, tensor descs and attr it made "
                   "(the checker released them).",
                   f"device_add 留下了未释放的 {', '.join(left)}：请释放它创建的缓冲、张量描述和属性（检查器已替你释放）。")
    got = run.result
    if not isinstance(got, np.ndarray) or got.dtype != np.float32 or got.shape != a.shape:
        return _no(f"return a float32 array of shape {list(a.shape)}, got {getattr(got, 'dtype', type(got).__name__)} "
                   f"{list(getattr(got, 'shape', []))}.",
                   f"请返回形状为 {list(a.shape)} 的 float32 数组，你返回的是 {getattr(got, 'dtype', type(got).__name__)} "
                   f"{list(getattr(got, 'shape', []))}。")
    if not np.array_equal(got, a + b):
        return _no("the values are not a + b: read the output buffer's bytes as float32, all of them.",
                   "数值不等于 a + b：请把输出缓冲的全部字节按 float32 读出。")
    return None


# -- 11: the per-image loop of a pipeline --------------------------------------------------------------------
def _reference_top1(model_id: int, ins: int, outs: int, d: Any, photos: Sequence[str]) -> Optional[List[int]]:
    """Top-1 of each photo through the same model and datasets, by the checker's own copies and executes."""
    from . import preprocess
    acl = backend.acl()
    (in_ptr, in_size), (out_ptr, out_size) = _buffers(ins)[0], _buffers(outs)[0]
    t = d.inputs[0]
    best = []
    for path in photos:
        data = preprocess(path, dims=t.dims, dtype=t.numpy_dtype).tobytes()
        if acl.rt.memcpy(in_ptr, in_size, acl.util.bytes_to_ptr(data), len(data), copy_kinds(1)[0]) != 0 \
                or acl.mdl.execute(model_id, ins, outs) != 0:
            return None
        raw = read_device(out_ptr, out_size)
        if raw is None:
            return None
        best.append(int(np.argmax(np.frombuffer(raw, dtypes.numpy_dtype(d.outputs[0].data_type)))))
    return best


@checker
@_uses_process
def check_classify_loop(loop_fn: Any, model_id: Any, inputs: Any, outputs: Any, desc: Any, photos: Any) -> Feedback:
    """Exercise 11: loop_fn(model_id, inputs, outputs, desc, photos) classifies photo after photo with resources
    made once: per photo one copy in, one execute, one copy out; no load, no device open, nothing left behind."""
    bad = _need_function(loop_fn, "classify_all")
    if bad is not None:
        return bad
    d, ins, outs = _desc(desc), _dataset_handle(inputs), _dataset_handle(outputs)
    if d is None or ins is None or outs is None or not isinstance(model_id, int) or not isinstance(photos, list) \
            or not photos or not all(isinstance(p, str) and os.path.isfile(p) for p in photos):
        return _wrong_type("model_id, the two datasets, the desc and a list of photo paths", photos,
                           "model_id、两个数据集、desc 和照片路径列表")
    want = _reference_top1(model_id, ins, outs, d, photos)
    if want is None:
        return _no("the checker could not run these photos through the model: run the cells above first.",
                   "检查器无法用这个模型处理这些照片：请先运行上面的单元格。")
    seen = _watch_inputs(ins, d)
    try:
        run = run_recorded(loop_fn, model_id, inputs, outputs, desc, list(photos))
    finally:
        seen.stop()
    try:
        bad = _first(_raised(run, "classify_all"), _process_calls(run, "classify_all"), _failed_calls(run),
                     _dangling(run))
        if bad is None:
            bad = _loop_verdict(run, ins, outs, photos, want)
        if bad is None:
            bad = _photos_seen(seen.inputs, photos, d)
        return bad if bad is not None else _loop_ok(photos, run.result)
    finally:
        cleanup(run)


class _watch_inputs:
    """While the learner's loop runs: the model's input tensor as each acl.mdl.execute on ``ins`` found it."""

    def __init__(self, ins: int, d: Any) -> None:
        self.mdl = backend.acl().mdl
        self.original = self.mdl.execute
        self.inputs: List[Optional[np.ndarray]] = []
        ptr, size = _buffers(ins)[0]
        t = d.inputs[0]

        def execute(model_id, dataset, *rest):
            if dataset == ins:
                raw = read_device(ptr, size)
                self.inputs.append(None if raw is None else np.frombuffer(raw, t.numpy_dtype).astype(np.float32))
            return self.original(model_id, dataset, *rest)
        self.mdl.execute = execute

    def stop(self) -> None:
        self.mdl.execute = self.original


def _photos_seen(inputs: List[Optional[np.ndarray]], photos: Sequence[str], d: Any) -> Optional[Feedback]:
    """Feedback when an execute did not find its photo (preprocessed) in the input buffer."""
    for k, (arr, path) in enumerate(zip(inputs, photos)):
        ref = _reference(path, d.inputs[0], None).reshape(-1)
        if arr is None or float(np.mean(np.abs(arr - ref))) > TOLERANCE:
            name = os.path.basename(path)
            return _no(f"execute {k + 1} did not find {name} in the input buffer: copy each photo in just before its "
                       "execute (the checker reads the input buffer at every execute).",
                       f"第 {k + 1} 次推理时输入缓冲里不是 {name}：每张照片都要在它的推理之前复制进去（检查器在每次推理时读取输入缓冲）。")
    return None


def _loop_ok(photos: Sequence[str], got: Any) -> Feedback:
    n = len(photos)
    return _ok(f"{n} photos, each one copy in, one execute, one copy out, with the model loaded once: top-1 {list(got)}.",
               f"{n} 张照片，每张一次复制、一次推理、一次拷回，模型只加载一次：top-1 为 {list(got)}。")


_PER_PROCESS = ("acl.rt.set_device", "acl.rt.create_context", "acl.rt.create_stream", "acl.mdl.load_from_file",
                "acl.mdl.load_from_mem", "acl.mdl.load_from_file_with_mem", "acl.mdl.load_from_mem_with_mem")


def _loop_verdict(run: Run, ins: int, outs: int, photos: Sequence[str], want: List[int]) -> Optional[Feedback]:
    """Per photo one H2D copy into the input buffer, one execute, one D2H copy; the top-1 of each, in order."""
    n = len(photos)
    again = [c.api for c in run.named_all() if c.api in _PER_PROCESS]
    if again:
        return _no(f"classify_all called {again[0]}: the device, stream and model are opened once, before the loop "
                   "(they are its arguments); per photo only copy, execute, copy back.",
                   f"classify_all 调用了 {again[0]}：Device、Stream 和模型在循环之前只打开一次（它们就是参数）；每张照片只做复制、推理、拷回。")
    (in_ptr, _), (out_ptr, _) = _buffers(ins)[0], _buffers(outs)[0]
    copies = run.named("acl.rt.memcpy")
    h2d = [c for c in copies if c.args[0] == in_ptr and c.args[4:5] in [(k,) for k in copy_kinds(1)]]
    d2h = [c for c in copies if c.args[2:3] == (out_ptr,) and c.args[4:5] in [(k,) for k in copy_kinds(2)]]
    execs = run.named("acl.mdl.execute")
    for what, got, zh in (("copies into the input buffer (acl.rt.memcpy, kind 1)", h2d, "复制进输入缓冲（acl.rt.memcpy，kind 1）"),
                          ("executes (acl.mdl.execute)", execs, "推理（acl.mdl.execute）"),
                          ("copies out of the output buffer (acl.rt.memcpy, kind 2)", d2h, "从输出缓冲拷回（acl.rt.memcpy，kind 2）")):
        if len(got) != n:
            return _no(f"for {n} photos expected {n} {what}, one per photo; your function made {len(got)}.",
                       f"{n} 张照片应有 {n} 次{zh}，每张一次；你的函数做了 {len(got)} 次。")
    left = _left_behind(run)
    if left:
        return _no(f"classify_all left {', '.join(left)} behind: free per photo what you allocate per photo (the "
                   "checker released it).",
                   f"classify_all 留下了未释放的 {', '.join(left)}：每张照片申请的内存要在处理完后释放（检查器已替你释放）。")
    got = run.result
    try:
        got = [int(i) for i in got]
    except (TypeError, ValueError):
        return _wrong_type("a list of class indices, one per photo", run.result, "每张照片一个类别索引的列表")
    if got != want:
        return _no(f"top-1 per photo should be {want}, in the order of the photos; got {got}.",
                   f"每张照片的 top-1 应为 {want}（按照片顺序）；你的是 {got}。")
    return None


# -- 08 ----------------------------------------------------------------------------------------------------------
RELEASE_ORDER = ["acl.destroy_data_buffer", "acl.mdl.destroy_dataset", "acl.rt.free", "acl.mdl.unload",
                 "acl.mdl.destroy_desc", "acl.rt.destroy_stream", "acl.rt.destroy_context", "acl.rt.reset_device"]
_PROCESS_CALLS = ("acl.init", "acl.finalize")


def _process_calls(run: Run, name: str) -> Optional[Feedback]:
    """Feedback when a function inits or finalizes: one acl.init per process, one acl.finalize at its end."""
    made = [c.api for c in run.named_all() if c.api in _PROCESS_CALLS]
    if not made:
        return None
    return _no(f"{name} called {made[0]}: a function must not init or finalize — one acl.init when the program "
               "starts, one acl.finalize when it ends (on CANN <= 8.0 a finalized process cannot init again).",
               f"{name} 调用了 {made[0]}：函数里不要初始化或去初始化——程序开始时调用一次 acl.init，结束时调用一次 "
               "acl.finalize（CANN 8.0 及以前，进程 finalize 后不能再次初始化）。")


@checker
@_uses_process
def check_release_order(release_fn: Any, *handles: Any) -> Feedback:
    """Exercise 08: after the learner's release code every resource was released by its own call (empty ledger)."""
    bad = _need_function(release_fn, "release_all")
    if bad is not None:
        return bad
    inspector = backend.inspector()
    before = {id(e) for e in (inspector.leaks() or []) if not e.alive}  # reclaimed before this release code ran
    run = run_recorded(release_fn, *handles)
    bad = _first(_raised(run, "release_all"), _process_calls(run, "release_all"), _failed_calls(run))
    return bad if bad is not None else _release_verdict(inspector, before, [c.api for c in run.calls])


def _release_verdict(inspector: Any, before: set, apis: List[str]) -> Feedback:
    """The ledger after the learner's release code: nothing alive but the process, nothing reclaimed by reset."""
    live = [e for e in inspector.live(include_init=False)]
    if live:
        kinds = ", ".join(e.kind for e in live)
        return _no(f"still alive after your release code: {kinds}.", f"你的释放代码执行后仍然存活：{kinds}。")
    reclaimed = [e for e in (inspector.leaks() or []) if id(e) not in before]
    if reclaimed:
        kinds = ", ".join(sorted({e.kind for e in reclaimed}))
        return _no(f"{len(reclaimed)} resource(s) ({kinds}) were reclaimed implicitly (by destroy_context or "
                   "reset_device) instead of their own release call: release each one, innermost first.",
                   f"{len(reclaimed)} 个资源（{kinds}）是被隐式回收的（由 destroy_context 或 reset_device），而不是由各自的"
                   "释放调用释放：请从最里层开始逐个释放。")
    if "acl.rt.reset_device" not in apis:
        return _no("end with acl.rt.reset_device(0): the device you opened stays open.",
                   "最后要调用 acl.rt.reset_device(0)：你打开的 Device 还开着。")
    return _ok("an empty ledger: every resource released by its own call, then reset_device (acl.finalize comes "
               "once, when the program ends).",
               "台账为空：每个资源都由自己的释放调用释放，最后 reset_device（acl.finalize 在程序结束时调用一次）。")


# -- 09 ----------------------------------------------------------------------------------------------------------
def _callback_loop(args: list) -> None:
    """The callback thread: bind the context, then process reports until told to stop."""
    acl = backend.acl()
    context, flag = args
    acl.rt.set_context(context)
    while not flag["stop"]:
        acl.rt.process_report(20)


@checker
@_uses_process
def check_callback(on_done: Any, model_id: Any, jobs: Any, stream: Any, context: Any) -> Feedback:
    """Exercise 09: the learner's callback on_done([i]) fetches job i's result inside the callback thread."""
    bad = _need_function(on_done, "on_done")
    if bad is not None:
        return bad
    if not isinstance(jobs, (list, tuple)) or not jobs or not isinstance(model_id, int):
        return _wrong_type("model_id and a list of (input dataset, output dataset) jobs", jobs,
                           "model_id 和 (输入数据集, 输出数据集) 作业列表")
    got: Dict[int, Any] = {}
    run = run_recorded(_drive_callbacks, on_done, model_id, jobs, stream, context, got)
    bad = _raised(run, "the callback run")
    if bad is not None:
        return bad
    return _callback_verdict(run, jobs, got)


def _drive_callbacks(on_done, model_id, jobs, stream, context, got) -> None:
    """Queue execute_async + launch_callback per job with a callback thread; the learner's callback fills ``got``."""
    acl = backend.acl()
    flag = {"stop": False}
    errors: List[BaseException] = []

    def wrapped(user_data):
        try:
            got[user_data[0]] = on_done(user_data)
        except BaseException as exc:  # noqa: BLE001 - reported as feedback after the run (sys.exit() included)
            errors.append(exc)
    tid, _ = acl.util.start_thread(_callback_loop, [context, flag])
    try:
        acl.rt.subscribe_report(tid, stream)
        for i, (ins, outs) in enumerate(jobs):
            acl.mdl.execute_async(model_id, _dataset_handle(ins), _dataset_handle(outs), stream)
            acl.rt.launch_callback(wrapped, [i], 1, stream)
        acl.rt.synchronize_stream(stream)
        acl.rt.unsubscribe_report(tid, stream)
    finally:  # the callback thread never outlives the check
        flag["stop"] = True
        acl.util.stop_thread(tid)
    if errors:
        raise errors[0]


def _callback_verdict(run: Run, jobs: Sequence, got: Dict[int, Any]) -> Feedback:
    """Each job's result fetched inside the callback thread, and right."""
    main = threading.get_ident()
    copies = [c for c in run.named("acl.rt.memcpy") if c.args[4:5] in [(k,) for k in copy_kinds(MEMCPY_DEVICE_TO_HOST)]]
    if not any(c.thread != main for c in copies):
        return _no("on_done must fetch the result inside the callback: acl.rt.memcpy(..., 2) in the callback thread.",
                   "on_done 必须在回调里取结果：在回调线程中调用 acl.rt.memcpy(..., 2)。")
    for i, (_, outs) in enumerate(jobs):
        ptr, size = _buffers(_dataset_handle(outs))[0]
        want = int(np.frombuffer(read_device(ptr, size), np.float32).argmax())
        if i not in got:
            return _no(f"job {i}'s callback returned nothing.", f"作业 {i} 的回调没有返回结果。")
        if got[i] != want:
            return _no(f"job {i}: your callback returned {got[i]!r:.30}; its best class is {want} (argmax of the "
                       "float32 output).",
                       f"作业 {i}：你的回调返回 {got[i]!r:.30}；最高分类别是 {want}（float32 输出的 argmax）。")
    return _ok(f"{len(jobs)} callback(s), each fetched its job's result in the callback thread.",
               f"{len(jobs)} 个回调，每个都在回调线程中取回了自己作业的结果。")


# -- 10 ----------------------------------------------------------------------------------------------------------
@checker
@_uses_process
def check_gear(set_gear: Any, model_id: Any, dataset: Any, desc: Any) -> Feedback:
    """Exercise 10: the learner's set_gear(model_id, dataset, desc, n) sets the smallest gear >= n."""
    bad = _need_function(set_gear, "set_gear")
    if bad is not None:
        return bad
    d = _desc(desc)
    if d is None or _dataset_handle(dataset) is None or not isinstance(model_id, int):
        return _wrong_type("model_id, the input dataset and the model desc", desc, "model_id、输入数据集和模型描述")
    gears = sorted(d.dynamic_batch)
    if not gears:
        return _no("this model has no dynamic batch gears (converted without --dynamic_batch_size).",
                   "这个模型没有动态 batch 档位（转换时没有 --dynamic_batch_size）。")
    between = [n for n in range(1, gears[-1] + 1) if n not in gears][:1]  # a batch that needs padding
    for n in between + [1, gears[-1]]:
        fb = _one_gear(set_gear, model_id, dataset, d, n, gears)
        if not fb:
            return fb
    return _ok(f"the smallest gear that holds the batch, set with set_dynamic_batch_size (gears {gears}).",
               f"选了能装下这个 batch 的最小档位，并用 set_dynamic_batch_size 设置好了（档位 {gears}）。")


def _one_gear(set_gear, model_id, dataset, d, n, gears) -> Feedback:
    """One batch size n through the learner's set_gear."""
    run = run_recorded(set_gear, model_id, dataset, d.model_desc, n)
    want = min(g for g in gears if g >= n)
    bad = _raised(run, "set_gear")
    if bad is not None:
        return bad
    if not run.named("acl.mdl.get_dynamic_batch"):
        return _no("read the gears from the desc with acl.mdl.get_dynamic_batch, not from a list you typed.",
                   "请用 acl.mdl.get_dynamic_batch 从 desc 读出档位，而不是自己写一个列表。")
    sets = run.named("acl.mdl.set_dynamic_batch_size")
    if not sets:
        return _no("call acl.mdl.set_dynamic_batch_size(model_id, dataset, index, gear).",
                   "请调用 acl.mdl.set_dynamic_batch_size(model_id, dataset, index, gear)。")
    chosen = sets[-1].args[3]
    if chosen != want or run.result != want:
        hint = " (pick a gear >= the batch and pad the rest)" if chosen < n else ""
        return _no(f"for a batch of {n} you set gear {chosen} and returned {run.result!r:.20}; the smallest gear "
                   f"that holds it is {want} of {gears}{hint}.",
                   f"batch 为 {n} 时你设置了档位 {chosen}，返回 {run.result!r:.20}；能装下它的最小档位是 {gears} 中的 {want}"
                   f"{'（选 ≥ batch 的档位，其余补齐）' if chosen < n else ''}。")
    return _first(_failed_calls(run), _ok("", ""))


@checker
def check_padded_batch(pad_fn: Any) -> Feedback:
    """Exercise 10: the learner's pad_fn(images, gear) returns a [gear, ...] batch: the images, then zeros."""
    bad = _need_function(pad_fn, "pad_batch")
    if bad is not None:
        return bad
    rng = np.random.default_rng(0)
    for n, gear in ((3, 4), (1, 1), (5, 8)):
        images = rng.random((n, 3, 4, 4)).astype(np.float16)
        run = run_recorded(pad_fn, images, gear)
        bad = _raised(run, "pad_batch")
        if bad is not None:
            return bad
        out = run.result
        if not isinstance(out, np.ndarray) or out.shape != (gear, 3, 4, 4) or out.dtype != images.dtype:
            return _no(f"for {n} images and gear {gear} expected a {images.dtype} array of shape {(gear, 3, 4, 4)}, "
                       f"got {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}.",
                       f"{n} 张图、档位 {gear} 时应得到形状 {(gear, 3, 4, 4)} 的 {images.dtype} 数组，"
                       f"你的是 {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}。")
        if not (np.array_equal(out[:n], images) and not out[n:].any()):
            return _no("the first rows must be the images, in order, and the padding rows zeros.",
                       "前面几行必须按顺序是这些图像，补齐的行全为 0。")
    return _ok("images first, zero padding up to the gear.", "图像在前，其余用 0 补齐到档位大小。")


# -- 12 ----------------------------------------------------------------------------------------------------------
def _model_descs(descs: Any) -> Optional[list]:
    """Every desc the instructor's cell passed (one or a list), resolved; None if any is not a model desc."""
    found = [_desc(getattr(x, "model_desc", x)) for x in (descs if isinstance(descs, (list, tuple)) else [descs])]
    return found if found and None not in found else None


@checker
@_uses_process
def check_desc_answer(describe: Any, descs: Any) -> Feedback:
    """Exercise 12: the learner's describe(model_desc) reads inputs, outputs and input bytes from any desc."""
    bad = _need_function(describe, "describe")
    if bad is not None:
        return bad
    found = _model_descs(descs)
    if found is None:
        return _wrong_type("a list of model descs", descs, "模型描述列表")
    for d in found:
        run = run_recorded(describe, d.model_desc)
        bad = _raised(run, "describe")
        if bad is not None:
            return bad
        if not run.named("acl.mdl.get_num_inputs") or not run.named("acl.mdl.get_num_outputs"):
            return _no("ask the desc: acl.mdl.get_num_inputs / get_num_outputs / get_input_size_by_index.",
                       "向 desc 查询：acl.mdl.get_num_inputs / get_num_outputs / get_input_size_by_index。")
        want = {"inputs": len(d.inputs), "outputs": len(d.outputs), "input_bytes": d.inputs[0].size}
        answer = run.result if isinstance(run.result, dict) else {}
        wrong = [k for k, v in want.items() if answer.get(k) != v]
        if wrong:
            said = "; ".join(f"{k}: you said {answer.get(k)}, the desc says {want[k]}" for k in wrong)
            said_zh = "；".join(f"{k}：你的是 {answer.get(k)}，desc 是 {want[k]}" for k in wrong)
            return _no(said + ".", said_zh + "。")
    return _ok(f"all three match on {len(found)} model(s).", f"在 {len(found)} 个模型上三项都一致。")


_HIDDEN_INPUTS = ("ascend_mbatch_shape_data", "ascend_dynamic_aipp_data")  # the runtime fills these, never you


def _feed_want(d: Any) -> List[dict]:
    """What a program must fill for each of its inputs: name, numpy dtype, shape at the largest gear, bytes."""
    want = []
    for t in d.inputs:
        if t.name in _HIDDEN_INPUTS:
            continue
        dims = list(t.dims)
        if d.dynamic_batch and dims and dims[0] == -1:
            dims[0] = max(d.dynamic_batch)
        if d.dynamic_hw and len(dims) == 4 and dims[2:] == [-1, -1]:
            dims[2:] = max(d.dynamic_hw, key=lambda hw: hw[0] * hw[1])
        want.append({"name": t.name, "dtype": dtypes.numpy_dtype(t.data_type), "shape": dims, "bytes": t.size})
    return want


def _as_spec(got: Any) -> Optional[List[dict]]:
    """The learner's answer normalised (dtype as np.dtype, shape as a list of ints), None if it has not that form."""
    if not isinstance(got, (list, tuple)):
        return None
    out = []
    for item in got:
        if not isinstance(item, dict) or not {"name", "dtype", "shape", "bytes"} <= set(item):
            return None
        try:
            out.append({"name": item["name"], "dtype": np.dtype(item["dtype"]),
                        "shape": [int(v) for v in item["shape"]], "bytes": int(item["bytes"])})
        except (TypeError, ValueError):
            return None
    return out


@checker
@_uses_process
def check_feed_spec(spec_fn: Any, descs: Any) -> Feedback:
    """Exercise 12: spec_fn(model_desc) -> what to feed each input (hidden inputs left out), for every model given."""
    bad = _need_function(spec_fn, "feed_spec")
    if bad is not None:
        return bad
    found = _model_descs(descs)
    if found is None:
        return _wrong_type("a list of model descs", descs, "模型描述列表")
    for d in found:
        run = run_recorded(spec_fn, d.model_desc)
        bad = _first(_raised(run, "feed_spec"), _failed_calls(run))
        if bad is not None:
            return bad
        asked = {c.api for c in run.named_all()}
        needed = [a for a in ("acl.mdl.get_num_inputs", "acl.mdl.get_input_name_by_index", "acl.mdl.get_input_dims",
                              "acl.mdl.get_input_data_type", "acl.mdl.get_input_size_by_index") if a not in asked]
        if needed:
            return _no(f"ask the desc itself: feed_spec did not call {', '.join(needed)}.",
                       f"请向 desc 本身查询：feed_spec 没有调用 {', '.join(needed)}。")
        want, got = _feed_want(d), _as_spec(run.result)
        if got is None:
            return _no("return a list with one dict per input to fill: {'name', 'dtype', 'shape', 'bytes'}.",
                       "请返回一个列表，每个要填写的输入一个字典：{'name', 'dtype', 'shape', 'bytes'}。")
        names = [w["name"] for w in want]
        if [g["name"] for g in got] != names:
            hidden = [g["name"] for g in got if g["name"] in _HIDDEN_INPUTS]
            if hidden:
                return _no(f"{hidden[0]} is filled by the runtime (set_dynamic_batch_size / set_input_aipp), not by "
                           "your program: leave it out.",
                           f"{hidden[0]} 由运行时填写（set_dynamic_batch_size / set_input_aipp），不由你的程序填写：请把它去掉。")
            return _no(f"the inputs to fill are {names} in this order; you listed {[g['name'] for g in got]}.",
                       f"要填写的输入依次是 {names}；你列出的是 {[g['name'] for g in got]}。")
        for g, w in zip(got, want):
            for key, zh in (("dtype", "数据类型"), ("shape", "形状"), ("bytes", "字节数")):
                if g[key] != w[key]:
                    hint = ""
                    if key == "shape" and -1 in g["shape"]:
                        hint = " — a -1 is a gear: use the largest (get_dynamic_batch / get_dynamic_hw)"
                    elif key == "dtype":
                        hint = " — map get_input_data_type's aclDataType (0 float32, 1 float16, 3 int32, 4 uint8…)"
                    return _no(f"input {w['name']}: {key} should be {w[key]}, you said {g[key]}{hint}.",
                               f"输入 {w['name']}：{zh}应为 {w[key]}，你的是 {g[key]}。")
    return _ok(f"the right names, dtypes, largest-gear shapes and bytes on all {len(found)} models, hidden inputs left out.",
               f"{len(found)} 个模型的名称、数据类型、最大档位形状和字节数全部正确，隐藏输入也已排除。")


# -- 13 ----------------------------------------------------------------------------------------------------------
def _reference_top5(path: str, om: str) -> Optional[List[int]]:
    """Top-5 of the default model for ``path`` through the step API (the reference the learner is compared with)."""
    from . import session
    with session.Session(model=om) as s:
        return [p.index for p in s.classify(path).topk.top]


@checker
@_uses_process
def check_classify(classify_fn: Any, path: Any, om: Any) -> Feedback:
    """Exercise 13: the learner's classify(path, om) gives the right top-5 and leaves an empty ledger."""
    bad = _need_function(classify_fn, "classify")
    if bad is not None:
        return bad
    if not isinstance(path, str) or not os.path.isfile(path) or not isinstance(om, str):
        return _wrong_type("an image path and a model path", path, "图片路径和模型路径")
    inspector = backend.inspector()
    before = {id(e) for e in (inspector.leaks() or []) if not e.alive}
    run = run_recorded(classify_fn, path, om)
    bad = _first(_raised(run, "classify"), _process_calls(run, "classify"),
                 _failed_calls(run, allowed=("acl.rt.get_run_mode",)), _dangling(run))
    if bad is not None:
        _finish(run)
        return bad
    apis = {c.api for c in run.calls if c.mine}
    needed = ["acl.rt.set_device", "acl.mdl.load_from_file", "acl.mdl.execute", "acl.rt.memcpy",
              "acl.rt.reset_device"]
    missing = [a for a in needed if a not in apis and not (a == "acl.mdl.load_from_file" and any(
        x.startswith("acl.mdl.load_from") for x in apis))]
    if missing:
        _finish(run)
        return _no(f"classify must make the whole flow itself; missing: {', '.join(missing)}.",
                   f"classify 必须自己完成整个流程；缺少：{', '.join(missing)}。")
    verdict = _release_verdict(inspector, before, [c.api for c in run.calls])
    if not verdict:
        cleanup(run)  # the learner's kernel goes on: what classify left is released here, and said so above
        return verdict
    return top5_feedback(run.result, _scores_for(_reference_top5(path, om)))


def _finish(run: Run) -> None:
    """After a failed classify: release what it left (and the device it opened), so the notebook goes on."""
    acl = backend.acl()
    cleanup(run)
    opened = len(run.named("acl.rt.set_device")) - len(run.named("acl.rt.reset_device"))
    for _ in range(max(0, opened)):
        acl.rt.reset_device(0)


def _scores_for(ranked: List[int]) -> np.ndarray:
    """Scores whose descending order is ``ranked`` (for top5_feedback's hints)."""
    scores = np.zeros(1000)
    scores[ranked] = np.arange(len(ranked), 0, -1)
    return scores


# -- 14 ----------------------------------------------------------------------------------------------------------
#: picture sizes the layout checker tries: (width, height) — aligned, unaligned, odd, the shipped photo
_LAYOUT_SIZES = ((600, 390), (224, 224), (1920, 1080), (500, 375), (130, 17))
#: the chips the layout checker asks for: the 310, the 310P and the 310B (the Atlas 200I DK A2)
_LAYOUT_SOCS = ("Ascend310", "Ascend310P3", "Ascend310B4")


def _layout(soc: str, width: int, height: int) -> tuple:
    """A JPEGD output (YUV420SP) on ``soc``: width stride to 128 (310) or 64 (310P/310B), height stride to 16."""
    from .spec.dvpp import align_up, jpegd_stride_align
    wa, ha = jpegd_stride_align(soc)
    ws, hs = align_up(width, wa), align_up(height, ha)
    return ws, hs, ws * hs * 3 // 2


@checker
def check_dvpp_layout(layout_fn: Any) -> Feedback:
    """Exercise 14: the learner's layout_fn(soc_name, width, height) -> (width_stride, height_stride, buffer_size)."""
    bad = _need_function(layout_fn, "dvpp_layout")
    if bad is not None:
        return bad
    for soc in _LAYOUT_SOCS:
        for w, h in _LAYOUT_SIZES:
            bad = _one_layout(layout_fn, soc, w, h)
            if bad is not None:
                return bad
    return _ok(f"strides and sizes right on {', '.join(_LAYOUT_SOCS)} for {len(_LAYOUT_SIZES)} picture sizes each "
               f"(e.g. 600 x 390 -> {_layout('Ascend310', 600, 390)} on the 310, "
               f"{_layout('Ascend310B4', 600, 390)} on the 310B).",
               f"在 {', '.join(_LAYOUT_SOCS)} 上，{len(_LAYOUT_SIZES)} 种图片尺寸的 stride 和大小都正确（例如 600 x 390 在 310 上为 "
               f"{_layout('Ascend310', 600, 390)}，在 310B 上为 {_layout('Ascend310B4', 600, 390)}）。")


def _one_layout(layout_fn: Any, soc: str, w: int, h: int) -> Optional[Feedback]:
    """Feedback for one chip and picture size, or None when the learner's answer is right."""
    run = run_recorded(layout_fn, soc, w, h)
    bad = _raised(run, "dvpp_layout")
    if bad is not None:
        return bad
    got, want = run.result, _layout(soc, w, h)
    if not (isinstance(got, (tuple, list)) and len(got) == 3
            and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in got)):
        return _no(f"for {soc} {w} x {h} return three integers (width_stride, height_stride, buffer_size), got "
                   f"{type(got).__name__} {got!r:.40}.",
                   f"{soc} 上 {w} x {h} 时应返回三个整数（宽 stride、高 stride、缓冲大小），你返回的是 "
                   f"{type(got).__name__} {got!r:.40}。")
    ws, hs, size = (int(v) for v in got)
    from .spec.dvpp import jpegd_stride_align
    align = jpegd_stride_align(soc)[0]
    if ws != want[0]:
        return _no(f"on {soc}, for width {w} the width stride is {want[0]}, not {ws}: round the width up to a "
                   f"multiple of {align} (JPEGD output: 128 on the 310, 64 on the 310P and 310B).",
                   f"在 {soc} 上，宽为 {w} 时宽 stride 是 {want[0]}，不是 {ws}：把宽向上对齐到 {align} 的倍数"
                   "（JPEGD 输出：310 上是 128，310P 和 310B 上是 64）。")
    if hs != want[1]:
        return _no(f"for height {h} the height stride is {want[1]}, not {hs}: round the height up to a multiple "
                   "of 16.",
                   f"高为 {h} 时高 stride 是 {want[1]}，不是 {hs}：把高向上对齐到 16 的倍数。")
    if size != want[2]:
        hint, hint_zh = "", ""
        if size == ws * hs:
            hint, hint_zh = " — that is the Y plane only; the UV plane adds half of it", "——这只是 Y 平面，UV 平面还要再加一半"
        elif size == w * h * 3 // 2:
            hint, hint_zh = " — computed from width x height; use the strides", "——这是按宽 x 高算的，应使用 stride"
        return _no(f"for {w} x {h} the buffer is {want[0]} x {want[1]} x 3 / 2 = {want[2]} bytes, not {size}{hint}.",
                   f"{w} x {h} 时缓冲大小是 {want[0]} x {want[1]} x 3 / 2 = {want[2]} 字节，不是 {size}{hint_zh}。")
    return None


#: JPEG sides the decode checker picks from: none a multiple of 16 (so both kinds of padding are real)
_DECODE_SIDES = tuple(s for s in range(41, 330) if s % 16)
#: widths where 16-, 32-, 64- and 128-byte alignment all give different strides, so any wrong rule shows every time
_DECODE_WIDTHS = tuple(s for s in _DECODE_SIDES if 0 < s % 128 < 16)
#: how far a decoded byte may be from libjpeg's YCbCr (Y; chroma averaged 2x2): what JPEGD hardware's IDCT may differ
_DECODE_TOLERANCE = (2, 3)
_SYNCS = ("acl.rt.synchronize_stream", "acl.rt.synchronize_stream_with_timeout", "acl.rt.synchronize_device")
_PIC_GETTERS = ("data", "size", "format", "width", "height", "width_stride", "height_stride", "ret_code")


def _random_jpeg() -> Tuple[bytes, int, int]:
    """(JPEG bytes, width, height) of a fresh random picture, 4:2:0, neither side a multiple of 16, width telling alignments apart."""
    import io
    import secrets
    from PIL import Image
    rng = np.random.default_rng(secrets.randbits(64))
    w, h = int(rng.choice(_DECODE_WIDTHS)), int(rng.choice(_DECODE_SIDES))
    yy, xx = np.mgrid[0:h, 0:w]
    waves = [np.sin(xx / rng.uniform(4, 30) + rng.uniform(0, 6)) + np.cos(yy / rng.uniform(4, 30)) for _ in range(3)]
    rgb = np.stack([(127 + 60 * wv + rng.integers(-20, 21, (h, w))) for wv in waves], axis=-1)
    out = io.BytesIO()
    Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB").save(out, "JPEG", quality=90, subsampling=2)
    return out.getvalue(), w, h


def reference_nv12_planes(jpeg: bytes) -> Tuple[np.ndarray, np.ndarray]:
    """(Y, interleaved UV) libjpeg decodes the JPEG to: its own YCbCr output, chroma averaged over 2x2 blocks."""
    import io
    from PIL import Image
    im = Image.open(io.BytesIO(jpeg))
    im.draft("YCbCr", None)
    ycc = np.asarray(im if im.mode == "YCbCr" else im.convert("YCbCr"), np.float64)
    h, w = ycc.shape[:2]
    pad = np.pad(ycc[..., 1:], ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
    chroma = np.floor((pad[0::2, 0::2] + pad[1::2, 0::2] + pad[0::2, 1::2] + pad[1::2, 1::2]) / 4 + 0.5)
    return ycc[..., 0], chroma.reshape(chroma.shape[0], -1)  # U, V, U, V ... per row


@checker
@_uses_process
def check_decode_nv12(decode_fn: Any, channel_desc: Any, stream: Any) -> Feedback:
    """Exercise 14b: decode_fn(jpeg_bytes, channel_desc, stream) decodes a fresh random JPEG with JPEGD into NV12 and
    returns the output pic desc; the caller owns that desc and its data (the checker releases both), the function
    releases everything else (the JPEG's DVPP copy included)."""
    bad = _need_function(decode_fn, "decode_nv12")
    if bad is not None:
        return bad
    for what, got, zh in (("the channel desc (dvpp_create_channel_desc)", channel_desc, "通道描述"),
                          ("the stream handle", stream, "Stream 句柄")):
        if not isinstance(got, int) or isinstance(got, bool) or got == 0:
            return _wrong_type(what, got, zh)
    jpeg, w, h = _random_jpeg()
    run = run_recorded(decode_fn, jpeg, channel_desc, stream)
    try:
        verdict = _first(_raised(run, "decode_nv12"), _dangling(run), _decode_flow(run, stream, len(jpeg)))
        return verdict if verdict is not None else _decode_verdict(run, jpeg, w, h)
    finally:
        _decode_cleanup(run, stream)


def _made(run: Run, api: str) -> List[int]:
    """The handles/pointers the learner's calls of one creator returned (failed calls excluded)."""
    return [h for h in (_handle(c) for c in run.named(api)) if h]


def _decode_flow(run: Run, stream: int, size: int) -> Optional[Feedback]:
    """The returned desc was made in this call, decoded into on this stream, and the stream synchronised after."""
    desc = run.result
    if not isinstance(desc, int) or isinstance(desc, bool) or desc == 0:
        return _no(f"return the output pic desc (the handle dvpp_create_pic_desc gave), not "
                   f"{type(desc).__name__} {desc!r:.40}.",
                   f"请返回输出图片描述（dvpp_create_pic_desc 给出的句柄），而不是 {type(desc).__name__} {desc!r:.40}。")
    if desc not in _made(run, "acl.media.dvpp_create_pic_desc"):
        return _no("the pic desc you returned was not created in this call: make a new one (dvpp_create_pic_desc) "
                   "for this JPEG — an earlier picture's desc describes an earlier picture.",
                   "你返回的图片描述不是这次调用中创建的：要为这张 JPEG 新建一个（dvpp_create_pic_desc）——"
                   "以前的图片描述描述的是以前的图片。")
    decodes = [c for c in run.named("acl.media.dvpp_jpeg_decode_async") if c.args[3:4] == (desc,)]
    if not decodes:
        return _no("nothing was decoded into the pic desc you returned: call acl.media.dvpp_jpeg_decode_async("
                   "channel_desc, jpeg_dev, jpeg_size, out_desc, stream).",
                   "没有解码到你返回的图片描述中：请调用 acl.media.dvpp_jpeg_decode_async(channel_desc, jpeg_dev, "
                   "jpeg_size, out_desc, stream)。")
    call = decodes[-1]
    if call.args[4] != stream or call.args[2] != size:
        return _no(f"decode on the stream you were given ({stream}) with the JPEG's byte count ({size}); "
                   f"got stream {call.args[4]}, size {call.args[2]}.",
                   f"应在传入的 Stream（{stream}）上解码，大小为 JPEG 的字节数（{size}）；你用的是 Stream {call.args[4]}、"
                   f"大小 {call.args[2]}。")
    if call.args[1] not in _made(run, "acl.media.dvpp_malloc"):
        return _no("JPEGD reads the JPEG from DVPP memory: dvpp_malloc a block in this call, memcpy the bytes into "
                   "it (acl.util.bytes_to_ptr) and pass that pointer.",
                   "JPEGD 从 DVPP 内存读 JPEG：在这次调用中 dvpp_malloc 一块内存，把字节 memcpy 进去"
                   "（acl.util.bytes_to_ptr），再传入这个指针。")
    at = _pos(run, call)
    syncs = [i for i, c in enumerate(run.calls) if i > at and c.mine and c.api in _SYNCS
             and (c.api == "acl.rt.synchronize_device" or c.args[:1] == (stream,))]
    if not syncs:
        return _no("dvpp_jpeg_decode_async only queues the decode: call acl.rt.synchronize_stream(stream) before "
                   "you return (and before freeing the JPEG's DVPP memory), or the picture is not there yet.",
                   "dvpp_jpeg_decode_async 只是下发解码任务：返回之前（也在释放 JPEG 的 DVPP 内存之前）要调用 "
                   "acl.rt.synchronize_stream(stream)，否则图片还没有写出来。")
    if any(c.api == "acl.media.dvpp_free" and c.args[:1] == (call.args[1],) for c in run.calls[at:syncs[0]]):
        return _no("the JPEG's DVPP memory was freed before synchronize_stream: the decode reads it when the stream "
                   "runs. Synchronise first, then dvpp_free it.",
                   "JPEG 的 DVPP 内存在 synchronize_stream 之前就释放了：解码在 Stream 执行时才读它。先同步，再 dvpp_free。")
    return None


def _decode_verdict(run: Run, jpeg: bytes, w: int, h: int) -> Feedback:
    """The returned desc read with the dvpp_get_pic_desc_* getters: NV12, the SoC's strides, libjpeg's pixels,
    and nothing else left alive."""
    media = backend.acl().media
    got = {k: getattr(media, f"dvpp_get_pic_desc_{k}")(run.result) for k in _PIC_GETTERS}
    bad = _desc_fields(run, got, w, h)  # before the rets: a wrong stride shows up as a failed synchronize_stream
    bad = _first(bad, _failed_calls(run), _decoded_bytes(got, jpeg, w, h), _decode_leaks(run, got["data"]))
    if bad is not None:
        return bad
    return _ok(f"a random JPEG (sides not multiples of 16) decoded to NV12 with {_soc()}'s strides, the Y and UV "
               "planes as libjpeg decodes them, and nothing but the returned picture left alive.",
               f"一张随机的 JPEG（宽高都不是 16 的倍数）按 {_soc()} 的 stride 解码为 NV12，Y 和 UV 平面与 libjpeg 的解码一致，"
               "除返回的图片外没有留下任何资源。")


def _soc() -> str:
    """The chip this kernel runs on (what acl.get_soc_name() says)."""
    return backend.acl().get_soc_name()


def _desc_fields(run: Run, got: dict, w: int, h: int) -> Optional[Feedback]:
    """Format, size and strides in the desc follow JPEGD's rule for this SoC."""
    from .spec.dvpp import align_up, jpegd_stride_align
    soc = _soc()
    wa, ha = jpegd_stride_align(soc)
    if got["format"] != _NV12:
        return _no(f"the output format is {got['format']}; NV12 is PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1).",
                   f"输出格式是 {got['format']}；NV12 是 PIXEL_FORMAT_YUV_SEMIPLANAR_420（1）。")
    if (got["width"], got["height"]) != (w, h):
        return _no(f"the JPEG is {w} x {h} (dvpp_jpeg_get_image_info), but the desc says {got['width']} x "
                   f"{got['height']}: read the size from this JPEG's header.",
                   f"这张 JPEG 是 {w} x {h}（dvpp_jpeg_get_image_info），图片描述里却是 {got['width']} x {got['height']}："
                   "要从这张 JPEG 的文件头读尺寸。")
    ws, hs = got["width_stride"], got["height_stride"]
    if ws % wa or ws < w or hs % ha or hs < h:
        return _no(f"strides {ws} x {hs} break JPEGD's rule on {soc}: width stride a multiple of {wa} >= width "
                   f"(ALIGN_UP({w}, {wa}) = {align_up(w, wa)}), height stride a multiple of {ha} >= height "
                   f"(ALIGN_UP({h}, {ha}) = {align_up(h, ha)}). Read the chip with acl.get_soc_name().",
                   f"stride {ws} x {hs} 不符合 {soc} 上 JPEGD 的规则：宽 stride 为 {wa} 的倍数且 ≥ 宽"
                   f"（ALIGN_UP({w}, {wa}) = {align_up(w, wa)}），高 stride 为 {ha} 的倍数且 ≥ 高"
                   f"（ALIGN_UP({h}, {ha}) = {align_up(h, ha)}）。用 acl.get_soc_name() 读出芯片。")
    if got["size"] < ws * hs * 3 // 2:
        return _no(f"the desc's size is {got['size']}, less than {ws} x {hs} x 3 / 2 = {ws * hs * 3 // 2}.",
                   f"图片描述的大小是 {got['size']}，小于 {ws} x {hs} x 3 / 2 = {ws * hs * 3 // 2}。")
    if got["data"] not in _made(run, "acl.media.dvpp_malloc"):
        return _no("the desc's data is not DVPP memory allocated in this call: dvpp_malloc the output buffer here.",
                   "图片描述的数据不是这次调用中申请的 DVPP 内存：请在这里 dvpp_malloc 输出缓冲。")
    if got["ret_code"] != 0:
        return _no(f"JPEGD failed on this picture: dvpp_get_pic_desc_ret_code is {_explain(got['ret_code'])}.",
                   f"JPEGD 解码这张图片失败：dvpp_get_pic_desc_ret_code 为 {_explain(got['ret_code'])}。")
    return None


def _decoded_bytes(got: dict, jpeg: bytes, w: int, h: int) -> Optional[Feedback]:
    """The Y plane at 0 and the UV plane at width_stride x height_stride hold libjpeg's decode of this JPEG."""
    ws, hs = got["width_stride"], got["height_stride"]
    raw = read_device(got["data"], ws * hs * 3 // 2)
    if raw is None:
        return _no("the decoded picture cannot be read back.", "读不回解码后的图片。")
    buf = np.frombuffer(raw, np.uint8)
    ref_y, ref_uv = reference_nv12_planes(jpeg)
    y = buf[:ws * hs].reshape(hs, ws)[:h, :w].astype(np.float64)
    uv = buf[ws * hs:].reshape(hs // 2, ws)[:ref_uv.shape[0], :ref_uv.shape[1]].astype(np.float64)
    ty, tuv = _DECODE_TOLERANCE
    if np.abs(y - ref_y).max() > ty:
        return _no(f"the Y plane is not this JPEG's luma (off by up to {int(np.abs(y - ref_y).max())}): was the decode "
                   "synchronised, from this JPEG's bytes, into this desc's buffer?",
                   f"Y 平面不是这张 JPEG 的亮度（最多相差 {int(np.abs(y - ref_y).max())}）：解码同步了吗？用的是这张 JPEG 的"
                   "字节、写进了这个图片描述的缓冲吗？")
    if np.abs(uv - ref_uv).max() > tuv:
        return _no(f"Y is right, the UV plane (from byte {ws} x {hs} = {ws * hs}) is not this JPEG's chroma.",
                   f"Y 正确，UV 平面（从第 {ws} x {hs} = {ws * hs} 字节起）不是这张 JPEG 的色度。")
    return None


def _decode_leaks(run: Run, keep: int) -> Optional[Feedback]:
    """Everything but the returned desc and its buffer released: the JPEG's DVPP copy, other descs, host memory."""
    freed = {c.args[0] for c in run.named("acl.media.dvpp_free")}
    destroyed = {c.args[0] for c in run.named("acl.media.dvpp_destroy_pic_desc")}
    if any(p not in freed for p in _made(run, "acl.media.dvpp_malloc") if p != keep):
        return _no("DVPP memory other than the output picture (the JPEG's copy?) was not freed: dvpp_free it after "
                   "synchronize_stream.",
                   "除输出图片外还有 DVPP 内存（JPEG 的副本？）没有释放：synchronize_stream 之后要 dvpp_free 它。")
    if any(d not in destroyed for d in _made(run, "acl.media.dvpp_create_pic_desc") if d != run.result):
        return _no("a pic desc other than the one you returned was not destroyed (dvpp_destroy_pic_desc).",
                   "除返回的那个以外，还有图片描述没有销毁（dvpp_destroy_pic_desc）。")
    if keep in freed or run.result in destroyed:
        return _no("you released the picture you returned: the caller owns the output desc and its buffer.",
                   "你释放了要返回的图片：输出图片描述和它的缓冲归调用者所有。")
    left = _left_behind(run)
    if left:
        return _no(f"{left[0]} in decode_nv12 was not released.", f"decode_nv12 中的 {left[0]} 没有释放。")
    return None


def _decode_cleanup(run: Run, stream: Any) -> None:
    """Drain the stream, then release what the call made and left (the returned picture too), so the ledger ends at 0."""
    acl = backend.acl()
    if isinstance(stream, int) and not isinstance(stream, bool):
        acl.rt.synchronize_stream(stream)  # a decode still queued must not write into memory freed below
    freed = {c.args[0] for c in run.named("acl.media.dvpp_free")}
    destroyed = {c.args[0] for c in run.named("acl.media.dvpp_destroy_pic_desc")}
    for desc in _made(run, "acl.media.dvpp_create_pic_desc"):
        if desc not in destroyed:
            acl.media.dvpp_destroy_pic_desc(desc)
    for ptr in _made(run, "acl.media.dvpp_malloc"):
        if ptr not in freed:
            acl.media.dvpp_free(ptr)
    cleanup(run)


# -- 15 ----------------------------------------------------------------------------------------------------------
#: clip sizes the VDEC callback checker picks from: none a multiple of 16 wide, so the padding columns are real
_CLIP_SIZES = ((184, 130), (232, 144), (250, 160), (200, 136))
_CLIP_FRAMES = 3
_NV12 = 1  # PIXEL_FORMAT_YUV_SEMIPLANAR_420
_H264_MAIN = 2  # H264_MAIN_LEVEL


@dataclass
class _Clip:
    """One checker run's stream: what was sent, under which user_data, into which output memory."""

    width: int
    height: int
    units: List[bytes]
    tokens: List[str]
    bad_token: str
    eos_token: str
    outputs: Dict[str, int] = field(default_factory=dict)  # user_data -> the DVPP output picture's address
    pic_descs: Dict[str, int] = field(default_factory=dict)  # user_data -> its output pic desc
    stream_descs: Dict[str, int] = field(default_factory=dict)  # user_data -> its input stream desc
    inputs: List[int] = field(default_factory=list)
    errors: List[BaseException] = field(default_factory=list)
    seen: set = field(default_factory=set)  # the user_data each callback actually got (a board may drop a chunk)


def _new_clip() -> _Clip:
    """A fresh clip of random size and user_data tokens nobody could have written down before this check."""
    import secrets
    from . import models
    width, height = _CLIP_SIZES[secrets.randbelow(len(_CLIP_SIZES))]
    photos = models.sample_images()
    units = models.video_frames([photos[secrets.randbelow(len(photos))]], width, height, _CLIP_FRAMES)
    tag = secrets.token_hex(3)
    return _Clip(width, height, units, [f"frame-{tag}-{i}" for i in range(len(units))], f"broken-{tag}",
                 f"eos-{tag}")


def _vdec_strides(width: int, height: int) -> tuple:
    """The output strides VDEC accepts on every chip: ALIGN_UP(width, 16), ALIGN_UP(height, 2)."""
    from .spec.video import vdec_strides
    return vdec_strides(width, height)


@checker
@_uses_process
def check_vdec_callback(keep_frame: Any, kept: Any) -> Feedback:
    """Exercise 15: the learner's VDEC callback copies each decoded picture (without its padding) into ``kept``
    and releases the output memory and both descs; a frame VDEC could not decode is kept as (ret_code, None)."""
    bad = _need_function(keep_frame, "keep_frame")
    if bad is not None:
        return bad
    if not isinstance(kept, dict):
        return _wrong_type("the dict your callback fills (kept)", kept, "你的回调填写的字典（kept）")
    clip = _new_clip()
    run = run_recorded(_drive_vdec, keep_frame, clip)
    try:
        verdict = _first(_raised(run, "the VDEC run"), _callback_errors(clip), _process_calls(run, "keep_frame"),
                         _failed_calls(run))
        verdict = verdict if verdict is not None else _vdec_verdict(run, clip, kept)
    finally:
        _vdec_cleanup(run, clip)
    return verdict


def _drive_vdec(keep_frame: Callable, clip: _Clip) -> None:
    """The notebook's flow around the learner's callback: a callback thread, a VDEC channel, each unit sent from
    DVPP memory into a fresh output picture, a chunk VDEC cannot decode, EOS, then destroy (which waits)."""
    acl = backend.acl()
    media = acl.media
    context, _ = acl.rt.get_context()
    flag = {"stop": False}

    def wrapped(stream_desc, pic_desc, user_data):
        clip.seen.add(user_data)
        try:
            keep_frame(stream_desc, pic_desc, user_data)
        except BaseException as exc:  # noqa: BLE001 - feedback after the run (sys.exit() included)
            clip.errors.append(exc)
    tid, _ = acl.util.start_thread(_callback_loop, [context, flag])
    desc = media.vdec_create_channel_desc()
    config = media.vdec_create_frame_config()
    try:
        for setter, value in (("thread_id", tid), ("entype", _H264_MAIN), ("out_pic_format", _NV12)):
            getattr(media, f"vdec_set_channel_desc_{setter}")(desc, value)
        media.vdec_set_channel_desc_callback(desc, wrapped)
        if not _open_vdec(media, desc):
            raise RuntimeError("no free VDEC channel id: destroy the channels your notebook left open "
                               "(acl.media.vdec_destroy_channel)")
        try:
            chunks = list(zip(clip.tokens, clip.units)) + [(clip.bad_token, bytes(range(1, 200)))]
            for token, unit in chunks:
                _send_unit(acl, desc, config, clip, token, unit)
            eos = media.dvpp_create_stream_desc()
            media.dvpp_set_stream_desc_eos(eos, 1)
            clip.stream_descs[clip.eos_token] = eos
            media.vdec_send_frame(desc, eos, 0, config, clip.eos_token)
        finally:
            media.vdec_destroy_channel(desc)  # returns once every callback has run
    finally:
        flag["stop"] = True
        acl.util.stop_thread(tid)
        media.vdec_destroy_frame_config(config)
        media.vdec_destroy_channel_desc(desc)


def _open_vdec(media: Any, desc: int) -> bool:
    """vdec_create_channel with the first free channel id (the notebook may still hold one)."""
    for channel_id in range(8, 16):
        media.vdec_set_channel_desc_channel_id(desc, channel_id)
        if media.vdec_create_channel(desc) == 0:
            return True
    return False


def _send_unit(acl: Any, desc: int, config: int, clip: _Clip, token: str, unit: bytes) -> None:
    """One access unit into DVPP memory, a stream desc for it, a fresh output picture, vdec_send_frame."""
    media = acl.media
    ptr, _ = media.dvpp_malloc(len(unit))
    clip.inputs.append(ptr)
    acl.rt.memcpy(ptr, len(unit), acl.util.bytes_to_ptr(unit), len(unit), copy_kinds(MEMCPY_HOST_TO_DEVICE)[-1])
    stream_desc = media.dvpp_create_stream_desc()
    media.dvpp_set_stream_desc_data(stream_desc, ptr)
    media.dvpp_set_stream_desc_size(stream_desc, len(unit))
    ws, hs = _vdec_strides(clip.width, clip.height)
    size = ws * hs * 3 // 2
    out, _ = media.dvpp_malloc(size)
    pic_desc = media.dvpp_create_pic_desc()
    for setter, value in (("data", out), ("size", size), ("format", _NV12), ("width", clip.width),
                          ("height", clip.height), ("width_stride", ws), ("height_stride", hs)):
        getattr(media, f"dvpp_set_pic_desc_{setter}")(pic_desc, value)
    clip.outputs[token], clip.pic_descs[token], clip.stream_descs[token] = out, pic_desc, stream_desc
    media.vdec_send_frame(desc, stream_desc, pic_desc, config, token)


def _callback_errors(clip: _Clip) -> Optional[Feedback]:
    """Feedback when the learner's callback raised in the callback thread."""
    if not clip.errors:
        return None
    exc = clip.errors[0]
    if isinstance(exc, NotImplementedError):
        return _no("keep_frame is not written yet: replace `raise NotImplementedError()` with your code.",
                   "keep_frame 还没有写：把 `raise NotImplementedError()` 换成你的代码。")
    return _no(f"keep_frame raised {_short(exc)} in the callback thread ({len(clip.errors)} callback(s) failed). "
               "Remember the end-of-stream callback: its output pic desc is 0.",
               f"keep_frame 在回调线程中抛出了异常 {_short(exc)}（{len(clip.errors)} 个回调失败）。别忘了流结束（EOS）"
               "的回调：它的输出图片描述为 0。")


def _vdec_verdict(run: Run, clip: _Clip, kept: dict) -> Feedback:
    """Each picture kept right, the broken chunk kept as a failure, and everything the callback owns released."""
    bad = _copied_in_callback(run, clip) if all(t in kept for t in clip.tokens) else None
    if bad is not None:
        return bad
    refs = reference_frames(clip.units)
    for i, token in enumerate(clip.tokens):
        bad = _kept_picture(kept, token, i, refs[i] if i < len(refs) else None, clip)
        if bad is not None:
            return bad
    bad = _first(_kept_failure(kept, clip), _kept_eos(kept, clip), _callback_released(run, clip))
    return bad if bad is not None else _ok(
        f"{len(clip.tokens)} frames of a clip of random size kept byte-exact without their padding, the broken "
        "chunk kept as a failure, and every output picture, pic desc and stream desc released in the callback.",
        f"一段随机尺寸视频的 {len(clip.tokens)} 帧都按字节完全一致地保存下来（不含补齐区域），坏数据块按失败保存，"
        "每块输出图片内存、每个图片描述和码流描述都在回调中释放了。")


def reference_frames(units: Sequence[bytes]) -> list:
    """FFmpeg's decode of the clip (H.264 decoding is exact: a conforming VDEC gives the same bytes)."""
    from . import models
    return models.reference_nv12(units)


def _kept_picture(kept: dict, token: str, i: int, ref: Optional[np.ndarray], clip: _Clip) -> Optional[Feedback]:
    """Feedback for frame i's entry in kept, or None when it is (0, the packed NV12 picture)."""
    if token not in kept:
        return _no(f"kept has no entry for frame {i}: store kept[user_data] = (ret_code, picture) for every output "
                   f"pic desc ({len(kept)} entries in kept).",
                   f"kept 里没有第 {i} 帧：对每个输出图片描述都要保存 kept[user_data] = (ret_code, picture)"
                   f"（kept 中现有 {len(kept)} 项）。")
    entry = kept[token]
    if not (isinstance(entry, tuple) and len(entry) == 2):
        return _wrong_type("kept[user_data] = (ret_code, picture)", entry, "kept[user_data] = (ret_code, picture)")
    code, picture = entry
    if code != 0:
        return _no(f"frame {i} decoded (its pic desc's ret_code is 0), but kept holds ret_code {code!r:.20}.",
                   f"第 {i} 帧解码成功（图片描述的 ret_code 为 0），但 kept 中的 ret_code 是 {code!r:.20}。")
    return _picture_feedback(picture, ref, i, clip)


def _picture_feedback(picture: Any, ref: np.ndarray, i: int, clip: _Clip) -> Optional[Feedback]:
    """None when the picture is the packed NV12 frame; else a hint at the usual stride mistakes."""
    w, h = clip.width, clip.height
    ws, hs = _vdec_strides(w, h)
    if not isinstance(picture, np.ndarray) or picture.dtype != np.uint8:
        return _no(f"frame {i}: keep the picture as a numpy uint8 array of shape ({h * 3 // 2}, {w}), not "
                   f"{type(picture).__name__} {picture!r:.40}.",
                   f"第 {i} 帧：图片要保存为形状 ({h * 3 // 2}, {w}) 的 numpy uint8 数组，而不是 "
                   f"{type(picture).__name__} {picture!r:.40}。")
    if picture.shape == (hs * 3 // 2, ws) or picture.size == ws * hs * 3 // 2:
        return _no(f"frame {i}: that is the whole buffer, padding included ({ws} x {hs} strides); keep only the "
                   f"{w} x {h} picture: the first {w} bytes of each row, {h} Y rows and {h // 2} UV rows.",
                   f"第 {i} 帧：这是整个缓冲，包含补齐区域（stride 为 {ws} x {hs}）；只保留 {w} x {h} 的图片：每行前 {w} 个"
                   f"字节，{h} 行 Y、{h // 2} 行 UV。")
    if picture.shape != (h * 3 // 2, w):
        return _no(f"frame {i}: expected shape ({h * 3 // 2}, {w}) (Y rows, then UV rows), got {picture.shape}.",
                   f"第 {i} 帧：形状应为 ({h * 3 // 2}, {w})（先 Y 行，后 UV 行），你的是 {picture.shape}。")
    if not np.array_equal(picture[:h], ref[:h]):
        return _no(f"frame {i}: the Y rows differ from the decoded frame: read row r at offset r x width_stride "
                   f"({ws}), not r x width ({w}).",
                   f"第 {i} 帧：Y 行与解码结果不同：第 r 行在偏移 r x 宽 stride（{ws}）处，而不是 r x 宽（{w}）。")
    if not np.array_equal(picture, ref):
        return _no(f"frame {i}: Y is right, UV is not: the UV plane starts at width_stride x height_stride "
                   f"({ws} x {hs} = {ws * hs}), not at width x height.",
                   f"第 {i} 帧：Y 正确，UV 不对：UV 平面从 宽 stride x 高 stride（{ws} x {hs} = {ws * hs}）处开始，"
                   "而不是 宽 x 高。")
    return None


def _kept_failure(kept: dict, clip: _Clip) -> Optional[Feedback]:
    """The chunk VDEC could not decode: kept as (its non-zero ret_code, None). A board may drop a broken frame
    without a callback (the VDEC page says so), so it is required on the simulator only."""
    entry = kept.get(clip.bad_token)
    if entry is None and not on_simulator():
        return None
    if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], int) and entry[0] != 0
            and entry[1] is None):
        return _no(f"a chunk VDEC could not decode came back with a non-zero ret_code in its pic desc; keep it as "
                   f"(ret_code, None), not {entry!r:.40} — read dvpp_get_pic_desc_ret_code before the bytes.",
                   f"一个 VDEC 无法解码的数据块回来时，图片描述中的 ret_code 不为 0；应保存为 (ret_code, None)，而不是 "
                   f"{entry!r:.40}——先读 dvpp_get_pic_desc_ret_code，再读字节。")
    return None


def _kept_eos(kept: dict, clip: _Clip) -> Optional[Feedback]:
    """Nothing kept for the end-of-stream callback (its output pic desc is 0)."""
    if clip.eos_token in kept:
        return _no("the end-of-stream callback (output pic desc 0) is not a frame: keep nothing for it.",
                   "流结束（EOS）的回调（输出图片描述为 0）不是一帧：不要为它保存任何东西。")
    return None


def _copied_in_callback(run: Run, clip: _Clip) -> Optional[Feedback]:
    """Each decoded picture copied device -> host by acl.rt.memcpy inside the callback thread."""
    main = threading.get_ident()
    kinds = copy_kinds(MEMCPY_DEVICE_TO_HOST)
    sources = {c.args[2] for c in run.named("acl.rt.memcpy") if c.thread != main and c.args[4:5] in [(k,) for k in kinds]}
    missing = [i for i, token in enumerate(clip.tokens) if clip.outputs.get(token) not in sources]
    if missing:
        return _no(f"frame {missing[0]}'s picture was not copied from its output memory (dvpp_get_pic_desc_data) "
                   "with acl.rt.memcpy(..., 2) in the callback.",
                   f"第 {missing[0]} 帧的图片没有在回调中用 acl.rt.memcpy(..., 2) 从它的输出内存"
                   "（dvpp_get_pic_desc_data）复制出来。")
    return None


def _callback_released(run: Run, clip: _Clip) -> Optional[Feedback]:
    """What each callback brought released: its output picture freed, its pic desc and stream desc destroyed, and
    every host buffer freed. A chunk a board dropped without a callback (the broken one) owes nothing; the
    simulator always calls back, so there everything is owed."""
    freed = {c.args[0] for c in run.named("acl.media.dvpp_free")}
    pics = {c.args[0] for c in run.named("acl.media.dvpp_destroy_pic_desc")}
    streams = {c.args[0] for c in run.named("acl.media.dvpp_destroy_stream_desc")}
    owed = set(clip.stream_descs) if on_simulator() else clip.seen
    labelled = [(t, f"frame {i}") for i, t in enumerate(clip.tokens)] + [(clip.bad_token, "the broken chunk")]
    for token, label in [(t, what) for t, what in labelled if t in owed]:
        if clip.outputs[token] not in freed:
            return _no(f"{label}'s output memory was not freed: once copied (or failed), acl.media.dvpp_free it.",
                       f"{label} 的输出内存没有释放：复制完（或失败）之后要 acl.media.dvpp_free 它。")
        if clip.pic_descs[token] not in pics:
            return _no(f"{label}'s output pic desc was not destroyed (acl.media.dvpp_destroy_pic_desc).",
                       f"{label} 的输出图片描述没有销毁（acl.media.dvpp_destroy_pic_desc）。")
    for token, desc in clip.stream_descs.items():
        if token in owed and desc not in streams:
            return _no("an input stream desc was not destroyed: each callback destroys the one it brings "
                       "(acl.media.dvpp_destroy_stream_desc), the end-of-stream one too.",
                       "有输入码流描述没有销毁：每个回调都要销毁它带来的码流描述（acl.media.dvpp_destroy_stream_desc），"
                       "EOS 的也一样。")
    left = _left_behind(run)
    if left:
        return _no(f"{left[0]} in the callback was not released.", f"回调中的 {left[0]} 没有释放。")
    return None


def _vdec_cleanup(run: Run, clip: _Clip) -> None:
    """Release what the learner's callback left, and the inputs, so the notebook's ledger still ends at 0."""
    media = backend.acl().media
    freed = {c.args[0] for c in run.named("acl.media.dvpp_free")}
    pics = {c.args[0] for c in run.named("acl.media.dvpp_destroy_pic_desc")}
    streams = {c.args[0] for c in run.named("acl.media.dvpp_destroy_stream_desc")}
    for token, ptr in clip.outputs.items():
        if ptr not in freed:
            media.dvpp_free(ptr)
        if clip.pic_descs[token] not in pics:
            media.dvpp_destroy_pic_desc(clip.pic_descs[token])
    for desc in clip.stream_descs.values():
        if desc not in streams:
            media.dvpp_destroy_stream_desc(desc)
    for ptr in clip.inputs:
        if ptr not in freed:  # the learner may have freed an input already: a second dvpp_free is a double free
            media.dvpp_free(ptr)
    cleanup(run)


# -- 16 ----------------------------------------------------------------------------------------------------------
_EVENT_CREATORS = ("acl.rt.create_event", "acl.rt.create_event_with_flag", "acl.rt.create_event_ex_with_flag")


@checker
@_uses_process
def check_event_timing(time_fn: Any, model_id: Any, inputs: Any, outputs: Any, stream: Any) -> Feedback:
    """Exercise 16: time_fn(model_id, inputs, outputs, stream) times one execute_async with two events of its own."""
    bad = _need_function(time_fn, "time_execute")
    if bad is not None:
        return bad
    bad = _timing_args(model_id, inputs, outputs, stream)
    if bad is not None:
        return bad
    run = run_recorded(time_fn, model_id, inputs, outputs, stream)
    try:
        bad = _first(_raised(run, "time_execute"), _process_calls(run, "time_execute"), _failed_calls(run))
        data = (_dataset_handle(inputs), _dataset_handle(outputs))
        return bad if bad is not None else _timing_verdict(run, model_id, data, stream)
    finally:
        cleanup(run)


def _timing_args(model_id: Any, inputs: Any, outputs: Any, stream: Any) -> Optional[Feedback]:
    """Feedback quoting the first argument that is not what time_execute is given, else None."""
    checks = ((model_id, isinstance(model_id, int) and not isinstance(model_id, bool)),
              (inputs, _dataset_handle(inputs) is not None), (outputs, _dataset_handle(outputs) is not None),
              (stream, isinstance(stream, int) and not isinstance(stream, bool) and stream != 0))
    wrong = [got for got, fine in checks if not fine]
    if not wrong:
        return None
    return _wrong_type("model_id, the input and output datasets and an explicit stream", wrong[0],
                       "model_id、输入和输出数据集以及一个显式创建的 Stream")


def _timing_verdict(run: Run, model_id: int, data: tuple, stream: int) -> Feedback:
    """The learner's events: their own, recorded on ``stream`` around one execute_async, waited for, timed, destroyed."""
    calls = run.named_all()
    made = [_handle(c) for c in calls if c.api in _EVENT_CREATORS and _handle(c)]
    timed = [i for i, c in enumerate(calls) if c.api == "acl.rt.event_elapsed_time" and c.ret == 0]
    if len(made) < 2:
        return _no("time_execute must create its two events itself: start, ret = acl.rt.create_event() and the same "
                   "for end (events made before the function do not count).",
                   "time_execute 必须自己创建两个 Event：start, ret = acl.rt.create_event()，end 同样（函数之前创建的 Event 不算）。")
    if not timed:
        return _no("read the time with ms, ret = acl.rt.event_elapsed_time(start, end).",
                   "用 ms, ret = acl.rt.event_elapsed_time(start, end) 读出耗时。")
    at_ = timed[-1]
    start, end = calls[at_].args[:2]
    if start not in made or end not in made:
        return _no("event_elapsed_time must get the two events time_execute created (start, end), not others.",
                   "event_elapsed_time 的参数必须是 time_execute 自己创建的两个 Event（start, end），而不是别的 Event。")
    return _first(_records_verdict(calls[:at_], model_id, data, stream, start, end),
                  _result_verdict(run, calls, at_, made))


def _last_record(calls: List[Call], event: int) -> Optional[int]:
    """Index of the last acl.rt.record_event of ``event`` in ``calls`` (None: never recorded)."""
    found = [i for i, c in enumerate(calls) if c.api == "acl.rt.record_event" and c.args[:1] == (event,)]
    return found[-1] if found else None


def _records_verdict(calls: List[Call], model_id: int, data: tuple, stream: int, start: int,
                     end: int) -> Optional[Feedback]:
    """Both records on ``stream``, start before and end after exactly one execute_async there (on the given
    (input, output) dataset handles ``data``), then a wait."""
    s, e = _last_record(calls, start), _last_record(calls, end)
    if s is None or e is None:
        return _no("record both events on the stream: acl.rt.record_event(start, stream) before the inference, "
                   "acl.rt.record_event(end, stream) after it.",
                   "两个 Event 都要记录到 Stream 上：推理之前 acl.rt.record_event(start, stream)，推理之后 "
                   "acl.rt.record_event(end, stream)。")
    for i in (s, e):
        if calls[i].args[1] != stream:
            return _no(f"an event was recorded on stream {calls[i].args[1]:#x}, not on the stream the inference runs on: "
                       "record both with acl.rt.record_event(event, stream) — an event only stamps its own stream.",
                       f"有一个 Event 记录在 Stream {calls[i].args[1]:#x} 上，而不是推理所在的 Stream：两个都用 "
                       "acl.rt.record_event(event, stream) 记录——Event 只给它自己的 Stream 打时间戳。")
    runs = [c for c in calls[s + 1:e] if c.api in ("acl.mdl.execute_async", "acl.mdl.execute")]
    if not runs or any(c.api == "acl.mdl.execute" or c.args[3:4] != (stream,) or c.args[:1] != (model_id,)
                       for c in runs):
        return _no("between the two records queue the inference on the same stream: "
                   "acl.mdl.execute_async(model_id, inputs.dataset, outputs.dataset, stream) (record start first, "
                   "end after it; a synchronous execute does not run on the stream).",
                   "在两次记录之间把推理放入同一个 Stream：acl.mdl.execute_async(model_id, inputs.dataset, outputs.dataset, "
                   "stream)（先记录 start，之后再记录 end；同步的 execute 不在这个 Stream 上执行）。")
    if len(runs) > 1:
        return _no(f"time one inference: {len(runs)} execute_async calls lie between the two records.",
                   f"只计时一次推理：两次记录之间有 {len(runs)} 次 execute_async。")
    if tuple(runs[0].args[1:3]) != data:
        return _no("time the inference on the datasets time_execute is given: acl.mdl.execute_async(model_id, "
                   "inputs.dataset, outputs.dataset, stream), not on other buffers.",
                   "计时的推理要用 time_execute 收到的数据集：acl.mdl.execute_async(model_id, inputs.dataset, "
                   "outputs.dataset, stream)，而不是别的缓冲。")
    waits = [c for c in calls[e + 1:] if (c.api == "acl.rt.synchronize_event" and c.args[:1] == (end,))
             or (c.api == "acl.rt.synchronize_stream" and c.args[:1] == (stream,))]
    if not waits:
        return _no("wait before reading the time: acl.rt.synchronize_event(end) (or synchronize_stream(stream)) after "
                   "recording end — until then the end event may not have happened on a board.",
                   "读耗时之前要等待：记录 end 之后调用 acl.rt.synchronize_event(end)（或 synchronize_stream(stream)）"
                   "——在开发板上，在此之前 end 可能还没有发生。")
    return None


def _result_verdict(run: Run, calls: List[Call], at_: int, made: List[int]) -> Feedback:
    """The returned value is the elapsed time those events gave, and both events were destroyed."""
    ms = calls[at_].value
    got = run.result
    if isinstance(got, bool) or not isinstance(got, (float, int, np.floating)) or \
            abs(float(got) - float(ms)) > 1e-6 * max(1.0, abs(float(ms))):
        return _no(f"return the milliseconds event_elapsed_time gave ({ms:.3f}), not {got!r:.30}.",
                   f"请返回 event_elapsed_time 给出的毫秒数（{ms:.3f}），而不是 {got!r:.30}。")
    destroyed = {c.args[0] for c in calls if c.api == "acl.rt.destroy_event" and c.args}
    if any(h not in destroyed for h in made):
        return _no("destroy the events before returning: acl.rt.destroy_event(start) and acl.rt.destroy_event(end) "
                   "(the checker destroyed them).",
                   "返回之前要销毁 Event：acl.rt.destroy_event(start) 和 acl.rt.destroy_event(end)（检查器已替你销毁）。")
    where = "simulator: cost model" if on_simulator() else "measured on the device"
    return _ok(f"one execute_async between two events recorded on its stream, waited for, {float(ms):.3f} ms "
               f"({where}) from those events; both destroyed.",
               f"一次 execute_async 位于记录在同一 Stream 上的两个 Event 之间，已等待，由这两个 Event 得到 {float(ms):.3f} ms"
               f"（{'模拟器：代价模型' if on_simulator() else '在 Device 上测得'}）；两个 Event 都已销毁。")


def ledger_summary() -> str:
    """'N live resource(s): kinds…' on the simulator (for the end of each notebook); the initialised process itself
    is named apart: it stays until the one acl.finalize when the kernel exits."""
    found = backend.inspector().live(include_init=True)
    if found is None:
        return "the ledger exists only on the simulator"
    live = [e.kind for e in found if e.kind != "acl"]
    process = "; the process stays initialised (acl.finalize runs once, at exit)" if len(live) < len(found) else ""
    return f"{len(live)} live resource(s)" + (f": {', '.join(live)}" if live else "") + process
