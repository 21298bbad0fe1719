"""The room around the microphone: what the wake gate does with speech that is not for AnovaX.

Shared by ``bench_voice_room.py`` (quick, in ``make bench``) and ``voice_hours.py`` (long,
``make bench-voice``). Every phrase is rendered by a synthetic voice (tests/voicegen.py: espeak-ng
voices, which the confidence thresholds were tuned on, and festival's kal/ked diphone voices and
flite's slt/rms/awb, never tuned on), clean or with pink noise, and goes through the real offline
recogniser, the real wake gate and the trust checks, exactly as the microphone's phrases do
(``VoicePipeline``).

Text: ``../shared/eval/slurp/lm.txt`` is SLURP's unlabelled utterances, ordinary speech not
addressed to AnovaX. Its first half was used to tune the thresholds (``TUNE``); every figure here
is reported on its second half (``REPORT``), which tuning never saw.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import voicegen  # noqa: E402 - tests/ is on the path only now

LM_TXT = ROOT.parent / "shared" / "eval" / "slurp" / "lm.txt"
#: voices the thresholds were tuned on, and voices they never saw: festival's and flite's
#: (tests/voicegen.py declares them)
TUNED_VOICES, HELD_OUT_VOICES, FLITE_VOICES = voicegen.VOICES, voicegen.HELD_OUT_VOICES, voicegen.FLITE_VOICES
NOISE = 0.1  # pink noise at 10-14 dB SNR against these voices (voicegen.py)

WAKE_WORDS = ("hey", "hello", "hi", "yo", "wake up")
COMMANDS = ("open the browser", "what time is it", "open the calculator", "take a screenshot", "open notepad",
            "what's the date", "open the terminal", "type hello world", "set a timer for five minutes",
            "close the calculator", "switch to notepad", "what can i say")
#: names and openings that sound different from "anova" but share its sounds
SOUND_ALIKES = ("hey anna", "hey hannah", "hey now", "hi anna", "hello hannah", "another", "and over",
                "hey donna", "okay anna", "hey nana", "hey joanna", "hi hannah")
#: a true homophone: reported on its own (target at most 10%)
HOMOPHONES = ("hey nova",)
#: names one sound away from "anova" (a consonant before it, or one in its middle): a red team's
#: class (e.g. "hey Canova, what time is it"), said with a command; reported on their own
NEAR_NAMES = ("hey canova", "hey janova", "hi danova", "hello genova", "yo panova", "hey anoka",
              "hey anouk", "hey an over", "hi tanova", "hey anola")

#: a sound-alike name said to someone else part-way through a sentence ("can you ask Hannah what
#: time is it"): a red team's class, where the recogniser made a wake word of "ask"; reported
MID_SENTENCE = ("can you ask {}", "go ask {} to", "tell {} to", "i asked {} to", "did you hear {}")
MID_NAMES = ("anna", "hannah", "donna", "joanna", "nova")


def sentences(part: str) -> list[str]:
    """SLURP's lm.txt lines, ``part`` "tune" (first half) or "report" (second half)."""
    try:
        lines = [line.strip() for line in LM_TXT.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return []
    half = len(lines) // 2
    return lines[:half] if part == "tune" else lines[half:]


@dataclass
class Outcome:
    """What the gate did with one phrase."""

    said: str
    heard: str
    action: str
    command: str
    seconds: float  # audio length
    recognize_ms: float
    #: the name's fit and the command words' mean posterior, when scored (for tuning)
    name_fit: float | None = None
    posterior: float | None = None
    name_worst: float | None = None
    understood: bool | None = None
    wake_fit: float | None = None
    posteriors: tuple = ()
    #: what the name sounded like against its rivals ("" not checked)
    name_as: str = ""
    #: the gate's reason for its decision
    reason: str = ""


class Room:
    """One recogniser and a scratch folder; ``say`` runs a phrase through a gate. The recogniser
    uses the general model, or the voice transform at ``adaptation`` (never the user's own)."""

    def __init__(self, adaptation: str | None = None) -> None:
        from anovax.voice.stt import SphinxCommandRecognizer

        self.recognizer = SphinxCommandRecognizer(adaptation=adaptation)
        # a worker of run_parallel is terminated, so nothing of its own would be cleaned up: its
        # scratch lives in the parent's folder, removed when the run ends
        if _SCRATCH is not None:
            self._tmp = tempfile.mkdtemp(prefix="anovax-room-", dir=_SCRATCH)
        else:
            self._scratch = tempfile.TemporaryDirectory(prefix="anovax-room-")
            self._tmp = self._scratch.name
        self._n = 0
        self._rooms: dict[float, tuple] = {}

    def _through_the_room(self, frames: bytes, noise: float) -> bytes:
        """``frames`` as the microphone's stream hands them on (microphone.py): through the noise
        suppressor that has heard this room since the bench began, the pause before each phrase
        included (denoise.py switches itself on in a noisy room)."""
        from anovax.voice.audio import CHUNK
        from anovax.voice.denoise import NoiseSuppressor

        def through(suppress: NoiseSuppressor, data: bytes) -> bytes:
            return b"".join(suppress(data[i:i + 2 * CHUNK]) for i in range(0, len(data), 2 * CHUNK))

        if noise not in self._rooms:
            quiet = voicegen.room_noise(noise, 3.0)
            suppress = NoiseSuppressor(voicegen.SAMPLE_RATE, 2)
            through(suppress, quiet)
            self._rooms[noise] = (suppress, quiet[:len(quiet) // 6])  # 0.5 s: the pause between phrases
        suppress, pause = self._rooms[noise]
        through(suppress, pause)
        return through(suppress, frames)

    def say(self, text: str, voice: str, noise: float, gate, clock: list[float]) -> Outcome:  # noqa: ANN001
        import speech_recognition as sr

        from anovax.voice.audio import Phrase
        from anovax.voice.pipeline import VoicePipeline
        from anovax.voice.understand import understanding, understands

        self._n += 1
        path = Path(self._tmp) / f"p{self._n % 4}.wav"
        voicegen.render(text, path, voice=voice, noise=noise)
        with sr.AudioFile(str(path)) as source:
            audio = sr.Recognizer().record(source)
        audio = sr.AudioData(self._through_the_room(audio.frame_data, noise), audio.sample_rate, audio.sample_width)
        seconds = len(audio.frame_data) / (audio.sample_rate * audio.sample_width)
        start = clock[0]
        clock[0] += seconds
        commands: list[str] = []
        seen: list = []
        scoring = _Recorded(self.recognizer, seen)
        pipeline = VoicePipeline(scoring, gate, on_command=commands.append, stop_speaking=lambda: None,
                                 understands=understanding)
        heard = pipeline.handle(Phrase(audio, start, clock[0]))
        clock[0] += 0.5  # the pause between phrases
        name_fit = posterior = worst = wake_fit = None
        posteriors: tuple = ()
        if seen and seen[0].words:
            words = seen[0].words
            names = [w for w in words if w.word == "anova"]
            name_fit = names[0].fit if names else None
            worst = names[0].worst if names else None
            at = words.index(names[0]) if names else 0
            wake_fit = words[at - 1].fit if names and at > 0 else None
            after = [w.posterior for w in words[words.index(names[0]) + 1:]] if names else [w.posterior for w in words]
            posterior = sum(after) / len(after) if after else None
            posteriors = tuple(round(p, 3) for p in after)
        rest = heard.decision.heard.split("anova", 1)[-1].strip()
        return Outcome(text, heard.decision.heard, heard.decision.action, " ".join(commands), seconds,
                       heard.recognize_ms, name_fit, posterior, worst, understands(rest) if rest else None, wake_fit, posteriors,
                       seen[0].name_as if seen else "", heard.decision.reason)


class _Recorded:
    """The recogniser, keeping each ``Hearing`` it returns (to report the scores)."""

    def __init__(self, inner, seen: list) -> None:  # noqa: ANN001
        self.inner, self.seen = inner, seen
        self.name, self.offline = inner.name, inner.offline

    def recognize(self, audio) -> str:  # noqa: ANN001
        return self.hear(audio).text

    def hear(self, audio, score=None):  # noqa: ANN001, ANN201
        hearing = self.inner.hear(audio, score)
        self.seen.append(hearing)
        return hearing


def fresh_gate(clock: list[float]):  # noqa: ANN201 - WakeGate
    from anovax.voice.gate import WakeGate

    return WakeGate(clock=lambda: clock[0])


def responded(action: str) -> bool:
    return action in ("command", "doubt", "wake")


def jobs_for(voices: Iterable[str], noises: Iterable[float], items: Sequence[object]) -> list[tuple]:
    return [(item, voice, noise) for voice in voices for noise in noises for item in items]


def run_parallel(fn: Callable[[tuple], object], jobs: list[tuple], workers: int | None = None) -> list:
    """``fn`` over ``jobs`` in worker processes (each builds its own recogniser once)."""
    import multiprocessing

    workers = workers or max(1, min(2, os.cpu_count() or 1))
    if workers == 1:
        return [fn(job) for job in jobs]
    with tempfile.TemporaryDirectory(prefix="anovax-rooms-", ignore_cleanup_errors=True) as scratch, \
            multiprocessing.get_context("spawn").Pool(workers, _use_scratch, (scratch,)) as pool:
        return list(pool.imap(fn, jobs, chunksize=4))


#: in a worker of run_parallel: the parent's folder its room renders into (None in the parent)
_SCRATCH: str | None = None


def _use_scratch(folder: str) -> None:
    global _SCRATCH
    _SCRATCH = folder


_ROOMS: dict[str | None, Room] = {}


def room(adaptation: str | None = None) -> Room:
    if adaptation not in _ROOMS:
        _ROOMS[adaptation] = Room(adaptation)
    return _ROOMS[adaptation]


def enrol_voice(voice: str, out: Path) -> Path:
    """What ``anovax enrol`` makes for a person with ``voice``: every enrolment sentence
    (enrol_prompts.txt; none holds a COMMAND) read once in the room the phrases are then heard
    in, so every other one with its pink noise; adapted into the transform ``out``."""
    import wave

    from anovax.voice.enrol import adapt_to, prompts

    sentences = prompts()
    overlap = [s for s in sentences if any(c in s for c in COMMANDS)]
    assert not overlap, f"enrolment sentences hold benchmark commands: {overlap}"
    recordings = []
    with tempfile.TemporaryDirectory(prefix="anovax-enrol-", dir=_SCRATCH) as tmp:
        for i, text in enumerate(sentences):
            noise = NOISE if i % 2 else 0.0  # read in the room it is then heard in: clean, and noisy
            path = voicegen.render(text, Path(tmp) / f"{i}.wav", voice=voice, noise=noise)
            with wave.open(str(path)) as w:
                recordings.append((text, w.readframes(w.getnframes())))
    adapt_to(recordings, out)
    return out


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def seeded(seed: str) -> random.Random:
    return random.Random(seed)


def elapsed(started: float) -> str:
    return f"{time.perf_counter() - started:.0f} s"


def same_action(heard: str, said: str) -> bool:
    """True when the offline planner makes the same plan of ``heard`` as of ``said``: the
    recogniser's "close my calculator" for "close the calculator" does what was asked, its
    "open the google" for "open the terminal" does not. (The steps, tools and parameters; for a
    plan without steps, its reply.)"""
    from anovax.voice import understand

    plan_key, plan_of = understand.plan_key, understand.plan_of
    return heard == said or plan_key(plan_of(heard)) == plan_key(plan_of(said))
