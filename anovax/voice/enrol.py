"""``anovax enrol``: the user reads sentences aloud once, and the offline recogniser adapts to
their voice (adapt.py); ``anovax enrol --forget`` goes back to the general model.

The transform lives in the user's data folder (``anovax.paths``: ``~/.local/share/anovax/voice/
mllr_matrix`` on Linux), not the cache: it is the user's work, not something to rebuild. It is
estimated only after the last sentence, so stopping half-way (Ctrl-C, a microphone that dies)
leaves the old one, or none, untouched. The recordings themselves are never written anywhere
but a temporary folder that is removed when adaptation ends.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from anovax import paths

__all__ = ["adapt_to", "enrol_main", "forget", "prompts", "saved", "transform_path"]

log = logging.getLogger(__name__)

PROMPTS_FILE = Path(__file__).with_name("enrol_prompts.txt")
#: how long to wait for a sentence to start, and how long one may run, seconds
START_TIMEOUT_S = 8.0
PHRASE_LIMIT_S = 10.0
#: attempts per sentence before it is skipped (a cough, a door, a sentence read wrongly)
ATTEMPTS = 2
#: how much of a sentence's words the general model must hear in its recording (sounds_like)
MATCH_MIN = 0.3


def transform_path(env: Any = None) -> Path:
    return paths.data_dir(env) / "voice" / "mllr_matrix"


def saved(env: Any = None) -> tuple[Path, str]:
    """The saved transform's path and state: "adapted" (a sound transform), "damaged" (something
    else is there; the general model is used) or "none". One answer for the recogniser, ``--status``
    and ``anovax doctor``."""
    from anovax.voice.adapt import valid_transform

    path = transform_path(env)
    if valid_transform(path):
        return path, "adapted"
    return path, "damaged" if path.exists() else "none"


def prompts() -> list[str]:
    """The sentences to read, in order (enrol_prompts.txt without its comments)."""
    lines = PROMPTS_FILE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def forget() -> bool:
    """Delete the saved adaptation; whether there was one. OSError (with a message for the user)
    when it cannot be deleted."""
    path = transform_path()
    if path.is_dir() and not path.is_symlink():
        raise OSError(f"{paths.shown(path)} is a folder, not AnovaX's file; remove it yourself")
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


def writable(path: Path) -> str | None:
    """Why the transform cannot be saved at ``path`` (None: it can), asked before the user reads
    three minutes of sentences rather than after."""
    if path.exists() and not path.is_file():
        return f"{paths.shown(path)} is not a file; remove it first"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        probe = path.with_name(path.name + ".probe")
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        return f"{paths.shown(path.parent)} cannot be written ({exc.strerror or exc})"
    return None


# --- recording ---------------------------------------------------------------------------------------


def microphone_phrases(out: TextIO) -> Iterator[Callable[[], bytes | None]]:
    """Yields, once the default microphone is open and calibrated, a function that records the
    next phrase (16 kHz 16-bit PCM; None when nothing was said in time). VoiceUnavailable when
    there is no microphone."""
    import speech_recognition as sr

    from anovax.voice.microphone import enter_microphone, open_microphone

    microphone = open_microphone()
    source = enter_microphone(microphone)
    try:
        listener = sr.Recognizer()
        out.write("Measuring the room's noise: stay quiet for a second...\n")
        out.flush()
        listener.adjust_for_ambient_noise(source, duration=1.0)
        listener.dynamic_energy_threshold = False

        def record() -> bytes | None:
            try:
                audio = listener.listen(source, timeout=START_TIMEOUT_S, phrase_time_limit=PHRASE_LIMIT_S)
            except sr.WaitTimeoutError:
                return None
            return audio.get_raw_data(convert_rate=16000, convert_width=2)

        yield record
    finally:
        try:
            microphone.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - a device that vanished may fail to close
            log.debug("closing the microphone failed", exc_info=True)


def read_aloud(sentences: Sequence[str], record: Callable[[], bytes | None], out: TextIO,
               matches: Callable[[str, bytes], bool] = lambda _text, _pcm: True) -> list[tuple[str, bytes]]:
    """Each sentence shown, then recorded; one that is not heard in time, or does not sound like
    the sentence (``matches``: noise, another sentence), is asked for again, then skipped."""
    done: list[tuple[str, bytes]] = []
    for i, text in enumerate(sentences, 1):
        for attempt in range(ATTEMPTS):
            again = " (again)" if attempt else ""
            out.write(f"[{i}/{len(sentences)}] Say{again}: {text}\n")
            out.flush()
            pcm = record()
            if not pcm or len(pcm) < 16000:  # under half a second of audio
                out.write("  nothing heard.\n")
            elif not matches(text, pcm):
                out.write("  that did not sound like this sentence.\n")
            else:
                done.append((text, pcm))
                break
        else:
            out.write("  skipped.\n")
    return done


def sounds_like(plain: Any) -> Callable[[str, bytes], bool]:
    """Whether a recording sounds like its sentence: the general model's words for it share at
    least ``MATCH_MIN`` of the sentence's (difflib's ratio). Measured on the 40 sentences read by
    four synthetic voices, clean and noisy: the right sentence 0.33-1.0 (median 1.0), another
    sentence 0.12-0.22; pink noise alone comes out as a few scattered words. ``plain`` is a
    recogniser on the general model."""
    import difflib

    import speech_recognition as sr

    def matches(text: str, pcm: bytes) -> bool:
        heard = plain.recognize(sr.AudioData(pcm, 16000, 2))
        return difflib.SequenceMatcher(None, text.split(), heard.split()).ratio() >= MATCH_MIN

    return matches


# --- the command ------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="anovax enrol",
        description="Adapt the offline speech recogniser to your voice: read a few dozen short sentences "
                    "aloud (about three minutes). Everything stays on this machine.")
    parser.add_argument("--count", type=int, default=None, metavar="N",
                        help=f"read only the first N sentences (10 to {len(prompts())}; default all)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--forget", action="store_true", help="delete the saved adaptation and use the general model")
    what.add_argument("--status", action="store_true", help="say whether an adaptation is in use")
    return parser


def enrol_main(argv: list[str], out: TextIO | None = None,
               phrases: Callable[[TextIO], Any] | None = None) -> int:
    """Exit 0 when the adaptation was saved (or forgotten, or reported), 1 when it could not be
    made (the reason printed), 2 for bad arguments. ``phrases`` opens the recorder (tests)."""
    from anovax.voice.adapt import MIN_PHRASES, AdaptError, missing_tools

    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    target, state = saved()
    shown = paths.shown(target)
    if args.status:
        if state == "adapted":
            out.write(f"The recogniser is adapted to your voice ({shown}).\n")
        elif state == "damaged":
            out.write(f"{shown} is damaged; the general model is used. Run anovax enrol again.\n")
        else:
            out.write("The recogniser uses its general model (run anovax enrol to adapt it to your voice).\n")
        return 0
    if args.forget:
        try:
            out.write("Adaptation deleted; the general model is used from the next start.\n" if forget()
                      else "There was no adaptation to delete.\n")
        except OSError as exc:
            out.write(f"Cannot delete the adaptation: {exc.strerror or exc}.\n")
            return 1
        return 0
    sentences = prompts()
    if args.count is not None:
        if not MIN_PHRASES <= args.count <= len(sentences):
            out.write(f"anovax enrol: --count must be from {MIN_PHRASES} to {len(sentences)}\n")
            return 2
        sentences = sentences[:args.count]
    if why := writable(target):
        out.write(f"Cannot save the adaptation: {why}.\n")
        return 1
    if missing := missing_tools():
        out.write(f"Adaptation needs the Debian packages {', '.join(missing)} "
                  f"(sudo apt-get install {' '.join(missing)}).\n")
        return 1
    out.write(f"Voice enrolment: read each sentence aloud when it appears ({len(sentences)} sentences). "
              "Nothing is saved until the last one; Ctrl-C stops.\n")
    previous = _stop_on_sigterm()
    try:
        from anovax.voice.stt import SphinxCommandRecognizer

        plain = SphinxCommandRecognizer(adaptation=None)  # judges the recordings; its dictionary aligns them
        recordings = _record(sentences, out, phrases or microphone_phrases, sounds_like(plain))
        if recordings is None:
            return 1
        out.write(f"Adapting to your voice from {len(recordings)} phrases...\n")
        out.flush()
        result = adapt_to(recordings, target, plain)
    except AdaptError as exc:
        out.write(f"Adaptation failed: {exc}. The previous setting is unchanged.\n")
        return 1
    except KeyboardInterrupt:
        out.write("\nStopped; nothing was saved.\n")
        return 130
    finally:
        _restore_sigterm(previous)
    out.write(f"Done: {result.phrases} of {result.offered} phrases used, saved to {shown}. "
              "AnovaX uses it from its next start; anovax enrol --forget undoes it.\n")
    return 0


def _record(sentences: Sequence[str], out: TextIO, phrases: Callable[[TextIO], Any],
            matches: Callable[[str, bytes], bool]) -> list | None:
    from anovax.voice.adapt import MIN_PHRASES
    from anovax.errors import VoiceUnavailable

    try:
        opened = phrases(out)
        record = next(opened)
        try:
            recordings = read_aloud(sentences, record, out, matches)
        finally:
            opened.close()
    except VoiceUnavailable as exc:
        out.write(f"Cannot record: {exc}.\n")
        return None
    except OSError as exc:  # PortAudio's "Unanticipated host error": the device went away
        out.write(f"The microphone stopped working ({exc}); nothing was saved.\n")
        return None
    if len(recordings) < MIN_PHRASES:
        out.write(f"Only {len(recordings)} sentences were heard; at least {MIN_PHRASES} are needed. "
                  "Nothing was saved.\n")
        return None
    return recordings


def _stop_on_sigterm() -> Any:
    """SIGTERM (a closed terminal, a session ending) stops enrolment the way Ctrl-C does, so the
    recordings' temporary folder is removed and the adaptation tool is killed; the previous handler."""
    import signal

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (embedded): leave signals alone
        return None


def _restore_sigterm(previous: Any) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def adapt_to(recordings: Sequence[tuple[str, bytes]], out: Path, plain: Any = None) -> Any:
    """``adapt.estimate`` for pocketsphinx's en-us model and the command dictionary (``plain``: a
    recogniser on the general model, made here when not given), into ``out``."""
    import pocketsphinx

    from anovax.voice.adapt import estimate
    from anovax.voice.stt import SphinxCommandRecognizer

    plain = plain or SphinxCommandRecognizer(adaptation=None)
    return estimate(recordings, model=Path(pocketsphinx.get_model_path("en-us/en-us")), dict_path=plain.dict_path,
                    out=out, cache=plain.cache_dir)
