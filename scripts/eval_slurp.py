"""Score the offline planner on SLURP: python scripts/eval_slurp.py --split devel|test [--json]."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anovax.planner.slurp_eval import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
