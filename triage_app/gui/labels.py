"""The store's words as the window shows them, in its language: a status, an error class
(the quarantine table, Trends, the dialogs), a re-drive's or a fix's outcome, a reprocess
verdict.

The values stay core's (``core/vocabulary.py``; they are also ``--json``'s keys and what
the store holds); only the text a cell shows is translated, through ``shown``. A value with
no label here (one core added later) shows as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP

from triage_app.core.reprocess import VerdictKind
from triage_app.core.vocabulary import ErrorClass, RedriveOutcome, Status
from triage_app.gui.i18n import translate

STATUSES = {
    Status.OPEN.value: QT_TRANSLATE_NOOP("labels", "open"),
    Status.RESOLVED.value: QT_TRANSLATE_NOOP("labels", "resolved"),
    Status.PARKED.value: QT_TRANSLATE_NOOP("labels", "parked"),
    Status.DISCARDED.value: QT_TRANSLATE_NOOP("labels", "discarded"),
}
CLASSES = {
    ErrorClass.DATA.value: QT_TRANSLATE_NOOP("labels", "data"),
    ErrorClass.CODE.value: QT_TRANSLATE_NOOP("labels", "code"),
    ErrorClass.TRANSIENT.value: QT_TRANSLATE_NOOP("labels", "transient"),
}
REDRIVE_OUTCOMES = {
    RedriveOutcome.RESOLVED.value: QT_TRANSLATE_NOOP("labels", "resolved"),
    RedriveOutcome.FAILED.value: QT_TRANSLATE_NOOP("labels", "failed"),
    RedriveOutcome.PARKED.value: QT_TRANSLATE_NOOP("labels", "parked"),
    RedriveOutcome.SKIPPED.value: QT_TRANSLATE_NOOP("labels", "skipped"),
    RedriveOutcome.TAKEN.value: QT_TRANSLATE_NOOP("labels", "taken"),
    RedriveOutcome.LAPSED.value: QT_TRANSLATE_NOOP("labels", "lapsed"),
    RedriveOutcome.UNDELIVERED.value: QT_TRANSLATE_NOOP("labels", "undelivered"),
    RedriveOutcome.WOULD_SUCCEED.value: QT_TRANSLATE_NOOP("labels", "would succeed"),
    RedriveOutcome.WOULD_FAIL.value: QT_TRANSLATE_NOOP("labels", "would fail"),
}
# A fix's outcome for one row (core/deadletters' RowPreview.outcome).
FIX_OUTCOMES = {
    "would_load": QT_TRANSLATE_NOOP("labels", "would load"),
    "applies": QT_TRANSLATE_NOOP("labels", "applies"),
    "still_fails": QT_TRANSLATE_NOOP("labels", "still fails"),
    "not_applicable": QT_TRANSLATE_NOOP("labels", "not applicable"),
}
VERDICTS = {
    VerdictKind.UNCHANGED.value: QT_TRANSLATE_NOOP("labels", "unchanged"),
    VerdictKind.CHANGED.value: QT_TRANSLATE_NOOP("labels", "changed"),
    VerdictKind.FAILING.value: QT_TRANSLATE_NOOP("labels", "failing"),
    VerdictKind.NO_INPUT.value: QT_TRANSLATE_NOOP("labels", "no input"),
}


def shown(labels: Mapping[str, str], value: str) -> str:
    """``value``'s label from ``labels``, translated; ``value`` itself when it has none."""
    label = labels.get(str(value))
    return translate("labels", label) if label is not None else str(value)


def class_label(error_class: str) -> str:
    """``data`` as the window's language says it (``cacat data``)."""
    return shown(CLASSES, error_class)


def status_label(status: str) -> str:
    """``parked`` as the window's language says it (``diparkir``)."""
    return shown(STATUSES, status)
