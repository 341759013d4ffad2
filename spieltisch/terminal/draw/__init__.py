"""The terminal's drawers, one module per game (rich layout and colour only)."""
