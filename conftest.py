"""Root pytest settings. nbval: compare text outputs of the notebooks; skip HTML/JS renderings and stderr noise."""


def pytest_collectstart(collector):
    if getattr(collector, "fspath", None) is not None and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("text/html", "application/javascript", "stderr")
