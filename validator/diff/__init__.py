"""Paytable diffs: what changes, hand by hand, with the exact hold before and after."""

from validator.diff.compare import Change, GameDiff, HandRow, diff_submissions, diff_tables

__all__ = ["Change", "GameDiff", "HandRow", "diff_submissions", "diff_tables"]
