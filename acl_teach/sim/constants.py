"""pyACL's constants as the simulator's ``acl`` module exposes them (defined in ``acl_teach.spec.constants``)."""
from ..spec.constants import *  # noqa: F401,F403
