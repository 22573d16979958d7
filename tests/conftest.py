"""Shared test settings: hypothesis runs without deadlines (2-core CI) and derandomized under CI."""

import os

from hypothesis import settings

settings.register_profile("default", deadline=None, max_examples=60)
settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
