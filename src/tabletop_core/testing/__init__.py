"""Games and helpers for testing the framework itself (not part of any title)."""
