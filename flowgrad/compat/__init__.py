"""Compatibility faces (``flowgrad.compat.v1``)."""
