# PyInstaller runtime hook: runs inside the bundle before the app. The report fonts travel in the
# bundle (a Windows station has no DejaVu), so point the reports at them unless the room chose.
import os
import sys

_fonts = os.path.join(getattr(sys, "_MEIPASS", os.path.dirname(sys.executable)), "fonts")
if os.path.isdir(_fonts):
    os.environ.setdefault("DEALER_ASSIST_FONT_DIR", _fonts)
