"""services (filled in by its module)."""
