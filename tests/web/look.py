"""Comparing a page's screenshot with its committed reference, with a small tolerance.

A reference is the screenshot halved in each direction (Pillow's box reduction, which is
deterministic), so that the references stay small in the repository and the sub-pixel
differences of anti-aliased text wash out. Two pictures agree when at most
:data:`TOLERANCE` of their pixels differ by more than :data:`CHANNEL` in some colour channel;
a moved panel, a changed colour token or a missing drawing differs in far more. When they
disagree, the new picture and a picture of the differing pixels are written beside each other
under the test artifacts, so the change can be looked at.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
from PIL import Image

SHRINK: Final = 2
"""A reference keeps one pixel of each SHRINK x SHRINK square (their mean)."""
CHANNEL: Final = 40
"""A pixel differs when some channel differs by more than this (of 255)."""
TOLERANCE: Final = 0.005
"""The share of differing pixels two agreeing pictures may have."""


@dataclass(frozen=True)
class Difference:
    """How a screenshot compares with its reference."""

    share: float
    """The share of pixels that differ (1.0 when the sizes differ)."""
    size: tuple[int, int]
    reference_size: tuple[int, int]

    @property
    def agrees(self) -> bool:
        """Within the tolerance and the same size."""
        return self.size == self.reference_size and self.share <= TOLERANCE

    def describe(self, name: str) -> str:
        """One line for a failure message."""
        if self.size != self.reference_size:
            return f"{name}: {self.size} where the reference is {self.reference_size}"
        return f"{name}: {self.share:.2%} of its pixels differ (at most {TOLERANCE:.1%} may)"


def shrunk(png: bytes) -> Image.Image:
    """A screenshot (PNG bytes) as a reference is kept: RGB, halved."""
    with Image.open(io.BytesIO(png)) as opened:
        return opened.convert("RGB").reduce(SHRINK)


def compare(picture: Image.Image, reference: Image.Image) -> Difference:
    """How ``picture`` differs from ``reference`` (both as :func:`shrunk` makes them)."""
    if picture.size != reference.size:
        return Difference(1.0, picture.size, reference.size)
    ours = np.asarray(picture, dtype=np.int16)
    theirs = np.asarray(reference, dtype=np.int16)
    differing = (np.abs(ours - theirs).max(axis=2) > CHANNEL).mean()
    return Difference(float(differing), picture.size, reference.size)


def difference_picture(picture: Image.Image, reference: Image.Image) -> Image.Image:
    """The reference, faded, with the differing pixels in full red (same sizes only)."""
    ours = np.asarray(picture, dtype=np.int16)
    theirs = np.asarray(reference, dtype=np.int16)
    shown = (theirs // 3 + 170).astype(np.uint8)
    shown[np.abs(ours - theirs).max(axis=2) > CHANNEL] = (220, 0, 0)
    return Image.fromarray(shown)


def keep(picture: Image.Image, path: Path) -> None:
    """Save ``picture`` as a compact PNG."""
    path.parent.mkdir(parents=True, exist_ok=True)
    picture.save(path, optimize=True)
