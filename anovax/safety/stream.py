"""Split commands: everything typed is one stream, so ``rm -`` + ``rf ~`` is ``rm -rf ~``.

The stream is the tail of what this session typed before, then each ``type_text`` and each
character a ``press_keys`` step types (a lone ``f``, space, Enter; Backspace removes one), in
plan order. Sub-task goals are likewise joined, since one sub-planner may receive them all.
"""

from __future__ import annotations

from anovax.plan import Plan
from anovax.safety import keys
from anovax.safety.context import Context
from anovax.safety.scan import command_hit
from anovax.safety.verdict import Rule, Verdict


def _chunks(plan: Plan) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for index, step in enumerate(plan.steps):
        if step.tool == "type_text":
            out.append((index, step.params["text"]))
        elif step.tool == "press_keys":
            try:
                chords = keys.parse(step.params["keys"])
            except keys.KeyError_:
                continue
            text = "".join(ch for ch in (keys.typed_char(c) for c in chords) if ch)
            if text:
                out.append((index, text))
    return out


def _join(prefix: str, chunks: list[tuple[int, str]]) -> str:
    buffer = list(prefix)
    for _index, text in chunks:
        for ch in text:
            if ch == "\b":
                if buffer:
                    buffer.pop()
            else:
                buffer.append(ch)
    return "".join(buffer)


def check(plan: Plan, ctx: Context) -> Verdict | None:
    chunks = _chunks(plan)
    # The session's earlier text passed these same scans when it was typed, so a hit here
    # comes from the join; if the tail hits on its own (typed by some other path), refusing
    # any further typing is the fail-closed answer.
    prefix = ctx.session_tail
    if chunks and (prefix or len(chunks) > 1 or any("\b" in t for _, t in chunks)):
        hit = command_hit(_join(prefix, chunks))
        if hit:
            step = next(
                (chunks[n - 1][0] for n in range(1, len(chunks) + 1) if command_hit(_join(prefix, chunks[:n]))),
                chunks[-1][0],
            )
            return Verdict.refuse(Rule.DENYLIST, hit.category.reason, step=step,
                                  detail=f"split command {hit.category.name}: {hit.matched!r}")
    goals = [(i, s.params["goal"]) for i, s in enumerate(plan.steps) if s.tool == "plan_subtask"]
    if len(goals) > 1:
        for joined in ("".join(g for _, g in goals), " ".join(g for _, g in goals)):
            hit = command_hit(joined, True)
            if hit:
                return Verdict.refuse(Rule.DENYLIST, hit.category.reason, step=goals[-1][0],
                                      detail=f"command split across goals: {hit.matched!r}")
    return None
