"""Root pytest settings. nbval: compare text outputs of the notebooks; skip HTML/JS renderings and stderr noise."""
import os


def pytest_collectstart(collector):
    if getattr(collector, "fspath", None) is not None and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("text/html", "application/javascript", "stderr")
        # nbval's kernels inherit this: the simulator keeps the CANN <= 8.0 rule, one acl.init per process
        os.environ["ACL_TEACH_SIM_INIT_ONCE"] = "1"
