"""Light and dark themes: large, high-contrast type for a dim card room.

One palette object feeds both the Qt style sheet and the custom-painted table, so the two never
disagree. Sizes are in pixels so a screenshot at 1280x800 reads the same as the real screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.ui.qt import QApplication, QColor, QFont, QPalette


@dataclass(frozen=True, slots=True)
class Theme:
    """Colours (``#rrggbb``) and type sizes (px) of one theme."""

    name: str
    bg: str
    panel: str
    border: str
    text: str
    muted: str
    felt: str
    felt_edge: str
    felt_text: str
    accent: str
    accent_text: str
    danger: str
    danger_bg: str
    danger_text: str
    ok: str
    card_face: str
    card_red: str
    card_black: str
    card_back: str
    button: str
    button_text: str
    disabled_text: str
    base_px: int = 17
    large_px: int = 22
    prompt_px: int = 30
    card_px: int = 26

    def qcolor(self, attr: str) -> QColor:
        return QColor(str(getattr(self, attr)))


DARK = Theme(
    name="dark",
    bg="#0e1216",
    panel="#1a2027",
    border="#3a4450",
    text="#f4f6f8",
    muted="#b9c3cc",
    felt="#0f5a38",
    felt_edge="#6b4423",
    felt_text="#ffffff",
    accent="#ffd21f",
    accent_text="#000000",
    danger="#ff6b6b",
    danger_bg="#b71c1c",
    danger_text="#ffffff",
    ok="#3ddc84",
    card_face="#ffffff",
    card_red="#c8102e",
    card_black="#111111",
    card_back="#2b3f99",
    button="#2a3440",
    button_text="#ffffff",
    disabled_text="#7d8791",
)

LIGHT = Theme(
    name="light",
    bg="#f3f1ec",
    panel="#ffffff",
    border="#8a8f96",
    text="#0b0b0b",
    muted="#3b4046",
    felt="#1d7a4c",
    felt_edge="#5c3a1a",
    felt_text="#ffffff",
    accent="#ffb000",
    accent_text="#000000",
    danger="#b3001b",
    danger_bg="#b3001b",
    danger_text="#ffffff",
    ok="#0a7a3d",
    card_face="#ffffff",
    card_red="#c8102e",
    card_black="#111111",
    card_back="#24398c",
    button="#e2e6ea",
    button_text="#0b0b0b",
    disabled_text="#80868c",
)

THEMES = {"dark": DARK, "light": LIGHT}


def get_theme(name: str) -> Theme:
    return THEMES.get(name, DARK)


def stylesheet(t: Theme) -> str:
    """The application style sheet; widgets pick rules by object name or ``role`` property."""
    return f"""
    QWidget {{ background: {t.bg}; color: {t.text}; font-size: {t.base_px}px; }}
    QMainWindow, QDialog {{ background: {t.bg}; }}
    QLabel {{ background: transparent; }}
    QFrame#Panel, QGroupBox {{ background: {t.panel}; border: 1px solid {t.border};
        border-radius: 8px; }}
    QGroupBox {{ margin-top: 14px; padding-top: 8px; font-weight: bold; }}
    QGroupBox::title {{ subcontrol-origin: margin; left: 10px; padding: 0 4px; }}
    QLabel#Prompt {{ font-size: {t.prompt_px}px; font-weight: bold; }}
    QLabel#Heading {{ font-size: {t.large_px}px; font-weight: bold; }}
    QLabel#Muted {{ color: {t.muted}; }}
    QLabel#Note {{ border: 2px solid {t.ok}; color: {t.text}; padding: 6px 10px; }}
    QLabel#Instruction {{ background: {t.accent}; color: {t.accent_text};
        font-size: {t.large_px}px; font-weight: bold; padding: 6px 12px; border-radius: 6px; }}
    QLabel#Refusal {{ background: {t.danger_bg}; color: {t.danger_text};
        font-size: {t.large_px}px; font-weight: bold; padding: 6px 12px; border-radius: 6px; }}
    QLabel#Refusal[small="true"] {{ font-size: {t.base_px}px; padding: 4px 8px; }}
    QLabel#Instruction[small="true"] {{ font-size: {t.base_px}px; padding: 4px 8px; }}
    QFrame#Banner {{ background: {t.danger_bg}; border-radius: 6px; }}
    QFrame#Banner QLabel {{ color: {t.danger_text}; font-size: {t.base_px}px;
        font-weight: bold; }}
    QFrame#Banner QLabel#banner-head {{ font-size: {t.large_px}px; }}
    QPushButton {{ background: {t.button}; color: {t.button_text}; border: 2px solid {t.border};
        border-radius: 8px; padding: 8px 16px; font-size: {t.base_px}px; font-weight: bold; }}
    QPushButton:focus {{ border: 3px solid {t.accent}; }}
    QPushButton:disabled {{ color: {t.disabled_text}; border-style: dashed; }}
    QPushButton:checked {{ background: {t.accent}; color: {t.accent_text}; }}
    QPushButton[role="action"] {{ font-size: {t.large_px}px; min-height: 58px;
        min-width: 130px; padding: 4px 10px; }}
    QPushButton[role="action"][compact="true"] {{ font-size: {t.base_px + 1}px;
        min-height: 34px; min-width: 90px; padding: 2px 8px; }}
    QPushButton[role="primary"] {{ background: {t.accent}; color: {t.accent_text};
        border-color: {t.accent}; }}
    QPushButton[role="danger"] {{ background: {t.danger_bg}; color: {t.danger_text};
        border-color: {t.danger_bg}; }}
    QPushButton[role="pick"] {{ font-size: {t.large_px}px; min-width: 52px; min-height: 40px;
        padding: 2px; background: {t.card_face}; border: 2px solid {t.border}; }}
    QPushButton[role="pick"][red="true"] {{ color: {t.card_red}; }}
    QPushButton[role="pick"][red="false"] {{ color: {t.card_black}; }}
    QPushButton[role="pick"]:disabled {{ background: {t.disabled_text}; color: {t.panel};
        border-style: dashed; }}
    QLineEdit, QComboBox, QSpinBox, QDateTimeEdit, QPlainTextEdit, QTextEdit {{
        background: {t.panel}; color: {t.text}; border: 2px solid {t.border};
        border-radius: 6px; padding: 6px; font-size: {t.large_px}px; }}
    QLineEdit:focus, QComboBox:focus, QPlainTextEdit:focus {{ border-color: {t.accent}; }}
    QLineEdit#CardInput {{ font-size: {t.card_px}px; font-weight: bold; min-width: 120px; }}
    QCheckBox {{ font-size: {t.large_px}px; spacing: 12px; padding: 4px;
        background: transparent; }}
    QCheckBox::indicator {{ width: 26px; height: 26px; border: 2px solid {t.text};
        border-radius: 4px; background: {t.panel}; }}
    QCheckBox[role="step"] {{ font-size: {t.base_px + 1}px; padding: 1px; }}
    QCheckBox[role="step"]:checked {{ color: {t.muted}; }}
    QCheckBox::indicator:checked {{ background: {t.accent}; border-color: {t.accent}; }}
    QListWidget, QTableWidget {{ background: {t.panel}; alternate-background-color: {t.bg};
        border: 1px solid {t.border}; font-size: {t.base_px}px; }}
    QListWidget::item:selected, QTableWidget::item:selected {{ background: {t.accent};
        color: {t.accent_text}; }}
    QHeaderView::section {{ background: {t.button}; color: {t.button_text}; padding: 6px;
        border: 0; font-weight: bold; }}
    QSlider::groove:horizontal {{ height: 10px; background: {t.border}; border-radius: 5px; }}
    QSlider::handle:horizontal {{ background: {t.accent}; width: 28px; margin: -10px 0;
        border-radius: 14px; }}
    QTabBar::tab {{ background: {t.button}; color: {t.button_text}; padding: 10px 18px;
        font-size: {t.large_px}px; }}
    QTabBar::tab:selected {{ background: {t.accent}; color: {t.accent_text}; }}
    QToolTip {{ background: {t.panel}; color: {t.text}; border: 1px solid {t.border};
        font-size: {t.base_px}px; }}
    """


def apply_theme(app: QApplication, t: Theme) -> None:
    """Palette (for native parts) and style sheet (for ours) in one step."""
    pal = QPalette()
    pal.setColor(QPalette.ColorRole.Window, QColor(t.bg))
    pal.setColor(QPalette.ColorRole.WindowText, QColor(t.text))
    pal.setColor(QPalette.ColorRole.Base, QColor(t.panel))
    pal.setColor(QPalette.ColorRole.Text, QColor(t.text))
    pal.setColor(QPalette.ColorRole.Button, QColor(t.button))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor(t.button_text))
    pal.setColor(QPalette.ColorRole.Highlight, QColor(t.accent))
    pal.setColor(QPalette.ColorRole.HighlightedText, QColor(t.accent_text))
    app.setPalette(pal)
    font = QFont("DejaVu Sans")
    font.setPixelSize(t.base_px)
    app.setFont(font)
    app.setStyleSheet(stylesheet(t))
    app.setProperty("da_theme", t.name)


def current_theme() -> Theme:
    app = QApplication.instance()
    name = app.property("da_theme") if app is not None else None
    return get_theme(str(name)) if name else DARK
