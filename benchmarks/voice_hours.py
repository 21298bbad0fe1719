"""False wakes per hour of ordinary speech (issue 19), the long run: ``make bench-voice``.

    python -m benchmarks.voice_hours [--hours 4] [--workers 2] [--voices default|flite|all]

SLURP's lm.txt, second half (never used for tuning), read sentence by sentence by synthetic
voices taking turns (espeak-ng's f2, klatt4 and m1, which the thresholds were tuned on, and
festival's kal and ked diphone voices, which they never saw), every other sentence with pink
noise, until the audio adds up to ``--hours``. Each sentence goes through the real recogniser,
trust checks and a wake gate that is asleep, as speech in a room does. A false wake is any
response: a command, a "Did you say …?" question or waking up. Target: at most 0.5 per hour
(≤ 2 in 4 hours). Sentences are asked for by a 2 s estimate and average ~3 s, so ``--hours 4``
reads about 6 hours of audio (7,240 sentences); ~30 minutes on two quiet cores. ``--voices flite``
reads with flite's slt, rms and awb instead (a third synthesiser, never tuned on), ``all`` with
all eight.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import voice_room as vr  # noqa: E402

#: one job is a batch of sentences, so a worker keeps its recogniser warm
BATCH = 40


def _batch(job: tuple) -> list[tuple[str, float, str, str, str, float]]:
    sentences, voices, start, *enrolled = job
    transforms = enrolled[0] if enrolled else {}
    out = []
    for offset, text in enumerate(sentences):
        voice = voices[(start + offset) % len(voices)]
        room = vr.room(transforms.get(voice))
        noise = vr.NOISE if (start + offset) % 2 else 0.0
        clock = [1000.0]
        try:
            outcome = room.say(text, voice, noise, vr.fresh_gate(clock), clock)
        except RuntimeError:  # a sentence the synthesiser cannot say (festival and some symbols)
            continue
        out.append((voice, noise, text, outcome.heard, outcome.action, outcome.seconds))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hours", type=float, default=4.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--enrolled", action="store_true",
                    help="each voice first reads anovax enrol's sentences and is heard through its own transform")
    ap.add_argument("--voices", choices=("default", "flite", "all"), default="default",
                    help="espeak-ng's tuned voices and festival's (default), flite's alone, or all of them")
    args = ap.parse_args(argv)
    import voicegen

    voices = []
    if args.voices in ("default", "all"):
        voices += list(vr.TUNED_VOICES) + (list(vr.HELD_OUT_VOICES) if voicegen.have_festival() else [])
    if args.voices in ("flite", "all") and voicegen.have_flite():
        voices += list(vr.FLITE_VOICES)
    if not voices:
        print("skipped: flite is not installed (apt-get install flite)")
        return 0
    sentences = vr.sentences("report")
    if not sentences or not voicegen.have_espeak():
        print("skipped: needs espeak-ng and ../shared/eval/slurp/lm.txt")
        return 0
    vr.seeded("hours").shuffle(sentences)
    started = time.perf_counter()
    scratch = tempfile.TemporaryDirectory(prefix="anovax-enrolled-")
    transforms = {v: str(vr.enrol_voice(v, Path(scratch.name) / f"{v}.mllr")) for v in voices} if args.enrolled else {}
    wanted_s = args.hours * 3600
    results: list[tuple] = []
    audio_s = 0.0
    next_sentence = 0
    # ~2.2 s per sentence: ask for a little more than needed, then top up if short
    while audio_s < wanted_s and next_sentence < len(sentences):
        count = int((wanted_s - audio_s) / 2.0) + BATCH
        chunk = sentences[next_sentence:next_sentence + count]
        jobs = [(chunk[i:i + BATCH], voices, next_sentence + i, transforms) for i in range(0, len(chunk), BATCH)]
        next_sentence += len(chunk)
        for batch in vr.run_parallel(_batch, jobs, args.workers):
            results += batch
        audio_s = sum(r[5] for r in results)
    by_group: dict[str, list] = {}
    for row in results:
        group = {"festival": "festival (held out)", "flite": "flite (held out)"}.get(
            row[0].split(":", 1)[0], "espeak-ng (tuned)")
        by_group.setdefault(group, []).append(row)
    enrolled = ", each voice enrolled (anovax enrol's sentences)" if args.enrolled else ""
    print(f"### False wakes per hour of ordinary speech (SLURP lm.txt, second half){enrolled}\n")
    print(f"{len(results)} sentences, {audio_s / 3600:.2f} h of audio, voices {', '.join(voices)}, half with "
          f"pink noise; {vr.elapsed(started)}.\n")
    print("| voices | sentences | hours | false wakes | per hour | target | result |")
    print("|---|---:|---:|---:|---:|---|---|")
    woke_all = []
    for group in sorted(by_group):
        rows = by_group[group]
        hours = sum(r[5] for r in rows) / 3600
        woke = [r for r in rows if vr.responded(r[4])]
        woke_all += woke
        print(f"| {group} | {len(rows)} | {hours:.2f} | {len(woke)} | {len(woke) / hours:.2f} | ≤ 0.5 | "
              f"{'PASS' if len(woke) / hours <= 0.5 else 'FAIL'} |")
    hours = audio_s / 3600
    print(f"| **all** | {len(results)} | {hours:.2f} | {len(woke_all)} | {len(woke_all) / hours:.2f} | ≤ 0.5 | "
          f"{'PASS' if len(woke_all) / hours <= 0.5 else 'FAIL'} |")
    if woke_all:
        print("\nFalse wakes:")
        for voice, noise, text, heard, action, _s in woke_all[:20]:
            print(f"- {voice} {noise:g}: {text!r} heard as {heard!r} → {action}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
