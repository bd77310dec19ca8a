# %% [markdown]
# # 01 · `acl.init` and the runtime resources: Device, Context, Stream
# **You will be able to:** initialise AscendCL, open a Device (设备), create a Context (上下文) and a
# Stream (流), read the run mode (运行模式), and explain `100002` when a cell is re-run.

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %% [markdown]
# ## Raw pyACL
# Every call returns an aclError code (`ret`, 0 = success); calls that create something return
# `(value, ret)` — value first, `ret` last.

# %%
ret = acl.init()
print("acl.init ->", ret)
ret = acl.rt.set_device(0)
print("set_device ->", ret)
context, ret = acl.rt.create_context(0)
print("create_context -> ret", ret, "| context is a plain int handle:", type(context).__name__)
stream, ret = acl.rt.create_stream()
print("create_stream -> ret", ret)
run_mode, ret = acl.rt.get_run_mode()
print("run mode:", {0: "ACL_DEVICE (code runs on the board)", 1: "ACL_HOST (PC + accelerator card)"}[run_mode])

# %% [markdown]
# ## Re-running a cell: 100002
# `acl.init()` a second time in the same process returns **100002 ACL_ERROR_REPEAT_INITIALIZE**. It is not
# fatal — the process is still initialised.

# %%
ret = acl.init()
print(ret)
print(at.explain(ret).text())

# %% [markdown]
# ## Run modes
# On a PC with a card (ACL_HOST) the host CPU cannot read device memory: data goes across with
# `memcpy`. On a board such as the Atlas 200I DK A2 (ACL_DEVICE) host and device share memory. The
# simulator can be either; here it is a PC with a card.

# %%
ret = acl.rt.destroy_stream(stream); print("destroy_stream ->", ret)
ret = acl.rt.destroy_context(context); print("destroy_context ->", ret)
ret = acl.rt.reset_device(0); print("reset_device ->", ret)
ret = acl.finalize(); print("finalize ->", ret)

# %% [markdown]
# ## The same with the step API
# `at.init()` reports 100002 instead of raising; `at.request_resources()` does set_device →
# create_context → create_stream → get_run_mode and shows the calls.

# %%
init = at.init()
res = at.request_resources(0)
print(res)
print(res.code())

# %%
print(at.release_resources(res).code())
print(at.finalize().code())

# %% [markdown]
# ## Exercise
# Call `acl.init()` twice and pass both return codes to the checker.

# %%
first = acl.init()
second = acl.init()
acl.finalize()
lab.check_init_codes(first, second)

# %%
print(lab.ledger_summary())
