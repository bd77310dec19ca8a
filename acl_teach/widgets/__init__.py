"""ipywidgets that let a learner see inside: buffers, the model desc, dims, top-5, the ledger, the flow, errors,
DVPP pictures.

Every widget also has a plain-text ``repr`` so it reads well in a terminal and in nbval; every widget keeps a
snapshot of what it showed, so releasing its resource later never breaks it (it says where it was released).
"""
from .buffer import BufferView, hexdump
from .desc import DescExplorer, DimsView
from .errors import ErrorExplainer
from .ledger import LedgerView
from .stepper import PipelineStepper
from .top5 import Top5View
from .yuv import YuvView

__all__ = ["BufferView", "DescExplorer", "DimsView", "ErrorExplainer", "LedgerView", "PipelineStepper",
           "Top5View", "YuvView", "hexdump"]
