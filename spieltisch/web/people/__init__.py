"""People: accounts, sessions and passkeys, ratings and rated outcomes, profiles and
leaderboards, and the events an account's end sends to whoever subscribes. Knows nothing of
live tables or of the web framework; imports ``store`` and ``common``."""
