# %% [markdown]
# # 08 · Releasing in order, and what a leak looks like (资源释放)
# **You will be able to:** release every resource in the documented order and read the simulator's
# ledger (资源台账) and leak report.

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
from acl_teach.widgets import LedgerView
ledger = LedgerView()
print(ledger)

# %% [markdown]
# ## A leak
# Release the datasets and the device but forget the model and its desc:

# %%
at.release_dataset(inputs); at.release_dataset(outputs)
at.release_resources(res)
ledger.refresh(after_release=True)
print(ledger)

# %% [markdown]
# With explanations on (`lab.setup(quiet=False)`), `acl.finalize()` on the simulator prints this report to stderr.

# %%
acl.mdl.destroy_desc(d.model_desc)
rec = at.finalize()
print(lab.ledger_summary())

# %% [markdown]
# ## The documented order
# datasets' buffers → datasets → memory → model → desc → stream → context → device → finalize.

# %%
print("\n".join(lab.RELEASE_ORDER))

# %% [markdown]
# ## Exercise
# Give a release order; the checker tells you what would break.

# %%
print(lab.check_release_order(["acl.rt.reset_device", "acl.rt.destroy_context"]))
lab.check_release_order(lab.RELEASE_ORDER)

# %%
print(lab.ledger_summary())
