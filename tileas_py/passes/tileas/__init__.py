"""Transforms on the tile dialects: the TileAS CTA / cluster family and its D20 aux passes."""
