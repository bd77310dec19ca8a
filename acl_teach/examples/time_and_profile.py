"""A pyACL script in the style of the official samples: time async inference with events, then profile it.

    python3 time_and_profile.py MODEL.om PROF_DIR [RUNS]

Runs unchanged on an Ascend machine and on the simulator (``python -m acl_teach.sim
examples/time_and_profile.py model.om prof_out``). Each input gets zeros of its size; two events
around RUNS ``execute_async`` calls give the time per inference, and the same runs between
``acl.prof.start`` and ``acl.prof.stop`` leave a profiling result in PROF_DIR (on the simulator: a
Chrome-trace timeline of its simulated timings; on a board: msprof's data).
"""
import sys

import acl

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_PROF_ACL_API = 0x0001
ACL_PROF_TASK_TIME = 0x0002
ACL_AICORE_NONE = 0xFF
DEVICE_ID = 0


def check_ret(message, ret):
    if ret != 0:
        raise Exception("{} failed ret={}".format(message, ret))


def make_dataset(model_desc, inputs):
    """A dataset with one device buffer per model input (inputs=True) or output, zero-filled."""
    dataset = acl.mdl.create_dataset()
    count = acl.mdl.get_num_inputs(model_desc) if inputs else acl.mdl.get_num_outputs(model_desc)
    buffers = []
    for i in range(count):
        size = (acl.mdl.get_input_size_by_index if inputs else acl.mdl.get_output_size_by_index)(model_desc, i)
        ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        check_ret("acl.rt.memset", acl.rt.memset(ptr, size, 0, size))
        data_buffer = acl.create_data_buffer(ptr, size)
        _, ret = acl.mdl.add_dataset_buffer(dataset, data_buffer)
        check_ret("acl.mdl.add_dataset_buffer", ret)
        buffers.append((data_buffer, ptr))
    return dataset, buffers


def release_dataset(dataset, buffers):
    for data_buffer, ptr in buffers:
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(data_buffer))
        check_ret("acl.rt.free", acl.rt.free(ptr))
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))


def timed_runs(model_id, inputs, outputs, stream, runs):
    """Milliseconds per inference, measured with two events around ``runs`` async executions."""
    start, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    end, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    check_ret("acl.rt.record_event", acl.rt.record_event(start, stream))
    for _ in range(runs):
        check_ret("acl.mdl.execute_async", acl.mdl.execute_async(model_id, inputs, outputs, stream))
    check_ret("acl.rt.record_event", acl.rt.record_event(end, stream))
    check_ret("acl.rt.synchronize_event", acl.rt.synchronize_event(end))
    elapsed_ms, ret = acl.rt.event_elapsed_time(start, end)
    check_ret("acl.rt.event_elapsed_time", ret)
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(start))
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(end))
    return elapsed_ms / runs


def main(model_path, prof_dir, runs):
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
    context, ret = acl.rt.create_context(DEVICE_ID)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    model_id, ret = acl.mdl.load_from_file(model_path)
    check_ret("acl.mdl.load_from_file", ret)
    model_desc = acl.mdl.create_desc()
    check_ret("acl.mdl.get_desc", acl.mdl.get_desc(model_desc, model_id))
    inputs, in_buffers = make_dataset(model_desc, True)
    outputs, out_buffers = make_dataset(model_desc, False)

    per_run = timed_runs(model_id, inputs, outputs, stream, runs)
    print("[events] {} runs: {:.3f} ms per inference".format(runs, per_run))

    check_ret("acl.prof.init", acl.prof.init(prof_dir))
    config = acl.prof.create_config([DEVICE_ID], ACL_AICORE_NONE, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME)
    if not config:
        raise Exception("acl.prof.create_config failed")
    check_ret("acl.prof.start", acl.prof.start(config))
    timed_runs(model_id, inputs, outputs, stream, runs)
    check_ret("acl.prof.stop", acl.prof.stop(config))
    check_ret("acl.prof.destroy_config", acl.prof.destroy_config(config))
    check_ret("acl.prof.finalize", acl.prof.finalize())
    print("[prof] profiling data written under", prof_dir)

    release_dataset(inputs, in_buffers)
    release_dataset(outputs, out_buffers)
    check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(model_desc))
    check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python3 time_and_profile.py MODEL.om PROF_DIR [RUNS]")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10)
