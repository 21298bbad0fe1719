"""The pyttsx3 engine: one engine, owned by one named thread ("tts").

pyttsx3 engines are not thread-safe, and the espeak driver keeps process-wide state
(one synth callback per process), so exactly one thread ("tts") creates the engine
and calls it, and only one ``TtsThread`` per process gets the engine. ``say``
enqueues an utterance and waits until the engine reports "finished-utterance", the
cancel token is set, or a deadline passes: an engine stuck in C never hangs an agent.

Cancelling returns from ``say`` at once (raising ``Cancelled``) and silences the
sentence: barge-in ("stop" heard while speaking) and the wake gate, which trusts
SPEAK_END to mean the loudspeaker is quiet, both depend on it. Drivers whose
runAndWait blocks (SAPI5, NSSS) are stopped mid-sentence from their ``started-word``
callback, the documented way. pyttsx3 2.99's espeak driver (Linux) cannot be: it
plays the rendered sentence with ``aplay`` via ``os.system`` on espeak's own thread,
so the ``aplay`` process playing that sentence is terminated instead (``PlayerOs`` hands each
player it starts to the sentence being spoken; only those are ended, never the next sentence's);
the driver then carries on as if the sentence had ended. That is done by a
thread of its own ("tts-stop"), not by the tts thread: from the second sentence on, the driver's
``runAndWait`` does not return until the sentence has played (its end-of-loop command runs
before the loop starts once the engine is idle; only the first sentence's returns at once),
so a stop that waited for the tts thread silenced the first reply only (measured: later
replies played on for 5.6 s of a 6 s sentence).

Where its errors go: that ``aplay`` would write ALSA's complaints into the terminal (it
inherits our stderr through ``os.system``), so ``default_engine`` gives the driver an ``os``
whose ``system`` starts the player through AnovaX's one launcher (``PlayerOs``): its output
lands in ``<state>/launched.log``.

When speech cannot work (pyttsx3 or espeak missing, no ``aplay``, the engine taken),
one warning is logged at start-up and every utterance is written to stderr as
``AnovaX says: <text>`` instead. No sound card is found before this (``anovax.speech.probe``).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from anovax.desktop.base import CancelToken
from anovax.desktop.launcher import Launcher
from anovax.errors import TransientToolError
from anovax.speech.players import still_playing, stop_players

log = logging.getLogger(__name__)

#: how long ``say`` waits for the engine to start (espeak starts in ~30 ms here)
INIT_WAIT_S = 5.0
#: an utterance is abandoned after BASE + PER_CHAR * len(text) seconds; espeak speaks
#: ~15 characters a second (0.067 s/char), so this leaves room for a slow voice
DEADLINE_BASE_S = 2.0
DEADLINE_PER_CHAR_S = 0.1
#: how often a waiting ``say`` looks at its cancel token (the cancel latency)
POLL_S = 0.02

#: one pyttsx3 engine per process (the espeak driver's callback is process-wide)
_ENGINE_OWNER = threading.Lock()
#: engines stay referenced for the life of the process: espeak calls back from its own thread,
#: possibly after we stopped waiting, and pyttsx3 only holds engines weakly (measured: a
#: ReferenceError in espeak's thread when the engine was collected mid-sentence)
_KEEP_ALIVE: list[Any] = []
# ...but let them go before interpreter teardown, while pyttsx3's __del__ can still run cleanly
atexit.register(_KEEP_ALIVE.clear)


class SpeechOut(Protocol):
    """The speech-out port: say one sentence (block until it ends or ``cancel`` is set)."""

    #: why nothing can be heard (e.g. "no sound card"), or None while speech works
    unavailable: str | None

    def say(self, text: str, cancel: CancelToken) -> None: ...

    def close(self) -> None: ...


def deadline_s(text: str) -> float:
    return DEADLINE_BASE_S + DEADLINE_PER_CHAR_S * len(text)


class ConsoleSpeech:
    """Speech output when there is none: one stderr line per utterance."""

    unavailable: str | None = None

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    def say(self, text: str, cancel: CancelToken) -> None:
        cancel.check()
        stream = self._stream or sys.stderr
        print(f"AnovaX says: {text}", file=stream, flush=True)

    def close(self) -> None:
        pass


class PlayerOs:
    """``os`` for pyttsx3's espeak driver, except that ``system`` (its ``aplay`` call) runs
    without a shell through AnovaX's launcher: output to ``<state>/launched.log``, not our terminal."""

    def __init__(self, launcher: Launcher) -> None:
        self._launcher = launcher
        #: told of every player started (the tts thread files it under the sentence being spoken)
        self.on_start: Callable[[subprocess.Popen[bytes]], None] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def system(self, command: str) -> int:
        try:
            proc = self._launcher.start(shlex.split(command))
        except OSError as exc:  # no player: this sentence is silent, and the log says why
            log.warning("could not play speech with %s: %s", command.split()[:1], exc)
            return 127
        if self.on_start is not None:
            self.on_start(proc)
        return proc.wait()  # os.system's contract: the sentence has played when it returns


def default_engine(launcher: Launcher | None = None) -> Any:
    """A pyttsx3 engine, or an exception saying why there can be none; its player runs through
    ``launcher`` (default: one writing nowhere)."""
    if sys.platform.startswith("linux") and not shutil.which("aplay"):
        raise RuntimeError("pyttsx3 plays speech with aplay, which is not installed (Debian package alsa-utils)")
    try:
        import pyttsx3
    except ImportError as exc:
        raise RuntimeError(f"pyttsx3 is not installed ({exc})") from exc
    engine = pyttsx3.init()
    driver = sys.modules.get("pyttsx3.drivers.espeak")
    if driver is not None:  # the driver module is imported by init(); only it calls os.system
        driver.os = PlayerOs(launcher or Launcher())  # type: ignore[attr-defined]
    return engine


def player_os() -> PlayerOs | None:
    """The espeak driver's ``PlayerOs``, once ``default_engine`` gave it one."""
    found = getattr(sys.modules.get("pyttsx3.drivers.espeak"), "os", None)
    return found if isinstance(found, PlayerOs) else None


@dataclass(eq=False)
class _Utterance:
    text: str
    done: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
    #: the players started while this sentence was the one being spoken
    players: list[subprocess.Popen[bytes]] = field(default_factory=list)


class TtsThread:
    """Speaks through one engine on the thread named "tts"; falls back to ConsoleSpeech."""

    def __init__(self, engine_factory: Callable[[], Any] = default_engine, *, stream: TextIO | None = None) -> None:
        self._factory = engine_factory
        self._console = ConsoleSpeech(stream)
        self._queue: queue.SimpleQueue[_Utterance | None] = queue.SimpleQueue()
        self._ready = threading.Event()
        #: why speech is unavailable, once the engine failed to start
        self.unavailable: str | None = None
        self._current: _Utterance | None = None
        #: an utterance that outlived its deadline and still occupies the engine
        self._overrun: _Utterance | None = None
        #: utterances the tts thread stopped waiting for, whose player may still play (``silence``)
        self._given_up: list[_Utterance] = []
        self._given_up_lock = threading.Lock()
        self._closed = False
        #: set by the engine's "finished-utterance" callback, from whichever thread sends it
        self._finished = threading.Event()
        #: set when a sentence is to be stopped: wakes the "tts-stop" thread
        self._stop_asked = threading.Event()
        #: whether the engine's players are handed to us one by one (else found in /proc)
        self._tracks_players = False
        self._thread = threading.Thread(target=self._run, name="tts", daemon=True)
        self._thread.start()
        self._stopper = threading.Thread(target=self._stop_players_when_asked, name="tts-stop", daemon=True)
        if sys.platform.startswith("linux"):
            self._stopper.start()

    # -- caller side ----------------------------------------------------------------------

    def say(self, text: str, cancel: CancelToken) -> None:
        cancel.check()
        if self._closed or not self._ready.wait(INIT_WAIT_S) or self.unavailable:
            return self._console.say(text, cancel)
        if self._overrun is not None and not self._overrun.done.is_set():
            # the engine is still stuck on an earlier sentence: queueing would only wait for it
            return self._console.say(text, cancel)
        utt = _Utterance(text)
        self._queue.put(utt)
        end = time.monotonic() + deadline_s(text)
        while not utt.done.wait(POLL_S):
            if cancel.cancelled:
                utt.stop.set()  # the tts threads stop the engine and its player; we don't wait for it
                self._stop_asked.set()
                cancel.check()
            if time.monotonic() >= end:
                log.warning("Speech took longer than %.1f s; carrying on without waiting for it.", deadline_s(text))
                self._overrun = utt
                return None
        if utt.error is not None:
            raise TransientToolError(f"Speech output failed: {utt.error}.") from utt.error
        return None

    def silence(self) -> bool:
        """Stop what still plays of sentences nobody waits for any more: one whose caller went
        on past its deadline (no token reaches it), or whose player outlived the tts thread's
        wait. True if there was any. For barge-in: "stop" silences whatever is heard."""
        stopped = False
        with self._given_up_lock:
            given_up = [u for u in (self._overrun, *self._given_up) if u is not None]
        for utt in given_up:
            if not utt.done.is_set():  # the tts thread still waits for it: it and the stopper end it
                utt.stop.set()
                self._stop_asked.set()
                stopped = True
            for proc in list(utt.players):
                if still_playing(proc):
                    proc.terminate()
                    stopped = True
        with self._given_up_lock:
            self._given_up = [u for u in self._given_up if any(still_playing(p) for p in u.players)]
        return stopped

    def close(self, timeout_s: float = 2.0) -> None:
        """Stop the thread after the sentence it is speaking (bounded wait)."""
        if self._closed:
            return
        self._closed = True
        current = self._current
        if current is not None:
            current.stop.set()
        self._stop_asked.set()  # the stopper sees ``_closed`` once that sentence is silenced
        self._queue.put(None)
        self._thread.join(timeout_s)
        if self._stopper.is_alive():
            self._stopper.join(timeout_s)
        if self._thread.is_alive():
            log.warning("The speech thread did not stop within %.1f s; leaving it behind.", timeout_s)

    # -- the tts thread -------------------------------------------------------------------

    def _run(self) -> None:
        if not _ENGINE_OWNER.acquire(blocking=False):
            self._give_up("another speech-out port in this process already owns the speech engine")
            return
        tokens: list[Any] = []
        engine: Any = None
        try:
            try:
                engine = self._factory()
                tokens.append(engine.connect("started-word", lambda **_: self._stop_if_asked(engine)))
                tokens.append(engine.connect("finished-utterance", lambda **_: self._finished.set()))
                if (player := player_os()) is not None:
                    player.on_start = self._player_started
                    self._tracks_players = True
            except Exception as exc:  # any failure here means "no speech", never a crash
                self._give_up(str(exc) or type(exc).__name__)
                return
            _KEEP_ALIVE.append(engine)
            self._ready.set()
            self._serve(engine)
        finally:
            for token in tokens:
                engine.disconnect(token)
            _ENGINE_OWNER.release()

    def _serve(self, engine: Any) -> None:
        while (utt := self._queue.get()) is not None:
            # current before the stop is looked at: a stop asked meanwhile is seen here, or the
            # stopper sees this sentence as current
            self._current = utt
            if utt.stop.is_set():  # cancelled while it waited in the queue
                self._current = None
                utt.done.set()
                continue
            self._finished.clear()
            try:
                engine.say(utt.text)
                engine.runAndWait()
                self._wait_finished(utt)
            except Exception as exc:
                log.warning("Speech output failed: %s", exc)
                utt.error = exc
            finally:
                self._current = None
                utt.done.set()

    def _stop_players_when_asked(self) -> None:
        """The "tts-stop" thread (Linux): while the sentence being spoken is to be stopped, end
        its ``aplay`` (polled: the player may start only after the stop was asked for, once
        synthesis ends). It never touches the engine, so it may run while the tts thread is
        inside ``runAndWait``."""
        while True:
            self._stop_asked.wait()
            self._stop_asked.clear()
            while (utt := self._current) is not None and utt.stop.is_set() and not utt.done.is_set():
                self._stop_players(utt)
                time.sleep(POLL_S)
            if self._closed:
                return

    def _wait_finished(self, utt: _Utterance) -> None:
        """Wait for "finished-utterance" (or the deadline) before the next sentence starts.

        Blocking drivers (SAPI5, NSSS) have sent it by the time runAndWait returns. The
        espeak driver's runAndWait returns as soon as synthesis is queued (measured: 0.01 s
        for a 1 s sentence) and plays on espeak's own thread; starting the next sentence
        before that one ends makes pyttsx3 drop it. engine.stop() does not help there (a
        late stop() cancels the *next* sentence), so a cancelled sentence's ``aplay`` is
        terminated instead, which ends it; the caller of ``say`` has already gone.
        """
        end = time.monotonic() + deadline_s(utt.text)
        while not self._finished.wait(POLL_S):
            if utt.stop.is_set() and sys.platform.startswith("linux"):
                # polled, not done once: aplay may start only after the stop was asked for
                self._stop_players(utt)
            if time.monotonic() >= end:
                log.warning("The speech engine never finished %r; going on with the next sentence.", utt.text)
                with self._given_up_lock:
                    self._given_up.append(utt)
                return

    def _player_started(self, proc: subprocess.Popen[bytes]) -> None:
        """PlayerOs's hook, on espeak's thread: the player belongs to the sentence being spoken
        (the next one is only queued once this one has finished)."""
        utt = self._current
        if utt is None:
            return
        utt.players.append(proc)
        if utt.stop.is_set():  # stopped before its player started
            proc.terminate()

    def _stop_players(self, utt: _Utterance) -> None:
        """End ``utt``'s players only: a scan of every player could end the next sentence's,
        started after this one ended during the scan."""
        if not self._tracks_players:
            stop_players()
            return
        for proc in list(utt.players):
            if proc.poll() is None:
                proc.terminate()

    def _stop_if_asked(self, engine: Any) -> None:
        """started-word callback. Drivers whose runAndWait blocks (SAPI5, NSSS) call it on the
        tts thread, the one place they can be stopped mid-sentence. espeak calls it on its own
        thread from inside synthesis, where stop() (espeak_Cancel) must not be called."""
        current = self._current
        if current is not None and current.stop.is_set() and threading.current_thread() is self._thread:
            engine.stop()

    def _give_up(self, why: str) -> None:
        self.unavailable = why
        log.warning("Speech output is unavailable (%s); replies will be printed instead.", why)
        self._ready.set()
