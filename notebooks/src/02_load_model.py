# %% [markdown]
# # 02 · Loading an offline model (离线模型)
# **You will be able to:** convert an ONNX model with ATC, load the `.om` four ways, and size
# user-managed memory with `query_size`.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %% [markdown]
# ## ATC: ONNX → OM
# On Ascend hardware, `atc` compiles a model for one SoC. `acl-teach atc` takes the same flags and writes a
# simulator OM (desc + graph). The default model is converted exactly like the ResNet-50 sample:
# `--input_fp16_nodes=data --output_type=FP32`.

# %%
import subprocess, sys
cmd = [sys.executable, "-m", "acl_teach", "atc", "--model=../data/models/efficientnet_lite0.onnx", "--framework=5",
       "--output=/tmp/acl_teach_nb02", "--soc_version=Ascend310", "--input_fp16_nodes=data", "--output_type=FP32"]
print(subprocess.run(cmd, capture_output=True, text=True).stdout)

# %%
om_path = "/tmp/acl_teach_nb02.om"
acl.init(); acl.rt.set_device(0)
context, ret = acl.rt.create_context(0)
model_id, ret = acl.mdl.load_from_file(om_path)
print("load_from_file -> model_id", model_id, "ret", ret)

# %% [markdown]
# ## From memory, and with your own memory
# `load_from_mem` takes the bytes of the file (through `bytes_to_ptr`). `query_size` tells how much
# device memory the model needs for work space and weights, so you can allocate it yourself and use
# `load_from_file_with_mem`.

# %%
data = open(om_path, "rb").read()
model_id2, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
print("load_from_mem -> ret", ret)
work_size, weight_size, ret = acl.mdl.query_size(om_path)
print("work", work_size, "bytes, weights", weight_size, "bytes")
work_ptr, ret = acl.rt.malloc(work_size, 0)
weight_ptr, ret = acl.rt.malloc(weight_size, 0)
model_id3, ret = acl.mdl.load_from_file_with_mem(om_path, work_ptr, work_size, weight_ptr, weight_size)
print("load_from_file_with_mem -> ret", ret)

# %%
for m in (model_id, model_id2, model_id3):
    print("unload", m, "->", acl.mdl.unload(m))
print(acl.rt.free(work_ptr), acl.rt.free(weight_ptr))   # only after unload
print("unload again ->", acl.mdl.unload(model_id))      # 145003: not a loaded model

# %% [markdown]
# A real Ascend OM cannot run on the simulator, and an ONNX file is not an OM: both are refused with a
# code and an explanation.

# %%
model_id, ret = acl.mdl.load_from_file("../data/models/efficientnet_lite0.onnx")
print(ret, "|", acl.get_recent_err_msg()[:120])
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()

# %% [markdown]
# ## The step API: `load_model(path, how)` with how = file / mem / file_with_mem / mem_with_mem

# %%
at.init(); res = at.request_resources(0)
m = at.load_model(om_path, "file_with_mem")
print(m)
print(m.code())
at.unload_model(m); at.release_resources(res)
_ = at.finalize()

# %% [markdown]
# ## Exercise
# How many bytes of device memory does the model need in total (work + weights)?

# %%
acl.init()
work_size, weight_size, ret = acl.mdl.query_size(om_path)
acl.finalize()
print(lab.check_model_memory(weight_size, work_size, weight_size))      # a typical mistake
lab.check_model_memory(work_size + weight_size, work_size, weight_size)

# %%
print(lab.ledger_summary())
