"""Decoded and de-obfuscated variants of folded text, so one denylist sees through tricks.

A shell (or the LLM reading a goal) undoes quoting, escapes, globs and encodings before it
acts; the matcher must undo them too. Each function here is linear in the text, and the
expensive ones (base64/hex) only run on tokens that look encoded.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from urllib.parse import unquote

from anovax.safety.expand import changed_lines

# --- shell quoting and escapes (operate on folded, lower-case text) ---------------------

#: 'Stop-Com'+'puter' and "sh"+"utdown": PowerShell/JS string concatenation
_CONCAT = re.compile(r"""['"]\s*\+\s*['"]""")
#: (r)(m): parenthesised letters (NFKC turns ⒭ into "(r)")
_PAREN_LETTER = re.compile(r"\((\w)\)")
#: r\m and \rm: a backslash before a letter is dropped by POSIX shells
_BACKSLASH_LETTER = re.compile(r"\\(?=[a-z])")
#: quote characters the shells drop: ' " ` (PowerShell escape) ^ (cmd escape)
_QUOTES = str.maketrans("", "", "'\"`^")
_ESCAPE = re.compile(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|\\([0-7]{3})")
_PERCENT = re.compile(r"(?:%[0-9a-f]{2})+")
#: r[m] and [r]m: a one-character bracket glob
_BRACKET = re.compile(r"\[([^\]\s])[^\]\s\[]*\]")  # no [ inside: each [ is read once
#: C:\Windows\System32\ or /usr/bin/ before a program name
_PATH_PREFIX = re.compile(r"(?<![\w])(?:[a-z]:|~|%\w+%|\$\w+)?(?:[\\/][\w.$~%-]+)+[\\/](?=[\w])")


def dequote(text: str) -> str:
    """Drop the quoting a shell would remove: r''m, "r""m", s^h^u^t, Stop-Comp`uter, r\\m."""
    text = _CONCAT.sub("", text)
    text = _PAREN_LETTER.sub(r"\1", text)
    text = _BACKSLASH_LETTER.sub("", text)
    return text.translate(_QUOTES)


def _unescape_one(match: re.Match[str]) -> str:
    hex2, hex4, octal = match.groups()
    code = int(hex2 or hex4, 16) if (hex2 or hex4) else int(octal, 8)
    return chr(code).lower() if code < 0x110000 else ""


def unescape(text: str) -> str:
    """Decode \\x72, \\u0072 and \\162 escapes (bash $'...', printf, echo -e, JS strings)."""
    if "\\" not in text:
        return text
    return _ESCAPE.sub(_unescape_one, text.replace("$'", "'"))


def unpercent(text: str) -> str:
    if "%" not in text:
        return text
    # twice, for %2572 (double encoding)
    once = _PERCENT.sub(lambda m: unquote(m.group(), errors="replace"), text).lower()
    return _PERCENT.sub(lambda m: unquote(m.group(), errors="replace"), once).lower()


def unglob(text: str) -> str:
    return _BRACKET.sub(r"\1", text) if "[" in text else text


def basenames(text: str) -> str:
    """/usr/bin/rm -> rm, C:\\Windows\\System32\\cmd.exe -> cmd.exe."""
    if "/" not in text and "\\" not in text:
        return text
    return _PATH_PREFIX.sub("", text)


def variants(folded: str) -> tuple[str, ...]:
    """The folded text plus every de-obfuscated reading a shell or a model might make of it."""
    out = [folded]
    dq = dequote(folded)
    out.append(dq)
    if "\\" in folded:
        out.append(dequote(unescape(folded)))
    if "%" in folded:
        out.append(dequote(unpercent(folded)))
    if "&" in folded and ";" in folded:
        out.append(dequote(html.unescape(folded).lower()))  # &#114;&#109; -> rm
    if "[" in folded:
        out.append(unglob(dq))
    if "/" in folded or "\\" in folded:
        out.append(dequote(basenames(unglob(folded))))
    expanded = changed_lines(folded)
    if expanded:
        out.append(dequote(expanded))  # x=rm; $x -rf ~ reads as rm -rf ~
    return tuple(dict.fromkeys(out))


def rot13(text: str) -> str:
    return codecs.decode(text, "rot13")


# --- encoded blobs (operate on case-preserving plain text) ------------------------------

_B64_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{8,4096}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:0x)?((?:[0-9A-Fa-f]{2}){4,2048})(?![0-9A-Za-z])")
_B32_TOKEN = re.compile(r"(?<![A-Za-z0-9=])[A-Z2-7]{8,4096}={0,6}(?![A-Za-z0-9=])")
_BINARY = re.compile(r"(?<![01])((?:[01]{8}[ ]?){3,})(?![01])")
_HEX_SPACED = re.compile(r"(?<![0-9A-Za-z])((?:[0-9A-Fa-f]{2}[ :,]){3,}[0-9A-Fa-f]{2})(?![0-9A-Za-z])")
#: at most this many tokens are decoded per string (bounded work)
MAX_TOKENS = 12


def _as_text(raw: bytes) -> str | None:
    """Bytes -> text when they are clearly text (UTF-16LE as PowerShell -enc uses, or UTF-8)."""
    if len(raw) < 3:
        return None
    text: str | None = None
    if len(raw) >= 4 and len(raw) % 2 == 0 and raw[1::2].count(0) >= len(raw) // 2 * 0.9:
        try:
            text = raw.decode("utf-16-le")
        except UnicodeDecodeError:
            text = None
    if text is None:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    printable = sum(1 for ch in text if ch.isprintable() or ch in "\t\r\n")
    if printable < 0.9 * len(text) or not any(ch.isalpha() for ch in text):
        return None
    return text


def _b64(token: str) -> str | None:
    body = token.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in body or "_" in body:
            raw = base64.urlsafe_b64decode(padded)
        else:
            raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _as_text(raw)


def _hex(token: str) -> str | None:
    try:
        return _as_text(bytes.fromhex(re.sub(r"[ :,]", "", token)))
    except ValueError:
        return None


def _b32(token: str) -> str | None:
    body = token.rstrip("=")
    try:
        return _as_text(base64.b32decode(body + "=" * (-len(body) % 8)))
    except (binascii.Error, ValueError):
        return None


def _binary(token: str) -> str | None:
    bits = token.replace(" ", "")
    return _as_text(int(bits, 2).to_bytes(len(bits) // 8, "big")) if len(bits) % 8 == 0 else None


def decoded_blobs(text: str) -> list[str]:
    """Text hidden in base64 (UTF-8 or UTF-16LE), base32, hex or 8-bit binary tokens of ``text``."""
    found: list[str] = []
    tried = 0
    for match in _B64_TOKEN.finditer(text):
        token = match.group()
        # plain words ("Reminder") are valid base64 but decode to binary noise; skip the
        # all-lowercase-letters ones without trying, they are almost always words
        if token.isalpha() and token.islower():
            continue
        tried += 1
        if tried > MAX_TOKENS:
            break
        decoded = _b64(token)
        if decoded:
            found.append(decoded)
    for pattern, decode in ((_HEX_TOKEN, _hex), (_HEX_SPACED, _hex), (_B32_TOKEN, _b32), (_BINARY, _binary)):
        for match in pattern.finditer(text):
            tried += 1
            if tried > 3 * MAX_TOKENS:
                break
            decoded = decode(match.group(1) if match.groups() else match.group())
            if decoded:
                found.append(decoded)
    return found
