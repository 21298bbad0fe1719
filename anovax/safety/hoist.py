"""Alternatives Python's regex engine can skip in one comparison: a cheaper, equivalent spelling.

At every position of a search, ``re`` tries each alternative of an alternation; one that starts
with a literal character (or a character class) is rejected by one comparison when the text has
another character there, but one that starts with ``\\b``, ``^`` or a group is entered in full.
With ~100 such alternatives per denylist category that entry is most of the scan's cost. So:

* an alternation at the top of a pattern is split into its alternatives;
* a leading non-capturing group of alternatives is distributed over what follows
  (``(?:^|[;&])x`` is ``^x|[;&]x``);
* ``\\bc...`` (a word boundary, then a literal letter) is spelled ``c(?<=\\bc)...``: the letter
  first, the boundary checked behind it.

Each rewrite matches exactly the same texts; only the spelling changes.
"""

from __future__ import annotations

import re

_LEADING_BOUNDARY = re.compile(r"\\b([a-z0-9_])")
_QUANTIFIER = "*+?{"


def _group_end(source: str, start: int) -> int:
    """Index just past the group or class opened at ``source[start]``, or -1."""
    depth, i = 0, start
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(source, i)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _class_end(source: str, start: int) -> int:
    i = start + 1
    if source[i:i + 1] == "^":
        i += 1
    if source[i:i + 1] == "]":
        i += 1
    while i < len(source) and source[i] != "]":
        i += 2 if source[i] == "\\" else 1
    return i + 1


def split_top(source: str) -> list[str]:
    """The alternatives of ``source`` at depth 0 (``a|(?:b|c)`` -> ``a``, ``(?:b|c)``)."""
    parts, depth, i, start = [], 0, 0, 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(source, i)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


_REPEAT = re.compile(r"(?:\+|\{(\d+),(\d*)\})(?![?+])")


def _peel(alt: str) -> str:
    """``(?:x){3,}...`` -> ``x(?:x){2,}...`` and ``(?:x)+`` -> ``x(?:x)*``: the first copy
    spelled out, so the alternative starts with what ``x`` starts with."""
    if not alt.startswith("(?:"):
        return alt
    end = _group_end(alt, 0)
    inner = alt[3:end - 1] if end > 0 else ""
    repeat = _REPEAT.match(alt, end) if end > 0 else None
    if repeat is None or len(split_top(inner)) > 1:
        return alt
    low, high = repeat.group(1), repeat.group(2)
    if low is None:
        quantifier = "*"
    elif int(low) < 1:
        return alt
    else:
        quantifier = f"{{{int(low) - 1},{int(high) - 1 if high else ''}}}"
    return f"{inner}(?:{inner}){quantifier}{alt[repeat.end():]}"


def alternatives(source: str, depth: int = 0) -> list[str]:
    """``source`` as a list of alternatives, each starting with a literal where that is possible.
    Sources with backreferences or named groups are left whole (splitting renumbers nothing, but
    a reference must stay in the alternative that defines its group)."""
    if re.search(r"\\[1-9]|\(\?P", source):
        return [source]
    out: list[str] = []
    for alt in split_top(source):
        # \b(?:a|b)x is \bax|\bbx: the boundary goes into each alternative, to be hoisted there
        lead = "\\b" if alt.startswith("\\b(?:") else ""
        if depth < 2 and alt.startswith("(?:", len(lead)):
            end = _group_end(alt, len(lead))
            inner = alt[len(lead) + 3:end - 1] if end > 0 else ""
            if end > 0 and alt[end:end + 1] not in _QUANTIFIER and "|" in inner:
                rest = alt[end:]
                inner_alts = split_top(inner)
                if len(inner_alts) > 1:
                    out += [a for part in inner_alts for a in alternatives(f"{lead}{part}{rest}", depth + 1)]
                    continue
        alt = _peel(alt)
        match = _LEADING_BOUNDARY.match(alt)
        if match and alt[match.end():match.end() + 1] not in _QUANTIFIER:
            letter = match.group(1)
            alt = f"{letter}(?<=\\b{letter}){alt[match.end():]}"
        out.append(alt)
    return out
