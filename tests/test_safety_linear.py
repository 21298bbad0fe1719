"""The safety check is linear in its input: 8x the text costs about 8x the CPU, never 64x.

A complexity check, not a speed target (the 50 ms and 2 ms targets are in
``benchmarks/bench_safety.py``). Each family of ``tests/adversarial.py`` is timed at an eighth
of the caps and at the caps; linear work gives a ratio near 8 (less, with fixed costs), quadratic
work near 64, so the bound of 24 leaves room for noise either way. Timings use this thread's CPU
time (other processes loading both CPUs do not count), the least of several runs, and enough
repeats that each measurement is at least 5 ms.

Every family cannot be timed twice in a unit test, so each test first *screens* cheaply (one
run at one size) and then times the slowest candidates: a quadratic scan is also the slowest one
at a single size. The words screened are read from the gate's own pattern sources, so a pattern
added later is covered without editing this file.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable

import pytest

import adversarial
from anovax.safety import Rule

#: linear is ~8 (fixed costs make it less), quadratic ~64
MAX_RATIO = 24.0
#: each measurement lasts at least this long, so timer resolution and jitter do not matter
MIN_SAMPLE_S = 0.005
#: candidates kept from each screen for the two-size timing
TOP = 4
SMALL, LARGE = 1 / 8, 1.0


def _cpu(fn: Callable[[], object], repeat: int, runs: int = 3) -> float:
    best = math.inf
    for _ in range(runs):
        start = time.thread_time()
        for _ in range(repeat):
            fn()
        best = min(best, time.thread_time() - start)
    return best


def ratio(small: Callable[[], object], large: Callable[[], object]) -> float:
    """CPU time of ``large`` over ``small``, each repeated as often as ``small`` needs to last
    MIN_SAMPLE_S; measured twice when the first answer is over the bound (one unlucky run)."""
    once = _cpu(small, 1, runs=1)
    repeat = max(1, math.ceil(MIN_SAMPLE_S / max(once, 1e-6)))
    found = math.inf
    for _ in range(2):
        found = min(found, _cpu(large, repeat) / max(_cpu(small, repeat), 1e-9))
        if found < MAX_RATIO:
            break
    return found


def _cold(case: adversarial.Case) -> Callable[[], object]:
    def run() -> object:
        adversarial.clear_caches()
        return case.check()
    return run


# --- the gate's regexes, one by one -----------------------------------------------------------

def _regex_candidates() -> list[tuple[float, str, str]]:
    """(seconds at 2,000 characters, pattern name, unit) for every pattern and every unit that
    could make it backtrack: its own words (with a space or a dash after) and the special units."""
    found = []
    specials = list(adversarial.SPECIAL_UNITS.values())
    for name, pattern in adversarial.patterns():
        own = adversarial.words_of(pattern.pattern)
        for unit in specials + [w + " " for w in own] + [w + " -" for w in own]:
            text = adversarial.fill(unit, 2000)
            start = time.thread_time()
            pattern.search(text)
            found.append((time.thread_time() - start, name, unit))
    found.sort(reverse=True)
    return found


@pytest.fixture(scope="module")
def regex_screen() -> list[tuple[float, str, str]]:
    return _regex_candidates()


def test_the_screen_reads_words_from_the_pattern_sources():
    words = adversarial.pattern_words()
    # a sample of the command, prose and key families, found without being listed anywhere here
    for word in ("dd", "sudo", "curl", "whenever", "terminal", "ctrl", "passwd"):
        assert word in words
    assert len(adversarial.patterns()) >= 20


def test_every_regex_scans_linearly(regex_screen):
    patterns = dict((name, p) for name, p in adversarial.patterns())
    slow = []
    for _, name, unit in regex_screen[:TOP * 2]:
        pattern = patterns[name]
        small, large = adversarial.fill(unit, 2000), adversarial.fill(unit, 16000)
        found = ratio(lambda: pattern.search(small), lambda: pattern.search(large))
        if found >= MAX_RATIO:
            slow.append(f"{name} on {unit!r}: x{found:.0f}")
    assert not slow, "super-linear regex scans: " + "; ".join(slow)


# --- the whole check, per place -------------------------------------------------------------------

def _screen_cases(families: list[adversarial.Family]) -> list[adversarial.Family]:
    timed = []
    for family in families:
        case = family.build(SMALL)
        adversarial.clear_caches()
        start = time.thread_time()
        case.check()
        timed.append((time.thread_time() - start, family.name, family))
    timed.sort(key=lambda row: row[:2], reverse=True)
    return [family for _, _, family in timed[:TOP]]


def _like(family: adversarial.Family, rule: str) -> adversarial.Case:
    """The small case, at a length near SMALL whose verdict is ``rule`` too: a unit cut off at one
    length and not at another can make a different field ("nc nc 1": netcat to port 1, refused
    at its first field), and a check refused early is no measure of the full one's growth."""
    # sizes close to SMALL either side (at most 1/8 off, so a quadratic scan still shows x50 or
    # more), nearest first; when none matches (a family refused only when large, such as text
    # too long) the plain small case is timed, as before
    for step in sorted(range(-16, 17), key=abs):
        case = family.build(SMALL * (1 + step / 128))
        if case.check().rule == rule:
            return case
    return family.build(SMALL)


def _assert_linear(families: list[adversarial.Family]) -> None:
    slow = []
    for family in families:
        large = family.build(LARGE)
        verdict = large.check()
        assert verdict.rule != Rule.INTERNAL_ERROR, f"{family.name}: {verdict.detail}"
        small = _like(family, verdict.rule)
        found = ratio(_cold(small), _cold(large))
        if found >= MAX_RATIO:
            slow.append(f"{family.name}: x{found:.0f}")
    assert not slow, "super-linear safety_check: " + "; ".join(slow)


MIXED = "".join(adversarial.SPECIAL_UNITS.values())


@pytest.mark.parametrize("place", sorted(adversarial.places()))
def test_every_place_scales_linearly_with_mixed_separators(place):
    _assert_linear([adversarial.family(place, "mixed", MIXED)])


def test_the_slowest_special_units_scale_linearly_in_typed_text():
    families = adversarial.families(words=False, where=("type_text.text",))
    _assert_linear(_screen_cases(families))


def test_the_slowest_special_units_scale_linearly_in_goals_and_memory():
    families = adversarial.families(words=False, where=("plan_subtask.goal", "remember"))
    _assert_linear(_screen_cases(families))


def test_the_regex_screens_worst_words_scale_linearly_through_the_whole_check(regex_screen):
    units = []
    for _, _, unit in regex_screen:
        if unit not in units and unit.strip() and unit not in adversarial.SPECIAL_UNITS.values():
            units.append(unit)
        if len(units) == TOP:
            break
    families = [adversarial.family(place, f"word:{unit.strip()}", unit)
                for unit in units for place in ("type_text.text", "plan_subtask.goal")]
    _assert_linear(families)


def test_a_repeated_command_prefix_is_linear():
    # the case that started it: 8 x ("dd " * 666) cost ~1 s, quadratic in the line
    _assert_linear([adversarial.family("type_text.text", "word:dd", "dd ")])


def test_the_ratio_check_can_fail():
    # a quadratic scan of the same sizes must be caught: the check is not vacuous
    backtracks = re.compile(r"a*b")  # from every a, reads every later a: quadratic

    def quadratic(n: int) -> Callable[[], object]:
        text = "a" * n
        return lambda: backtracks.search(text)
    assert ratio(quadratic(500), quadratic(4000)) >= MAX_RATIO


def test_text_that_balloons_when_canonicalised_is_refused():
    # U+FDFA is 18 letters after NFKC: 2,000 of them would be 36,000 characters to scan
    verdict = adversarial.family("type_text.text", "nfkc-expands").build(LARGE).check()
    assert verdict.rule == Rule.TOO_LONG
    assert adversarial.family("type_text.text", "word:the", "the ").build(LARGE).check().ok
