"""A mistyped command verb ("opne notepad", "clsoe the calculator"): one edit away from exactly
one verb the grammar starts commands with. Tried only when nothing understood the clause, so
anything that already meant something keeps its meaning (and SLURP's figures stay as they were)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

#: the verbs a guessed command may start with: apps, windows, searches and timers. Not typing or
#: keys ("hype me up" must not become "type me up"): a wrong guess there would put text in a window
VERBS = frozenset("""open launch start switch bring close quit exit minimise minimize maximise maximize restore
    hide show search google find play remind cancel""".split())
#: shorter words are too often another word one letter off ("tap", "tip", "rum")
_MIN_LEN = 4
_FIRST = re.compile(r"^\s*([A-Za-z]+)\b")


def one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one substitution, insertion, deletion or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    """The words of the English pronouncing dictionary pocketsphinx ships (126k words, ~40 ms,
    read only when a clause nothing understood is checked for a typo); empty without it."""
    try:
        import pocketsphinx  # the offline recogniser's package: optional for the planner

        path = Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"
        with path.open(encoding="utf-8", errors="replace") as lines:
            return frozenset(line.split(" ", 1)[0].split("(", 1)[0] for line in lines)
    except Exception:  # noqa: BLE001 - no dictionary: every one-edit guess is tried, as before
        return frozenset()


def corrected(clause: str) -> str | None:
    """``clause`` with its first word replaced by the one verb it is a typo of, or None."""
    m = _FIRST.match(clause)
    if not m:
        return None
    word = m.group(1).lower()
    if len(word) < _MIN_LEN or word in VERBS:
        return None
    real = word in _english_words()
    # "lunch time now" is lunch, not "launch"; "snow tomorrow" is snow, not "show" (but "opens" is "open")
    found = [verb for verb in VERBS if one_edit(word, verb) and (not real or word.startswith(verb))]
    if len(found) != 1:
        return None  # none, or ambiguous: better not understood than misunderstood
    return clause[: m.start(1)] + found[0] + clause[m.end(1):]
