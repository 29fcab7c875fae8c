"""Conversions between IR levels: `convert-nvvm-to-ori` (instruction selection)."""
