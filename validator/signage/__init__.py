"""The signs a table must carry: built from the game file's sign data and a submission."""

from validator.signage.build import Line, Paytable, Sign, SignSet, build_signage

__all__ = ["Line", "Paytable", "Sign", "SignSet", "build_signage"]
