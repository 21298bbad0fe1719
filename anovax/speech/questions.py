"""Questions said aloud when they can be answered by voice.

A question (a held plan's "Type `ls` and press Enter in Terminal?", the wake gate's "Did you say
“open the calculator”?") used to be shown only: in the orb, the console and on the phone. Someone
talking to AnovaX from across the room saw nothing happen, and their next commands were dropped
while the question waited (a first-time user's report). So while the microphone can answer (the
voice front end is among the question's front ends, CONFIRM_REQUESTED's ``frontends``), the
question is also said. The wake gate drops what it hears of that speech, as of any reply, and
takes the answer once it ends. An answer from anywhere (or the question's end) cuts it short.

Threads: each question is said on a short-lived "question-speech" thread of this module's own,
so the bus's thread never waits for speech; ``Speaker.say`` serialises it with other speech
under the ``tts`` lock.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from anovax.desktop.base import CancelToken
from anovax.events import Event, EventBus, EventType

log = logging.getLogger(__name__)

#: the front end that answers by voice (VoiceInput registers under this name)
VOICE = "voice"


def spoken_question(text: str) -> str:
    """What is said for a question shown as ``text``: code quotes are for the eye only."""
    return " ".join(str(text).replace("`", "").split())


class SpokenQuestions:
    """Says each question the voice front end may answer, until it is answered."""

    def __init__(self, speaker: Any, bus: EventBus) -> None:
        self._speaker = speaker
        self._lock = threading.Lock()
        #: question id -> the token of its speech, while it is being said (or waits to be)
        self._saying: dict[str, CancelToken] = {}
        bus.subscribe("spoken-questions", self._on_event)

    def _on_event(self, event: Event) -> None:
        data = event.data or {}
        question_id = str(data.get("question_id") or "")
        if not question_id:
            return
        if event.type is EventType.CONFIRM_REQUESTED:
            text = spoken_question(data.get("question") or "")
            if not text or VOICE not in (data.get("frontends") or ()):
                return
            token = CancelToken()
            with self._lock:
                self._saying[question_id] = token
            threading.Thread(target=self._say, args=(text, event.command_id, question_id, token),
                             name="question-speech", daemon=True).start()
        elif event.type is EventType.CONFIRM_ANSWERED:
            with self._lock:
                token = self._saying.pop(question_id, None)
            if token is not None:
                token.cancel("the question was answered")

    def _say(self, text: str, command_id: str, question_id: str, token: CancelToken) -> None:
        try:
            self._speaker.say(text, command_id, token)
        except Exception:  # noqa: BLE001 - a question that cannot be said is still shown
            log.warning("could not say the question %r", text, exc_info=True)
        finally:
            with self._lock:
                if self._saying.get(question_id) is token:
                    del self._saying[question_id]
