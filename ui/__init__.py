"""The dealer's table screen and the floor manager's console (PySide6)."""
