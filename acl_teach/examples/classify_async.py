"""Asynchronous classification with a callback thread, in the style of the official async sample.

Usage: python3 classify_async.py MODEL.om IMAGE [IMAGE ...]
Pattern: acl.util.start_thread -> acl.rt.subscribe_report -> per image acl.mdl.execute_async +
acl.rt.launch_callback -> acl.rt.synchronize_stream -> unsubscribe_report -> stop_thread.
The callback reads each image's result (as the guide asks for asynchronous inference); its user data is a
list, [index of the job], the type pyACL's documentation gives for launch_callback.
Each image gets its own input/output device buffers, so in-flight work never shares memory.
"""
import sys

import acl
import numpy as np

from classify_sync import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE,
                           DEVICE_ID, check_ret, preprocess)

ACL_CALLBACK_BLOCK = 1


class AsyncNet(object):
    def __init__(self, model_path):
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
        self.context, ret = acl.rt.create_context(DEVICE_ID)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        check_ret("acl.mdl.get_desc", acl.mdl.get_desc(self.model_desc, self.model_id))
        self.exit_flag = False
        self.jobs = []

    def _callback_loop(self, args_list):
        context, timeout = args_list
        acl.rt.set_context(context)
        while True:
            acl.rt.process_report(timeout)
            if self.exit_flag:
                break

    def _buffers(self, count, size_of):
        dataset = acl.mdl.create_dataset()
        items = []
        for i in range(count):
            size = size_of(self.model_desc, i)
            ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
            check_ret("acl.mdl.add_dataset_buffer", ret)
            items.append({"buffer": ptr, "size": size})
        return dataset, items

    def _on_done(self, user_data):
        job = self.jobs[user_data[0]]  # user_data is the list given to launch_callback (a list, as documented)
        out = job["outputs"][0]
        host_ptr, ret = acl.rt.malloc_host(out["size"])
        check_ret("acl.rt.malloc_host", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(host_ptr, out["size"], out["buffer"], out["size"],
                                                 ACL_MEMCPY_DEVICE_TO_HOST))
        vals = np.frombuffer(acl.util.ptr_to_bytes(host_ptr, out["size"]), dtype=np.float32).copy()
        check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
        job["top5"] = vals.argsort()[-1:-6:-1]
        job["vals"] = vals

    def run(self, images):
        tid, ret = acl.util.start_thread(self._callback_loop, [self.context, 50])
        check_ret("acl.util.start_thread", ret)
        check_ret("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, self.stream))
        for path in images:
            in_ds, inputs = self._buffers(acl.mdl.get_num_inputs(self.model_desc), acl.mdl.get_input_size_by_index)
            out_ds, outputs = self._buffers(acl.mdl.get_num_outputs(self.model_desc),
                                            acl.mdl.get_output_size_by_index)
            data = preprocess(path).tobytes()
            check_ret("acl.rt.memcpy", acl.rt.memcpy(inputs[0]["buffer"], inputs[0]["size"],
                                                     acl.util.bytes_to_ptr(data), len(data),
                                                     ACL_MEMCPY_HOST_TO_DEVICE))
            job = {"image": path, "in": in_ds, "out": out_ds, "inputs": inputs, "outputs": outputs}
            self.jobs.append(job)
            check_ret("acl.mdl.execute_async", acl.mdl.execute_async(self.model_id, in_ds, out_ds, self.stream))
            check_ret("acl.rt.launch_callback", acl.rt.launch_callback(self._on_done, [len(self.jobs) - 1],
                                                                       ACL_CALLBACK_BLOCK, self.stream))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        check_ret("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, self.stream))
        self.exit_flag = True
        check_ret("acl.util.stop_thread", acl.util.stop_thread(tid))
        for job in self.jobs:
            print("images:{}".format(job["image"]))
            print("======== top5 inference results: =============")
            for j in job["top5"]:
                print("[%d]: %f" % (j, job["vals"][j]))

    def release(self):
        for job in self.jobs:
            for dataset in (job["in"], job["out"]):
                for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                    check_ret("acl.destroy_data_buffer",
                              acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)))
                check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
            for item in job["inputs"] + job["outputs"]:
                check_ret("acl.rt.free", acl.rt.free(item["buffer"]))
        check_ret("acl.mdl.unload", acl.mdl.unload(self.model_id))
        check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.model_desc))
        check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(self.stream))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
        check_ret("acl.finalize", acl.finalize())


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: classify_async.py MODEL.om IMAGE [IMAGE ...]")
        sys.exit(2)
    net = AsyncNet(sys.argv[1])
    net.run(sys.argv[2:])
    net.release()
    print("*****run finish******")
