"""The words Trends, its tables and the report share, in the window's language: the labels
of the store's machine words (an error class, a status, a group's trend), the texts a click
on a chart leaves in the status bar, and dates and numbers written the language's way.

The store's values stay what they are (``data``, ``open``: keys of ``--json`` and of the
filters); only what a person reads is translated, where it is shown. No pyqtgraph here: the
groups' table and the window use these before any chart exists.
"""

from __future__ import annotations

import datetime as dt

from triage_app.core.locale_format import format_date, format_time
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import class_label


def time_of_day_said(moment: dt.datetime) -> str:
    """``14:05:09`` / ``14.05.09``: when a view was last brought up to date."""
    return format_time(moment, seconds=True)


def day_and_month(day: dt.date) -> str:
    """``3 Mar`` / ``3 Agu``: a date axis's tick within one year."""
    return format_date(day).rsplit(" ", 1)[0]


# -- what a click on a chart narrows the table to, as the status bar says it ---------------
def first_failed_link(day: dt.date, error_class: str | None = None) -> str:
    if error_class is None:
        return fill(translate("words", "first failed %1"), format_date(day))
    return fill(
        translate("words", "first failed %1 · %2"), format_date(day), class_label(error_class)
    )


def batch_link(batch_id: str, error_class: str | None = None) -> str:
    if error_class is None:
        return fill(translate("words", "batch %1"), batch_id[:8])
    return fill(translate("words", "batch %1 · %2"), batch_id[:8], class_label(error_class))
