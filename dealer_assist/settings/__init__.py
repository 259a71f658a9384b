"""settings (filled in by its module)."""
