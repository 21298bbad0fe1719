"""Stopping a command at any stage: the stop words, and calls that a stop may abandon.

One ``CancelToken`` is made per command when the command worker takes it off the
queue. Planning, the safety check, dispatch, sub-plans, recovery turns and
speculation all look at that token; the user's "stop" (typed, said, the orb's Stop
button or Esc, the phone, Ctrl-C) sets it.

A model call cannot be interrupted from outside (the SDK blocks in a socket read),
so ``run_abandonable`` runs it on a daemon thread of its own and stops *waiting*
for it when the token is set: the command worker is free at once, the call's
result is thrown away when it eventually comes back, and the client's own timeout
bounds how long the thread lives.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from anovax.desktop.base import Cancelled, CancelToken

__all__ = ["USER_STOP", "Cancelled", "CancelToken", "is_stop_utterance", "run_abandonable"]

T = TypeVar("T")

#: the reason a token carries when a person stopped the command (not an expiry)
USER_STOP = "stopped by the user"

#: how often an abandonable wait looks at the token; the bound on stop latency it adds
_POLL_S = 0.01

#: whole utterances that mean "stop what you are doing" (never "cancel the timer")
_STOP_CORES = frozenset({
    "stop", "cancel", "stop that", "cancel that", "stop it", "cancel it", "never mind", "nevermind",
    "never mind that", "forget it", "abort", "stop stop", "halt",
})
#: words around a stop word that do not change what it means ("anova, stop that please")
_FILLER_HEAD = ("hey anova", "ok anova", "okay anova", "anova", "ok", "okay", "oh", "no", "please")
_FILLER_TAIL = ("please", "anova", "now", "right now")
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
#: longer input is never a control utterance (and is not worth normalising here)
_MAX_CONTROL_CHARS = 60


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).casefold()
    return " ".join(_PUNCT.sub(" ", text).split())


def is_stop_utterance(text: object) -> bool:
    """True when the whole utterance asks to stop ("stop", "cancel that", "never mind", "Stop!").

    Only the whole utterance counts: "stop the music" or "cancel the timer" are commands
    for the planner, not a stop."""
    if not isinstance(text, str) or len(text) > _MAX_CONTROL_CHARS:
        return False
    words = _normalise(text)
    changed = True
    while changed and words:
        changed = False
        for head in _FILLER_HEAD:
            if words.startswith(head + " "):
                words, changed = words[len(head) + 1:], True
        for tail in _FILLER_TAIL:
            if words.endswith(" " + tail):
                words, changed = words[: -len(tail) - 1], True
    return words in _STOP_CORES


def run_abandonable(fn: Callable[[], T], cancel: CancelToken | None, *, name: str = "abandonable") -> T:
    """``fn()``, unless ``cancel`` is set first: then raise ``Cancelled`` at once and leave
    ``fn`` to finish on its daemon thread, its result (or error) discarded.

    Without a token this is a plain call on the caller's thread."""
    if cancel is None:
        return fn()
    cancel.check()
    done = threading.Event()
    box: list = []

    def work() -> None:
        try:
            box.append((True, fn()))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread below
            box.append((False, exc))
        finally:
            done.set()

    threading.Thread(target=work, name=name, daemon=True).start()
    while not done.wait(_POLL_S):
        if cancel.cancelled:
            raise Cancelled(f"Stopped: {cancel.reason}.")
    ok, value = box[0]
    if cancel.cancelled:  # finished in the same instant as the stop: the stop wins
        raise Cancelled(f"Stopped: {cancel.reason}.")
    if ok:
        return value
    raise value
