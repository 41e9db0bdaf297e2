"""wolden."""
