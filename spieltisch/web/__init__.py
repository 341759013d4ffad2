"""The web surface: ``spieltisch serve``, online tables where people and bots sit together.

An ASGI app (FastAPI under uvicorn) keeps every table as a log of moves in a database
(SQLite by default, any SQLAlchemy URL by ``--db``), drives each table through a
:class:`~spieltisch.session.Table`, sends each connection only what its seat's view and
events show, and plays bots in a bounded pool of worker processes. The client is plain static
files shipped in the package. Install with ``pip install "spieltisch[web]"``.
"""
