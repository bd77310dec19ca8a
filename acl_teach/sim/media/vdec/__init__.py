"""VDEC (``acl.media.vdec_*``): channel descs and frame configs (``desc``), the decoder thread (``decode``)."""
