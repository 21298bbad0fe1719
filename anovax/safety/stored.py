"""Secrets already in memory must not leave, however a plan spells them.

An old memory file may hold ``{"wifi_password": "Sonnenblume7"}``. A plan that searches for it,
says it, stores it under another key or hands it to a sub-task leaks it, also when it writes
"S o n n e n b l u m e 7", "7emulbnennoS", "SONNENBLUME7", "Ѕоnnеnblumе7" (Cyrillic look-alikes),
"S0nnenblume7", or splits it over two searches ("Sonnen", "blume7").

Both sides are reduced to a *skeleton*: look-alike letters to their Latin twin, case folded,
0/1/i to o/l/l, everything but letters and digits dropped. The plan's outbound texts are
reduced once; a short stored secret (4-5 characters, a PIN) must stand alone as a word or a whole
text; a longer one is looked for, forwards and backwards,
in each text and in the texts run together in plan order and in reverse order (substring
searches), and cut in two pieces of 3+ characters where one piece ends a text or a word and the
other starts one ("what does sonnen mean", "blume7 lyrics"). Pieces must sit at such edges:
anywhere-in-the-text pieces of three letters are found in any long enough text ("hun" in
"hundred" + "ter2" in "chapter 2"), and an attacker splitting a secret puts the pieces in
searches of their own anyway. The edges are indexed by their 3-character ends, so a cut costs a
lookup, not a scan.
Text typed into an editor keeps the exact check (``taint``): people type their own addresses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from anovax.plan import Plan
from anovax.safety import secret
from anovax.safety.canon import plain
from anovax.safety.confusables import CONFUSABLES
from anovax.safety.decode import decoded_blobs
from anovax.safety.memory import FactKind, assess
from anovax.toolspec import Sink
from anovax.tools import ToolRegistry

#: shortest stored secret looked for (shorter ones match everyday text)
MIN_SECRET = 4
#: shortest secret looked for inside longer text or in two pieces (shorter ones must stand alone:
#: "4821" in "0301482199" is a phone number), and the shortest piece ("48" + "21" is any time of day)
MIN_SPLIT = 6
MIN_PIECE = 3
MAX_SPLIT = 64
#: digits and letters people swap for each other
_LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l"})
#: a secret read out letter by letter: the NATO alphabet and digits as words ("sierra oscar ... seven")
_SPOKEN_CHARS = {
    **{word: word[0] for word in """alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett
        kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray
        yankee zulu""".split()},
    **{word: str(digit) for digit, word in enumerate("zero one two three four five six seven eight nine".split())},
    "x-ray": "x", "oh": "0", "capital": "", "uppercase": "", "lowercase": "", "small": "", "big": "",
}
_SPOKEN_WORD = re.compile(r"[a-z]+(?:-ray)?")


#: sinks whose text leaves the machine or reaches a model (a sub-planner reads goals); a fact's
#: name is said back ("I don't know your ... yet")
OUTBOUND = frozenset({Sink.QUERY, Sink.ADDRESS, Sink.SPOKEN, Sink.GOAL, Sink.UNDECLARED, Sink.FACT_KEY})


def outbound(plan: Plan, registry: ToolRegistry) -> list[tuple[int | None, str]]:
    """What ``plan`` sends out, with its step index (None: final_response, new facts). The
    runtime keeps these texts and passes the last few as ``recent_outbound`` to the next check."""
    texts: list[tuple[int | None, str]] = [
        (index, value)
        for index, step in enumerate(plan.steps)
        for sink, value in registry[step.tool].texts(step.params)
        if sink in OUTBOUND
    ]
    texts.append((None, plan.final_response))
    texts.extend((None, text) for pair in plan.remember.items() for text in pair)
    return texts


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The comparison form: look-alikes mapped, casefolded, only letters and digits kept."""
    mapped = plain(text).translate(CONFUSABLES).casefold().translate(_LOOKALIKE)
    return "".join(ch for ch in mapped if ch.isalnum())


def _read_out(text: str) -> str | None:
    """``text`` with each NATO or number word as the character it stands for, or None when it
    has too few of them to be a read-out (so ordinary texts cost one scan and nothing more)."""
    folded = plain(text).casefold()
    hits = sum(word in _SPOKEN_CHARS for word in _SPOKEN_WORD.findall(folded))
    if hits < MIN_SECRET:
        return None
    return _SPOKEN_WORD.sub(lambda m: _SPOKEN_CHARS.get(m.group(), m.group()), folded)


def variants(texts: list[str]) -> list[str]:
    """The texts and what they may hide: a secret read out letter by letter, or encoded
    (base64, hex, base32: ``decode.decoded_blobs``)."""
    out = list(texts)
    for text in texts:
        spoken = _read_out(text)
        if spoken is not None:
            out.append(spoken)
        out.extend(decoded_blobs(plain(text)))
    return out


@dataclass(frozen=True)
class StoredSecret:
    """One secret to look for: its skeleton, and the memory key it came from (for logs)."""

    key: str
    skeleton: str
    #: the secret's digits when it is a number (a PIN, a door code); the skeleton reads 0 and 1 as
    #: letters, a number said aloud keeps them digits
    digits: str = ""


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
                number = re.sub(r"[\s.-]", "", plain(text))
                found[shape] = StoredSecret(key, shape, number if number.isdigit() else "")
    return tuple(found.values())


@dataclass(frozen=True)
class _Pieces:
    """Where a piece of a split secret may sit: at the end or the start of a whole text or of
    one of its words (its skeleton), indexed by the last or first MIN_PIECE characters so each
    cut of a secret costs a dictionary lookup and a few comparisons."""

    ends: dict[str, list[str]]
    starts: dict[str, list[str]]
    #: every text's and every word's skeleton: a short secret must be one of them whole
    units: frozenset[str]

    @classmethod
    def of(cls, texts: list[str]) -> _Pieces:
        ends: dict[str, list[str]] = {}
        starts: dict[str, list[str]] = {}
        units: set[str] = set()
        for text in texts:
            units.update({skeleton(text), *(skeleton(word) for word in text.split())})
        for unit in units:
            if len(unit) >= MIN_PIECE:
                ends.setdefault(unit[-MIN_PIECE:], []).append(unit)
                starts.setdefault(unit[:MIN_PIECE], []).append(unit)
        return cls(ends, starts, frozenset(units))

    def split(self, needle: str) -> bool:
        """True when some cut of ``needle`` ends one text or word and starts another (or the same).
        A long secret is cut within its first MAX_SPLIT characters: leaking those is leak enough."""
        needle = needle[:MAX_SPLIT]
        if len(needle) < MIN_SPLIT:
            return False
        heads = [
            cut for cut in range(MIN_PIECE, len(needle) - MIN_PIECE + 1)
            if any(unit.endswith(needle[:cut]) for unit in self.ends.get(needle[cut - MIN_PIECE : cut], ()))
        ]
        return any(
            any(unit.startswith(needle[cut:]) for unit in self.starts.get(needle[cut : cut + MIN_PIECE], ()))
            for cut in heads
        )


@dataclass(frozen=True)
class Leak:
    """Where a stored secret leaves: the text's index in the outbound list (None: spread out)."""

    key: str
    index: int | None


#: a number as it is said or written: digits apart by at most one space, dot or dash ("2 5 8 0",
#: "7-3-9-1"), read as one run of digits
_DIGIT_RUN = re.compile(r"\d(?:[ .-]?\d)*")
#: how many runs in a row a short numeric secret may be cut into ("48" + "27", across steps or commands)
_MAX_NUMBER_PIECES = 3


def _digit_runs(texts: list[str]) -> list[str]:
    return [re.sub(r"\D", "", run) for text in texts for run in _DIGIT_RUN.findall(plain(text))]


def _number_leaks(needle: str, runs: list[str]) -> bool:
    """A code or PIN said as a number of its own, digit by digit, or in pieces that follow one
    another ("The first half is 48." "The second half is 27."); inside a longer number it is not
    the secret ("call 0301 482199")."""
    for start in range(len(runs)):
        joined = ""
        for run in runs[start : start + _MAX_NUMBER_PIECES]:
            joined += run
            if joined == needle:
                return True
            if len(joined) >= len(needle):
                break
    return False


def find_leak(secrets: Iterable[StoredSecret], texts: list[str]) -> Leak | None:
    """The first stored secret that ``texts`` (everything the plan sends out) carries."""
    runs = _digit_runs(texts)
    for item in secrets:
        for needle in (item.digits, item.digits[::-1]):
            if 3 <= len(needle) <= 8 and _number_leaks(needle, runs):
                return Leak(item.key, None)
    shapes = [skeleton(text) for text in texts]
    forward = "".join(shapes)
    backward = "".join(reversed(shapes))
    pieces = _Pieces.of(texts)
    for item in secrets:
        for needle in (item.skeleton, item.skeleton[::-1]):
            if len(needle) < MIN_SPLIT:
                # a PIN inside a longer number or a short word inside another ("emma" in
                # "dilemma") is not the secret: short ones must stand alone, as a word or a text
                if needle in pieces.units:
                    return Leak(item.key, next((i for i, t in enumerate(texts) if needle in skeleton(t)), None))
                continue
            for index, shape in enumerate(shapes):
                if needle in shape:
                    return Leak(item.key, index)
            if needle in forward or needle in backward or pieces.split(needle):
                return Leak(item.key, None)
    return None
