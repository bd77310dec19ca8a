"""ipywidgets that let a learner see inside: buffers, the model desc, dims, top-5, the ledger, the flow, errors.

Every widget also has a plain-text ``repr`` so it reads well in a terminal and in nbval.
"""
from .buffer import BufferView, hexdump
from .desc import DescExplorer, DimsView
from .errors import ErrorExplainer
from .ledger import LedgerView
from .stepper import PipelineStepper
from .top5 import Top5View

__all__ = ["BufferView", "DescExplorer", "DimsView", "ErrorExplainer", "LedgerView", "PipelineStepper",
           "Top5View", "hexdump"]
