"""``acl.media``: media data processing (DVPP) — memory, channel, picture/stream descs, configs, JPEGD, JPEGE, VPC,
VDEC and VENC."""
from .dvpp_channel import (dvpp_create_channel, dvpp_create_channel_desc, dvpp_destroy_channel,  # noqa: F401
                           dvpp_destroy_channel_desc, dvpp_get_channel_desc_channel_id, dvpp_set_channel_desc_mode)
from .dvpp_config import *  # noqa: F401,F403
from .dvpp_jpeg import *  # noqa: F401,F403
from .dvpp_jpege import *  # noqa: F401,F403
from .dvpp_malloc_cfg import dvpp_malloc_with_cfg  # noqa: F401
from .dvpp_memory import dvpp_free, dvpp_malloc  # noqa: F401
from .dvpp_picdesc import *  # noqa: F401,F403
from .dvpp_vpc import *  # noqa: F401,F403
from .dvpp_vpc_batch import *  # noqa: F401,F403
from .dvpp_vpc_batch_resize import *  # noqa: F401,F403
from .dvpp_border import *  # noqa: F401,F403
from .dvpp_channel_param import *  # noqa: F401,F403
from .dvpp_png import *  # noqa: F401,F403
from .dvpp_stream import *  # noqa: F401,F403
from .vdec import *  # noqa: F401,F403
from .vdec_desc import *  # noqa: F401,F403
from .venc import *  # noqa: F401,F403
from .venc_desc import *  # noqa: F401,F403

__all__ = sorted(name for name in dir() if name.startswith(("dvpp_", "vdec_", "venc_")))
