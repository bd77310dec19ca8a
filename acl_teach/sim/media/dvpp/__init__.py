"""DVPP (``acl.media.dvpp_*``): memory, channels, picture/stream descs, configs, JPEGD, JPEGE, PNGD and VPC;
assembled into ``acl.media`` by ``acl_teach.sim.media``."""
