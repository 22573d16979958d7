"""Unbroken's content: the schema of cards and effects, the loader, and the default pack (TOML in ``data/``)."""
