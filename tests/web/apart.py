"""Running a coroutine from a test whose thread may already run an event loop.

The browser tests' Playwright (its sync API) keeps a loop running in the test thread for the
whole session, so ``asyncio.run`` there fails whenever a browser test ran first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

Result = TypeVar("Result")


def run_apart(coroutine: Coroutine[Any, Any, Result]) -> Result:
    """Run ``coroutine`` on a loop of its own in a thread of its own and return its result."""
    with concurrent.futures.ThreadPoolExecutor(1) as apart:
        return apart.submit(asyncio.run, coroutine).result()
