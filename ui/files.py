"""Where file dialogs open: the person's documents folder (or home), never the program's own
folder, which is where a desktop launcher starts the app."""

from __future__ import annotations

from pathlib import Path


def documents_folder() -> Path:
    """The documents folder if there is one, else the home folder."""
    home = Path.home()
    docs = home / "Documents"
    return docs if docs.is_dir() else home
