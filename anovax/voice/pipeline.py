"""The shared path of every phrase: recognise, let the wake gate decide, act.

The microphone thread (listener.py) and recordings (``anovax --audio-file``, playback.py) both
feed phrases through ``VoicePipeline``; ``Heard`` and ``VoiceState`` are what the console and the
orb show. ``follow_events`` keeps a gate in step with the assistant's speech and questions.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from anovax.errors import SttError
from anovax.events import Event, EventType
from anovax.voice.audio import Phrase
from anovax.voice.confidence import Hearing
from anovax.voice.decision import GateDecision
from anovax.voice.gate import WakeGate
from anovax.voice.stt import Recognizer
from anovax.voice.takeback import takes_back
from anovax.voice.trust import Trust, worth_hearing_again
from anovax.voice.understand import Understanding

log = logging.getLogger(__name__)

#: "talking": the hold-to-talk key is down
State = Literal["listening", "unavailable", "awake", "asleep", "stopped", "muted", "talking"]
#: the states in which voice input is on
ON_STATES = frozenset({"listening", "muted", "asleep", "awake", "talking"})


def follow_events(gate: WakeGate, event: Event, *, speech: bool = True) -> None:
    """Tell ``gate`` what the bus says: SPEAK_START/END (``speech``: a microphone hears the
    loudspeaker, a recording does not) and CONFIRM_REQUESTED/ANSWERED (a question opens the
    window in which "yes" and "no" answer without the wake word)."""
    data = event.data or {}
    if event.type is EventType.CONFIRM_REQUESTED:
        # only a question put to voice: a talk-key "yes" (heard while muted) must not answer, and a
        # new command must not decline, a question only the screen or the phone was asked
        if "voice" in (data.get("frontends") or ()) and data.get("question_id"):
            gate.question_asked(str(data["question_id"]), float(data.get("timeout_s") or 0.0))
    elif event.type is EventType.CONFIRM_ANSWERED:
        gate.question_closed(str(data.get("question_id", "")))
    elif speech and event.type is EventType.SPEAK_START:
        gate.speaking_started(str(data.get("text", "")))
    elif speech and event.type is EventType.SPEAK_END:
        gate.speaking_ended()


@dataclass(frozen=True)
class Heard:
    """One phrase after the recogniser and the gate."""

    decision: GateDecision
    start: float
    end: float
    #: how long recognition took once the phrase had ended, milliseconds (for a phrase decoded while it
    #: was spoken: only its ``finish``)
    recognize_ms: float

    @property
    def text(self) -> str:
        return self.decision.heard

    def to_dict(self) -> dict[str, Any]:
        return {**self.decision.to_dict(), "start": round(self.start, 3), "end": round(self.end, 3),
                "recognize_ms": round(self.recognize_ms, 1)}


@dataclass(frozen=True)
class VoiceState:
    """A change the console and the orb show: listening, unavailable (``detail`` says why), ..."""

    state: State
    detail: str = ""
    #: True when a phrase caused it (the phrase's own report already says so)
    by_phrase: bool = False

    @property
    def on(self) -> bool:
        """Voice input is on: listening for the name, muted, awake or the talk key held."""
        return self.state in ON_STATES


class VoicePipeline:
    """Recogniser → wake gate → action, for the microphone thread and for recordings alike.

    ``on_command`` gets the gate's command text, ``stop_speaking`` is called for a barge-in (and
    ``on_take_back(words)`` too when the barge-in takes back the command: "no, cancel that"),
    ``on_answer(question_id, yes)`` for a yes or no to a waiting question, and None for a new
    command that replaces it (right here on the listening thread: the command that asked is
    blocked waiting for it); ``on_state`` sees every change of awake/asleep. A failing callback
    is logged and the pipeline goes on.

    ``report`` sees only the phrases that were said to AnovaX: those that woke it or came while
    it was awake, and attempts at answering its question. A phrase dropped while asleep is the
    room talking, and speech that did not wake AnovaX is never shown, logged or sent anywhere:
    it is only counted (``unshown``).
    """

    def __init__(self, recognizer: Recognizer, gate: WakeGate, *, on_command: Callable[[str], Any],
                 stop_speaking: Callable[[], Any], report: Callable[[Heard], Any] | None = None,
                 on_state: Callable[[VoiceState], Any] | None = None,
                 on_answer: Callable[[str, bool | None], Any] | None = None,
                 on_take_back: Callable[[str], Any] | None = None,
                 on_doubt: Callable[[str], Any] | None = None,
                 understands: Callable[[str], bool | Understanding] | None = None) -> None:
        self.recognizer = recognizer
        self.gate = gate
        #: a doubtful command's words: the listener asks "Did you say …?" (None: dropped)
        self._on_doubt = on_doubt
        #: whether a request makes sense (the offline planner's grammar); None: any text does
        self._understands = understands
        if hasattr(recognizer, "hear_ahead"):
            # a request the gate will ask to hear again is heard during the pause (again.py)
            recognizer.hear_ahead = functools.partial(worth_hearing_again, understands) \
                if understands is not None else None
        self._on_command = on_command
        self._stop_speaking = stop_speaking
        self._report = report
        self._on_state = on_state
        self._on_answer = on_answer
        self._on_take_back = on_take_back
        #: phrases dropped while asleep: counted, their words never kept
        self.unshown = 0

    def handle(self, phrase: Phrase) -> Heard:
        started = time.perf_counter()
        failure = ""
        hearing: Hearing | None = None
        utterance = phrase.utterance  # decoded while it was spoken: only the end is left
        try:
            if utterance is not None:
                finish = getattr(utterance, "finish_hearing", None)
                hearing = finish(self.gate.needs_trust) if finish is not None else Hearing(utterance.finish())
                text = hearing.text
            elif (hear := getattr(self.recognizer, "hear", None)) is not None:
                # a scoring recogniser: words the gate may act on are scored
                hearing = hear(phrase.audio, self.gate.needs_trust)
                text = hearing.text
            else:
                text = self.recognizer.recognize(phrase.audio)
        except SttError as exc:
            text, failure = "", exc.message
        except Exception as exc:  # noqa: BLE001 - a recogniser bug costs one phrase, never the listener
            log.exception("speech recogniser failed")
            text, failure = "", f"{type(exc).__name__}: {exc}"
        finally:
            if utterance is not None:
                utterance.abandon()  # a no-op once finished; releases the decoder if finish broke
        took = (time.perf_counter() - started) * 1000
        was_awake = self.gate.awake
        if failure:
            decision = GateDecision("drop", "", f"recogniser failed: {failure}")
        else:
            trust = Trust(hearing, self._understands) if self._understands is not None else Trust(hearing)
            decision = self.gate.decide(text, phrase.start, phrase.end, trust)
        heard = Heard(decision, phrase.start, phrase.end, took)
        # a drop counts as said to AnovaX only if the gate was awake before and after it (a
        # timeout that passed during ``decide`` means it was judged asleep), or if it was an
        # attempt at answering a waiting question ("yes no", "hey anova, do it"): never the room
        if decision.action != "drop" or (was_awake and self.gate.awake) or decision.about_question:
            self._call(self._report, heard)  # the phrase is shown before the command's result
        else:
            self.unshown += 1
        if self.gate.awake != was_awake:
            self._call(self._on_state, VoiceState("awake" if self.gate.awake else "asleep", decision.reason,
                                                  by_phrase=True))
        if decision.action == "barge_in":
            self._call(self._stop_speaking)
            if self._on_take_back is not None and takes_back(decision.heard):
                self._call(self._on_take_back, decision.heard)
        elif decision.action == "command":
            if decision.question_id:  # a new command instead of an answer: the question is declined
                self._call(self._on_answer, decision.question_id, None)
            self._call(self._on_command, decision.text)
        elif decision.action == "doubt":
            self._call(self._on_doubt, decision.text)
        elif decision.action == "answer":
            self._call(self._on_answer, decision.question_id, decision.text == "yes")
        return heard

    def poll(self) -> None:
        """Let the gate fall asleep on time, and say so."""
        decision = self.gate.poll()
        if decision is not None:
            self._call(self._on_state, VoiceState("asleep", decision.reason))

    @staticmethod
    def _call(fn: Callable[..., Any] | None, *args: Any) -> None:
        if fn is None:
            return
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - the listener outlives whatever its callbacks do
            log.exception("voice callback failed")
