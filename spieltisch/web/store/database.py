"""The server's way into its database: one writer thread and readers off the event loop.

Every room that keeps something (the live tables, the accounts, the fan-out) runs its
synchronous database functions through one :class:`Database`: writes on the one writer thread
(so SQLite never sees two writers and PostgreSQL's writes keep their order), reads on worker
threads over an engine of their own. The routes find it on ``app.state.database``; the hub
holds the same one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any

from spieltisch.web.store.db import make_engine


class Database:
    """The engines of one server process and the thread its writes run on."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        """Writes go here (on the one writer thread)."""
        self.reader = make_engine(url, writer=False)
        """Reads go here: they never take the writer's lock."""
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="db-writer")

    async def write(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database write on the one writer thread, without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._writer, function, *args)

    async def read(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database read in a worker thread."""
        return await asyncio.to_thread(function, *args)

    def close(self) -> None:
        """Wait for the writes under way, then let the engines go."""
        self._writer.shutdown(wait=True)
        self.engine.dispose()
        self.reader.dispose()
