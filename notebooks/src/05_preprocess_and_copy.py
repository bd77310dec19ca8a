# %% [markdown]
# # 05 · Image → fp16 NCHW bytes → device
# **You will be able to:** preprocess a photo the way the model was trained, turn it into a C pointer
# with `bytes_to_ptr` (and know how long that pointer lives), and copy it host → device (H2D).

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
from PIL import Image
img = at.load_image("../data/images/chelsea.png")
print(img.size, img.mode)
x = at.preprocess(img, dims=(1, 3, 224, 224), dtype=np.float16)    # EfficientNet-Lite recipe
print(x.dtype, x.shape, x.nbytes, "bytes", "min %.3f max %.3f" % (float(x.min()), float(x.max())))

# %% [markdown]
# ## Python bytes → C pointer (指针)
# `bytes_to_ptr` returns the address *inside* the bytes object — no copy. The pointer is valid only
# while the object lives: keep it in a variable. `ptr_to_bytes` goes the other way and copies.

# %%
acl.init(); acl.rt.set_device(0)
context, _ = acl.rt.create_context(0)
host_bytes = x.tobytes()
ptr = acl.util.bytes_to_ptr(host_bytes)
print(acl.util.ptr_to_bytes(ptr, 8) == host_bytes[:8])

# %%
size = len(host_bytes)
dev_ptr, _ = acl.rt.malloc(size, 0)
from acl_teach.widgets import BufferView
view = BufferView(dev_ptr, size, dtype="float16", shape=[1, 3, 224, 224])
print("before:", view.hex_lines[0])
ret = acl.rt.memcpy(dev_ptr, size, ptr, size, 1)     # 1 = ACL_MEMCPY_HOST_TO_DEVICE
view.refresh()
print("memcpy ->", ret)
print("after: ", view.hex_lines[0])
view

# %% [markdown]
# ## Mistakes the runtime rejects
# The copy kind must match where the memory lives; the count must fit the destination; a pointer
# whose bytes object is gone is refused (on real hardware it would read garbage).

# %%
print(acl.rt.memcpy(dev_ptr, size, ptr, size, 2), "<- DEVICE_TO_HOST with a host source")
print(acl.rt.memcpy(dev_ptr, size // 2, ptr, size, 1), "<- count > dst_max")
dangling = acl.util.bytes_to_ptr(x.tobytes())   # the temporary bytes object dies right away
print(acl.rt.memcpy(dev_ptr, size, dangling, size, 1), "<- dangling pointer")

# %% [markdown]
# ## The step API: `copy_to_device` checks dtype and size against the desc first

# %%
acl.rt.free(dev_ptr)
d = at.query_desc(at.load_model(at.models.default_om()))
inputs = at.build_dataset(d, "input")
try:
    at.copy_to_device(x.astype(np.float32), inputs, 0, desc=d)
except ValueError as e:
    print(e)
print(at.copy_to_device(x, inputs, 0, desc=d))

# %% [markdown]
# ## Exercise
# Prepare the rocket photo for this model's input and check it.

# %%
rocket = at.preprocess("../data/images/rocket.jpg", dims=d.inputs[0].dims, dtype=np.float16)
print(lab.check_input_array(rocket.astype(np.float32), d))
lab.check_input_array(rocket, d)

# %%
at.release_dataset(inputs); acl.mdl.destroy_desc(d.model_desc); acl.mdl.unload(d.model_id)
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()
print(lab.ledger_summary())
