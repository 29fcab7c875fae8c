"""Helpers shared by the ori passes: each module here serves several passes and is none."""
