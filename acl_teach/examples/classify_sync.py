"""Image classification with pyACL, written the way the official ResNet-50 Python sample is.

Usage: python3 classify_sync.py MODEL.om IMAGE [IMAGE ...]
Runs on an Ascend device, or on the simulator: python -m acl_teach.sim classify_sync.py ...
Preprocessing is the EfficientNet-Lite recipe of acl-teach's default model (resize the short
side to 256, centre-crop 224, RGB, (x - 127) / 128, fp16, NCHW).
"""
import sys

import acl
import numpy as np
from PIL import Image

DEVICE_ID = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def check_ret(message, ret):
    if ret != 0:
        raise Exception("{} failed ret={}".format(message, ret))


def preprocess(path):
    image = Image.open(path).convert("RGB")
    width, height = image.size
    scale = 256.0 / min(width, height)
    image = image.resize((round(width * scale), round(height * scale)), Image.BICUBIC)
    width, height = image.size
    left, top = (width - 224) // 2, (height - 224) // 2
    image = image.crop((left, top, left + 224, top + 224))
    pixels = (np.asarray(image, dtype=np.float32) - 127.0) / 128.0
    return np.ascontiguousarray(pixels.transpose(2, 0, 1)[np.newaxis].astype(np.float16))


class Net(object):
    def __init__(self, model_path):
        self.device_id = DEVICE_ID
        ret = acl.init()
        check_ret("acl.init", ret)
        ret = acl.rt.set_device(self.device_id)
        check_ret("acl.rt.set_device", ret)
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check_ret("acl.mdl.load_from_file", ret)
        print("model_id:{}".format(self.model_id))
        self.model_desc = acl.mdl.create_desc()
        ret = acl.mdl.get_desc(self.model_desc, self.model_id)
        check_ret("acl.mdl.get_desc", ret)
        self.inputs = self._malloc_all(acl.mdl.get_num_inputs(self.model_desc), acl.mdl.get_input_size_by_index)
        self.outputs = self._malloc_all(acl.mdl.get_num_outputs(self.model_desc), acl.mdl.get_output_size_by_index)

    def _malloc_all(self, count, size_of):
        buffers = []
        for i in range(count):
            size = size_of(self.model_desc, i)
            ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            buffers.append({"buffer": ptr, "size": size})
        return buffers

    def _dataset(self, items):
        dataset = acl.mdl.create_dataset()
        for item in items:
            data = acl.create_data_buffer(item["buffer"], item["size"])
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            check_ret("acl.mdl.add_dataset_buffer", ret)
        return dataset

    def _destroy_dataset(self, dataset):
        for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
            ret = acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            check_ret("acl.destroy_data_buffer", ret)
        ret = acl.mdl.destroy_dataset(dataset)
        check_ret("acl.mdl.destroy_dataset", ret)

    def run(self, image_path):
        img = preprocess(image_path)
        bytes_data = img.tobytes()
        ptr = acl.util.bytes_to_ptr(bytes_data)
        item = self.inputs[0]
        ret = acl.rt.memcpy(item["buffer"], item["size"], ptr, len(bytes_data), ACL_MEMCPY_HOST_TO_DEVICE)
        check_ret("acl.rt.memcpy", ret)
        input_dataset = self._dataset(self.inputs)
        output_dataset = self._dataset(self.outputs)
        ret = acl.mdl.execute(self.model_id, input_dataset, output_dataset)
        check_ret("acl.mdl.execute", ret)
        self._destroy_dataset(input_dataset)
        self._destroy_dataset(output_dataset)
        out = self.outputs[0]
        host_ptr, ret = acl.rt.malloc_host(out["size"])
        check_ret("acl.rt.malloc_host", ret)
        ret = acl.rt.memcpy(host_ptr, out["size"], out["buffer"], out["size"], ACL_MEMCPY_DEVICE_TO_HOST)
        check_ret("acl.rt.memcpy", ret)
        dims, ret = acl.mdl.get_cur_output_dims(self.model_desc, 0)
        check_ret("acl.mdl.get_cur_output_dims", ret)
        result = np.frombuffer(acl.util.ptr_to_bytes(host_ptr, out["size"]), dtype=np.float32)
        result = result.reshape(tuple(dims["dims"]))
        ret = acl.rt.free_host(host_ptr)
        check_ret("acl.rt.free_host", ret)
        vals = result.flatten()
        top_k = vals.argsort()[-1:-6:-1]
        print("images:{}".format(image_path))
        print("======== top5 inference results: =============")
        for j in top_k:
            print("[%d]: %f" % (j, vals[j]))

    def release(self):
        ret = acl.mdl.unload(self.model_id)
        check_ret("acl.mdl.unload", ret)
        ret = acl.mdl.destroy_desc(self.model_desc)
        check_ret("acl.mdl.destroy_desc", ret)
        for item in self.inputs + self.outputs:
            ret = acl.rt.free(item["buffer"])
            check_ret("acl.rt.free", ret)
        ret = acl.rt.destroy_context(self.context)
        check_ret("acl.rt.destroy_context", ret)
        ret = acl.rt.reset_device(self.device_id)
        check_ret("acl.rt.reset_device", ret)
        ret = acl.finalize()
        check_ret("acl.finalize", ret)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: classify_sync.py MODEL.om IMAGE [IMAGE ...]")
        sys.exit(2)
    net = Net(sys.argv[1])
    for path in sys.argv[2:]:
        net.run(path)
    net.release()
    print("*****run finish******")
