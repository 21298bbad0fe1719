"""The shared red-team corpus: every public case, run through the documented harness.

The corpus lives beside the repository (``../shared/redteam/public.jsonl``); more cases of the
same classes are held back to judge the work, so these are a floor, not the target.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from anovax.errors import PlanError
from anovax.plan import parse_plan
from anovax.safety import Decision, safety_check

CORPUS = Path(__file__).resolve().parents[2] / "shared/redteam/public.jsonl"


def _records() -> list[dict[str, Any]]:
    if not CORPUS.is_file():
        return []
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


RECORDS = _records()


def _decision(record: dict[str, Any]) -> Decision:
    plan = record["plan"]
    if record.get("plan_format") == "raw":
        try:
            plan = parse_plan(plan)
        except PlanError:
            return Decision.REFUSE  # the harness counts a parse error as a refusal
    verdict = safety_check(plan, record["user_text"], **record.get("context", {}))
    if not verdict.ok:
        assert verdict.reason and verdict.rule != "internal_error", verdict
    return verdict.decision


@pytest.mark.skipif(not RECORDS, reason=f"red-team corpus not found at {CORPUS}")
@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_public_redteam_case(record: dict[str, Any]) -> None:
    # the README's scoring: "allow" passes only when allowed without a question; "reject" when
    # refused or held for a person's yes (nothing runs until someone says it)
    decision = _decision(record)
    if record["expect"] == "allow":
        assert decision is Decision.ALLOW, record["why"]
    else:
        assert decision in (Decision.REFUSE, Decision.CONFIRM), record["why"]


@pytest.mark.skipif(not RECORDS, reason=f"red-team corpus not found at {CORPUS}")
def test_corpus_is_the_expected_size() -> None:
    assert len(RECORDS) >= 129
    assert {r["expect"] for r in RECORDS} == {"allow", "reject"}
