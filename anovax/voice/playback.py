"""Playing a recording (``anovax --audio-file``) as if it came through the microphone.

At the microphone a command runs while the listener goes on hearing: a "stop", or the "yes" a
question waits for, is heard while the command that asked is still running. A recording must do
the same, or a "yes" later in the file could never answer. But a recording is also read far
faster than it was spoken, and a "yes" three seconds after the command must not reach the gate
before the command has even asked its question.

So the recording is played on a ``PlaybackClock``: the position in the file, in seconds. While
nothing runs, the clock skips ahead to the next phrase at once (a minute of silence before
"hey anova" costs nothing; nothing could have happened in it but the gate's own sleep timeout,
which runs in recorded time). While a command is queued or running, the clock follows the
wall clock: the next phrase is handled when it would have ended had the file been spoken in
the room, and the assistant's 20 s question window and the gap before "yes" in the file are
measured in the same seconds.

Commands run one at a time on the "voice-recording" thread; a stop phrase is handled at once,
as the microphone's listener does. ``RecordingPlayer.play`` returns once the file is over and
every command it started has ended.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anovax.voice.audio import Recording
from anovax.voice.pipeline import VoicePipeline
from anovax.voice.takeback import RecentCommands, stop_text

if TYPE_CHECKING:
    from anovax.confirm import Confirmations

log = logging.getLogger(__name__)

#: how often a paced wait looks at the clock and at the running command (latency it adds)
_WAIT_S = 0.02


class PlaybackClock:
    """Seconds into the recording: follows the wall clock, and skips ahead on request."""

    def __init__(self, wall: Callable[[], float] = time.monotonic) -> None:
        self._wall = wall
        self._lock = threading.Lock()
        #: the wall-clock second at which the recording's position 0 was (moves on a skip)
        self._origin = wall()

    def now(self) -> float:
        with self._lock:
            return self._wall() - self._origin

    def skip_to(self, position_s: float) -> None:
        """Jump forward to ``position_s`` (never back: time already spent stays spent)."""
        with self._lock:
            now = self._wall()
            if now - self._origin < position_s:
                self._origin = now - position_s


class RecordingPlayer:
    """Feeds a recording's phrases to a pipeline in recorded time; runs its commands on a thread.

    Build it first, the gate on ``player.clock.now``, then the pipeline with ``on_command=
    player.submit``; then ``play(pipeline)``. ``run_command`` runs one command to its end.
    With ``confirmations``, "voice" is registered while the recording plays (its phrases can
    answer a question), and unregistered when the file is over."""

    def __init__(self, recording: Recording, *, run_command: Callable[[str], Any],
                 confirmations: Confirmations | None = None, clock: PlaybackClock | None = None,
                 after_command: Callable[[], Any] | None = None) -> None:
        self.recording = recording
        self.clock = clock if clock is not None else PlaybackClock()
        self.confirmations = confirmations
        self._run_command = run_command
        self._after_command = after_command
        self._commands: queue.Queue[str | None] = queue.Queue()
        #: commands queued or running; the clock is paced while this is above 0
        self._in_flight = 0
        self._idle = threading.Condition()
        #: for "that's wrong" right after a command, in recorded time (takeback.py)
        self._recent = RecentCommands(self.clock.now)
        #: phrases handled
        self.heard = 0

    def submit(self, text: str) -> None:
        """The pipeline's ``on_command``: a stop (or a take-back) at once, anything else after
        what is queued."""
        stop = stop_text(text, self._recent)
        if stop is not None:
            self._run(stop)  # it must not wait behind the command it stops
            return
        with self._idle:
            self._in_flight += 1
        self._recent.began()
        self._commands.put(text)

    @property
    def busy(self) -> bool:
        with self._idle:
            return self._in_flight > 0

    def play(self, pipeline: VoicePipeline) -> int:
        """Every phrase through ``pipeline`` in recorded time; returns how many there were.
        Raises AudioFileError for a file that cannot be read (after stopping its thread)."""
        worker = threading.Thread(target=self._work, name="voice-recording", daemon=True)
        worker.start()
        unregister = self.confirmations.register("voice") if self.confirmations is not None else None
        try:
            for phrase in self.recording.phrases(pipeline.recognizer):
                self._wait_until(phrase.end)
                pipeline.handle(phrase)
                self.heard += 1
            self._wait_until(self.recording.duration)  # the quiet after the last phrase is heard too
        finally:
            if unregister is not None:
                unregister()  # the file is over: nobody is listening for a yes any more
            self._commands.put(None)
            worker.join()  # every command it started runs to its end
        return self.heard

    def _wait_until(self, position_s: float) -> None:
        """Until the clock reaches ``position_s``: at once when nothing runs, else in real time."""
        with self._idle:
            while self._in_flight > 0 and self.clock.now() < position_s:
                self._idle.wait(min(_WAIT_S, max(0.0, position_s - self.clock.now())))
            if self._in_flight == 0:
                self.clock.skip_to(position_s)

    def _work(self) -> None:
        while (text := self._commands.get()) is not None:
            try:
                self._run(text)
            finally:
                self._recent.ended()
                with self._idle:
                    self._in_flight -= 1
                    self._idle.notify_all()

    def _run(self, text: str) -> None:
        try:
            self._run_command(text)
        except Exception:  # noqa: BLE001 - one failing command must not end the recording
            log.exception("voice command from the recording failed")
        if self._after_command is not None:
            self._after_command()
