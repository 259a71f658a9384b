"""Built-in jurisdiction presets: one TOML file each (package data, read by fees.presets)."""
