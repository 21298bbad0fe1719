"""Getting the microphone back after it stopped working.

A sound server that restarts (PulseAudio after an update, a USB headset pulled out and put back)
ends the microphone's stream with an error. The listener used to give up there: the orb said "No
mic" until AnovaX was restarted (a first-time user's report). Now a microphone that has been
listening is opened again, after RETRY_FIRST_S and then less and less often, until it works or
AnovaX stops; the speech model stays loaded meanwhile. One that never opened (no microphone at
all) is still given up at once, with one line: retrying would only repeat that line.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from anovax.errors import VoiceUnavailable
from anovax.voice.audio import reason
from anovax.voice.pipeline import VoiceState

log = logging.getLogger(__name__)

#: the first wait before the microphone is opened again; each failed try doubles it
RETRY_FIRST_S = 2.0
#: ... up to this
RETRY_MAX_S = 30.0


def keep_listening(listen: Callable[[], None], stop: threading.Event, set_state: Callable[[VoiceState], None],
                   listened: Callable[[], int], settled: threading.Event) -> None:
    """Run ``listen`` (it returns once ``stop`` is set) and open the microphone again when it
    fails after it had been listening (``listened()``: how often it has announced "listening").
    Announces "unavailable" once per loss, "stopped" at the end; sets ``settled`` once the first
    try has come to something (listening, or why not)."""
    delay = RETRY_FIRST_S
    lost = False  # "unavailable" said for this loss already
    while True:
        before = listened()
        try:
            listen()
        except VoiceUnavailable as exc:
            state = VoiceState("unavailable", exc.message)
        except Exception as exc:  # noqa: BLE001 - a dead microphone must not take the assistant down
            log.debug("voice listener stopped", exc_info=True)
            state = VoiceState("unavailable", f"the microphone stopped working ({reason(exc)})")
        else:
            set_state(VoiceState("stopped"))
            settled.set()
            return
        if listened() > before:  # it had come back, or was listening for the first time: a new loss
            lost, delay = False, RETRY_FIRST_S
            state = VoiceState(state.state, f"{state.detail}; trying it again")
        elif not lost and listened() == 0:  # never listened: nothing to get back
            set_state(state)
            settled.set()
            return
        if not lost:
            set_state(state)
            lost = True
        settled.set()
        if stop.wait(delay):
            set_state(VoiceState("stopped"))
            return
        delay = min(RETRY_MAX_S, delay * 2)
