"""When the window's Qt objects die, and in which thread: always in the GUI thread, and at a
moment the code chose.

Two rules, each the answer to a native crash the window had (issue 20):

- **Python's cyclic garbage collector runs only in the GUI thread.** Much of what PySide6
  and pyqtgraph build is owned by Python and held in reference cycles (a chart's menus and
  axes, a settings object, a dialog whose slots close over it), so the collector is what
  deletes its C++ side. Left automatic, the collector runs in whichever thread happens to
  allocate when a threshold is crossed: a query or job thread (SQLAlchemy allocates a lot).
  A widget or a timer deleted there corrupts the GUI thread's state ("QBasicTimer::stop:
  Failed. Possibly trying to stop from a different thread", then a segmentation fault in
  the next event loop, in ``QTimerInfoList::activateTimers`` or in
  ``QWidgetRepaintManager::removeDirtyWidget``). ``collect_in_gui_thread`` turns the
  automatic collector off and runs it from a timer of the GUI thread instead, as pyqtgraph's
  own ``GarbageCollector`` does for the same reason.
- **What a window is done with is deleted now, not later.** A dialog shown with ``exec()``,
  a query thread that was joined: ``dispose`` deletes it at once, in the GUI thread, as a C++
  object on the stack would be (a worker hands itself back to the GUI thread before its
  thread ends, and is disposed there). ``deleteLater()`` is for an object whose own method is
  still on the stack; outside an event loop it waits for the next loop to start, which may
  belong to another window or another workspace.
"""

from __future__ import annotations

import gc

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QThread, QTimer

# How often the GUI thread looks at the collector's counts. Generation 0 fills in well under
# a second while a job runs; a pass over the young generations takes microseconds.
COLLECT_EVERY_MS = 250

_collector: _GuiThreadCollector | None = None


class _GuiThreadCollector(QObject):
    """Collects what the automatic collector would have, at the same thresholds, but only
    from a timer of the GUI thread."""

    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.setObjectName("guiThreadCollector")
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self, interval=COLLECT_EVERY_MS, objectName="guiThreadCollectorTimer")
        self.timer.timeout.connect(self.collect_due)
        self.timer.start()

    def collect_due(self) -> int:
        """The generations whose thresholds are crossed, oldest last, as the automatic
        collector would; the number of unreachable objects found."""
        counts = gc.get_count()
        found = 0
        if counts[0] > self.thresholds[0]:
            generation = 0
            if counts[1] > self.thresholds[1]:
                generation = 2 if counts[2] > self.thresholds[2] else 1
            found = gc.collect(generation)
        return found


def collect_in_gui_thread(app: QCoreApplication) -> None:
    """From now on, only the GUI thread runs the cyclic garbage collector (see above).
    Idempotent; ``app`` must be the running application, called from its thread."""
    global _collector
    if QThread.currentThread() is not app.thread():
        raise RuntimeError("collect_in_gui_thread must be called from the GUI thread")
    if _collector is not None and shiboken6.isValid(_collector):
        gc.disable()  # something may have turned it back on (the command line's start-up)
        return
    _collector = _GuiThreadCollector(app)


def collects_in_gui_thread() -> bool:
    """True while the GUI thread's collector is installed and the automatic one is off."""
    return _collector is not None and shiboken6.isValid(_collector) and not gc.isenabled()


def collector_timer() -> QTimer | None:
    """The GUI thread's collector timer, which runs as long as the application."""
    return _collector.timer if _collector is not None and shiboken6.isValid(_collector) else None


def dispose(obj: QObject | None) -> None:
    """Delete ``obj``'s C++ object now, with its children; nothing pending is left for a
    later event loop. For what the caller is done with and that has no method of its own on
    the stack: a dialog after ``exec()`` returned, a joined thread's objects. Only an object
    of the calling thread can be disposed."""
    if obj is None or not shiboken6.isValid(obj):
        return
    if QObject.thread(obj) is not QThread.currentThread():  # unbound: QueryThread.thread
        raise RuntimeError(f"dispose({type(obj).__name__}) from another thread than its own")
    # Qt's own way of deleting, delivered now for this one object: the same path as a
    # deleteLater() run by an event loop (shiboken6.delete of a window crashed in
    # Shiboken::BindingManager::releaseWrapper with PySide6 6.11).
    obj.deleteLater()
    QCoreApplication.sendPostedEvents(obj, QEvent.Type.DeferredDelete)
    if shiboken6.isValid(obj):
        raise RuntimeError(f"dispose({type(obj).__name__}): Qt did not delete it")
