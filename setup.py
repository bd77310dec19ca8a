"""Build hook: the repository keeps data/ and notebooks/ at its root; wheels carry them inside the package.

A built wheel holds acl_teach/data/... (model, labels, photos, NOTICE) and acl_teach/notebooks/*.ipynb (+ zh/), read
through importlib.resources (acl_teach.toolchain.assets). MANIFEST.in puts data/ and notebooks/ in the sdist,
so a wheel built from the sdist gets them too. Editable installs copy nothing and keep using the root folders.
"""
import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))


class build_py_with_assets(build_py):
    """build_py, then copy data/ -> acl_teach/data and notebooks/*.ipynb -> acl_teach/notebooks."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        package = os.path.join(self.build_lib, "acl_teach")
        data, notebooks = os.path.join(package, "data"), os.path.join(package, "notebooks")
        for stale in (data, notebooks):  # a reused build/ must not keep files deleted from the repository
            shutil.rmtree(stale, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "data"), data,
                        ignore=shutil.ignore_patterns(".*", "__pycache__"))
        found = sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb")))
        if not found:
            raise RuntimeError(f"no notebooks/*.ipynb under {ROOT}: the wheel would ship without its notebooks")
        os.makedirs(os.path.join(notebooks, "zh"))
        for nb in found:
            shutil.copy2(nb, notebooks)
        for nb in sorted(glob.glob(os.path.join(ROOT, "notebooks", "zh", "*.ipynb"))):  # the Chinese edition
            shutil.copy2(nb, os.path.join(notebooks, "zh"))


setup(cmdclass={"build_py": build_py_with_assets})
