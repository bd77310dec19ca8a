"""acl-teach: learn pyACL's whole-model inference flow, on a CPU simulator or a real Ascend NPU.

Each documented step is a function that works on whichever ``acl`` is active (``use``):

    init -> request_resources -> load_model -> query_desc -> build_dataset (input, output)
    -> copy_to_device -> execute / execute_async + synchronize -> unpack_outputs -> top_k
    -> release_dataset -> unload_model -> release_resources -> finalize

Every step returns a record; ``record.code()`` shows the pyACL calls it made.
"""
from .backend import use
from .dataset import Dataset, build_dataset, release_dataset
from .spec.errors import AclError, explain
from .execute import execute, execute_async, run_callbacks, set_batch, synchronize
from .model import Desc, Model, load_model, query_desc, unload_model
from .toolchain.images import ImageError, load_image, preprocess
from .resources import Resources, finalize, init, release_resources, request_resources
from .results import TopK, top_k
from .session import Session
from .state import reset
from . import media, models  # noqa: F401  (at.media: DVPP steps; at.models.default_om() … for the backend)
from .transfer import copy_to_device, unpack_outputs

__version__ = "0.1.0"
__all__ = ["use", "init", "request_resources", "load_model", "query_desc", "build_dataset", "copy_to_device",
           "execute", "execute_async", "synchronize", "set_batch", "run_callbacks", "unpack_outputs", "top_k",
           "release_dataset", "media", "unload_model", "release_resources", "finalize", "Session", "AclError",
           "ImageError", "explain", "reset", "models", "load_image", "preprocess", "Resources", "Model", "Desc", "Dataset", "TopK"]
