"""The one place the app's screens import Qt from (PySide6), so a port touches one file."""

from __future__ import annotations

import platform
import sys

from PySide6.QtCore import (
    QEvent,
    QObject,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QRunnable,
    QSize,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
    QShortcut,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QProgressDialog,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

__all__ = [
    "QAbstractItemView", "QAction", "QApplication", "QBrush", "QButtonGroup", "QCheckBox",
    "QColor", "QComboBox", "QDateTimeEdit", "QDialog", "QDialogButtonBox", "QEvent",
    "QFileDialog", "QFont", "QFontDatabase", "QFormLayout", "QFrame", "QGridLayout",
    "QGroupBox", "QGuiApplication", "QHBoxLayout", "QHeaderView", "QKeyEvent", "QKeySequence",
    "QLabel", "QLineEdit", "QListWidget", "QListWidgetItem", "QMainWindow", "QMessageBox",
    "QObject", "QPainter", "QPainterPath", "QPalette", "QPen", "QPixmap", "QPlainTextEdit",
    "QPoint", "QPointF", "QPrintDialog", "QPrinter", "QProgressDialog", "QPushButton", "QRect",
    "QRectF", "QRunnable",
    "QScrollArea", "QShortcut", "QSize", "QSizePolicy", "QSlider", "QSpinBox", "QSplitter",
    "QStackedWidget", "QTabWidget", "QTableWidget", "QTableWidgetItem", "QTextEdit",
    "QThreadPool", "QTimer", "QToolButton", "QVBoxLayout", "QWidget", "Qt", "Signal", "Slot",
]

# Station settings and the About box (ui/station.py).
from PySide6.QtCore import QSettings
from PySide6.QtCore import qVersion as qt_version
from PySide6.QtPrintSupport import QPrinterInfo

__all__ += ["QPrinterInfo", "QSettings", "qt_version"]


def _immortal_singletons() -> None:
    """PySide6 6.12 drops one reference to ``None`` (or ``True``/``False``) each time a signal
    calls a Python slot that returns it. Python 3.12 made those objects immortal, so there it
    is harmless; on 3.11 a long shift (tens of thousands of signals) would count them down to
    zero and abort the app ("none_dealloc", at the latest when it exits). Give them the same
    immortality here: a reserve of references no session can use up."""
    if sys.version_info >= (3, 12) or platform.python_implementation() != "CPython":
        return
    import ctypes

    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 48


_immortal_singletons()


def application() -> QApplication:
    """The running QApplication, created on first use (tests get pytest-qt's)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    return QApplication([])
