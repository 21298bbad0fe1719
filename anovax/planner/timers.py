"""Handlers for the timer tools' phrases: the words of a span or a clock time read into a step.

A span ("an hour and a half") becomes set_timer's seconds; a reminder keeps the user's own
"in 10 minutes" / "3 pm" as its ``when`` (checked here, read again by the agent when it runs,
so "at 7" means the next 7 o'clock from then). An alarm is set as a reminder, and the reply says so.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from anovax.plan import Step
from anovax.planner.grammar import slot
from anovax.planner.pieces import Piece, RequestState
from anovax.planner.text import lower_words, query
from anovax.timers.when import parse_clock, parse_duration, say_duration
from anovax.tools import TOOLS

_LEAD = re.compile(r"^(?:the|my|a|an)\s+", re.I)
#: said when an alarm was asked for: what AnovaX did instead
ALARM_SAY = "I can't ring an alarm, so I'm setting a reminder instead; it is said only while AnovaX is running."


def _label(r: Any, name: str, clause: str) -> str:
    return _LEAD.sub("", query(slot(r, name, clause))) if name in r.entities else ""


def set_timer(clause: str, r: Any, state: RequestState) -> Piece | None:
    seconds = parse_duration(slot(r, "span", clause))
    if seconds is None:
        return None
    params = {"seconds": int(seconds) if seconds == int(seconds) else seconds,
              "label": _label(r, "label", clause) or "timer"}
    if TOOLS["set_timer"].param_problem(params):
        return None
    return Piece("act", "", [Step("set_timer", params)])


#: an alarm to wake up by, said as such ("wake me up at …", "wake me at …")
_WAKE_ME = re.compile(r"^(?:please )?wake me\b")
#: a time that already says which half of the day it is
_DAYTIME = re.compile(r"\b(?:am|pm|a\.m|p\.m|morning|evening|afternoon|tonight|noon|midnight)\b", re.I)


def set_reminder(clause: str, r: Any, state: RequestState) -> Piece | None:
    if "span" in r.entities:
        seconds = parse_duration(slot(r, "span", clause))
        if seconds is None:
            return None
        when = "in " + say_duration(seconds)
    else:
        when = query(slot(r, "clock", clause))
        if _WAKE_ME.match(lower_words(clause)) and not _DAYTIME.search(when):
            # "wake me up at 6:45", said at 10 in the morning, is not this evening; a nap ("at 2",
            # "at 12") stays the next such time
            morning = parse_clock(when + " am", datetime.now())
            if morning is not None and 4 <= morning.hour <= 11:
                when += " am"
        if parse_clock(when, datetime.now()) is None:
            return None
    text = _label(r, "text", clause)
    alarm = not text
    if alarm:
        text = "wake up" if "wake" in lower_words(clause) else "alarm"
    params = {"when": when, "text": text}
    if TOOLS["set_reminder"].param_problem(params):
        return None
    return Piece("act", ALARM_SAY if alarm else "", [Step("set_reminder", params)])


def cancel_timer(clause: str, r: Any, state: RequestState) -> Piece | None:
    label = _label(r, "label", clause)
    if not label:
        low = lower_words(clause)
        kind = next((k for k in ("reminder", "alarm", "countdown", "timer") if k in low), "timer")
        label = f"all {kind}s" if re.search(r"\b(?:all|every|each)\b", low) else kind
    params = {"label": label}
    if TOOLS["cancel_timer"].param_problem(params):
        return None
    return Piece("act", "", [Step("cancel_timer", params)])


def timers_left(clause: str, r: Any, state: RequestState) -> Piece | None:
    # "how long is left on the tea timer": the step names none (it lists every timer, or says
    # there are none), which beats the "can't tell what or when" a missing phrase gave
    return Piece("answer", "", [Step("timers_left", {})])  # its agent says the whole reply


HANDLERS = {"set_timer": set_timer, "set_reminder": set_reminder, "cancel_timer": cancel_timer,
            "timers_left": timers_left}
