"""The ledger names the notebook cell that made a resource by the number JupyterLab shows beside it."""
import nbformat
from nbclient import NotebookClient


def test_ledger_names_the_cell_as_numbered_in_the_notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from acl_teach import sim\nfrom acl_teach.sim import inspect\n"
                                          "inspect.reset()\nsim.init(); sim.rt.set_device(0)"),
                nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_code_cell("p, _ = sim.rt.malloc(64, 0)\n"
                                          "print([e.created_at for e in inspect.live() if e.kind == 'device memory'])")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    assert nb.cells[2].execution_count == 3
    assert nb.cells[2].outputs[0]["text"].strip() == "['cell In[3], line 1']"


def test_a_resource_made_by_a_widget_click_is_not_blamed_on_the_widget_library(ready):
    import functools
    import threading
    from acl_teach.sim import inspect
    fake = "/venv/lib/python3.11/site-packages/ipywidgets/widgets/widget.py"  # how a click reaches our code
    scope = {}
    exec(compile("def on_click(acl, context, made):\n    acl.rt.set_context(context)\n"
                 "    made.append(acl.rt.malloc(64, 0))\n", fake, "exec"), scope)
    context, _ = ready.rt.get_context()
    made = []
    # below the handler only the standard library's frames (threading), as in a kernel's event loop
    thread = threading.Thread(target=functools.partial(scope["on_click"], ready, context, made))
    thread.start()
    thread.join()
    ptr, ret = made[0]
    assert ret == 0
    entry = [e for e in inspect.live() if e.kind == "device memory"][0]
    assert entry.created_at == "a widget click"
    ready.rt.free(ptr)
