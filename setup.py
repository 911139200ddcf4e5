"""Packaging layout that pyproject.toml cannot say on its own: the top-level ``shaders/`` and
``assets_synthetic/`` folders of the repository ship inside the package as
``viewer.shaders`` and ``viewer.assets_synthetic`` (mapped at build time, not copied), so a
wheel or an editable install finds them through ``importlib.resources``
(``viewer/resources.py``). Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

DATA_PACKAGES = {"viewer.shaders": "shaders", "viewer.assets_synthetic": "assets_synthetic"}

setup(
    packages=find_packages(include=["viewer", "viewer.*"]) + list(DATA_PACKAGES),
    package_dir=DATA_PACKAGES,
    package_data={"viewer.shaders": ["*.glsl"],
                  "viewer.assets_synthetic": ["*.dat", "*.md", "*.json"]},
)
