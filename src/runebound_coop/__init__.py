"""Runebound (3rd ed.) cooperative and solo combat from *Unbreakable Bonds*."""
