"""Long work (PDF reports, verify) on a worker thread, behind a progress dialog.

The screen stays drawn and responsive while a report renders; the dialog says what is being
done; the result or the error comes back to the UI thread through a signal.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.ui.qt import (
    QObject,
    QProgressDialog,
    QRunnable,
    Qt,
    QThreadPool,
    QWidget,
    Signal,
)


class JobSignals(QObject):
    done = Signal(object)
    failed = Signal(str)
    finished = Signal()


class Job(QRunnable):
    """Runs ``fn()`` on the thread pool; ``done`` carries its result, ``failed`` a message."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__()
        self.fn = fn
        self.signals = JobSignals()
        self.setAutoDelete(False)

    def run(self) -> None:
        try:
            result = self.fn()
        except DealerAssistError as exc:
            self.signals.failed.emit(str(exc))
        except Exception as exc:  # a bug must not kill the app: say it and keep the screen
            traceback.print_exc()
            self.signals.failed.emit(
                f"internal error: {type(exc).__name__}: {exc}. Nothing recorded was lost."
            )
        else:
            self.signals.done.emit(result)
        self.signals.finished.emit()


_RUNNING: set[Job] = set()


def run_with_progress(
    parent: QWidget | None,
    label: str,
    fn: Callable[[], Any],
    on_done: Callable[[Any], None],
    on_error: Callable[[str], None],
) -> Job:
    """Start ``fn`` on a worker thread with a busy progress dialog over ``parent``."""
    dialog = QProgressDialog(label, "", 0, 0, parent)
    dialog.setObjectName("progress")
    dialog.setWindowTitle("Working")
    dialog.setCancelButton(None)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(0)
    dialog.setMinimumWidth(480)
    job = Job(fn)
    _RUNNING.add(job)

    def finished() -> None:
        dialog.reset()
        dialog.close()
        dialog.deleteLater()
        _RUNNING.discard(job)

    job.signals.done.connect(on_done)
    job.signals.failed.connect(on_error)
    job.signals.finished.connect(finished)
    dialog.show()
    QThreadPool.globalInstance().start(job)
    return job
