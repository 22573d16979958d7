"""The optional C accelerator of ``tabletop_core.fastcopy`` (everything else is in ``pyproject.toml``).

``optional=True``: without a C compiler the build goes on and the package runs on its pure-Python path.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("tabletop_core._speedups", ["src/tabletop_core/_speedups.c"], optional=True),
    ]
)
