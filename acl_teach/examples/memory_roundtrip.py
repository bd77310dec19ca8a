"""A pyACL script in the style of the official samples: bytes -> device -> host -> bytes.

Runs unchanged on an Ascend machine (``python3 memory_roundtrip.py``) and on the simulator
(``python -m acl_teach.sim examples/memory_roundtrip.py``).
"""
import acl
import numpy as np

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
DEVICE_ID = 0


def check_ret(message, ret):
    if ret != 0:
        raise Exception("{} failed ret={}".format(message, ret))


def main():
    ret = acl.init()
    check_ret("acl.init", ret)
    print("[init] acl.init ok, soc:", acl.get_soc_name())
    ret = acl.rt.set_device(DEVICE_ID)
    check_ret("acl.rt.set_device", ret)
    context, ret = acl.rt.create_context(DEVICE_ID)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    run_mode, ret = acl.rt.get_run_mode()
    check_ret("acl.rt.get_run_mode", ret)
    print("[resources] device 0, context, stream ready; run mode:",
          "ACL_HOST" if run_mode == 1 else "ACL_DEVICE")

    data = np.arange(16, dtype=np.float32)
    host_bytes = data.tobytes()
    size = len(host_bytes)
    dev_ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    src_ptr = acl.util.bytes_to_ptr(host_bytes)
    ret = acl.rt.memcpy(dev_ptr, size, src_ptr, size, ACL_MEMCPY_HOST_TO_DEVICE)
    check_ret("acl.rt.memcpy H2D", ret)
    print("[memory] copied %d bytes host -> device" % size)

    host_ptr, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    ret = acl.rt.memcpy(host_ptr, size, dev_ptr, size, ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy D2H", ret)
    back = acl.util.ptr_to_bytes(host_ptr, size)
    result = np.frombuffer(back, dtype=np.float32)
    print("[memory] copied back:", result.tolist())
    print("[memory] round trip identical:", back == host_bytes)

    ret = acl.rt.free_host(host_ptr)
    check_ret("acl.rt.free_host", ret)
    ret = acl.rt.free(dev_ptr)
    check_ret("acl.rt.free", ret)
    ret = acl.rt.destroy_stream(stream)
    check_ret("acl.rt.destroy_stream", ret)
    ret = acl.rt.destroy_context(context)
    check_ret("acl.rt.destroy_context", ret)
    ret = acl.rt.reset_device(DEVICE_ID)
    check_ret("acl.rt.reset_device", ret)
    ret = acl.finalize()
    check_ret("acl.finalize", ret)
    print("[release] all resources released, acl.finalize ok")


if __name__ == "__main__":
    main()
