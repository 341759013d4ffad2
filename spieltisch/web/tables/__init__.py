"""The live tables and what happens at one: the hub that coordinates them, seats and the links
that stop working, presence, clocks, chat and notices, rematches, stand-ins and votes, bots and
their fair pool, analyses, checks, lessons' work, the lobby, what goes to each page, and what
other processes changed. Imports ``people``, ``cluster``, ``store`` and ``common``; never the
web framework."""
