# %% [markdown]
# # 12 · The model desc explorer on several models
# **You will be able to:** read any model's desc — the default, a dynamic-batch one, a two-input one,
# and ResNet-50 if you fetched it (`acl-teach fetch resnet50`).

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %%
import onnx, os, tempfile
from onnx import TensorProto, helper
tmp = tempfile.mkdtemp()
a = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 8])
b = helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, 8])
outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 8]) for n in ("sum", "product")]
g = helper.make_graph([helper.make_node("Add", ["image", "mask"], ["sum"], name="add"),
                       helper.make_node("Mul", ["image", "mask"], ["product"], name="mul")], "two", [a, b], outs)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]); m.ir_version = 8
onnx.save(m, os.path.join(tmp, "two.onnx"))
two_om = at.models.convert(f"{tmp}/two.onnx", ["--input_fp16_nodes=mask"], "two")  # ATC for this backend
models = {"default": at.models.default_om(), "dynamic batch": at.models.dynamic_batch_om(), "two inputs": two_om}
if at.models.fetched_resnet50():
    models["resnet50"] = at.models.best_om()
print(list(models))

# %%
at.init(); res = at.request_resources(0)
loaded = {name: at.load_model(path) for name, path in models.items()}
descs = {name: at.query_desc(m) for name, m in loaded.items()}
for name, d in descs.items():
    print(f"== {name}")
    print(d.table())

# %%
from acl_teach.widgets import DescExplorer, DimsView
explorer = DescExplorer(descs["two inputs"])
explorer.choice.value = ("input", 1)
print(explorer)
explorer

# %%
DimsView(descs["dynamic batch"])

# %% [markdown]
# ## Exercise
# Read the two-input model's desc: how many inputs and outputs, and how many bytes is input 0?

# %%
print(lab.check_desc_answer({"inputs": 2, "outputs": 2, "input_bytes": 16}, descs["two inputs"]))
lab.check_desc_answer({"inputs": 2, "outputs": 2, "input_bytes": 32}, descs["two inputs"])

# %%
for name in loaded:
    at.unload_model(loaded[name], descs[name])
at.release_resources(res); at.finalize()
print(lab.ledger_summary())
