"""Rebuild the web fonts shipped in ``spieltisch/web/static/fonts`` from Debian's packages.

The pages load no font from a CDN: Inter (body text, variable weight 400-700) and Quicksand
(headings and the brand, bold) come from Debian's ``fonts-inter-variable`` and
``fonts-quicksand`` (both SIL Open Font License 1.1), cut to the characters spieltisch's two
languages and its boards use, and saved as WOFF2. Run it (it needs ``apt-get download``,
fontTools and brotli) only when the fonts should change; the results are committed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from fontTools import subset  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from fontTools.varLib import instancer  # type: ignore[import-untyped]

OUT = Path(__file__).resolve().parents[1] / "spieltisch" / "web" / "static" / "fonts"
PACKAGES = ("fonts-inter-variable", "fonts-quicksand")
UNICODES = (
    "U+0020-007E,U+00A0-00FF,U+0131,U+0152-0153,U+02C6,U+02DA,U+02DC,U+2002-200B,"
    "U+2010-2027,U+2030-203A,U+2044,U+20AC,U+2122,U+2190-2193,U+2212,U+2215,U+00D7"
)
"""Basic Latin, Latin-1 (the umlauts and ß), typographic punctuation (German quotes and
dashes), arrows and the minus and times signs."""


def _unpack(folder: Path) -> Path:
    """Download the packages into ``folder`` and unpack them; the unpacked root."""
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=folder, check=True)
    root = folder / "root"
    for deb in folder.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def _cut(font: TTFont, name: str) -> None:
    """Keep only :data:`UNICODES` (and the layout features text needs) and save as WOFF2."""
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["kern", "liga", "calt", "ccmp", "locl", "mark", "mkmk", "tnum"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(OUT / name)


def main() -> None:
    """Write ``inter.woff2``, ``quicksand-bold.woff2`` and the licence beside them."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        root = _unpack(Path(temp))
        fonts = root / "usr" / "share" / "fonts" / "truetype"
        inter = instancer.instantiateVariableFont(
            TTFont(fonts / "inter-vf" / "Inter-roman.var.ttf"), {"wght": (400, 700)}
        )
        narrowed = Path(temp) / "inter-400-700.ttf"
        inter.save(narrowed)
        _cut(TTFont(narrowed), "inter.woff2")
        _cut(TTFont(fonts / "quicksand" / "Quicksand-Bold.ttf"), "quicksand-bold.woff2")
        docs = root / "usr" / "share" / "doc"
        with (OUT / "LICENSES.txt").open("w", encoding="utf-8") as out:
            for package in PACKAGES:
                out.write(f"==== {package} (Debian) ====\n")
                out.write((docs / package / "copyright").read_text(encoding="utf-8"))
                out.write("\n")
    shutil.rmtree(OUT / "__pycache__", ignore_errors=True)


if __name__ == "__main__":
    main()
