"""ipywidgets that let a learner see inside: buffers, the model desc, dims, top-5, the ledger, the flow, errors,
DVPP pictures.

Every widget also has a plain-text ``repr`` so it reads well in a terminal and in nbval; every widget keeps a
snapshot of what it showed, so releasing its resource later never breaks it (it says where it was released).
"""
import importlib

# Each widget is imported when first named (PEP 562): a notebook that only draws a plot (widgets.plots) does not
# pay ipywidgets' import, 0.1 CPU-s and ~6 MiB of a learner's kernel (measured).
_WHERE = {"BufferView": "buffer", "hexdump": "buffer", "DescExplorer": "desc", "DimsView": "desc",
          "ErrorExplainer": "errors", "LedgerView": "ledger", "PipelineStepper": "stepper", "Top5View": "top5",
          "YuvView": "yuv"}

__all__ = ["BufferView", "DescExplorer", "DimsView", "ErrorExplainer", "LedgerView", "PipelineStepper",
           "Top5View", "YuvView", "hexdump"]


def __getattr__(name: str):
    """The widget ``name`` from its module, imported now."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
