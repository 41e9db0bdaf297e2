"""lots."""
