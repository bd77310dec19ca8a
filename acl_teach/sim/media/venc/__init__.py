"""VENC (``acl.media.venc_*``): channel descs and frame configs (``desc``), the encoder thread (``encode``)."""
