"""abacus."""
