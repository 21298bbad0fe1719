"""Does a spoken request make sense? The offline planner's grammar is the definition of a command.

A closed-vocabulary recogniser turns chatter into sentences made of command words ("new press
alt", "open the terminal is"); the grammar rarely understands those. Used by the wake gate's
trust check (trust.py) whatever planner runs the command itself: it is only a filter.
"""

from __future__ import annotations

import functools
import threading

#: replies that mean the planner found no request in the words
_NOT_UNDERSTOOD = ("I didn't understand", "I didn't catch")

_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _planner():  # noqa: ANN202 - OfflinePlanner, imported lazily (the grammar loads in ~0.1 s)
    from anovax.planner.offline import OfflinePlanner

    return OfflinePlanner()


def plan_of(text: str):  # noqa: ANN201 - Plan
    """The offline planner's plan of ``text``."""
    with _LOCK:  # first use builds the planner once
        planner = _planner()
    return planner.plan(str(text or ""))


def understands(text: str) -> bool:
    """True when the offline planner reads ``text`` as a request, every part of it."""
    reply = plan_of(text).final_response or ""
    return not any(marker in reply for marker in _NOT_UNDERSTOOD)
