"""The ptxas phases on ori, one pass per module, named after the phase."""
