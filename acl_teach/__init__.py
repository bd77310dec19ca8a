"""acl-teach: learn pyACL's whole-model inference flow, on a CPU simulator or a real Ascend NPU."""
__version__ = "0.1.0"
