"""feat."""
