"""Voice in a room with other people (issue 19), quick version: ``python -m benchmarks.bench_voice_room``.

    python -m benchmarks.bench_voice_room [--tune] [--voices tuned|held-out|flite|all] [--reps N]
                                          [--models general|enrolled|both]

Rendered speech (benchmarks/voice_room.py) through the real recogniser, trust checks and wake gate:

1. Sound-alikes: names and openings that sound different from "anova" ("hey Anna", "hey Hannah",
   "hey now", "another…", "and over…") followed by ordinary speech, and the same names followed
   by one of the commands below ("hey Anna, what time is it": said to Anna). Any response counts
   as a wake: a command, a "Did you say …?" question, or waking up. Target 0.
2. Homophones ("hey nova …"): reported on their own; target at most 10%. So are names one sound
   away ("hey Canova, what time is it", "hey an over…"), with a command: a class a red team found;
   and a sound-alike name said to someone else mid-sentence ("can you ask Hannah what time is it"),
   another.
3. Chatter after a real wake: "hey anova, what time is it", then ordinary speech with no name:
   commands run from the chatter. Target 0. Also after the name alone ("hey anova", then talk):
   the first phrase is taken as the command by design, so it is reported, not targeted.
4. Wake + command recall: "<hey/hello/hi/yo> anova <command>" running the right action (the
   offline planner's plan of what was heard equals its plan of what was said: "close my
   calculator" for "close the calculator" counts, "open the google" for "open the terminal" does
   not; how many were also heard word for word is shown below it), and the bare name waking it.
   Target at least 95%.

Each group runs twice (``--models both``, the default): on the general acoustic model, and
"enrolled": each voice first reads ``anovax enrol``'s sentences (none holds a command tested here)
in the same room, every other one with the pink noise, and is heard through its own transform.

Ordinary speech is SLURP's lm.txt, second half (the first half tuned the thresholds). espeak-ng
voices were tuned on; festival's kal and ked diphone voices never were, and are reported beside
them, and so are flite's slt, rms and awb (a third synthesiser, found after the thresholds were
set: unit-selection voices, each built from about an hour of one person's recordings). ``--tune``
prints the scores of the first half instead (how the thresholds were chosen).
Long runs (false wakes per hour over 4 hours): ``make bench-voice`` (benchmarks/voice_hours.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import voice_room as vr  # noqa: E402


def corpus(part: str, reps: int = 1) -> list[tuple]:
    """The phrases of one run: (kind, texts, expected command)."""
    rng = vr.seeded(f"room-{part}")
    asked = vr.seeded(f"room-{part}-asked")
    mid = vr.seeded(f"room-{part}-mid")
    talk = vr.sentences(part)
    items: list[tuple] = []
    for wake in vr.WAKE_WORDS:
        for command in rng.sample(vr.COMMANDS, 6):
            items.append(("wake", (f"{wake} anova {command}",), command))
        items.append(("wake", (f"{wake} anova",), ""))
    for _ in range(reps):
        for name in vr.SOUND_ALIKES:
            items.append(("alike", (f"{name} {rng.choice(talk)}",), ""))
        for name in vr.HOMOPHONES:
            items += [("homophone", (f"{name} {rng.choice(talk)}",), "") for _ in range(3)]
        # their own draws: the phrases above and below stay those of earlier runs
        for name in vr.SOUND_ALIKES:
            items.append(("alike_command", (f"{name} {asked.choice(vr.COMMANDS)}",), ""))
        for name in vr.NEAR_NAMES:
            items.append(("near_name", (f"{name} {asked.choice(vr.COMMANDS)}",), ""))
        for lead in vr.MID_SENTENCE:
            said = lead.format(mid.choice(vr.MID_NAMES))
            items += [("mid_sentence", (f"{said} {command}",), "") for command in mid.sample(vr.COMMANDS, 2)]
        items.append(("after_command", ("hey anova what time is it", *rng.sample(talk, 6)), ""))
        items.append(("after_name", ("hey anova", *rng.sample(talk, 6)), ""))
    return items


#: groups of phrases not said to AnovaX: any response to the first phrase counts against it
NOT_FOR_IT = ("alike", "alike_command", "homophone", "near_name", "mid_sentence")


def run_job(job: tuple) -> tuple:
    (kind, texts, expected), voice, noise, *adapted = job
    room = vr.room(*adapted)
    clock = [1000.0]
    gate = vr.fresh_gate(clock)
    outcomes = [room.say(text, voice, noise, gate, clock) for text in texts]
    return kind, texts, expected, voice, noise, outcomes


def summarise(results: list[tuple]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for kind, texts, expected, voice, noise, outcomes in results:
        row = out.setdefault(kind, {"n": 0, "bad": [], "phrases": 0, "doubts": 0, "inexact": 0})
        first = outcomes[0]
        if kind == "wake":
            row["n"] += 1
            if expected:
                ok = first.action == "command" and vr.same_action(first.command, expected)
                row["inexact"] += ok and first.command != expected
            else:
                ok = first.action == "wake"
            if not ok:
                row["bad"].append(f"{voice} {noise:g}: {texts[0]!r} heard as {first.heard!r} → {first.action}")
        elif kind in NOT_FOR_IT:
            row["n"] += 1
            if vr.responded(first.action):
                row["bad"].append(f"{voice} {noise:g}: {texts[0]!r} heard as {first.heard!r} → {first.action}")
        else:  # chatter after a wake: the phrases after the first
            for outcome in outcomes[1:]:
                row["phrases"] += 1
                if outcome.action == "command":
                    row["bad"].append(f"{voice} {noise:g}: {outcome.said!r} heard as {outcome.heard!r} → "
                                      f"{outcome.command!r}")
                row["doubts"] += outcome.action == "doubt"
            row["n"] += 1
    return out


def table(title: str, summary: dict[str, dict]) -> list[str]:
    def get(kind: str) -> dict:
        return summary.get(kind, {"n": 0, "bad": [], "phrases": 0, "doubts": 0, "inexact": 0})
    wake, alike, homo = get("wake"), get("alike"), get("homophone")
    alike_cmd, near, mid = get("alike_command"), get("near_name"), get("mid_sentence")
    after_cmd, after_name = get("after_command"), get("after_name")
    recall = (wake["n"] - len(wake["bad"])) / wake["n"] if wake["n"] else 0.0
    homo_rate = len(homo["bad"]) / homo["n"] if homo["n"] else 0.0
    return [
        f"| {title} | sound-alikes | {len(alike['bad'])} / {alike['n']} woke | 0 | "
        f"{'PASS' if not alike['bad'] else 'FAIL'} |",
        f"| {title} | sound-alikes + a command | {len(alike_cmd['bad'])} / {alike_cmd['n']} woke | 0 | "
        f"{'PASS' if not alike_cmd['bad'] else 'FAIL'} |",
        f"| {title} | names one sound away + a command (\"hey Canova …\") | {len(near['bad'])} / {near['n']} "
        f"({vr.pct(len(near['bad']), near['n'])}) | (reported) | |",
        f"| {title} | a sound-alike name mid-sentence + a command (\"can you ask Hannah …\") | {len(mid['bad'])} / "
        f"{mid['n']} ({vr.pct(len(mid['bad']), mid['n'])}) | (reported) | |",
        f"| {title} | homophones (\"hey nova …\") | {len(homo['bad'])} / {homo['n']} ({vr.pct(len(homo['bad']), homo['n'])}) "
        f"| ≤ 10% | {'PASS' if homo_rate <= 0.10 else 'FAIL'} |",
        f"| {title} | chatter after \"hey anova, what time is it\" | {len(after_cmd['bad'])} commands from "
        f"{after_cmd['phrases']} phrases ({after_cmd['doubts']} questions) | 0 | "
        f"{'PASS' if not after_cmd['bad'] else 'FAIL'} |",
        f"| {title} | chatter after \"hey anova\" alone | {len(after_name['bad'])} commands from "
        f"{after_name['phrases']} phrases ({after_name['doubts']} questions) | (the first phrase is the command) | |",
        f"| {title} | wake + command recall (the right action) | {wake['n'] - len(wake['bad'])} / {wake['n']} "
        f"({100 * recall:.1f}%) | ≥ 95% | {'PASS' if recall >= 0.95 else 'FAIL'} |",
        f"| {title} | … of which heard word for word | {wake['n'] - len(wake['bad']) - wake['inexact']} / {wake['n']} "
        f"({vr.pct(wake['n'] - len(wake['bad']) - wake['inexact'], wake['n'])}) | | |",
    ]


def tune_report(results: list[tuple]) -> str:
    """The scores the thresholds were chosen from (first half of lm.txt, tuned voices)."""
    lines = []
    for kind in ("wake", *NOT_FOR_IT):
        fits = sorted(o.name_fit for k, *_rest, outcomes in results if k == kind for o in outcomes[:1]
                      if o.name_fit is not None)
        if fits:
            lines.append(f"{kind}: {len(fits)} scored names; fit min {fits[0]:.1f}, 5% {fits[len(fits) // 20]:.1f}, "
                         f"median {statistics.median(fits):.1f}, 95% {fits[-1 - len(fits) // 20]:.1f}, max {fits[-1]:.1f}")
    for kind, texts, _expected, voice, noise, outcomes in results:
        first = outcomes[0]
        if kind in NOT_FOR_IT and first.name_fit is not None:
            post = f"{first.posterior:.2f}" if first.posterior is not None else "-"
            lines.append(f"  {kind} {voice} {noise:g} fit {first.name_fit:.1f} post {post} {first.action:7s} "
                         f"{texts[0][:40]!r} → {first.heard!r}")
        if kind == "wake" and first.name_fit is not None and first.name_fit < -18:
            lines.append(f"  low wake {voice} {noise:g} fit {first.name_fit:.1f} {first.action} {texts[0]!r} → {first.heard!r}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tune", action="store_true", help="score the tuning half instead and print the scores")
    ap.add_argument("--voices", choices=("tuned", "held-out", "flite", "all"), default="all")
    ap.add_argument("--dump", help="with --tune: write each first phrase's scores here (JSON lines)")
    ap.add_argument("--reps", type=int, default=3, help="sound-alike and chatter sets per voice and noise")
    ap.add_argument("--models", choices=("general", "enrolled", "both"), default="both",
                    help="the general acoustic model, or each voice first reads anovax enrol's sentences and is "
                         "heard through its own transform, or both")
    args = ap.parse_args(argv)
    import voicegen

    for module in ("pocketsphinx", "speech_recognition"):
        if importlib.util.find_spec(module) is None:
            print(f"skipped: {module} is not installed")
            return 0
    if not voicegen.have_espeak() or not vr.sentences("report"):
        print("skipped: needs espeak-ng and ../shared/eval/slurp/lm.txt")
        return 0
    groups = []
    if args.voices in ("tuned", "all"):
        groups.append(("espeak-ng (tuned)", vr.TUNED_VOICES))
    if args.voices in ("held-out", "all") and not args.tune:
        if voicegen.have_festival():
            groups.append(("festival (held out)", vr.HELD_OUT_VOICES))
        else:
            print("(festival is not installed: held-out voices skipped; apt-get install festival "
                  "festvox-kallpc16k festvox-kdlpc16k)")
    if args.voices in ("flite", "all") and not args.tune:
        if voicegen.have_flite():
            groups.append(("flite (held out)", vr.FLITE_VOICES))
        else:
            print("(flite is not installed: its held-out voices skipped; apt-get install flite)")
    noises = (0.0, vr.NOISE) if voicegen.have_sox() else (0.0,)
    items = corpus("tune" if args.tune else "report", args.reps)
    started = time.perf_counter()
    lines = ["| voices | measure | value | target | result |", "|---|---|---|---|---|"]
    examples: list[str] = []
    all_results = []
    scratch = tempfile.TemporaryDirectory(prefix="anovax-enrolled-")
    models = ("general", "enrolled") if args.models == "both" else (args.models,)
    for (title, voices), model in [(g, m) for g in groups for m in models]:
        jobs = vr.jobs_for(voices, noises, items)
        if model == "enrolled":
            title += ", enrolled"
            transforms = {v: str(vr.enrol_voice(v, Path(scratch.name) / f"{v}.mllr")) for v in voices}
            jobs = [(*job, transforms[job[1]]) for job in jobs]
        results = vr.run_parallel(run_job, jobs)
        all_results += results
        summary = summarise(results)
        lines += table(title, summary)
        for kind in ("alike", "alike_command", "near_name", "mid_sentence", "after_command", "wake"):
            examples += [f"- {title}, {kind}: {bad}" for bad in summary.get(kind, {}).get("bad", [])[:4]]
    if args.tune:
        print(tune_report(all_results))
        print("\n".join(lines))
        if args.dump:
            import json
            with open(args.dump, "w") as f:
                for kind, texts, _e, voice, noise, outcomes in all_results:
                    o = outcomes[0]
                    f.write(json.dumps(dict(kind=kind, voice=voice, noise=noise, said=texts[0], heard=o.heard,
                                            action=o.action, fit=o.name_fit, worst=o.name_worst, post=o.posterior,
                                            understood=o.understood, expected=_e, wake_fit=o.wake_fit, posts=list(o.posteriors), name_as=o.name_as,
                                            reason=o.reason)) + "\n")
        return 0
    phrases = sum(len(r[1]) for r in all_results)
    print("### Voice in a room: sound-alikes, chatter, recall (rendered speech, real recogniser and gate)\n")
    print(f"{phrases} phrases, clean and with pink noise ({', '.join(f'{n:g}' for n in noises)}); ordinary speech "
          f"from SLURP lm.txt's second half (never used for tuning); {vr.elapsed(started)}.\n")
    print("\n".join(lines))
    if examples:
        print("\nMisses (first few per kind):")
        print("\n".join(examples[:24]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
