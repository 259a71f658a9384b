"""The one place the app's screens import Qt from (PySide6), so a port touches one file."""

from __future__ import annotations

from PySide6.QtCore import (
    QDate,
    QDateTime,
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
    QTime,
    QTimer,
    QTimeZone,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
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
    QAbstractButton,
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
    QLayout,
    QLayoutItem,
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
    QStyle,
    QStyleOptionButton,
    QTableView,
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

# The layout check (ui/layout_check.py) and the action bar's flowing rows (ui/panels/actions.py).
__all__ += ["QAbstractButton", "QFontMetrics", "QLayout", "QLayoutItem", "QStyle",
            "QStyleOptionButton", "QTableView"]

# The floor console's time filters (ui/floor_console/).
__all__ += ["QDate", "QDateTime", "QTime", "QTimeZone"]


def application() -> QApplication:
    """The running QApplication, created on first use (tests get pytest-qt's)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    return QApplication([])
