"""stories."""
