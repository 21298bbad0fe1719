"""The phone remote's pairing address as a QR code: a PNG for the window, text for a terminal."""

from __future__ import annotations

import base64
import io

import segno


def qr_png(url: str, *, scale: int = 4, border: int = 2) -> bytes:
    """A black-on-white PNG (a phone camera reads dark modules on a light quiet zone best)."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=scale, border=border)
    return buffer.getvalue()


def qr_png_base64(url: str, *, scale: int = 4) -> str:
    """What ``tkinter.PhotoImage(data=...)`` takes (Tk 8.6 reads PNG itself)."""
    return base64.b64encode(qr_png(url, scale=scale)).decode("ascii")


def qr_text(url: str) -> str:
    """Half-block characters, two modules per character row, for the console."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
