"""Reprocess: when a transform version is found wrong, run every row it loaded through a
fixed version, see what changes, and apply it as a run recorded like a batch."""

from triage_app.core.reprocess.applying import ReprocessSummary, reprocess
from triage_app.core.reprocess.suspects import Suspect, count_suspects
from triage_app.core.reprocess.verdicts import Verdict, VerdictKind

__all__ = [
    "ReprocessSummary",
    "Suspect",
    "Verdict",
    "VerdictKind",
    "count_suspects",
    "reprocess",
]
