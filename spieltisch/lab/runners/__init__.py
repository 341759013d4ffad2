"""Runners that need an optional extra (Ray): imported only when a run asks for them."""
