"""Text from outside made safe to handle and to write: bad input never costs an event.

Python decodes undecodable argv and stdin bytes with ``surrogateescape`` (one lone surrogate
U+DC80..U+DCFF per bad byte), and JSON may carry a lone ``"\\ud800"``. A str holding a lone
surrogate cannot be encoded as UTF-8, so every writer that encodes strictly (the JSONL log,
stdout, a logging handler) raises on it. Three layers keep that from happening:

- ``clean_text`` where a command enters the assistant (``Assistant.submit``, the phone's
  command route): lone surrogates become U+FFFD, control characters other than tab and
  newline become U+FFFD, a non-str becomes "";
- ``fix_surrogates`` in the writers themselves, for any str that did not come that way;
- ``tolerant_stdio`` at start-up: undecodable stdin bytes read as U+FFFD, and characters the
  terminal's encoding lacks are written as "?" (stderr: backslash escapes) instead of raising.

Everything here is linear in the length of the text.
"""

from __future__ import annotations

import io
import re
import sys

REPLACEMENT = "\ufffd"

#: surrogate code points: never text on their own, and no UTF-8 writer takes them
_SURROGATES = re.compile("[\ud800-\udfff]")
#: those, plus the C0 controls, DEL and C1 controls (Unicode category Cc) except tab, newline and CR
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def fix_surrogates(text: str) -> str:
    """``text`` with every surrogate code point (a surrogateescape byte, a JSON ``"\\ud800"``)
    replaced by U+FFFD, so that it always encodes as UTF-8; ``text`` itself when there is none."""
    return _SURROGATES.sub(REPLACEMENT, text)


def clean_text(value: object) -> str:
    """Command text as the assistant may handle it: "" for a non-str; surrogates (undecodable
    argv/stdin bytes, a JSON ``"\\ud800"``) and control characters other than tab and newline
    (NUL, escape, DEL, C1) each become U+FFFD; CR and CRLF become a newline."""
    if not isinstance(value, str):
        return ""
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return _UNWANTED.sub(REPLACEMENT, value)


def tolerant_stdio() -> None:
    """Make the standard streams take any bytes and any str: stdin reads undecodable bytes as
    U+FFFD; stdout writes what its encoding lacks as "?", stderr as backslash escapes. Streams
    that are not text files (a test's stand-in) are left alone."""
    for name, errors in (("stdin", "replace"), ("stdout", "replace"), ("stderr", "backslashreplace")):
        reconfigure = getattr(getattr(sys, name, None), "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError, io.UnsupportedOperation, TypeError):
            continue
