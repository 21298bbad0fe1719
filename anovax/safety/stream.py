"""Split commands: everything typed is one stream, so ``rm -`` + ``rf ~`` is ``rm -rf ~``.

The stream is the tail of what this session typed before (its key tokens decoded: a
``<backspace>`` removes a character, other keys are dropped), then each typed text (``Sink.TYPED``,
``type_text``) and each character a key chord types (``Sink.KEYS``, ``press_keys``: a lone ``f``,
space, Enter; Backspace removes one), in plan order. Sub-task goals (``Sink.GOAL``) are likewise
joined, since one sub-planner may receive them all.
"""

from __future__ import annotations

from anovax.plan import Plan
from anovax.safety import keys
from anovax.safety.context import Context
from anovax.safety.focus import decode_for_scan
from anovax.safety.commands import DOCUMENT_SAFE
from anovax.safety.scan import command_hit
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Sink


def _texts(plan: Plan, ctx: Context, sink: Sink) -> list[tuple[int, str]]:
    """The plan's texts that end up in ``sink``, with the index of their step."""
    return [(index, value) for index, step in enumerate(plan.steps)
            for where, value in ctx.registry[step.tool].texts(step.params) if where is sink]


def _chunks(plan: Plan, ctx: Context) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for index, step in enumerate(plan.steps):
        for sink, value in ctx.registry[step.tool].texts(step.params):
            if sink is Sink.TYPED:
                out.append((index, value))
            elif sink is Sink.KEYS:
                try:
                    chords = keys.parse(value)
                except keys.KeyError_:
                    continue
                text = "".join(ch for ch in (keys.typed_char(c) for c in chords) if ch)
                if text:
                    out.append((index, text))
    return out


def _join(prefix: str, chunks: list[tuple[int, str]]) -> str:
    if "\b" not in prefix and not any("\b" in text for _, text in chunks):
        return prefix + "".join(text for _, text in chunks)  # no backspace: no per-character loop
    buffer = list(prefix)
    for _index, text in chunks:
        for ch in text:
            if ch == "\b":
                if buffer:
                    buffer.pop()
            else:
                buffer.append(ch)
    return "".join(buffer)


def _first_hit(prefix: str, chunks: list[tuple[int, str]]) -> int:
    """How many chunks it takes to complete the command (the whole stream is known to hold one):
    a binary search, so blaming a step re-reads the stream ~3 times, not once per step."""
    low, high = 1, len(chunks)
    while low < high:
        middle = (low + high) // 2
        if command_hit(_join(prefix, chunks[:middle]), False, DOCUMENT_SAFE):
            high = middle
        else:
            low = middle + 1
    return high


def check(plan: Plan, ctx: Context) -> Verdict | None:
    chunks = _chunks(plan, ctx)
    # The session's earlier text passed these same scans when it was typed, so a hit here
    # comes from the join; if the tail hits on its own (typed by some other path), refusing
    # any further typing is the fail-closed answer.
    prefix = decode_for_scan(ctx.session_tail)
    if chunks and (prefix or len(chunks) > 1 or any("\b" in t for _, t in chunks)):
        # words that are prose in a document are judged per window by the focus walk, and a
        # terminal's whole line by ``ask.shell_problem``
        hit = command_hit(_join(prefix, chunks), False, DOCUMENT_SAFE)
        if hit:
            step = chunks[_first_hit(prefix, chunks) - 1][0]
            return Verdict.refuse(Rule.DENYLIST, hit.category.reason, step=step,
                                  detail=f"split command {hit.category.name}: {hit.matched!r}")
    goals = _texts(plan, ctx, Sink.GOAL)
    if len(goals) > 1:
        for joined in ("".join(g for _, g in goals), " ".join(g for _, g in goals)):
            hit = command_hit(joined, True)
            if hit:
                return Verdict.refuse(Rule.DENYLIST, hit.category.reason, step=goals[-1][0],
                                      detail=f"command split across goals: {hit.matched!r}")
    return None
