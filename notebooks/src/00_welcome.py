# %% [markdown]
# # 00 · Welcome: the pyACL inference flow in one picture
# **You will be able to:** tell which backend runs your code, name the thirteen steps of whole-model
# inference with pyACL (AscendCL for Python, `import acl`), and find your way through this series.
#
# Every notebook runs on a laptop through the acl-teach **simulator** (模拟器) and unchanged on a real
# Ascend NPU: the first cell picks real pyACL when it is installed.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %% [markdown]
# ## The whole flow (推理全流程)
# ```
# acl.init                               初始化
#   └ set_device → create_context → create_stream      Device / Context / Stream
#       └ load model (.om) → model desc                  加载模型 → 模型描述
#           └ Dataset ⊃ DataBuffer → device memory        数据集 ⊃ 数据缓冲 → Device 内存
#               └ H2D copy → execute → D2H copy → top-5    拷贝 → 推理 → 拷回 → 后处理
#           ┌ release datasets / buffers / memory          释放
#       ┌ unload model, destroy desc
#   ┌ destroy stream / context, reset device
# acl.finalize                           去初始化
# ```
# Each step is also a function of the step API; each returns a record that can show the pyACL calls it made.

# %%
steps = ["init", "request_resources", "load_model", "query_desc", "build_dataset", "copy_to_device",
         "execute", "unpack_outputs", "top_k", "release_dataset", "unload_model", "release_resources", "finalize"]
for i, name in enumerate(steps, 1):
    print(f"{i:2d}. at.{name}: {getattr(at, name).__doc__.splitlines()[0]}")

# %% [markdown]
# ## The whole flow, run once
# `at.Session` runs every step and releases in the documented order. Here it classifies the shipped
# photo of an espresso with the embedded default model (EfficientNet-Lite0, converted like the
# official ResNet-50 sample: fp16 input, fp32 output).

# %%
with at.Session() as s:
    result = s.classify("../data/images/coffee.png")
print(result.topk.sample_format())

# %% [markdown]
# ## How to use this series
# | notebook | you learn |
# |---|---|
# | 01 | init, device/context/stream, run modes, what 100002 means |
# | 02 | ATC, the four ways to load a model, `query_size` |
# | 03 | every `acl.mdl.get_*`, sizes from dims × dtype |
# | 04 | malloc, aclDataBuffer, aclmdlDataset — how they nest |
# | 05 | image → fp16 NCHW bytes, `bytes_to_ptr`, memcpy H2D |
# | 06 | synchronous execute and what it checks |
# | 07 | results back, top-5, single operators |
# | 08 | release order, the ledger, leaks |
# | 09 | execute_async, callbacks |
# | 10 | dynamic batch |
# | 11 | the whole pipeline: stepper, Session, CLI |
# | 12 | the desc explorer on several models |
#
# Each notebook ends with an exercise and a checker (`acl_teach.lab`). Open the series with `acl-teach lab`.

# %%
print(lab.ledger_summary())
