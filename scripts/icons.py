"""Render the app's installable icons (PNG) from its SVG mark, ``static/art/icon.svg``.

The manifest and the home screens of phones want bitmaps: ``icon-192.png`` and
``icon-512.png`` (the manifest's) and ``apple-touch-icon.png`` (180 pixels, iOS's). Each is the
SVG drawn by Chromium (Playwright driving ``/usr/bin/chromium``) at its size on a transparent
page. Run it only when the mark changes; the PNGs are committed.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ART = Path(__file__).resolve().parents[1] / "spieltisch" / "web" / "static" / "art"
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180}
CHROMIUM = "/usr/bin/chromium"


def render(svg: str, sizes: dict[str, int], out: Path) -> None:
    """Draw ``svg`` (its text) into a PNG of each size, named as in ``sizes``, in ``out``."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--headless", "--disable-gpu"]
        )
        for name, size in sizes.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(out / name), omit_background=True)
            page.close()
        browser.close()


def main() -> None:
    render((ART / "icon.svg").read_text(encoding="utf-8"), SIZES, ART)
    for name in SIZES:
        print(f"{name}: {(ART / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
