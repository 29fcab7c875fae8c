"""WGMMA emission: placeholder until the dot patterns land."""

from xdsl.pattern_rewriter import RewritePattern

PATTERNS: tuple[RewritePattern, ...] = ()
