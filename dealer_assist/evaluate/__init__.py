"""evaluate (filled in by its module)."""
