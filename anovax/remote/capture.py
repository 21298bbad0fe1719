"""Where screen frames come from and how they become small JPEGs.

A frame source is a factory called *in the capture thread* (mss objects must be
created in the thread that uses them); it returns a ``Grabber`` that the same
thread uses and closes. ``MssScreen`` is the real screen; ``SyntheticScreen``
draws a moving picture for tests, demos and machines without a display.

Encoding: simplejpeg (libjpeg-turbo) when installed, else Pillow. On a 2-core
machine a 1920x1080 capture scaled to 1280 px took 1.2 ms to scale (nearest
neighbour through precomputed indices) and 2-3 ms to encode with simplejpeg,
against 8 ms for Pillow; a bilinear resize alone cost 14 ms, so scaling is
nearest-neighbour.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

#: JPEG quality: text on the desktop stays legible on a phone at about a third of the bytes of 90
DEFAULT_QUALITY = 70


@dataclass(frozen=True)
class Frame:
    """One captured screen image: ``raw`` is BGRX, 4 bytes a pixel, rows top to bottom."""

    raw: bytes
    width: int
    height: int


class Grabber(Protocol):
    """Takes frames; owned and used by one thread (the one that opened it)."""

    def grab(self) -> Frame: ...

    def close(self) -> None: ...


#: called in the capture thread to open a grabber
FrameSource = Callable[[], Grabber]


class MssScreen:
    """The real screen through mss: the primary monitor, or all of them with ``monitor=0``."""

    def __init__(self, display: str | None = None, monitor: int = 1) -> None:
        self.display = display
        self.monitor = monitor

    def __call__(self) -> Grabber:
        return _MssGrabber(self.display, self.monitor)


class _MssGrabber:
    def __init__(self, display: str | None, monitor: int) -> None:
        import mss

        factory = getattr(mss, "MSS", None) or mss.mss  # mss 10 renamed mss.mss to mss.MSS
        kwargs: dict[str, Any] = {"display": display} if display else {}
        self._sct = factory(**kwargs)
        monitors = self._sct.monitors
        self._area = monitors[self.clamp(monitor, len(monitors))]

    @staticmethod
    def clamp(monitor: int, count: int) -> int:
        return monitor if 0 <= monitor < count else (1 if count > 1 else 0)

    def grab(self) -> Frame:
        shot = self._sct.grab(self._area)
        return Frame(bytes(shot.raw), shot.width, shot.height)

    def close(self) -> None:
        self._sct.close()


class SyntheticScreen:
    """A fake screen that changes on every grab: a coloured background and a bar that moves.

    Counts how often it was opened and grabbed, so tests can prove that nothing was captured."""

    def __init__(self, width: int = 640, height: int = 360) -> None:
        self.width = width
        self.height = height
        self.opened = 0
        self.grabs = 0
        self._lock = threading.Lock()

    def __call__(self) -> Grabber:
        with self._lock:
            self.opened += 1
        return _SyntheticGrabber(self)

    def _count(self) -> int:
        with self._lock:
            self.grabs += 1
            return self.grabs


class _SyntheticGrabber:
    def __init__(self, screen: SyntheticScreen) -> None:
        self._screen = screen

    def grab(self) -> Frame:
        n = self._screen._count()
        w, h = self._screen.width, self._screen.height
        # a slow colour cycle plus a bar that sweeps across: every frame differs somewhere
        shade = (n * 7) % 200 + 30
        row = bytes((shade, 90, 255 - shade, 0)) * w
        bar_x = (n * 8) % max(1, w - 40)
        bar_row = bytearray(row)
        bar_row[bar_x * 4:(bar_x + 40) * 4] = b"\xff\xff\xff\x00" * 40
        band = h // 3
        raw = row * band + bytes(bar_row) * (h - 2 * band) + row * band
        return Frame(raw, w, h)

    def close(self) -> None:
        pass


class JpegEncoder:
    """Scales frames down to ``width`` (never up) and encodes them; one per capture thread."""

    def __init__(self, width: int, quality: int = DEFAULT_QUALITY, *, prefer: str = "auto") -> None:
        self.width = width
        self.quality = quality
        self._simplejpeg: Any = None
        self._np: Any = None
        if prefer in ("auto", "simplejpeg"):
            try:
                import numpy
                import simplejpeg
            except ImportError:
                if prefer == "simplejpeg":
                    raise
            else:
                self._simplejpeg, self._np = simplejpeg, numpy
        self.name = "simplejpeg" if self._simplejpeg is not None else "pillow"
        self._indices: tuple[tuple[int, int], Any, Any] | None = None

    def target_size(self, width: int, height: int) -> tuple[int, int]:
        if width <= self.width:
            return width, height
        return self.width, max(1, round(height * self.width / width))

    def encode(self, frame: Frame) -> bytes:
        if self._simplejpeg is not None:
            return self._encode_turbo(frame)
        return self._encode_pillow(frame)

    def _encode_turbo(self, frame: Frame) -> bytes:
        np = self._np
        pixels = np.frombuffer(frame.raw, np.uint8).reshape(frame.height, frame.width, 4)
        out_w, out_h = self.target_size(frame.width, frame.height)
        if (out_w, out_h) != (frame.width, frame.height):
            key = (frame.width, frame.height)
            if self._indices is None or self._indices[0] != key:
                rows = np.arange(out_h) * frame.height // out_h
                cols = np.arange(out_w) * frame.width // out_w
                self._indices = (key, rows, cols)
            _, rows, cols = self._indices
            # np.take keeps rows C-contiguous (fancy indexing did not), which simplejpeg needs
            pixels = np.take(np.take(pixels, rows, axis=0), cols, axis=1)
        return bytes(self._simplejpeg.encode_jpeg(pixels, self.quality, "BGRX", "420", True))

    def _encode_pillow(self, frame: Frame) -> bytes:
        from PIL import Image

        image = Image.frombuffer("RGB", (frame.width, frame.height), frame.raw, "raw", "BGRX", 0, 1)
        size = self.target_size(frame.width, frame.height)
        if size != image.size:
            image = image.resize(size, Image.Resampling.NEAREST)
        out = io.BytesIO()
        image.save(out, "JPEG", quality=self.quality)
        return out.getvalue()
