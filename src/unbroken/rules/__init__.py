"""Unbroken's rules: resources, the effect interpreter, triggers, the Travel and Combat Phases, the engine."""
