"""Reading and saying spans and clock times: "an hour and a half", "5 min", "3 pm", "half past three".

Pure functions, no clock of their own (``now`` is passed in), shared by the offline planner
(which reads the user's words) and the timer agent (which reads the ``when`` a planner wrote).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

#: the longest timer or reminder: a week (the tools' declared limit)
MAX_SECONDS = 7 * 24 * 3600

_UNITS = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
}
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_WORDS: dict[str, float] = {w: float(i) for i, w in enumerate(_ONES)}
_WORDS.update({w: float(n) for w, n in _TENS.items()})
_WORDS.update({"a": 1.0, "an": 1.0, "one": 1.0, "a couple of": 2.0, "couple of": 2.0, "a few": 3.0, "few": 3.0,
               "half a": 0.5, "half an": 0.5, "a half": 0.5, "half": 0.5, "a quarter of an": 0.25,
               "quarter of an": 0.25, "a quarter": 0.25, "quarter": 0.25, "three quarters of an": 0.75})
_NUMBER = (r"\d+(?:\.\d+)?|(?:" + "|".join(_TENS) + r")(?:[ -](?:" + "|".join(_ONES[1:10]) + r"))?|"
           + "|".join(sorted((re.escape(w) for w in _WORDS), key=len, reverse=True)))
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
#: one "<number> [and a half] <unit> [and a half]" part of a span
#: a number word ends at a word's end: "and" is not "an d" (a day), which made "1 minute and 30
#: seconds" a day long; digits may touch their unit ("5m")
_PART = re.compile(rf"(?P<n>{_NUMBER})(?:(?<=\d)|\b)\s*(?P<half1>and a half\s+)?(?P<unit>{_UNIT})\b(?P<half2>\s+and a half)?")
_JOIN = re.compile(r"^(?:\s|,|and\b|&)*$")


def _number(word: str) -> float | None:
    word = word.strip().replace("-", " ")
    try:
        return float(word)
    except ValueError:
        pass
    if word in _WORDS:
        return _WORDS[word]
    tens, _, ones = word.partition(" ")
    if tens in _TENS and ones in _ONES[1:10]:
        return float(_TENS[tens] + _ONES.index(ones))
    return None


def _lower(text: str) -> str:
    return " ".join(re.sub(r"[^\w:.' &-]+", " ", str(text).lower()).split())


def parse_duration(text: str) -> float | None:
    """Seconds in a spoken span ("5 minutes", "an hour and a half", "1h 30m", "90 seconds"), or None.

    Every word must belong to the span: "5 minutes to stretch" is not a span."""
    low = re.sub(r"^(?:for|about|around|in|after|of)\s+", "", _lower(text)).strip(" .")
    low = re.sub(r"\s+(?:from now|long|time)$", "", low)
    if not low:
        return None
    total, at = 0.0, 0
    for m in _PART.finditer(low):
        if not _JOIN.match(low[at:m.start()]):
            return None
        value = _number(m.group("n"))
        if value is None:
            return None
        if m.group("half1") or m.group("half2"):
            value += 0.5
        total += value * _UNITS[m.group("unit")]
        at = m.end()
    if at == 0 or low[at:].strip(" .,"):
        return None
    return total if 0 < total <= MAX_SECONDS else None


_CLOCK_WORDS = {"noon": (12, 0), "midday": (12, 0), "midnight": (0, 0)}
_RELATIVE = re.compile(r"^(?P<part>half|quarter|[\w-]+?)(?: minutes?)? (?P<dir>past|after|to|before) (?P<hour>[\w-]+)$")
_AMPM = re.compile(r"\s*(?:(?P<ap>[ap])\.?\s?m\.?|o'?\s?clock)$")
_DAY_PART = re.compile(r"\s+(?:in the (?P<part>morning|afternoon|evening)|at night|tonight|this (?P<this>morning|afternoon|evening))$")


def parse_clock(text: str, now: datetime) -> datetime | None:
    """The next moment after ``now`` that a spoken clock time names ("3 pm", "15:30", "half past
    three", "seven thirty tomorrow", "noon"), or None. Without am/pm the sooner of the two is meant."""
    low = re.sub(r"^(?:at|for|by)\s+", "", _lower(text)).strip(" .")
    # "tomorrow at noon" is "noon tomorrow"
    low = re.sub(r"^tomorrow\s+(?:at\s+|by\s+)?(?P<rest>.+)$", r"\g<rest> tomorrow", low)
    tomorrow = bool(re.search(r"\s*\btomorrow(?: morning| afternoon| evening)?$", low))
    if tomorrow:
        part = re.search(r"tomorrow (morning|afternoon|evening)$", low)
        low = re.sub(r"\s*\btomorrow(?: morning| afternoon| evening)?$", "", low)
        if part:
            low += f" in the {part.group(1)}"
    pm: bool | None = None
    day = _DAY_PART.search(low)
    if day:
        pm = (day.group("part") or day.group("this") or "evening") != "morning"
        low = low[:day.start()]
    hm = _hour_minute(low)
    if hm is None:
        return None
    hour, minute, said_pm = hm
    pm = said_pm if said_pm is not None else pm
    if pm is not None:
        if hour > 12:
            return None
        hour = hour % 12 + (12 if pm else 0)
    base = now.replace(second=0, microsecond=0) + timedelta(days=1 if tomorrow else 0)
    options = [hour] if (pm is not None or hour == 0 or hour > 12) else [hour, hour + 12]
    for days in range(2):
        for h in options:
            when = base.replace(hour=h % 24, minute=minute) + timedelta(days=days)
            if when > now:
                return when
    return None


def _hour_minute(low: str) -> tuple[int, int, bool | None] | None:
    """(hour, minute, pm or None) of a clock phrase without its day."""
    if low in _CLOCK_WORDS:
        h, m = _CLOCK_WORDS[low]
        return h, m, None if h == 0 else True
    pm: bool | None = None
    suffix = _AMPM.search(low)
    if suffix:
        pm = None if suffix.group("ap") is None else suffix.group("ap") == "p"
        low = low[:suffix.start()].strip()
    rel = _RELATIVE.match(low)
    if rel:
        part = rel.group("part")
        minutes = 30 if part == "half" else 15 if part == "quarter" else _number(part)
        hour = _number(rel.group("hour"))
        if minutes is None or hour is None or not 0 < minutes < 60 or not 0 < hour <= 12:
            return None
        if rel.group("dir") in ("to", "before"):
            return (int(hour) - 1) or 12, 60 - int(minutes), pm
        return int(hour), int(minutes), pm
    digital = re.fullmatch(r"(\d{1,2})(?:[:.](\d{2}))?", low)
    if digital:
        hour, minute = int(digital.group(1)), int(digital.group(2) or 0)
    else:
        first, _, rest = low.partition(" ")
        value = _number(first)
        if rest.startswith("oh "):
            rest = rest[3:]
        extra = _number(rest) if rest else 0.0
        if value is None or extra is None or value != int(value) or extra != int(extra):
            return None
        hour, minute = int(value), int(extra)
    if not (0 <= hour <= 23 and 0 <= minute < 60):
        return None
    return hour, minute, pm


def parse_when(text: str, now: datetime) -> datetime | None:
    """When a reminder is due: "in 10 minutes" (a span from ``now``) or "at 3 pm" / "15:30" (a clock time)."""
    low = _lower(text)
    if re.match(r"^(?:in|after)\s", low) or low.endswith("from now"):
        seconds = parse_duration(low)
        return now + timedelta(seconds=seconds) if seconds is not None else None
    return parse_clock(low, now)


def say_duration(seconds: float) -> str:
    """ "5 minutes", "1 hour and 30 minutes", "45 seconds" (whole seconds, largest units first)."""
    left = max(0, round(seconds))
    parts = []
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        n, left = divmod(left, size)
        if n:
            parts.append(f"{n} {name}{'s' if n != 1 else ''}")
    if not parts:
        return "0 seconds"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def duration_adjective(seconds: float) -> str:
    """ "5 minute", "1 hour 30 minute", "1 minute 30 second" (as in "your 5 minute timer"): the
    units ``say_duration`` set it with, so a timer is not "1 minute and 30 seconds" then "90 second"."""
    left = max(0, round(seconds))
    parts = []
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        n, left = divmod(left, size)
        if n:
            parts.append(f"{n} {name}")
    return " ".join(parts) or "0 second"


def say_clock(when: datetime, now: datetime) -> str:
    """ "3:00 PM", "7:30 AM tomorrow", or "Monday at 9:00 AM" further out."""
    said = f"{when.hour % 12 or 12}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"
    days = (when.date() - now.date()).days
    if days == 1:
        return f"{said} tomorrow"
    if days > 1:
        return f"{when:%A} at {said}"
    return said


def countdown(seconds: float) -> str:
    """A chip's countdown: "4:59", "1:02:03" (never below 0:00)."""
    left = max(0, int(seconds + 0.999))
    h, rest = divmod(left, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
