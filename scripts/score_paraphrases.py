"""Score the offline planner on a paraphrase set: python scripts/score_paraphrases.py FILE.jsonl."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anovax.planner.paraphrase_score import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
