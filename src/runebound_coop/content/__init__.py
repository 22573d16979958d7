"""Runebound co-op content: the schema and the TOML packs."""

from runebound_coop.content.loader import TRAITS, builtin_content, load_content
from runebound_coop.content.schema import Content, Face, Sym, parse_face

__all__ = ["TRAITS", "Content", "Face", "Sym", "builtin_content", "load_content", "parse_face"]
