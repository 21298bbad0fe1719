"""Voice input on synthetic speech: the real offline recogniser and the real wake gate.

    python -m benchmarks.bench_voice [--voices N] [--no-noise] [--cpu N] [--whole]

A corpus of wake phrases (each wake word with and without a command) and non-wake phrases
(commands without the name, the name without a wake word, sound-alikes such as "a nova",
"hey nova", "and over") is spoken by espeak-ng in three voices, clean and with pink noise
(tests/voicegen.py). Each phrase becomes its own recording with quiet around it and goes through
``Recording`` (the microphone's phrase cutter, endpoint.py: each phrase decoded while it is read,
ended on the adaptive pause), the recogniser and a fresh wake gate, exactly as ``anovax
--audio-file`` does. ``--whole`` measures the other way instead: a fixed pause, then the whole
phrase decoded (what a recogniser without streaming gets). Measured, not asserted:

1. Wake recall: wake phrases the gate woke on (target ≥ 95%).
2. False wakes: non-wake phrases that woke it (target 0 on clean speech).
3. Command word error rate: the text handed to on_speech against the command that was said.
4. Real-time factor of the recogniser, pinned to one core: decoding time (all of it: while the
   phrase was read and after it ended, in CPU seconds of the decoding thread, so other work on
   the machine does not count; wall time for ``--whole``) / phrase length (target ≤ 0.2).
5. End of speech → on_speech: the silence the phrase cutter waits for (the adaptive pause,
   measured in the recording from the end of the spoken audio to where the phrase was cut) plus
   what is left of recognition and the gate (wall time). On a microphone the first part passes
   in real time too, and the decoding done meanwhile keeps up with it (RTF < 1), so the sum is
   what a user waits (target ≤ 400 ms; this issue's ≤ 350 ms at p50). A recording is read
   faster than real time, except its pauses: their quiet chunks come at the microphone's pace,
   so work started during a pause (the name's checks, the request heard again) gets the time
   it would get there, and is charged where it outruns the pause: from each quiet chunk of the
   phrase on, the wall time spent beyond the recorded time that passed, the most of them if
   more than what follows the cut.
6. Sentences with a comma pause (COMMA_SENTENCES) at three speeds: how many are cut in two.
"""

from __future__ import annotations

import argparse
import array
import importlib.util
import os
import random
import statistics
import sys
import tempfile
import time
import wave
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.planner.slurp_eval import percentile  # noqa: E402

#: commands people give right after the wake words; all in the offline planner's repertoire
COMMANDS = ("open the browser", "what time is it", "open the calculator", "take a screenshot",
            "open notepad", "what's the date", "open the terminal", "type hello world")
WAKE_WORDS = ("hey", "hello", "hi", "wake up", "yo")
#: never wake it: commands alone, the name without a wake word, a wake word without the name,
#: and phrases that sound like "hey anova" (the recogniser's vocabulary has these words on purpose)
NON_WAKE = (
    "what time is it", "open the browser", "open notepad", "take a screenshot", "what's the date",
    "open the calculator", "type hello world", "open the terminal",
    "anova open the browser", "anova what time is it", "anova", "the anova",
    "hey open the browser", "hello there", "hey there", "hi there what time is it", "wake up",
    "a nova", "a nova open notepad", "hey nova", "hey nova open the browser", "hello nova", "and over",
    "over and over", "it's over", "game over", "come over", "super nova", "bossa nova", "casanova",
    "another", "another one", "another day", "hey now", "hi now", "and now", "a novel", "a new one",
    "i know", "no way", "oh no", "all over",
)
#: one sentence each, with a comma where espeak-ng pauses (4-6 chunks of 32 ms at 160 words a
#: minute, 7-8 at 130): the pause that ends a phrase must not cut them
COMMA_SENTENCES = (
    "hey anova, open the browser", "open the calculator, then type hello world",
    "remind me in five minutes, to call mum", "hey anova, what time is it",
    "search for the weather, in london", "hello anova, take a screenshot",
)
COMMA_SPEEDS = (130, 160, 200)
QUIET_LEVEL = 10  # sample RMS of the quiet around each phrase: a microphone never gives digital zeros
GAP_S = 0.8
NOISE = 0.1


def wake_corpus() -> list[tuple[str, str]]:
    """(phrase, command said after the wake words, "" for none): every wake word with every
    command, plus each wake word alone."""
    phrases = [(f"{w} anova {c}", c) for w in WAKE_WORDS for c in COMMANDS]
    phrases += [(f"{w} anova", "") for w in WAKE_WORDS]
    phrases += [("anova wake up", ""), ("anova wake up open notepad", "open notepad")]
    return phrases


@dataclass
class Tally:
    wake_total: int = 0
    woke: int = 0
    non_wake_total: int = 0
    false_wakes: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    wers: list[float] = field(default_factory=list)
    rtf: list[float] = field(default_factory=list)
    endpoint_ms: list[float] = field(default_factory=list)
    process_ms: list[float] = field(default_factory=list)
    to_on_speech_ms: list[float] = field(default_factory=list)
    split: int = 0

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def _quiet(frames: int, rng: random.Random) -> bytes:
    return array.array("h", (int(rng.gauss(0, QUIET_LEVEL)) for _ in range(frames))).tobytes()


def _recording(speech: Path, out: Path, rng: random.Random) -> float:
    """``speech`` with GAP_S of quiet either side, written to ``out``; returns where speech ends (s)."""
    with wave.open(str(speech)) as w:
        params = w.getparams()
        data = w.readframes(w.getnframes())
    gap = _quiet(int(GAP_S * params.framerate), rng)
    with wave.open(str(out), "wb") as w:
        w.setparams(params)
        w.writeframes(gap + data + _quiet(int(GAP_S * params.framerate), rng))
    return GAP_S + len(data) / (params.framerate * params.sampwidth)


def _speech_end(path: Path, threshold: float) -> float:
    """Where the spoken audio really ends: the last 10 ms louder than the phrase cutter's threshold
    (espeak-ng pads its output with quiet of its own)."""
    import audioop

    with wave.open(str(path)) as w:
        rate, width = w.getframerate(), w.getsampwidth()
        data = w.readframes(w.getnframes())
    step = rate // 100 * width
    last = 0
    for i in range(0, len(data), step):
        if audioop.rms(data[i:i + step], width) > threshold:
            last = i + step
    return last / (rate * width)


def run_condition(recognizer, voice: str, noise: float, folder: Path, whole: bool = False) -> Tally:
    import voicegen

    from anovax.voice.audio import CHUNK
    from anovax.voice.gate import WakeGate
    from anovax.voice.understand import understands
    from anovax.voice.listener import Recording, VoicePipeline, audio_seconds

    tally = Tally()
    rng = random.Random(f"{voice}{noise}")
    items = [(p, c, True) for p, c in wake_corpus()] + [(p, "", False) for p in NON_WAKE]
    for n, (phrase, command, is_wake) in enumerate(items):
        speech = voicegen.render(phrase, folder / f"s{n}.wav", voice=voice, noise=noise)
        path = folder / f"r{n}.wav"
        _recording(speech, path, rng)
        rec = Recording(path)
        delivered: list[tuple[str, float]] = []
        pipeline = VoicePipeline(recognizer, WakeGate(clock=rec.now),
                                 on_command=lambda text: delivered.append((text, time.perf_counter())),
                                 stop_speaking=lambda: None, understands=understands)
        decisions = []
        phrases = 0
        with wave.open(str(path)) as w:
            chunk_s = CHUNK / w.getframerate()
        for cut in rec.phrases(None if whole else _Timed(recognizer, rec.now, chunk_s)):
            phrases += 1
            returned = time.perf_counter()  # the phrase has just been cut
            utterance = cut.utterance
            paused = utterance.pauses if isinstance(utterance, _Paused) else []
            heard = pipeline.handle(cut)
            handled = time.perf_counter()
            decisions.append(heard.decision)
            decode_s = utterance.decode_s if utterance is not None else heard.recognize_ms / 1000
            tally.rtf.append(decode_s / max(audio_seconds(cut.audio), 1e-6))
            if is_wake and heard.decision.action in ("command", "wake") and phrases == 1:
                # in audio time: from the last loud 10 ms of the speech to where the phrase was cut
                ended = GAP_S + _speech_end(speech, rec.energy_threshold)
                endpoint = max(0.0, (cut.end - ended) * 1000)
                done = delivered[0][1] if delivered else handled
                process = (done - returned) * 1000
                # the pause's own work, where it outruns the pause (see 5.)
                process = max([process, *(((done - wall) - (cut.end - at)) * 1000 for at, wall in paused)])
                tally.endpoint_ms.append(endpoint)
                tally.process_ms.append(process)
                tally.to_on_speech_ms.append(endpoint + process)
        tally.split += phrases > 1
        # a wake phrase counts when it acted (a "Did you say …?" question is not the command); any
        # response to a non-wake phrase, a question included, is a false wake
        woke = any(d.action in (("wake", "command") if is_wake else ("wake", "command", "doubt")) for d in decisions)
        if is_wake:
            tally.wake_total += 1
            tally.woke += woke
            if not woke:
                tally.missed.append(f"{phrase!r} heard as {' | '.join(repr(d.heard) for d in decisions) or 'nothing'}")
            if command:
                got = " ".join(text for text, _ in delivered)
                tally.wers.append(voicegen.wer(command, got))
        else:
            tally.non_wake_total += 1
            if woke:
                tally.false_wakes.append(f"{phrase!r} heard as {' | '.join(repr(d.heard) for d in decisions)}")
    return tally


class _Timed:
    """The recogniser as ``Recording`` streams it: each utterance notes when its phrase first paused."""

    def __init__(self, recognizer, now, chunk_s: float) -> None:
        self._recognizer, self._now, self._chunk_s = recognizer, now, chunk_s

    def begin(self):
        return _Paused(self._recognizer.begin(), self._now, self._chunk_s)


class _Paused:
    """An utterance whose pauses come in real time: told of a quiet chunk that follows another, it
    waits until as much wall time as recorded time has passed since the pause began (as a
    microphone's read would), and keeps (recorded time, wall time) of each."""

    def __init__(self, utterance, now, chunk_s: float) -> None:
        self._utterance, self._now, self._chunk_s = utterance, now, chunk_s
        self.pauses: list[tuple[float, float]] = []
        self._began = (0.0, 0.0)

    def paused(self, settled: bool = False) -> None:
        at, wall = self._now(), time.perf_counter()
        if self.pauses and at - self.pauses[-1][0] < 1.5 * self._chunk_s:  # the same pause goes on
            wait = self._began[1] + (at - self._began[0]) - wall
            if wait > 0:
                time.sleep(wait)
                wall = time.perf_counter()
        else:
            self._began = (at, wall)
        self.pauses.append((at, wall))
        self._utterance.paused(settled)

    def __getattr__(self, name: str):
        return getattr(self._utterance, name)


def comma_splits(recognizer, voices: Sequence[str], folder: Path, whole: bool = False) -> dict[int, list[str]]:
    """speed -> the comma sentences cut in more than one phrase ("voice: a | b")."""
    import voicegen

    from anovax.voice.listener import Recording

    rng = random.Random("comma")
    out: dict[int, list[str]] = {}
    for speed in COMMA_SPEEDS:
        out[speed] = []
        for voice in voices:
            for n, sentence in enumerate(COMMA_SENTENCES):
                speech = voicegen.render(sentence, folder / f"c{n}.wav", voice=voice, speed=speed)
                path = folder / f"cr{n}.wav"
                _recording(speech, path, rng)
                texts = []
                for cut in Recording(path).phrases(None if whole else recognizer):
                    u = cut.utterance
                    texts.append(u.finish() if u is not None else recognizer.recognize(cut.audio))
                if len(texts) > 1:
                    out[speed].append(f"{voice}: {' | '.join(texts)}")
    return out


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _ms(samples: Sequence[float], q: float) -> str:
    return f"{percentile(list(samples), q):.0f}" if samples else "-"


def _row(name: str, t: Tally) -> str:
    wer = f"{statistics.fmean(t.wers):.3f}" if t.wers else "-"
    rtf = f"{percentile(t.rtf, 50):.3f} / {percentile(t.rtf, 95):.3f}" if t.rtf else "-"
    return (f"| {name} | {t.woke}/{t.wake_total} ({_pct(t.woke, t.wake_total)}) | "
            f"{len(t.false_wakes)}/{t.non_wake_total} | {wer} | {rtf} | "
            f"{_ms(t.to_on_speech_ms, 50)} / {_ms(t.to_on_speech_ms, 95)} | {t.split} |")


def _pin_one_core(cpu: int | None) -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None or cpu not in allowed else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen} of {len(allowed)}"


def run(voices: Sequence[str], noises: Sequence[float], cpu: int | None = None, whole: bool = False) -> str:
    from anovax.voice.endpoint import ADAPTIVE, FIXED
    from anovax.voice.listener import KEEP_QUIET_S
    from anovax.voice.stt import SphinxCommandRecognizer

    pinned = _pin_one_core(cpu)
    started = time.perf_counter()
    recognizer = SphinxCommandRecognizer(adaptation=None)  # the general model, never the user's own
    load_s = time.perf_counter() - started
    requests = getattr(recognizer, "requests", None)  # the request heard again (again.py)
    rows, clean, noisy = [], Tally(), Tally()
    with tempfile.TemporaryDirectory(prefix="bench-voice-") as tmp:
        for voice in voices:
            for noise in noises:
                folder = Path(tmp) / f"{voice}-{noise}"
                folder.mkdir()
                tally = run_condition(recognizer, voice, noise, folder, whole)
                (noisy if noise else clean).add(tally)
                rows.append(_row(f"{voice}, {'noise ' + format(noise, 'g') if noise else 'clean'}", tally))
        folder = Path(tmp) / "comma"
        folder.mkdir()
        commas = comma_splits(recognizer, voices, folder, whole)
    total = Tally()
    total.add(clean)
    total.add(noisy)
    if whole:
        pause = f"whole phrases decoded after a fixed pause of {FIXED.complete_s:.3f} s"
    else:
        pause = (f"decoded while spoken, cut after {ADAPTIVE.complete_s:g} s of quiet when the words look complete, "
                 f"{ADAPTIVE.incomplete_s:g} s when not")
    lines = [
        f"### Voice input: wake gate + {recognizer.name} recogniser on espeak-ng speech",
        "",
        f"{len(wake_corpus())} wake and {len(NON_WAKE)} non-wake phrases per condition; recogniser loaded in "
        f"{load_s:.2f} s; {pinned}; {pause}; {KEEP_QUIET_S:g} s of quiet kept either side.",
        "",
        "| condition | wake recall | false wakes | command WER | RTF p50 / p95 | end of speech → on_speech ms p50 / p95 "
        "| recordings cut in more than one phrase |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *rows,
        _row("**all clean**", clean),
    ]
    if noisy.wake_total:
        lines.append(_row("**all noisy**", noisy))
    lines.append(_row("**all**", total))
    recall = total.woke / total.wake_total if total.wake_total else 0.0
    rtf95 = percentile(total.rtf, 95) if total.rtf else float("nan")
    lat95 = percentile(total.to_on_speech_ms, 95) if total.to_on_speech_ms else float("nan")
    lat50 = percentile(total.to_on_speech_ms, 50) if total.to_on_speech_ms else float("nan")
    lines += [
        "",
        "| measure | value | target | result |",
        "|---|---:|---|---|",
        f"| wake recall, all conditions | {100 * recall:.1f}% | ≥ 95% | {'PASS' if recall >= 0.95 else 'FAIL'} |",
        f"| false wakes, clean speech | {len(clean.false_wakes)} | 0 | {'PASS' if not clean.false_wakes else 'FAIL'} |",
        f"| false wakes, noisy speech | {len(noisy.false_wakes)} | (none set) | |",
        f"| command WER (mean) | {statistics.fmean(total.wers) if total.wers else float('nan'):.3f} | (none set) | |",
        f"| recogniser real-time factor p95, one core | {rtf95:.3f} | ≤ 0.2 | {'PASS' if rtf95 <= 0.2 else 'FAIL'} |",
        f"| end of speech → on_speech p50 | {lat50:.0f} ms | ≤ 350 ms | {'PASS' if lat50 <= 350 else 'FAIL'} |",
        f"| end of speech → on_speech p95 | {lat95:.0f} ms | ≤ 400 ms | {'PASS' if lat95 <= 400 else 'FAIL'} |",
        f"| of which waiting for the pause (p50 / p95) | {_ms(total.endpoint_ms, 50)} / {_ms(total.endpoint_ms, 95)} ms "
        f"| | |",
        f"| of which recognition + gate (p50 / p95) | {_ms(total.process_ms, 50)} / {_ms(total.process_ms, 95)} ms "
        f"| | |",
        f"| requests heard again during the pause: answers asked for / heard | "
        f"{getattr(requests, 'ahead_used', 0)} / {getattr(requests, 'ahead_heard', 0)} | | |",
        *(f"| comma sentences cut in two at {speed} words/min | {len(cut)} of {len(voices) * len(COMMA_SENTENCES)} "
          f"| 0 | {'PASS' if not cut else 'FAIL'} |" for speed, cut in commas.items()),
    ]
    if clean.false_wakes or noisy.false_wakes:
        lines += ["", "False wakes (first 12):", *(f"- {w}" for w in (clean.false_wakes + noisy.false_wakes)[:12])]
    cuts = [f"{speed} wpm, {c}" for speed, cut in commas.items() for c in cut]
    if cuts:
        lines += ["", "Comma sentences cut in two (first 12):", *(f"- {c}" for c in cuts[:12])]
    if total.missed:
        lines += ["", "Missed wake phrases (first 12):", *(f"- {m}" for m in total.missed[:12])]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--voices", type=int, default=3, help="how many of the three voices to use")
    ap.add_argument("--no-noise", action="store_true", help="clean speech only")
    ap.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last one allowed)")
    ap.add_argument("--whole", action="store_true", help="fixed pause and whole-phrase decoding (no streaming)")
    args = ap.parse_args(argv)
    try:
        import voicegen
    except ImportError as exc:
        print(f"skipped: tests/voicegen.py cannot be imported ({exc})")
        return 0
    if not voicegen.have_espeak():
        print("skipped: espeak-ng is not installed (Debian package espeak-ng)")
        return 0
    for module in ("pocketsphinx", "speech_recognition"):
        if importlib.util.find_spec(module) is None:
            print(f"skipped: {module} is not installed")
            return 0
    noises = (0.0,) if args.no_noise or not voicegen.have_sox() else (0.0, NOISE)
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        print(run(voicegen.VOICES[: max(1, args.voices)], noises, args.cpu, args.whole))
    finally:
        if affinity is not None:  # python -m benchmarks runs the others after this one
            os.sched_setaffinity(0, affinity)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
