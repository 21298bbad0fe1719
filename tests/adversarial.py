"""Adversarial plans at the size caps: the inputs that make a careless scanner quadratic.

A regex such as ``dd[ ]+[^\\n]*\\bif=`` is retried at every ``dd`` of a line and each try reads
to the end of the line, so a field of 666 ``dd `` costs 666 x 2000 steps; a per-step re-scan of
the whole typed stream costs steps x length. These generators fill every text the gate reads
(each tool parameter, up to its declared ``max_len``; final_response; remember; the runtime's
memory, transcript, screen text and session line, up to ``anovax.safety.limits``) with one
repeated *unit*: a word taken from the gate's own pattern sources (so a pattern added later is
covered without editing this file), a separator or escape prefix, an encoded-looking alphabet,
runs of spaces, look-alike and invisible characters.

Shared by ``tests/test_safety_linear.py`` (the complexity check: 8x the input must cost about
8x the CPU, not 64x) and ``benchmarks/bench_safety.py`` (the worst case against 50 ms).
A ``Case`` at ``scale`` 1.0 is at the caps; at 1/8 every field (or, for fields too short to
shrink, the number of steps or facts) is an eighth, so the whole input is an eighth.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
import string
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import anovax.safety
from anovax.safety.lexicon import Lazy, Near
from anovax.plan import LIMITS
from anovax.safety import limits, safety_check
from anovax.safety.verdict import Verdict
from anovax.tools import TOOLS
from anovax.toolspec import Sink

#: a benign plan for the families that load the runtime's context rather than the plan
_BENIGN_STEPS = ({"tool": "open_app", "params": {"name": "notepad"}},
                 {"tool": "type_text", "params": {"text": "hello there"}})


@dataclass(frozen=True)
class Case:
    """One plan and the runtime context it is checked in."""

    family: str
    plan: dict[str, Any]
    user_text: str = ""
    context: dict[str, Any] = field(default_factory=dict)

    def check(self) -> Verdict:
        return safety_check(self.plan, self.user_text, **self.context)


@dataclass(frozen=True)
class Family:
    """A unit repeated through one place of the plan or its context; ``build(scale)`` makes the case."""

    name: str
    build: Callable[[float], Case]


# --- units ------------------------------------------------------------------------------------

def _safety_modules() -> list[Any]:
    return [importlib.import_module(f"anovax.safety.{m.name}") for m in pkgutil.iter_modules(anovax.safety.__path__)]


def patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every compiled pattern the gate holds at module level (alone, in tuples or dicts, or as a
    dataclass's ``pattern`` such as a command ``Category``), named ``module.attribute``."""
    found: dict[int, tuple[str, re.Pattern[str]]] = {}

    def walk(name: str, value: Any, depth: int) -> None:
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            found.setdefault(id(value), (name, value))
        elif depth < 3 and isinstance(value, (tuple, list)):
            for item in value:
                walk(name, item, depth + 1)
        elif depth < 3 and isinstance(value, dict):
            for item in value.values():
                walk(name, item, depth + 1)
        elif isinstance(value, Lazy):
            walk(name, value.pattern, depth + 1)  # compiled here: a lazily compiled rule is still a rule
        elif isinstance(value, Near):
            walk(f"{name}.first", value.first, depth + 1)
            walk(f"{name}.second", value.second, depth + 1)
        elif hasattr(value, "__dataclass_fields__") and isinstance(getattr(value, "pattern", None), re.Pattern):
            walk(f"{name}.{getattr(value, 'name', '')}", value.pattern, depth + 1)

    for module in _safety_modules():
        short = module.__name__.rsplit(".", 1)[-1]
        for attr, value in vars(module).items():
            if not attr.startswith("__"):
                walk(f"{short}.{attr}", value, 0)
    return list(found.values())


def _word_lists() -> Iterator[str]:
    """Module-level sets of words (program names, terminal names...)."""
    for module in _safety_modules():
        for attr, value in vars(module).items():
            if not attr.startswith("__") and isinstance(value, (frozenset, set)):
                yield " ".join(v for v in value if isinstance(v, str))


_ESCAPE = re.compile(r"\\[A-Za-z]|\\.")
#: character classes ([a-z0-9], [^\n]) hold no words
_CLASS = re.compile(r"\[[^\]]*\]")
_WORD = re.compile(r"[a-z][a-z0-9_\-]*[a-z0-9]")


#: a lookbehind right after a word's first letter, as ``anovax.safety.hoist`` spells ``\bword``
_HOISTED = re.compile(r"(?<=[a-z0-9_])\(\?<[=!][^()]*\)")


def words_of(source: str) -> set[str]:
    """The literal words of a regex source or a word list."""
    source = _HOISTED.sub("", source.lower())
    return {w for w in _WORD.findall(_CLASS.sub(" ", _ESCAPE.sub(" ", source))) if len(w) <= 40}


def pattern_words() -> list[str]:
    """Every literal word in the gate's patterns and word lists (``dd``, ``sudo``, ``if``,
    ``whenever``...), so a word a new pattern anchors on gets its own adversarial unit."""
    words: set[str] = set()
    for _, pattern in patterns():
        words |= words_of(pattern.pattern)
    for listed in _word_lists():
        words |= words_of(listed)
    return sorted(words)


#: prefixes of the pattern families that are not words: substitutions, escapes, separators,
#: encodings, runs, quotes, look-alikes, invisible characters, hotkey and key-token spellings
SPECIAL_UNITS: dict[str, str] = {
    "dollar-paren": "$(", "backtick": "`", "dollar-brace": "${", "dollar-var": "$a", "percent-var": "%a%",
    "percent-tilde": "%a:~", "hex-escape": "\\x", "hex-escape-41": "\\x41", "octal-escape": "\\1",
    "unicode-escape": "\\u00", "amp-paren": "&(", "pipe": "|", "pipe-space": "| ", "fork-bomb": ":(){",
    "bomb-call": "a(){ a|", "hex-0x": "0x", "hex-pairs": "41", "hex-spaced": "41 ", "hex-colon": "41:",
    "binary": "01000001 ", "binary-run": "01", "digits": "1234567890", "digit-groups": "4111 ",
    "base64": "QUJD", "base64-url": "a-_b", "base32": "ABCD2345", "base64-pad": "QQ==", "spaces": " ",
    "newlines": "\n", "space-newline": " \n", "tabs": "\t", "crlf": "\r\n", "quotes-nested": "'\"", "quote": "'",
    "dquote": '"', "quote-plus": "'+'", "paren-letter": "(a)", "bracket-glob": "[a", "bracket-one": "[r]",
    "backslash": "\\", "backslash-letter": "\\a", "slashes": "/", "path": "/a", "win-path": "c:\\a",
    "unc": "\\\\a", "dash": "-", "flags": " -a", "dash-dash": "--", "tilde": "~", "star": "*", "question": "?",
    "lt": "<", "lt-paren": "<(", "gt": ">", "semicolon": ";", "and-and": "&&", "amp": "&", "html-entity": "&#",
    "percent-hex": "%41", "percent": "%", "equals": "=", "assign": "a=", "colon": ":", "dot": ".",
    "dot-space": ". ", "url": "http://", "domain": "a.", "www": "www.", "url-path": "a.bc/", "url-query": "?a=",
    "ip": "1.1.1.1 ", "scheme-js": "javascript:", "scheme-data": "data:", "secret-sk": "sk-", "aws": "AKIA",
    "jwt": "eyJ", "pem": "-----BEGIN", "password-is": "password is ", "ctrl-plus": "ctrl+",
    "ctrl-alt": "ctrl + alt + ", "win-plus": "win+", "key-token": "<a>", "lt-token": "<lt>",
    "backspace-token": "<backspace>", "cyrillic": "\u0455udo ", "fullwidth": "\uff52\uff4d ",
    "nfkc-expands": "\ufdfa", "parenthesized": "\u24ad", "zero-width": "\u200b", "zwj": "a\u200d",
    "combining": "a\u0301", "nbsp": "\u00a0", "ideographic-space": "\u3000", "dash-lookalike": "\u2013",
    "line-separator": "\u2028", "hangul-filler": "\u3164", "emoji": "\U0001f600", "trigger": "whenever ",
    "run-in-terminal": "run in terminal ", "delete-from": "delete from ",
    **{f"punct-{ord(ch):02x}": ch for ch in string.punctuation},
}


def units(words: bool = True) -> dict[str, str]:
    """Every unit by name: the special prefixes, then ``word:<w>`` for each pattern word + space."""
    out = dict(SPECIAL_UNITS)
    if words:
        out.update({f"word:{w}": w + " " for w in pattern_words()})
    return out


def fill(unit: str, length: int, index: int = 0) -> str:
    """``unit`` repeated to ``length`` characters, never blank (a blank field is refused at once);
    ``index`` > 0 ends it with a mark of its own, so no two fields are equal and no cache helps."""
    length = max(1, length)
    text = (unit * math.ceil(length / len(unit)))[:length]
    if index:
        mark = _MARKS[index % len(_MARKS)]
        text = text[:-1] + mark if len(text) > 1 else mark
    return text if text.strip() else "x" + text[1:]


_MARKS = string.digits + string.ascii_letters


# --- places -----------------------------------------------------------------------------------

def _scaled(cap: int, scale: float) -> tuple[int, int]:
    """(field length, how many) for a field of ``cap`` characters repeated up to 8 times: long
    fields shrink with ``scale``; fields too short to shrink (keys, app names) shrink in count."""
    if cap * scale >= 32:
        return round(cap * scale), LIMITS.max_steps
    return cap, max(1, round(LIMITS.max_steps * scale))


def _plan(steps: list[dict[str, Any]], final: str = "", remember: dict[str, str] | None = None) -> dict[str, Any]:
    return {"steps": steps, "final_response": final, "remember": remember or {}}


def _tool_place(tool: str, param: str, cap: int, context: dict[str, Any]) -> Callable[[str, float], tuple[dict, str, dict]]:
    def place(unit: str, scale: float) -> tuple[dict, str, dict]:
        length, count = _scaled(cap, scale)
        steps = [{"tool": tool, "params": {param: fill(unit, length, i)}} for i in range(count)]
        return _plan(steps), "", context
    return place


def _final(unit: str, scale: float) -> tuple[dict, str, dict]:
    return _plan([dict(s) for s in _BENIGN_STEPS], fill(unit, round(limits.MAX_FINAL_RESPONSE * scale))), "", {}


def _facts(unit: str, count: int, scale: float) -> dict[str, str]:
    key_len = max(8, round(limits.MAX_FACT_KEY * scale))
    value_len = round(limits.MAX_FACT_VALUE * scale)
    return {f"{i:03d}{fill(unit, key_len)}"[:limits.MAX_FACT_KEY]: fill(unit, value_len, i) for i in range(count)}


def _remember(unit: str, scale: float) -> tuple[dict, str, dict]:
    return _plan([], "ok", _facts(unit, limits.MAX_REMEMBER_FACTS, scale)), "", {}


def _memory(unit: str, scale: float) -> tuple[dict, str, dict]:
    count = max(1, round(limits.MAX_MEMORY_FACTS * scale))
    return _plan([dict(s) for s in _BENIGN_STEPS]), "", {"memory": _facts(unit, count, 1.0)}


def _user_text(unit: str, scale: float) -> tuple[dict, str, dict]:
    steps = [dict(s) for s in _BENIGN_STEPS] + [{"tool": "plan_subtask", "params": {"goal": "tidy the notes"}}]
    return _plan(steps), fill(unit, round(limits.MAX_USER_TEXT * scale)), {}


def _observation(unit: str, scale: float) -> tuple[dict, str, dict]:
    return _plan([dict(s) for s in _BENIGN_STEPS]), "", {"observation": fill(unit, round(limits.MAX_OBSERVATION * scale))}


def _session(unit: str, scale: float) -> tuple[dict, str, dict]:
    # the runtime may carry any amount; only its tail is read, so 8x the carried text must cost nothing
    typed = fill(unit, round(8 * limits.SESSION_TAIL * scale))
    steps = [{"tool": "type_text", "params": {"text": fill(unit, round(2000 * scale))}}]
    return _plan(steps), "", {"session_typed": typed, "focused_app": "notepad"}


def places() -> dict[str, Callable[[str, float], tuple[dict, str, dict]]]:
    """Every place a unit can fill: each text parameter of each tool (declared caps), in a
    plan-only check, plus typed text into an editor and into a terminal (the hold/ask path),
    and the plan-level and context fields."""
    out: dict[str, Callable[[str, float], tuple[dict, str, dict]]] = {}
    for spec in TOOLS:
        for param in spec.params:
            if param.type == "string" and param.max_len:
                out[f"{spec.name}.{param.name}"] = _tool_place(spec.name, param.name, param.max_len, {})
                if param.sink is Sink.TYPED:
                    for app in ("notepad", "xterm"):
                        out[f"{spec.name}.{param.name}@{app}"] = _tool_place(
                            spec.name, param.name, param.max_len, {"focused_app": app})
    out.update({"final_response": _final, "remember": _remember, "memory": _memory, "user_text": _user_text,
                "observation": _observation, "session_typed": _session})
    return out


def family(place: str, unit_name: str, unit: str | None = None) -> Family:
    """The family ``place/unit_name`` (``unit`` defaults to the named unit)."""
    text = unit if unit is not None else units()[unit_name]
    build_place = places()[place]

    def build(scale: float) -> Case:
        plan, user_text, context = build_place(text, scale)
        return Case(f"{place}/{unit_name}", plan, user_text, dict(context))
    return Family(f"{place}/{unit_name}", build)


def families(*, words: bool = True, where: tuple[str, ...] | None = None) -> list[Family]:
    """Every (place, unit) family; ``where`` limits the places, ``words`` adds the pattern words."""
    chosen = {k: v for k, v in places().items() if where is None or k in where}
    return [family(place, name, unit) for place in chosen for name, unit in units(words).items()]


# --- timing -------------------------------------------------------------------------------------

def clear_caches() -> None:
    """Forget every cached scan, so each timed check does the full work once."""
    for module in _safety_modules():
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def cpu_ms(case: Case, *, runs: int = 3, repeat: int = 1) -> float:
    """The least CPU time (this thread's, so other processes' load does not count) of ``runs``
    measurements of ``repeat`` cold checks each, in ms per check."""
    best = math.inf
    for _ in range(runs):
        total = 0.0
        for _ in range(repeat):
            clear_caches()
            start = time.thread_time()
            case.check()
            total += time.thread_time() - start
        best = min(best, total)
    return best * 1000 / repeat
