"""``acl.prof``: profiling sessions, model subscription, stamps/ranges/marks — and the timeline file they write.

A session (``init(path)`` → ``create_config`` → ``start`` … ``stop`` → ``finalize``, or ``acl.init``
with a ``"profiler": {"switch": "on", "output": DIR}`` section until ``acl.finalize``) records every
simulated device task (copies, model runs and, with ACL_PROF_TASK_TIME, their operators, event
records and waits, callbacks) and the learner's marks and ranges (with ACL_PROF_MSPROFTX), and
at ``stop`` writes them as one Chrome-trace / Perfetto JSON file, ``PROF_<n>_<time>_sim/
trace_view.json``, inside the folder given — never anywhere else. Open it in chrome://tracing or
https://ui.perfetto.dev. *simulator:* the times are the simulator's cost model (timeline.py), and
a board writes msprof's own directory layout and binary data instead.

Model subscription (``create_subscribe_config(switch, metrics, fd)`` + ``model_subscribe``) writes
one fixed-size record per operator to the pipe ``fd`` after each run of the model, which the
``get_op_*`` calls read. *simulator:* the record layout is the simulator's (``OP_DESC``, its size
is what ``get_op_desc_size`` says); the pipe is written without blocking, so a reader that falls
behind loses records (with a warning) instead of hanging the run.

Formats and return shapes: hicann/runtime python/pyACL/prof/prof_wrap.cpp at 134e2edb.
UNCONFIRMED codes: 100000 for a NULL/unknown config, stamp or subscription and for start before
init; 100002 for a second init; 100042 for acl.prof.init while acl.init's profiler section collects
(the guide says only "an error"); 100043 (ACL_ERROR_PROF_NOT_RUN) for stop/finalize without a
session; 100042 for a second start; 148046 for subscribing a model twice; 148047 when a session and a
subscription overlap; 100011 for subscribing a model that is not loaded.
"""
from __future__ import annotations

import json
import os
import struct
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ...spec import prof as P
from ..core.args import INIT, binding
from ..rt.memory import host_view
from ..mdl.model import models
from ..rt.stream import Stream, enqueue, resolve_stream
from ..core.state import SimulatorFault, create_handle, destroy_handle, fail, state, warn
from ..core.timeline import LAUNCH_US, DEVICE_BYTES_PER_US, MODEL_HOOKS, Slice, clock

NOTE = ("simulator: acl-teach's simulated device timings (cost model in acl_teach/sim/core/timeline.py), "
        "not measured on an NPU")
TRACE_FILE = "trace_view.json"

# one operator record on a subscription pipe: magic, model id, index, reserved, start/end/duration (ns),
# op type, op name (NUL-padded)
OP_DESC = struct.Struct("<4sIII3Q64s160s")
OP_MAGIC = b"ATOP"


@dataclass
class ProfConfig:
    device_ids: List[int]
    aicore_metrics: int
    data_types: int


@dataclass
class SubscribeConfig:
    time_switch: int
    aicore_metrics: int
    fd: int


@dataclass
class Stamp:
    message: str = ""


@dataclass
class StepInfo:
    stamps: List[Any] = field(default_factory=list)


@dataclass
class Session:
    """One collection: where it writes, what it collects, where in the clock's log it began."""

    out_dir: str
    data_types: int
    first_slice: int
    config: int = 0  # the config handle given to start (0: acl.init's profiler section)


class Profiler:
    """Profiling state of one simulated process."""

    def __init__(self) -> None:
        self.path: Optional[str] = None
        self.session: Optional[Session] = None
        self.subscriptions: Dict[int, int] = {}  # model id -> subscribe config handle
        self.ranges: Dict[int, tuple] = {}
        self.next_range = 1
        self.stacks = threading.local()
        self.written: List[str] = []
        self.settings: Dict[int, str] = {}

    def on_finalize(self, by: str) -> None:
        """acl.finalize ends a session still collecting (acl.init's section ends here) and writes it."""
        if self.session is not None:
            end_session(self)
        self.subscriptions.clear()


def profiler() -> Profiler:
    subs = state().subsystems
    if "profiler" not in subs:
        subs["profiler"] = Profiler()
    return subs["profiler"]


# --- the session and its file -------------------------------------------------------------------

def begin_session(prof: Profiler, out_dir: str, data_types: int, config: int) -> None:
    """Start recording the clock's slices into a new session."""
    ck = clock()
    ck.recording += 1
    prof.session = Session(out_dir, data_types, len(ck.slices), config)


def _trace(prof: Profiler, slices: List[Slice], data_types: int) -> Dict[str, Any]:
    """The Chrome-trace document of a session's slices, lanes in order of first appearance."""
    lanes: Dict[str, int] = {}
    events: List[Dict[str, Any]] = []
    for s in slices:
        if s.cat == "op" and not data_types & (P.ACL_PROF_TASK_TIME | P.ACL_PROF_TASK_TIME_L0):
            continue
        if s.cat in ("mark", "range") and not data_types & P.ACL_PROF_MSPROFTX:
            continue
        tid = lanes.setdefault(s.lane, len(lanes) + 1)
        ev = {"name": s.name, "cat": s.cat, "pid": 0, "tid": tid, "ts": round(s.start_us, 3), "args": s.args}
        if s.cat == "mark":
            ev.update(ph="i", s="t")
        else:
            ev.update(ph="X", dur=round(s.dur_us, 3))
        events.append(ev)
    meta = [{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": f"device 0 ({NOTE})"}}]
    meta += [{"name": "thread_name", "ph": "M", "pid": 0, "tid": tid, "args": {"name": lane}}
             for lane, tid in lanes.items()]
    return {"traceEvents": meta + events, "displayTimeUnit": "ms",
            "otherData": {"producer": "acl-teach simulator", "note": NOTE, "data_type_config": data_types}}


def _unique_dir(out_dir: str) -> str:
    """A new PROF_* folder directly inside ``out_dir`` (never outside it, never an existing one)."""
    base = os.path.realpath(out_dir)
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
    for n in range(1, 10000):
        target = os.path.join(base, f"PROF_{n:06d}_{stamp}_sim")
        if os.path.dirname(target) != base:
            raise OSError("profiling folder would leave the output folder")
        try:
            os.mkdir(target)
            return target
        except FileExistsError:
            continue
    raise OSError("no free PROF_* name")


def end_session(prof: Profiler) -> Optional[str]:
    """Stop recording and write the session's timeline; the file's path (None when it could not be written)."""
    sess, prof.session = prof.session, None
    ck = clock()
    ck.recording = max(0, ck.recording - 1)
    with ck.lock:
        slices = list(ck.slices[sess.first_slice:])
        if not ck.recording:
            ck.slices.clear()
    doc = _trace(prof, slices, sess.data_types)
    try:
        folder = _unique_dir(sess.out_dir)
        path = os.path.join(folder, TRACE_FILE)
        with open(path, "x", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
    except OSError as exc:
        warn(0, "acl.prof.stop", f"the timeline could not be written into {sess.out_dir!r}: {exc}.")
        return None
    prof.written.append(path)
    return path


def start_from_config(api: str, section: Any) -> int:
    """acl.init's ``profiler`` section: switch "on" starts a session until acl.finalize (0 or a code)."""
    if not isinstance(section, dict):
        return fail(100010, api, "the config's \"profiler\" entry must be an object such as "
                    "{\"switch\": \"on\", \"output\": \"prof_out\", \"task_time\": \"on\"}.")
    if str(section.get("switch", "off")).lower() != "on":
        return 0
    out = section.get("output") or os.getcwd()  # a board writes into the working directory by default
    if not isinstance(out, str):
        return fail(100010, api, "profiler.output must be a folder path (a string).")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        return fail(100010, api, f"profiler.output {out!r} cannot be used as a folder: {exc}.")
    types = P.ACL_PROF_ACL_API
    for key, bit in (("task_time", P.ACL_PROF_TASK_TIME), ("aicpu", P.ACL_PROF_AICPU),
                     ("msproftx", P.ACL_PROF_MSPROFTX), ("training_trace", P.ACL_PROF_TRAINING_TRACE)):
        if str(section.get(key, "on" if key == "task_time" else "off")).lower() in ("on", "l0", "l1"):
            types |= bit
    begin_session(profiler(), out, types, 0)
    return 0


def _model_ran(model_id: int, start_us: float, cost: Any, lane: str) -> None:
    """MODEL_HOOKS entry: operator slices for the timeline, and records for a subscribed model's pipe."""
    prof = profiler()
    if not clock().recording and model_id not in prof.subscriptions:
        return  # nothing collects: no per-operator work on the execute path
    t = start_us + LAUNCH_US + cost.weight_bytes / DEVICE_BYTES_PER_US
    placed = []
    for i, op in enumerate(cost.ops):
        placed.append((i, op, t))
        clock().log(op.name, "op", lane, t, op.us, {"type": op.op_type, "model_id": model_id})
        t += op.us
    sub = state().lookup(prof.subscriptions.get(model_id, 0), SubscribeConfig)
    if sub is None:
        return
    data = b"".join(OP_DESC.pack(OP_MAGIC, model_id, i, 0, int(t0 * 1000), int((t0 + op.us) * 1000),
                                 int(op.us * 1000), op.op_type.encode()[:63], op.name.encode()[:159])
                    for i, op, t0 in placed)
    _write_pipe(sub.fd, data)


def _write_pipe(fd: int, data: bytes) -> None:
    """Write without ever blocking the run: a full pipe loses the rest, with a warning."""
    try:
        blocking = os.get_blocking(fd)
        os.set_blocking(fd, False)
    except OSError as exc:
        warn(0, "acl.prof (model subscription)", f"fd {fd} is not writable ({exc}); the operator records "
             f"were dropped. Pass the write end of os.pipe() to create_subscribe_config.")
        return
    try:
        sent = 0
        while sent < len(data):
            sent += os.write(fd, data[sent:])
    except BlockingIOError:
        warn(0, "acl.prof (model subscription)", f"the pipe is full (nobody reads it fast enough); "
             f"{(len(data) - sent) // OP_DESC.size} operator record(s) were dropped. Read the pipe in "
             f"another thread, as the profiling sample does.")
    except OSError as exc:
        warn(0, "acl.prof (model subscription)", f"writing the operator records to fd {fd} failed: {exc}.")
    finally:
        try:
            os.set_blocking(fd, blocking)
        except OSError:
            pass


MODEL_HOOKS.append(_model_ran)


# --- init / config / start / stop -----------------------------------------------------------------

@binding("acl.prof.init", "s", needs=INIT)
def init(api, profiler_result_path):
    """Choose the folder the sessions write into (created if needed)."""
    prof = profiler()
    if prof.session is not None and not prof.session.config:
        return fail(P.ACL_ERROR_PROF_ALREADY_RUN, api, "profiling was switched on by the \"profiler\" section of "
                    "acl.init's config file: the pyACL profiling guide says acl.prof.init/start/stop/finalize then "
                    "return an error. Use one way or the other, not both.")
    if prof.path is not None:
        return fail(100002, api, f"acl.prof.init already ran (folder {prof.path!r}); call acl.prof.finalize first.")
    if not profiler_result_path:
        return fail(100000, api, "the profiling result path is empty.")
    try:
        os.makedirs(profiler_result_path, exist_ok=True)
    except OSError as exc:
        return fail(100000, api, f"{profiler_result_path!r} cannot be used as a folder: {exc}.")
    prof.path = profiler_result_path
    return 0


@binding("acl.prof.finalize", needs=INIT)
def finalize(api):
    """End profiling (a session still running is stopped and written)."""
    prof = profiler()
    if prof.path is None:
        return fail(P.ACL_ERROR_PROF_NOT_RUN, api, "acl.prof.init was not called.")
    if prof.session is not None and prof.session.config:
        warn(0, api, "a session was still running: it was stopped and written. Call acl.prof.stop(config) "
             "before acl.prof.finalize.")
        end_session(prof)
    prof.path = None
    return 0


@binding("acl.prof.create_config", "OikK", needs=INIT)
def create_config(api, device_id_list, aicore_metrics, aicore_events, data_type_config):
    """A profiling config for these devices and ACL_PROF_* data types (0 when it is invalid)."""
    if not isinstance(device_id_list, list):
        raise TypeError("argument 1 is not list")
    if any(type(d) is not int and not isinstance(d, int) for d in device_id_list):
        raise TypeError("the first argument is not list of int")
    count = state().config.device_count
    if not device_id_list or any(not 0 <= d < count for d in device_id_list):
        fail(100000, api, f"device ids {device_id_list} must be a non-empty list of existing devices "
             f"(0..{count - 1}); returned 0 (NULL).")
        return 0
    return create_handle(ProfConfig(list(device_id_list), aicore_metrics, data_type_config), "profiling config",
                         f"devices {device_id_list}, data types {data_type_config:#x}")


@binding("acl.prof.destroy_config", "k", needs=INIT)
def destroy_config(api, profiler_config):
    """Destroy a config from create_config."""
    return destroy_handle(api, profiler_config, ProfConfig, "profiling config")


@binding("acl.prof.start", "k", needs=INIT)
def start(api, profiler_config):
    """Start collecting with this config (after acl.prof.init)."""
    prof = profiler()
    cfg = state().lookup(profiler_config, ProfConfig)
    if cfg is None:
        return fail(100000, api, f"{state().describe_handle(profiler_config)} is not a config from "
                    f"acl.prof.create_config.")
    if prof.path is None:
        return fail(100000, api, "call acl.prof.init(result_path) before acl.prof.start.")
    if prof.session is not None:
        return fail(P.ACL_ERROR_PROF_ALREADY_RUN, api, "a profiling session is already running "
                    "(acl.prof.start twice, or acl.init's profiler section).")
    if prof.subscriptions:
        return fail(P.ACL_ERROR_PROF_API_CONFLICT, api, "a model subscription is active; unsubscribe it first.")
    begin_session(prof, prof.path, cfg.data_types, profiler_config)
    return 0


@binding("acl.prof.stop", "k", needs=INIT)
def stop(api, profiler_config):
    """Stop collecting and write the timeline file into the init folder."""
    prof = profiler()
    sess = prof.session
    if sess is None or not sess.config:
        return fail(P.ACL_ERROR_PROF_NOT_RUN, api, "no session started by acl.prof.start is running.")
    if profiler_config != sess.config:
        return fail(100000, api, "stop with the config handle the session was started with.")
    end_session(prof)
    return 0


@binding("acl.prof.set_config", "is", needs=INIT)
def set_config(api, config_type, config):
    """Set a global profiling option (aclprofConfigType: 1 storage limit …); kept, no effect on a CPU.

    UNCONFIRMED: the simulator accepts types 1..255 (the header's list grows between CANN versions).
    """
    if not 1 <= config_type <= 0xFF:
        return fail(100000, api, f"config type {config_type} is not an aclprofConfigType.")
    profiler().settings[config_type] = config
    return 0


# --- model subscription ---------------------------------------------------------------------------

@binding("acl.prof.create_subscribe_config", "bii", needs=INIT)
def create_subscribe_config(api, time_info_switch, aicore_metrics, fd):
    """A subscription config: operator records go to the pipe ``fd`` (its write end)."""
    return create_handle(SubscribeConfig(time_info_switch, aicore_metrics, fd), "profiling subscribe config",
                         f"fd {fd}")


@binding("acl.prof.destroy_subscribe_config", "k", needs=INIT)
def destroy_subscribe_config(api, prof_subscribe_config):
    """Destroy a config from create_subscribe_config."""
    return destroy_handle(api, prof_subscribe_config, SubscribeConfig, "profiling subscribe config")


@binding("acl.prof.model_subscribe", "Ik", needs=INIT)
def model_subscribe(api, model_id, prof_subscribe_config):
    """After each run of the model, write its operator records to the config's pipe."""
    prof = profiler()
    if state().lookup(prof_subscribe_config, SubscribeConfig) is None:
        return fail(100000, api, f"{state().describe_handle(prof_subscribe_config)} is not a subscribe config.")
    if model_id not in models().loaded:
        return fail(100011, api, f"model {model_id} is not loaded.")
    if model_id in prof.subscriptions:
        return fail(P.ACL_ERROR_PROF_REPEAT_SUBSCRIBE, api, f"model {model_id} is already subscribed.")
    if prof.session is not None:
        return fail(P.ACL_ERROR_PROF_API_CONFLICT, api, "a profiling session (acl.prof.start) is running.")
    prof.subscriptions[model_id] = prof_subscribe_config
    return 0


def _unsubscribe(api, model_id):
    prof = profiler()
    if prof.subscriptions.pop(model_id, None) is None:
        return fail(100000, api, f"model {model_id} is not subscribed.")
    return 0


@binding("acl.prof.model_unsubscribe", "I", needs=INIT)
def model_unsubscribe(api, model_id):
    """End a model's subscription."""
    return _unsubscribe(api, model_id)


@binding("acl.prof.model_un_subscribe", "I", needs=INIT)
def model_un_subscribe(api, model_id):
    """The same as model_unsubscribe (pyACL keeps this older spelling for compatibility)."""
    return _unsubscribe(api, model_id)


@binding("acl.prof.get_op_desc_size")
def get_op_desc_size(api):
    """(size of one operator record, ret)."""
    return OP_DESC.size, 0


def _records(api: str, op_info: int, op_info_len: int):
    """The operator records at ``op_info`` (list), or an error code."""
    if op_info == 0 or op_info_len == 0 or op_info_len % OP_DESC.size:
        return fail(100000, api, f"op_info_len {op_info_len} must be a positive multiple of "
                    f"acl.prof.get_op_desc_size() ({OP_DESC.size}) at a non-NULL address.")
    try:
        raw = bytes(host_view(api, op_info, op_info_len))
    except SimulatorFault as exc:
        return fail(100000, api, str(exc))
    recs = [OP_DESC.unpack_from(raw, i) for i in range(0, op_info_len, OP_DESC.size)]
    if any(r[0] != OP_MAGIC for r in recs):
        return fail(100000, api, "the buffer does not hold operator records read from the subscription pipe.")
    return recs


def _record(api, op_info, op_info_len, index):
    recs = _records(api, op_info, op_info_len)
    if isinstance(recs, int):
        return None, recs
    if index >= len(recs):
        return None, fail(100000, api, f"index {index} is past the {len(recs)} operator record(s).")
    return recs[index], 0


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


@binding("acl.prof.get_op_num", "kk")
def get_op_num(api, op_info, op_info_len):
    """(number of operator records in the buffer, ret)."""
    recs = _records(api, op_info, op_info_len)
    return (0, recs) if isinstance(recs, int) else (len(recs), 0)


def _string(api, op_info, op_info_len, index, length, which):
    if length > 4096:
        return "", 100000
    rec, ret = _record(api, op_info, op_info_len, index)
    if ret:
        return "", ret
    value = _text(rec[7] if which == "type" else rec[8])
    if length < len(value.encode()) + 1:
        return "", fail(100000, api, f"op_{which}_len {length} is too small for {value!r}; use "
                        f"acl.prof.get_op_{which}_len (or get_op_{which}_v2).")
    return value, 0


@binding("acl.prof.get_op_type", "kkIk")
def get_op_type(api, op_info, op_info_len, index, op_type_len):
    """(operator type, ret) of record ``index``."""
    return _string(api, op_info, op_info_len, index, op_type_len, "type")


@binding("acl.prof.get_op_name", "kkIk")
def get_op_name(api, op_info, op_info_len, index, op_name_len):
    """(operator name, ret) of record ``index``."""
    return _string(api, op_info, op_info_len, index, op_name_len, "name")


def _v2(api, op_info, op_info_len, index, which):
    rec, ret = _record(api, op_info, op_info_len, index)
    if ret:
        return None, ret
    return _text(rec[7] if which == "type" else rec[8]), 0


@binding("acl.prof.get_op_type_v2", "kkI")
def get_op_type_v2(api, op_info, op_info_len, index):
    """(operator type, ret), sized by the runtime; (None, ret) on failure."""
    return _v2(api, op_info, op_info_len, index, "type")


@binding("acl.prof.get_op_name_v2", "kkI")
def get_op_name_v2(api, op_info, op_info_len, index):
    """(operator name, ret), sized by the runtime; (None, ret) on failure."""
    return _v2(api, op_info, op_info_len, index, "name")


def _len(api, op_info, op_info_len, index, which):
    value, ret = _v2(api, op_info, op_info_len, index, which)
    return (0, ret) if ret else (len(value.encode()) + 1, 0)


@binding("acl.prof.get_op_type_len", "kkI")
def get_op_type_len(api, op_info, op_info_len, index):
    """(bytes needed for the type, with its NUL, ret)."""
    return _len(api, op_info, op_info_len, index, "type")


@binding("acl.prof.get_op_name_len", "kkI")
def get_op_name_len(api, op_info, op_info_len, index):
    """(bytes needed for the name, with its NUL, ret)."""
    return _len(api, op_info, op_info_len, index, "name")


def _field(api, op_info, op_info_len, index, pos):
    rec, ret = _record(api, op_info, op_info_len, index)
    return 0 if ret else rec[pos]


@binding("acl.prof.get_op_start", "kkI")
def get_op_start(api, op_info, op_info_len, index):
    """When the operator started, ns of simulated device time (0 on failure)."""
    return _field(api, op_info, op_info_len, index, 4)


@binding("acl.prof.get_op_end", "kkI")
def get_op_end(api, op_info, op_info_len, index):
    """When the operator ended, ns of simulated device time (0 on failure)."""
    return _field(api, op_info, op_info_len, index, 5)


@binding("acl.prof.get_op_duration", "kkI")
def get_op_duration(api, op_info, op_info_len, index):
    """How long the operator ran, ns of simulated device time (0 on failure)."""
    return _field(api, op_info, op_info_len, index, 6)


@binding("acl.prof.get_model_id", "kkI")
def get_model_id(api, op_info, op_info_len, index):
    """The model the record belongs to (0 on failure)."""
    return _field(api, op_info, op_info_len, index, 1)


# --- stamps, marks, ranges, steps ------------------------------------------------------------------

def _collecting(kind: str) -> bool:
    sess = profiler().session
    return sess is not None and bool(sess.data_types & P.ACL_PROF_MSPROFTX)


def _lane() -> str:
    return f"thread {threading.get_native_id()} (msproftx)"


@binding("acl.prof.create_stamp")
def create_stamp(api):
    """A stamp (a labelled marker for mark / push / range_start)."""
    return create_handle(Stamp(), "profiling stamp", "create_stamp")


@binding("acl.prof.destroy_stamp", "k")
def destroy_stamp(api, stamp):
    """Destroy a stamp; returns None."""
    destroy_handle(api, stamp, Stamp, "profiling stamp")
    return None


@binding("acl.prof.set_stamp_trace_message", "ksI")
def set_stamp_trace_message(api, stamp, msg, msg_len):
    """Label a stamp with the first ``msg_len`` bytes of ``msg``."""
    obj = state().lookup(stamp, Stamp)
    if obj is None:
        return fail(100000, api, f"{state().describe_handle(stamp)} is not a stamp.")
    if msg_len > len(msg.encode()):
        return fail(100000, api, f"msg_len {msg_len} is longer than the message ({len(msg.encode())} bytes).")
    obj.message = msg.encode()[:msg_len].decode("utf-8", "replace")
    return 0


def _stamp(api: str, stamp: int):
    obj = state().lookup(stamp, Stamp)
    if obj is None:
        return None, fail(100000, api, f"{state().describe_handle(stamp)} is not a stamp from acl.prof.create_stamp.")
    return obj, 0


@binding("acl.prof.mark", "k")
def mark(api, stamp):
    """An instant marker at the current host time (recorded while a session collects ACL_PROF_MSPROFTX)."""
    obj, ret = _stamp(api, stamp)
    if ret:
        return ret
    if _collecting("mark"):
        clock().log(obj.message or "mark", "mark", _lane(), clock().host_us, 0.0)
    return 0


@binding("acl.prof.mark_ex", "sk")
def mark_ex(api, msg, stream):
    """A marker placed in ``stream``: stamped when the stream gets there."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    collecting = _collecting("mark")

    def task():
        if collecting:
            s = state().lookup(handle, Stream)
            clock().log(msg, "mark", f"stream {handle:#x}", s.clock_us if s else clock().host_us, 0.0)
        return None

    return enqueue(handle, f"mark {msg}", task, api, cat="mark")


def _stack() -> List[Any]:
    st = profiler().stacks
    if not hasattr(st, "items"):
        st.items = []
    return st.items


@binding("acl.prof.push", "k")
def push(api, stamp):
    """Open a nested range on this thread (closed by pop)."""
    obj, ret = _stamp(api, stamp)
    if ret:
        return ret
    _stack().append((obj.message or "range", clock().host_us))
    return 0


@binding("acl.prof.pop")
def pop(api):
    """Close the innermost range opened by push on this thread."""
    items = _stack()
    if not items:
        return fail(100000, api, "no range pushed on this thread.")
    name, t0 = items.pop()
    if _collecting("range"):
        clock().log(name, "range", _lane(), t0, clock().host_us - t0)
    return 0


@binding("acl.prof.range_start", "k")
def range_start(api, stamp):
    """(range id, ret): open a range that range_stop(range_id) closes (any thread)."""
    obj, ret = _stamp(api, stamp)
    if ret:
        return 0, ret
    prof = profiler()
    rid, prof.next_range = prof.next_range, prof.next_range + 1
    prof.ranges[rid] = (obj.message or "range", clock().host_us, _lane())
    return rid, 0


@binding("acl.prof.range_stop", "I")
def range_stop(api, range_id):
    """Close a range from range_start."""
    item = profiler().ranges.pop(range_id, None)
    if item is None:
        return fail(100000, api, f"range {range_id} is not open.")
    name, t0, lane = item
    if _collecting("range"):
        clock().log(name, "range", lane, t0, clock().host_us - t0)
    return 0


@binding("acl.prof.create_step_info")
def create_step_info(api):
    """A step-info object for get_step_timestamp (training trace)."""
    return create_handle(StepInfo(), "profiling step info", "create_step_info")


@binding("acl.prof.destroy_step_info", "k")
def destroy_step_info(api, step_info):
    """Destroy a step info; returns None."""
    destroy_handle(api, step_info, StepInfo, "profiling step info")
    return None


@binding("acl.prof.get_step_timestamp", "kik")
def get_step_timestamp(api, step_info, tag, stream):
    """Mark the start (ACL_STEP_START 0) or end (1) of a step in ``stream``."""
    info = state().lookup(step_info, StepInfo)
    if info is None:
        return fail(100000, api, f"{state().describe_handle(step_info)} is not a step info.")
    if tag not in (P.ACL_STEP_START, P.ACL_STEP_END):
        return fail(100000, api, f"tag {tag} must be ACL_STEP_START (0) or ACL_STEP_END (1).")
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    name = "step start" if tag == P.ACL_STEP_START else "step end"

    def task():
        s = state().lookup(handle, Stream)
        info.stamps.append((tag, s.clock_us if s else 0.0))
        clock().log(name, "step", f"stream {handle:#x}", s.clock_us if s else 0.0, 0.0)
        return None

    return enqueue(handle, name, task, api, cat="step")
