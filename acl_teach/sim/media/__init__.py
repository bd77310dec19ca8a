"""``acl.media``: media data processing (DVPP) — memory, channel, picture/stream descs, configs, JPEGD, JPEGE, VPC,
VDEC and VENC."""
from .dvpp.channel import (dvpp_create_channel, dvpp_create_channel_desc, dvpp_destroy_channel,
                           dvpp_destroy_channel_desc, dvpp_get_channel_desc_channel_id, dvpp_set_channel_desc_mode)
from .dvpp.config import *  # noqa: F401,F403
from .dvpp.jpeg import *  # noqa: F401,F403
from .dvpp.jpege import *  # noqa: F401,F403
from .dvpp.malloc_cfg import dvpp_malloc_with_cfg  # noqa: F401
from .dvpp.memory import dvpp_free, dvpp_malloc  # noqa: F401
from .dvpp.picdesc import *  # noqa: F401,F403
from .dvpp.vpc import *  # noqa: F401,F403
from .dvpp.vpc_batch import *  # noqa: F401,F403
from .dvpp.vpc_batch_resize import *  # noqa: F401,F403
from .dvpp.border import *  # noqa: F401,F403
from .dvpp.channel_param import *  # noqa: F401,F403
from .dvpp.png import *  # noqa: F401,F403
from .dvpp.stream import *  # noqa: F401,F403
from .vdec.decode import *  # noqa: F401,F403
from .vdec.desc import *  # noqa: F401,F403
from .venc.encode import *  # noqa: F401,F403
from .venc.desc import *  # noqa: F401,F403

__all__ = sorted(name for name in dir() if name.startswith(("dvpp_", "vdec_", "venc_")))
