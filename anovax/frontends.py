"""Voice and phone front ends started by the CLI: the microphone next to the console,
``--audio-file`` recordings, and the phone remote. Their status lines go to stderr."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from anovax.app import Assistant, CommandResult
from anovax.console import emit_result
from anovax.events import EventType
from anovax.port import AssistantPort
from anovax.results import worst_exit_code

#: ``--audio-file``: the recogniser cannot start (the CLI's usage/configuration exit code)
EXIT_USAGE = 2


#: the voice threads print while the console waits for a line; one writer at a time
# re-entrant: the console status line's hold() takes it around writes that already hold it
OUT_LOCK = threading.RLock()
_GATE_WORDS = {"drop": "dropped", "wake": "awake", "sleep": "asleep", "barge_in": "stop speaking"}
#: the spoken answer to a question, as the heard line shows it
_ANSWER_WORDS = {"yes": "answered yes", "no": "answered no"}


def format_heard(heard: Any, *, times: bool = True) -> str:
    """One line per recognised phrase: when (in a recording), what was heard, what the wake gate
    did and why."""
    decision = heard.decision
    if decision.action == "command":
        what = f'command "{decision.text}"'
    elif decision.action == "doubt":
        what = f'not sure: did you say "{decision.text}"?'
    elif decision.action == "answer":
        what = _ANSWER_WORDS[decision.text]
    else:
        what = _GATE_WORDS[decision.action]
    # max: a phrase cut from the very start of a recording may begin a hair before 0 ("[-0.00-…")
    when = f"[{max(0.0, heard.start):.2f}-{max(0.0, heard.end):.2f} s] " if times else ""
    return f'{when}heard "{decision.heard}" -> {what} ({decision.reason})'


def audio_file_main(assistant: Assistant, path: Path, as_json: bool, out: TextIO, *, verbose: bool = False,
                    lines: Any = None) -> int:
    """``--audio-file``: the recording's phrases through the same recogniser and wake gate as the
    microphone, played in recorded time (voice/playback.py): a command runs while the phrases
    after it are heard, so a "stop" stops it and a "yes" answers the question it asks."""
    from anovax.voice.gate import WakeGate
    from anovax.voice.listener import AudioFileError, Recording, VoicePipeline, VoiceState
    from anovax.voice.pipeline import follow_events
    from anovax.voice.playback import PlaybackClock, RecordingPlayer
    from anovax.voice.progress import ReadProgress
    from anovax.voice.stt import SttError, make_recognizer
    from anovax.voice.understand import understanding

    settings = assistant.settings
    try:
        recognizer = make_recognizer(settings.stt)
    except (SttError, ImportError, OSError, ValueError) as exc:
        print(f"anovax: speech recognition cannot start: {getattr(exc, 'message', None) or exc}", file=sys.stderr)
        return EXIT_USAGE
    codes: list[int] = []

    def run_command(text: str) -> None:
        result = assistant.on_speech(text, source="voice")
        codes.append(result.exit_code)
        # one write under the lock, so the recording's next phrases (reported meanwhile) do not
        # cut into it; the lock is not held around emit_result, which may wait for the trace
        emit_result(result, as_json, out, assistant, events=as_json, verbose=verbose, write=write)

    def write(text: str) -> None:
        with OUT_LOCK:
            progress.erase()
            out.write(text + "\n")
            out.flush()

    # the clock is the position in the file, so the sleep timeout and a question's window run in
    # recorded time; a recording cannot contain the assistant's replies, so this gate does not
    # follow SPEAK_*, only the questions it may answer
    clock = PlaybackClock()
    gate = WakeGate(timeout_s=settings.wake_timeout_s, clock=clock.now)
    # after_command: the sleep timeout counts from the end of a command, as at the microphone
    player = RecordingPlayer(Recording(path), run_command=run_command, confirmations=assistant.confirmations,
                             clock=clock, after_command=gate.touch)
    recording = player.recording
    assistant.bus.subscribe("voice-recording-gate", lambda event: follow_events(gate, event, speech=False))

    def report(heard: Any) -> None:
        assistant.bus.emit(EventType.VOICE_HEARD, "voice", data=heard.to_dict())
        if not as_json:
            with OUT_LOCK:
                progress.erase()
                out.write(format_heard(heard) + "\n")
                out.flush()

    def answer(question_id: str, yes: bool | None) -> None:
        assistant.confirmations.answer(question_id, yes, "voice")

    def state(change: VoiceState) -> None:
        assistant.bus.emit(EventType.VOICE_STATE, "voice",
                           data={"state": change.state, "detail": change.detail, "by_phrase": change.by_phrase})

    # a doubt in a recording has nobody to answer it: its heard line says so, nothing runs
    pipeline = VoicePipeline(recognizer, gate, on_command=player.submit, stop_speaking=assistant.stop_speaking,
                             report=report, on_state=state, on_answer=answer, understands=understanding)
    # on a terminal: how far it has read (a long recording takes minutes, and said nothing)
    progress = ReadProgress(sys.stderr, OUT_LOCK, path.name, recording.now, lambda: recording.duration).start()
    if lines is not None and progress.inline:  # the console's other lines (--verbose, timers) too
        lines.status = progress
    try:
        heard = player.play(pipeline)
    except AudioFileError as exc:
        progress.close()
        print(f"anovax: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        progress.close()
        if lines is not None and lines.status is progress:
            lines.status = None
    for note in recording.notes:
        print(f"anovax: note: {recording.path.name}: {note}.", file=sys.stderr)
    if as_json:
        assistant.bus.flush()
    else:
        out.write(f"{heard} phrase{'s' if heard != 1 else ''} in {recording.duration:.1f} s of audio, "
                  f"{len(codes)} command{'s' if len(codes) != 1 else ''} ({recognizer.name} recogniser).\n")
        if pipeline.unshown:  # a first-time user's misses said only "0 commands", and nothing about why
            out.write(f"{pipeline.unshown} of them were not taken as commands (no clear \"hey anova\" and request); "
                      "as at the microphone, their words are not shown.\n")
        out.flush()
    return worst_exit_code(codes)


def start_voice(assistant: Assistant, as_json: bool, out: TextIO, *, say: Callable[..., None] | None = None,
                verbose: bool = False) -> Any:
    """Listen to the microphone next to the text console (ANOVAX_VOICE auto or on), or None.

    Start-up runs on the listener's thread; what it comes to (listening, or why not) is one
    stderr line and a VOICE_STATE event, and the console works either way. ``say(text,
    stream)`` prints a line for a person (``console.Lines``: never over the console's prompt,
    which the listener's lines used to land on)."""
    mode = assistant.settings.voice
    if mode == "off":
        return None
    from anovax.voice.listener import VoiceInput, VoiceState
    from anovax.voice.talkkey import key_label, start_talk_key

    def line(text: str, stream: TextIO | None = None) -> None:
        if say is not None:
            say(text, stream if stream is not None else out)
            return
        with OUT_LOCK:
            stream = stream if stream is not None else out
            stream.write(text + "\n")
            stream.flush()

    def said(text: str) -> None:
        line(f"anovax: {text}", sys.stderr)

    last: list[str] = [""]  # the state before this one: the talk key's release is no news

    def on_state(change: VoiceState) -> None:
        before, last[0] = last[0], change.state
        if change.state == "listening" and voice.talk_key is None:  # the first time: hold-to-talk too
            voice.talk_key = key = start_talk_key(assistant.settings.talk_key, voice.hold_to_talk)
            if key.reason:
                said(f"listening: {change.detail}.")
                if not getattr(key, "quiet", False):
                    said(f"hold-to-talk is off: {key.reason}.")
            else:
                said(f"listening: {change.detail}, or hold {key_label(key.name)} and speak.")
        elif change.state == "listening" and before != "talking":
            said(f"listening: {change.detail}.")
        elif change.state == "unavailable":
            prefix = "ANOVAX_VOICE=on, but voice input is off" if mode == "on" else "voice input is off"
            said(f"{prefix}: {change.detail}. Type your commands instead.")
        elif change.state == "asleep" and not change.by_phrase and not as_json:  # the timeout
            line(f"[{change.state}: {change.detail}]")

    def on_heard(heard: Any) -> None:
        # only phrases said to AnovaX arrive here (pipeline.py); of those, a drop is mostly its own
        # voice or a half-heard phrase, which the orb shows for a moment and the console leaves out
        if heard.decision.action != "drop" and not as_json:
            line(format_heard(heard, times=False))

    def on_result(result: CommandResult) -> None:
        if as_json:
            with OUT_LOCK:
                emit_result(result, as_json, out, assistant)
        else:  # not under the lock: with verbose it first waits for the trace's lines
            emit_result(result, as_json, out, assistant, verbose=verbose, write=line)

    try:
        voice = VoiceInput.for_assistant(assistant, on_heard=on_heard, on_result=on_result, on_state=on_state)
        voice.start()
    except Exception as exc:  # noqa: BLE001 - the text console must come up whatever voice does
        said(f"voice input is off: {exc}. Type your commands instead.")
        return None
    return voice


def make_remote(assistant: AssistantPort) -> Any:
    """The phone remote, started when ANOVAX_REMOTE=1 and otherwise ready for the orb's switch
    or ``:remote on``; None when it cannot exist here (Flask missing)."""
    try:
        from anovax.remote.runtime import RemoteServer
        from anovax.remote.state import assistant_state
    except ImportError as exc:
        print(f"anovax: the phone remote is unavailable ({exc}).", file=sys.stderr)
        return None
    remote = RemoteServer(assistant.settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                          confirmations=assistant.confirmations)
    if assistant.settings.remote:
        try:
            remote.start()
        except OSError as exc:
            print(f"anovax: the phone remote can't start: {exc.strerror or exc}.", file=sys.stderr)
        else:
            print(f"anovax: phone remote on at {remote.address}; pair a phone by opening {remote.pairing_url}",
                  file=sys.stderr)
    return remote
