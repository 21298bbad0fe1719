"""Secrets already in memory must not leave, however a plan spells them.

An old memory file may hold ``{"wifi_password": "Sonnenblume7"}``. A plan that searches for it,
says it, stores it under another key or hands it to a sub-task leaks it, also when it writes
"S o n n e n b l u m e 7", "7emulbnennoS", "SONNENBLUME7", "Ѕоnnеnblumе7" (Cyrillic look-alikes),
"S0nnenblume7", or splits it over two searches ("Sonnen", "blume7").

Both sides are reduced to a *skeleton*: look-alike letters to their Latin twin, case folded,
0/1/i to o/l/l, everything but letters and digits dropped. The plan's outbound texts are
reduced once; each stored secret (4+ characters) is then looked for with substring searches
only: in each text, in the texts run together in plan order and in reverse order, backwards,
and as two pieces of 3+ characters found anywhere (the longest matching prefix and suffix are
found by bisection, so a secret costs O(log n) searches, never a quadratic scan).
Text typed into an editor keeps the exact check (``taint``): people type their own addresses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from anovax.safety import secret
from anovax.safety.canon import plain
from anovax.safety.confusables import CONFUSABLES
from anovax.safety.memory import FactKind, assess

#: shortest stored secret looked for (shorter ones match everyday text)
MIN_SECRET = 4
#: shortest secret looked for in two pieces, and the shortest piece ("48" + "21" is any time of day)
MIN_SPLIT = 6
MIN_PIECE = 3
#: digits and letters people swap for each other
_LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l"})


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The comparison form: look-alikes mapped, casefolded, only letters and digits kept."""
    mapped = plain(text).translate(CONFUSABLES).casefold().translate(_LOOKALIKE)
    return "".join(ch for ch in mapped if ch.isalnum())


@dataclass(frozen=True)
class StoredSecret:
    """One secret to look for: its skeleton, and the memory key it came from (for logs)."""

    key: str
    skeleton: str


@lru_cache(maxsize=64)
def stored_secrets(memory: tuple[tuple[str, str], ...]) -> tuple[StoredSecret, ...]:
    """The secrets in stored memory: the value a fact states ("hunter2" in "my password is
    hunter2") and the whole value, each long enough to look for."""
    found: dict[str, StoredSecret] = {}
    for key, value in memory:
        if assess(key, value).kind is not FactKind.SECRET:
            continue
        finding = secret.in_fact(key, value)
        for text in (finding.value if finding else "", value):
            shape = skeleton(text)
            if len(shape) >= MIN_SECRET and shape not in found:
                found[shape] = StoredSecret(key, shape)
    return tuple(found.values())


def _longest_prefix(needle: str, haystack: str) -> int:
    """The length of the longest prefix of ``needle`` that occurs in ``haystack`` (prefixes of
    an occurring prefix occur too, so bisection finds it)."""
    low, high = 0, len(needle)
    while low < high:
        mid = (low + high + 1) // 2
        if needle[:mid] in haystack:
            low = mid
        else:
            high = mid - 1
    return low


def _in_two_pieces(needle: str, haystack: str) -> bool:
    if len(needle) < MIN_SPLIT:
        return False
    head = _longest_prefix(needle, haystack)
    tail = _longest_prefix(needle[::-1], haystack[::-1])
    # a cut k works when needle[:k] and needle[k:] both occur, both at least MIN_PIECE long
    return max(MIN_PIECE, len(needle) - tail) <= min(head, len(needle) - MIN_PIECE)


@dataclass(frozen=True)
class Leak:
    """Where a stored secret leaves: the text's index in the outbound list (None: spread out)."""

    key: str
    index: int | None


def find_leak(secrets: Iterable[StoredSecret], texts: list[str]) -> Leak | None:
    """The first stored secret that ``texts`` (everything the plan sends out) carries."""
    shapes = [skeleton(text) for text in texts]
    forward = "".join(shapes)
    backward = "".join(reversed(shapes))
    separated = "\0".join(shapes)
    for item in secrets:
        for needle in (item.skeleton, item.skeleton[::-1]):
            for index, shape in enumerate(shapes):
                if needle in shape:
                    return Leak(item.key, index)
            if needle in forward or needle in backward or _in_two_pieces(needle, separated):
                return Leak(item.key, None)
    return None
