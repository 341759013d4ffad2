"""The generic fallback encoder: any game's view, hashed into a fixed-width vector.

For a game without an encoder of its own, the view's JSON form (``to_jsonable``) is walked
leaf by leaf; each leaf's path (list positions included) and value are hashed (CRC-32, stable
across runs) into one of ``width`` buckets. A number adds its value, scaled to [-1, 1] by
``x / (1 + |x|)``, to its path's bucket; any other leaf (text, true/false, none) sets the
bucket of its path and value. Sums are clipped to [-1, 1]. Collisions blur the picture, but
the array depends on the view alone, so the same view always gives the same array, and a new
game has observations at once.
"""

from __future__ import annotations

import zlib

from spieltisch.core.codec import to_jsonable
from spieltisch.rl.encode.base import Encoder, Layout, Out

WIDTH = 1024


class GenericEncoder(Encoder):
    """Views of any game as hashed float32 vectors."""

    def __init__(self, game_id: str, width: int = WIDTH) -> None:
        self.game_id = game_id
        layout = Layout()
        layout.add("hashed", width, "hashed view leaves (see the generic encoder's docstring)")
        self.layout = layout
        self.width = width

    def fill(self, view: object, out: Out) -> None:
        """Hash every leaf of ``view``'s JSON form into ``out``."""
        self._walk(to_jsonable(view), "", out)
        for index in range(self.width):
            value = out[index]
            if not -1.0 <= value <= 1.0:
                out[index] = max(-1.0, min(1.0, value))

    def _walk(self, data: object, path: str, out: Out) -> None:
        if isinstance(data, dict):
            for key in sorted(data):
                self._walk(data[key], f"{path}/{key}", out)
        elif isinstance(data, list | tuple):
            for index, item in enumerate(data):
                self._walk(item, f"{path}/{index}", out)
        elif isinstance(data, int | float) and not isinstance(data, bool):
            bucket = zlib.crc32(path.encode()) % self.width
            out[bucket] += float(data) / (1.0 + abs(float(data)))
        else:
            bucket = zlib.crc32(f"{path}={data!r}".encode()) % self.width
            out[bucket] = 1.0
