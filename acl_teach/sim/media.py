"""``acl.media``: media data processing (DVPP). So far its memory: dvpp_malloc / dvpp_free."""
from .dvpp_memory import dvpp_free, dvpp_malloc

__all__ = ["dvpp_malloc", "dvpp_free"]
