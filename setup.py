"""The optional C accelerator of ``tabletop_core.fastcopy`` (everything else is in ``pyproject.toml``).

``optional=True``: without a C compiler the build goes on and the package runs on its pure-Python path. The sha256
of the C source is compiled into the module as ``SOURCE_DIGEST``; ``tabletop_core.fastcopy`` refuses a module whose
digest differs from the source installed beside it (a stale build).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "src/tabletop_core/_speedups.c"
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[
        Extension(
            "tabletop_core._speedups",
            [SOURCE],
            define_macros=[("SOURCE_DIGEST", f'"{DIGEST}"')],
            optional=True,
        ),
    ]
)
