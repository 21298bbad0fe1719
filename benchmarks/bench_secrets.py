"""The secret rules (issue 17, point 1): their cost, their false positives, and detect-secrets'.

    python -m benchmarks.bench_secrets [--limit N]

1. The gate's own detectors per text (``secret.in_text`` for queries and speech,
   ``secret.in_fact`` for memory values) over the SLURP test utterances, uncached: mean and p99,
   and how many utterances each flags (target: 0 as queries and speech, <= 0.5% as memory).
2. ``safety_check`` on ordinary plans (each SLURP utterance as a search, spoken back, and the same
   plan with a stored secret in memory), the budget being p99 <= 2 ms per whole plan.
3. detect-secrets (Yelp; measured only, not a dependency): ``scan_line`` with its default
   plugins per text, its false positives on the same utterances, and how many of the gate's
   harmful examples (credentials stated in words, numbers, seed phrases) it finds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.planner.slurp_eval import percentile  # noqa: E402
from anovax.safety import safety_check  # noqa: E402
from anovax.safety import secret  # noqa: E402

SLURP = ROOT.parent / "shared" / "eval" / "slurp" / "test.jsonl"


def _sentences(limit: int | None) -> list[str]:
    with SLURP.open(encoding="utf-8") as handle:
        rows = [json.loads(line)["sentence"] for line in handle if line.strip()]
    return rows[:limit] if limit else rows


def _timed(fn: Callable[[str], object], texts: Sequence[str]) -> tuple[list[float], int]:
    times, flagged = [], 0
    for text in texts:
        started = time.perf_counter()
        found = fn(text)
        times.append((time.perf_counter() - started) * 1000)
        flagged += bool(found)
    return times, flagged


def _row(name: str, times: list[float], flagged: int, total: int) -> None:
    mean = sum(times) / len(times)
    print(f"| {name} | {mean:.3f} | {percentile(times, 99):.3f} | {flagged}/{total} |")


def _uncached(fn: Callable[..., object]) -> Callable[..., object]:
    return getattr(fn, "__wrapped__", fn)  # lru_cache would hide the real cost


def _plans(texts: Sequence[str]) -> None:
    memory = {"wifi_password": "Sonnenblume7", "city": "Lisbon"}
    print("| plan | mean ms | p99 ms | refused |\n|---|---|---|---|")
    for name, ctx in (("search + spoken answer", {}), ("same, with a stored secret", {"memory": memory})):
        times, refused = [], 0
        for text in texts:
            plan = {"steps": [{"tool": "web_search", "params": {"query": text[:300]}},
                              {"tool": "speak", "params": {"text": f"Here is what I found about {text}"[:500]}}],
                    "final_response": f"I searched for {text}."[:2000], "remember": {}}
            started = time.perf_counter()
            verdict = safety_check(plan, text, **ctx)
            times.append((time.perf_counter() - started) * 1000)
            refused += not verdict.ok
        _row(name, times, refused, len(texts))


def _detect_secrets(texts: Sequence[str], harmful: Sequence[str]) -> None:
    try:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings, transient_settings
    except ImportError:
        print("detect-secrets is not installed; skipped")
        return
    no_entropy = [{"name": cls.__name__} for cls in get_mapping_from_secret_type_to_class().values()
                  if "HighEntropy" not in cls.__name__]
    print("| detect-secrets | mean ms | p99 ms | flagged |\n|---|---|---|---|")
    for name, settings in (("default plugins", default_settings()),
                           ("without the two high-entropy plugins", transient_settings({"plugins_used": no_entropy}))):
        with settings:
            list(scan_line("warm up"))
            times, flagged = _timed(lambda text: list(scan_line(text)), texts)
            kinds: dict[str, int] = {}
            for text in texts:
                for found in scan_line(text):
                    kinds[found.type] = kinds.get(found.type, 0) + 1
            found_harmful = sum(bool(list(scan_line(text))) for text in harmful)
        _row(f"{name} (found {found_harmful}/{len(harmful)} harmful; on SLURP: {kinds or 'nothing'})",
             times, flagged, len(texts))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N utterances")
    args = parser.parse_args(argv)
    if not SLURP.is_file():
        print(f"{SLURP} is missing; skipped")
        return 0
    texts = _sentences(args.limit)
    print(f"{len(texts)} SLURP test utterances\n")
    print("| detector | mean ms | p99 ms | flagged |\n|---|---|---|---|")
    for name, fn in (("in_text (query, speech)", _uncached(secret.in_text)),
                     ("in_fact (memory value)", lambda t: _uncached(secret.in_fact)("note", t))):
        times, flagged = _timed(fn, texts)
        _row(name, times, flagged, len(texts))
    print()
    _plans(texts)
    print()
    from test_safety_secrets import STATED  # the unit tests' harmful examples, one source

    harmful = [*STATED, "DE89 3704 0044 0532 0130 00", "123-45-6789", "4111 1111 1111 1111",
               "legal winner thank year wave sausage worth useful legal winner thank yellow"]
    print(f"the gate finds {sum(secret.in_text(t) is not None for t in harmful)}/{len(harmful)} of its harmful examples\n")
    _detect_secrets(texts, harmful)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
