# %% [markdown]
# # 07 · Results back to the host, top-5 (后处理)
# **You will be able to:** copy outputs device → host (D2H), shape them with `get_cur_output_dims`,
# compute the top-5, and do the same on the device with the Cast and ArgMax single operators.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
at.init(); res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
at.copy_to_device(at.preprocess("../data/images/coffee.png"), inputs, 0, res, d)
_ = at.execute(model, inputs, outputs)

# %%
out = outputs.buffers[0]
host_ptr, ret = acl.rt.malloc_host(out.size)
ret = acl.rt.memcpy(host_ptr, out.size, out.ptr, out.size, 2)      # 2 = ACL_MEMCPY_DEVICE_TO_HOST
dims, ret = acl.mdl.get_cur_output_dims(d.model_desc, 0)
result = np.frombuffer(acl.util.ptr_to_bytes(host_ptr, out.size), dtype=np.float32).reshape(dims["dims"])
acl.rt.free_host(host_ptr)
print(result.shape, "sum %.3f" % result.sum())     # already probabilities: the model ends in softmax
vals = result.flatten()
top_k = vals.argsort()[-1:-6:-1]
print("======== top5 inference results: =============")
for j in top_k:
    print("[%d]: %f" % (j, vals[j]))

# %%
labels = at.models.labels()
top = at.top_k(at.unpack_outputs(d, outputs, res).arrays[0], 5, labels)
from acl_teach.widgets import Top5View
Top5View(top, image="../data/images/coffee.png")

# %% [markdown]
# ## On the device: Cast + ArgMaxD (单算子)
# The vpc sample post-processes on the NPU: cast the fp32 scores to fp16, then ArgMaxD over dimension 0.

# %%
acl.op.set_model_dir(at.models.op_model_dir())   # the ATC --singleop models of Cast and ArgMaxD
src_desc = acl.create_tensor_desc(0, [1000], 2)   # ACL_FLOAT, ND
half_desc = acl.create_tensor_desc(1, [1000], 2)  # ACL_FLOAT16
idx_desc = acl.create_tensor_desc(3, [1], 2)      # ACL_INT32
half_ptr, _ = acl.rt.malloc(2000, 0); idx_ptr, _ = acl.rt.malloc(4, 0)
half_buf, idx_buf = acl.create_data_buffer(half_ptr, 2000), acl.create_data_buffer(idx_ptr, 4)
src_buf = acl.mdl.get_dataset_buffer(outputs.dataset, 0)
print("cast ->", acl.op.cast(src_desc, src_buf, half_desc, half_buf, 0, res.stream))
attr = acl.op.create_attr(); acl.op.set_attr_int(attr, "dimension", 0)
print("ArgMaxD ->", acl.op.execute_v2("ArgMaxD", [half_desc], [half_buf], [idx_desc], [idx_buf], attr, res.stream))
print("synchronize ->", acl.rt.synchronize_stream(res.stream))
host_ptr, _ = acl.rt.malloc_host(4)
acl.rt.memcpy(host_ptr, 4, idx_ptr, 4, 2)
print("label of classification result:", np.frombuffer(acl.util.ptr_to_bytes(host_ptr, 4), np.int32)[0])

# %%
acl.rt.free_host(host_ptr); acl.op.destroy_attr(attr)
for t in (src_desc, half_desc, idx_desc): acl.destroy_tensor_desc(t)
acl.destroy_data_buffer(half_buf); acl.destroy_data_buffer(idx_buf); acl.rt.free(half_ptr); acl.rt.free(idx_ptr)

# %% [markdown]
# ## Exercise
# Give the top-5 class indices, best first.

# %%
print(lab.check_top5(vals.argsort()[-5:], vals))     # ascending: a typical mistake
lab.check_top5(vals.argsort()[-1:-6:-1], vals)

# %%
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())
