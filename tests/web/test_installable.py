"""Installing, serving and sound: the manifest and its icons, every page's links to them, what
is compressed and cached, the tab's icon on one's turn, and the sound switch.

The manifest must name the app and list icons that exist at the sizes it says; every page
links it, its icon, the touch icon and a theme colour for each theme. What a page loads comes
gzipped, while the rest of the API (whose answers may carry a session's secrets) does not, and
the fonts are cached for a year. In a browser, a seat whose turn it is sees the marked tab
icon. Sound is off until the header's switch turns it on. The switch is remembered across
pages, and no audio is made while it is off.
"""

from __future__ import annotations

import gzip
import io
import json
import urllib.request
from email.message import Message
from typing import Final

import pytest
from PIL import Image

from spieltisch.web.routes.app import compressible

from .conftest import LiveServer, require_browser

require_browser()

from .test_browser import NewContext, create, join, start, wait_ready  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PAGES: Final = ("/", "/account", "/ratings", "/rules/auweier", "/learn/awimbawe")
AUDIO: Final = """
window.__audio = 0;
const Made = window.AudioContext;
window.AudioContext = class extends Made {
  constructor(...args) { super(...args); window.__audio += 1; }
};
"""
"""Run before the page's scripts: count the audio contexts the page makes."""


def fetched(server: LiveServer, path: str, gzipped: bool = False) -> tuple[Message, bytes]:
    """A GET's headers and body as sent (asking for gzip if ``gzipped``)."""
    headers = {"Accept-Encoding": "gzip"} if gzipped else {}
    request = urllib.request.Request(server.url + path, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers, answer.read()


def test_the_manifest_names_the_app_and_its_icons_exist_at_their_sizes(
    server: LiveServer,
) -> None:
    headers, body = fetched(server, "/manifest.webmanifest")
    assert headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == "spieltisch" and manifest["short_name"]
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        kind, picture = fetched(server, icon["src"])
        assert kind["Content-Type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            with Image.open(io.BytesIO(picture)) as opened:
                assert f"{opened.width}x{opened.height}" == icon["sizes"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_links_the_manifest_its_icons_and_a_theme_colour_for_each_theme(
    path: str, server: LiveServer
) -> None:
    _, body = fetched(server, path)
    page = body.decode()
    for link in ('rel="manifest"', 'rel="icon"', 'rel="apple-touch-icon"'):
        assert link in page, f"{path} lacks {link}"
    assert 'name="theme-color"' in page and "prefers-color-scheme: dark" in page
    assert 'href="data:,"' not in page


def test_what_a_page_loads_is_gzipped_and_the_fonts_kept_for_a_year(server: LiveServer) -> None:
    plain_headers, plain = fetched(server, "/static/table.js")
    headers, sent = fetched(server, "/static/table.js", gzipped=True)
    assert headers["Content-Encoding"] == "gzip" and len(sent) < len(plain) / 2
    assert gzip.decompress(sent) == plain
    assert "immutable" not in plain_headers.get("Cache-Control", "")  # a new version shows
    fonts, _ = fetched(server, "/static/fonts/inter.woff2")
    assert "max-age=31536000" in fonts["Cache-Control"]
    catalog, _ = fetched(server, "/api/texts/de", gzipped=True)
    assert catalog["Content-Encoding"] == "gzip"


def test_the_rest_of_the_api_and_the_sockets_are_never_compressed() -> None:
    assert compressible("/") and compressible("/t/abc") and compressible("/static/style.css")
    assert compressible("/api/texts/de") and compressible("/api/games")
    for path in ("/api/account", "/api/lobby", "/api/tables/abc", "/ws/abc", "/api/players/x"):
        assert not compressible(path), path


def test_a_turn_marks_the_tab_and_sound_waits_for_its_switch(
    server: LiveServer, new_context: NewContext
) -> None:
    made = create(server, "auf-die-eier", [{"kind": "person"}, {"kind": "bot"}], 8)
    context = new_context()
    context.add_init_script(AUDIO)
    page = context.new_page()
    join(page, server, made["seat_links"]["0"], "Alex")
    start(server, made)
    assert not wait_ready(page)
    page.wait_for_selector("link[rel=icon][data-badge=yes]", state="attached")
    assert page.get_attribute("link[rel=icon]", "href") == "/static/art/icon-turn.svg"
    switch = page.locator("#sound-toggle")
    assert not switch.is_checked(), "sound is on before anyone turned it on"
    page.locator("#moves button.move").first.dispatch_event("click")  # a move, sound off
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__audio") == 0, "audio was made with the sound off"
    page.locator("label[for=sound-toggle]").click()
    assert switch.is_checked()
    page.wait_for_function("() => window.__audio > 0")  # turning it on plays the chime
    page.reload()
    assert page.locator("#sound-toggle").is_checked(), "the switch was not remembered"
