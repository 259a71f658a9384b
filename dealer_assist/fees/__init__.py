"""fees (filled in by its module)."""
