"""Fixtures for the web tests: a real server on a loopback port, and a headless chromium.

The server runs as its own process (``python -m spieltisch.web``), exactly as a person starts
it, with a temporary SQLite file and no pause before a bot's move; it can be stopped and
started again on the same port and database (the reconnect test does). The browser is
Debian's chromium driven by Playwright (never a downloaded browser); the browser fixtures skip
cleanly when either is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.routes.language import COOKIE as LANGUAGE_COOKIE
from spieltisch.web.tables.clock import ManualClock

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # the browser tests skip without playwright
    HAVE_PLAYWRIGHT = False
else:
    HAVE_PLAYWRIGHT = True

REPO = Path(__file__).resolve().parents[2]
SCREENS = REPO / "test-artifacts" / "screens"


def docs_screens() -> Path:
    """Where the screenshots the docs show are saved: ``docs/screens/`` when
    ``SPIELTISCH_DOCS_SCREENS`` is set (to refresh them on purpose), else beside the other
    test artifacts, so that a test run leaves the tree clean."""
    folder = REPO / "docs" / "screens" if os.environ.get("SPIELTISCH_DOCS_SCREENS") else SCREENS
    folder.mkdir(parents=True, exist_ok=True)
    return folder


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0
PAGE_TIMEOUT_MS = 20_000
PHONE = {"width": 390, "height": 844}


def require_browser() -> None:
    """Skip the calling test module when playwright or Debian's chromium is missing, unless
    ``SPIELTISCH_REQUIRE_BROWSER`` is set (CI installs both and sets it, so that there a
    missing browser fails the run instead of skipping its tests)."""
    missing = (
        "playwright is not installed"
        if not HAVE_PLAYWRIGHT
        else f"no chromium at {CHROMIUM}"
        if not CHROMIUM.exists()
        else None
    )
    if missing is None:
        return
    if os.environ.get("SPIELTISCH_REQUIRE_BROWSER"):
        raise RuntimeError(f"the browser tests are required here, but {missing}")
    pytest.skip(missing, allow_module_level=True)


def pytest_configure(config: pytest.Config) -> None:
    """Name the marker the browser tests carry."""
    config.addinivalue_line("markers", "browser: drives a real browser against a real server")


def free_port() -> int:
    """A loopback port nobody listens on (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """One server process on a fixed port and SQLite file; it may be stopped and restarted."""

    def __init__(self, folder: Path, extra: Sequence[str] = ()) -> None:
        self.folder = folder
        self.extra = list(extra)
        """More arguments for the server's command line."""
        self.port = free_port()
        self.database = f"sqlite:///{folder / 'spieltisch.db'}"
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        """Start the process and wait (bounded) until it answers."""
        self.starts += 1
        log = (self.folder / f"server-{self.starts}.log").open("wb")
        command = [
            sys.executable, "-m", "spieltisch.web", "--port", str(self.port),
            "--db", self.database, "--bot-pause", "0", "--bot-workers", "1", *self.extra,
        ]  # fmt: skip
        env = {**os.environ, "SPIELTISCH_HOME": str(self.folder)}
        self.process = subprocess.Popen(
            command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=env
        )
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {START_TIMEOUT} s: {self.log()}")

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL if it lingers)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_TIMEOUT)

    def log(self) -> str:
        """The last server log's tail (for failure messages)."""
        path = self.folder / f"server-{self.starts}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def text(self, path: str) -> str:
        """A GET's body as text."""
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return str(answer.read().decode())

    def call(self, method: str, path: str, body: object = None, token: str | None = None) -> Any:
        """One JSON API call; the answer's JSON (an HTTP error raises)."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())


class ThreadServer(LiveServer):
    """A server in the test's own process (uvicorn in a thread), so that a test can hand it
    a clock of its own and move time on without sleeping."""

    def __init__(self, folder: Path, clock: ManualClock, **settings: Any) -> None:
        super().__init__(folder)
        self.clock = clock
        self.settings = settings
        """Settings of the server besides its database (a test's own limits, say)."""
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start serving in a thread and wait (bounded) until it answers."""
        settings = Settings(
            **{"database": self.database, "bot_workers": 1, "bot_pause": 0, **self.settings}
        )
        config = uvicorn.Config(
            create_app(settings, self.clock), host="127.0.0.1", port=self.port,
            log_level="warning", ws_max_size=65_536,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the server in a thread did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """Ask it to stop and wait for the thread."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(STOP_TIMEOUT)
        self._server = self._thread = None


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[ThreadServer]:
    """A server of the test's own whose table clocks read a manual clock (``.clock``)."""
    live = ThreadServer(tmp_path, ManualClock())
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server shared by the tests of a run (each test makes its own tables)."""
    live = LiveServer(tmp_path_factory.mktemp("server"))
    live.start()
    try:
        yield live
    finally:
        live.stop()


LEFT: list[tuple[LiveServer, dict[str, Any]]] = []
"""Tables a module's tests made on a server (see :func:`left_in_play`)."""


def left_in_play(server: LiveServer, made: dict[str, Any]) -> dict[str, Any]:
    """Note a table a test made: when the module is done, its first person seat concedes it
    if it is still being played. Otherwise, two minutes after its page closed, the strongest
    bot would play that seat on and crowd the shared server's only bot worker."""
    LEFT.append((server, made))
    return made


@pytest.fixture(scope="module", autouse=True)
def concede_what_is_left() -> Iterator[None]:
    """End the games a module's tests left in play (see :func:`left_in_play`)."""
    yield
    while LEFT:
        server, made = LEFT.pop()
        links = made.get("seat_links", {})
        if not links or server.process is None:
            continue
        link = str(links[min(links)])
        token = link.split("#seat=", 1)[1].split("&", 1)[0]
        with contextlib.suppress(urllib.error.URLError, OSError):
            server.call("POST", f"/api/tables/{made['id']}/concede", {}, token=token)


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server for one module's tests: the tables its pages leave in play (which bots take
    over two minutes after their person leaves, at the strongest level) stop with it, and
    never crowd the bot worker of the tests that come after."""
    live = LiveServer(tmp_path_factory.mktemp("module-server"))
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of the test's own, which the test may stop and start again."""
    live = LiveServer(tmp_path)
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, for the whole run."""
    if not HAVE_PLAYWRIGHT:
        pytest.skip("playwright is not installed")
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        pytest.skip("no chromium at /usr/bin/chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")),
            args=CHROMIUM_ARGS,
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Make browser contexts (separate people: own storage, own sockets); all closed after."""
    made: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(**options)
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        made.append(context)
        return context

    try:
        yield make
    finally:
        for context in made:
            context.close()


@pytest.fixture(scope="session")
def screens() -> Path:
    """Where the browser tests save their screenshots."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    return SCREENS


KEPT_BY_THE_ACCOUNT = """(language) => fetch('/api/account')
    .then((r) => r.json()).then((d) => !d.account || d.account.language === language)"""
"""Whether the signed-in account (if any) keeps ``language`` (the page tells it after a switch)."""


def kept_language(page: Page) -> str | None:
    """The language the browser's cookie jar keeps for ``page``'s site (what the next request
    carries), if any."""
    kept = [
        c.get("value") for c in page.context.cookies(page.url) if c.get("name") == LANGUAGE_COOKIE
    ]
    return kept[0] if kept else None


def switch_language(page: Page) -> str:
    """Click the page's language button and wait until the page speaks the other language
    (its words arrive from the server first) and the choice is kept where the server reads
    it for the next page; the language it speaks now.

    The page keeps its choice with ``document.cookie``, which chromium writes into the
    context's cookie jar (another process) after the script has gone on: a page opened at
    once may be asked for without the cookie, and the server paints it in the browser's
    language; seeing the cookie by then, the page keeps that language, and its socket asks for
    the game's words in it (a German table's log came in English once). A signed-in page
    tells its account too (a request of its own), which the server reads first."""
    before = page.evaluate("() => document.documentElement.lang")
    page.click("#language")
    page.wait_for_function("(before) => document.documentElement.lang !== before", arg=before)
    now = str(page.evaluate("() => document.documentElement.lang"))
    deadline = time.monotonic() + PAGE_TIMEOUT_MS / 1000
    while kept_language(page) != now:
        assert time.monotonic() < deadline, f"the browser never kept the language {now}"
        page.wait_for_timeout(20)
    page.wait_for_function(KEPT_BY_THE_ACCOUNT, arg=now, polling=50)
    return now
