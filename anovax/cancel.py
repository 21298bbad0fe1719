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
from anovax.safety.confusables import CONFUSABLES

__all__ = ["USER_STOP", "Cancelled", "CancelToken", "is_stop_utterance", "run_abandonable"]

T = TypeVar("T")

#: the reason a token carries when a person stopped the command (not an expiry)
USER_STOP = "stopped by the user"

#: how often an abandonable wait looks at the token; the bound on stop latency it adds
_POLL_S = 0.01

#: phrases that mean "stop what you are doing", as whole utterances ("stop, cancel that" too)
_STOP_PHRASES = (
    "never mind that", "never mind", "nevermind", "nvm", "forget it", "forget that",
    "stop everything", "cancel everything", "stop all", "cancel all", "stop it all",
    "stop that", "cancel that", "stop it", "cancel it", "stop", "cancel", "abort", "halt",
    # what people say to a talking assistant: it means "stop", never "mute the computer" (whole
    # phrases: a bare "quiet" or "enough" said by anyone in the room would stop a command by voice;
    # "that's" is "that s" once its apostrophe is a space)
    "stop talking", "stop speaking", "shut up", "be quiet", "that s enough", "thats enough",
)
#: words around stop phrases that do not change what they mean ("anova, please stop now")
_FILLERS = ("hey anova", "ok anova", "okay anova", "anova", "ok", "okay", "oh", "no", "please", "just", "and",
            "now", "right now", "thanks", "thank you")
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
#: longer input is never a control utterance (and is not worth normalising here)
_MAX_CONTROL_CHARS = 60


def _phrases(items: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(sorted((tuple(p.split()) for p in items), key=len, reverse=True))  # longest first


_STOP_WORDS, _FILLER_WORDS = _phrases(_STOP_PHRASES), _phrases(_FILLERS)


def _normalise(text: str) -> list[str]:
    # look-alike letters too ("ѕtop" with a Cyrillic ѕ): a stop must never be missed for its font
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).translate(CONFUSABLES).casefold()
    return _PUNCT.sub(" ", text).split()


#: stop phrases that also take back what the command just finished did ("cancel that" right
#: after "set a timer for five minutes"); "stop" means "stop what you are doing / be quiet"
_TAKE_BACK_WORDS = frozenset(tuple(p.split()) for p in (
    "cancel that", "cancel it", "cancel", "never mind", "never mind that", "nevermind", "nvm", "forget it",
    "forget that"))
#: how long after a command ended it can still be taken back
TAKE_BACK_S = 8.0


def _stop_phrases(text: object) -> list[tuple[str, ...]]:
    """The stop phrases the whole utterance is made of, with fillers around them; [] when it is
    not a stop utterance (a word that is neither: a command)."""
    if not isinstance(text, str) or len(text) > _MAX_CONTROL_CHARS:
        return []
    words = _normalise(text)
    found: list[tuple[str, ...]] = []
    at = 0
    while at < len(words):
        for phrases, is_stop in ((_STOP_WORDS, True), (_FILLER_WORDS, False)):
            match = next((p for p in phrases if tuple(words[at:at + len(p)]) == p), None)
            if match is not None:
                at += len(match)
                if is_stop:
                    found.append(match)
                break
        else:
            return []
    return found


def is_stop_utterance(text: object) -> bool:
    """True when the whole utterance asks to stop ("stop", "cancel that", "never mind", "Stop!",
    "anova, stop, cancel that").

    Only the whole utterance counts: "stop the music" or "cancel the timer" are commands
    for the planner, not a stop."""
    return bool(_stop_phrases(text))


def undoes_last(text: object) -> bool:
    """True for a stop utterance that also takes back a command just finished: "cancel that",
    "no, never mind", "forget it"; not "stop" (be quiet) nor "cancel everything"."""
    phrases = _stop_phrases(text)
    return bool(phrases) and all(p in _TAKE_BACK_WORDS for p in phrases)


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
