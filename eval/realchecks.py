"""The checks of the real-app suite: each looks at the desktop (windows, titles, an editor's text
copied through the clipboard), at what AnovaX said, or at what the page server was asked, and
returns None when it holds or a sentence saying what was seen instead.

A check waits (up to ``SETTLE_S``) for the desktop to settle, since a window may close or a title
change a moment after AnovaX has answered; it never looks at the plan.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from eval.realdesk import Desk, poll
from eval.realorb import Orb, Said
from eval.realweb import PageServer

SETTLE_S = 15.0


@dataclass
class Context:
    """What the checks of one step may look at."""

    desk: Desk
    orb: Orb
    pages: PageServer
    #: the editor's window class (the suite's "notepad"): the text and dialog checks read it
    editor: str
    #: the command this step typed, and AnovaX's answer
    said: Said
    #: every window of each class seen after an earlier step of this run (closed, minimised)
    seen: dict[str, set[str]] = field(default_factory=dict)


def _said_all(ctx: Context) -> list[str]:
    """The reply and every sentence spoken since the command, each once (the reply is spoken too)."""
    return list(dict.fromkeys([ctx.said.message, *ctx.orb.spoken(ctx.said.ts)]))


def status(ctx: Context, want: str) -> str | None:
    if ctx.said.status == want:
        return None
    return f"status {ctx.said.status!r}, not {want!r}: {ctx.said.message or ctx.said.problem}"


def reply(ctx: Context, pattern: str) -> str | None:
    rx = re.compile(pattern, re.IGNORECASE)
    if poll(lambda: any(rx.search(s) for s in _said_all(ctx)), SETTLE_S):
        return None
    return f"nothing said matches /{pattern}/: {_said_all(ctx)}"


def not_reply(ctx: Context, pattern: str) -> str | None:
    """Nothing said for the command matches: the answer is in COMMAND_DONE, so nothing is awaited."""
    rx = re.compile(pattern, re.IGNORECASE)
    wrong = [s for s in _said_all(ctx) if rx.search(s)]
    return f"said /{pattern}/: {wrong}" if wrong else None


def windows(ctx: Context, counts: dict[str, int]) -> str | None:
    def right() -> bool:
        return all(len(ctx.desk.windows(cls)) == n for cls, n in counts.items())
    if poll(right, SETTLE_S):
        return None
    seen = {cls: [ctx.desk.name(w) for w in ctx.desk.windows(cls)] for cls in counts}
    return f"windows {seen}, wanted {counts}"


def active(ctx: Context, cls: str) -> str | None:
    if poll(lambda: ctx.desk.active() in ctx.desk.windows(cls), SETTLE_S):
        return None
    now = ctx.desk.active()
    return f"the active window is {ctx.desk.name(now) if now else 'none'!r}, not a {cls} window"


def text(ctx: Context, want: str) -> str | None:
    found = poll(lambda: ctx.desk.windows(ctx.editor), SETTLE_S) or []
    if len(found) != 1:
        return f"{len(found)} {ctx.editor} windows to read the text from"
    got = ctx.desk.copy_text(found[0])
    return None if got == want else f"{ctx.editor} holds {got!r}, wanted {want!r}"


def dialog(ctx: Context, pattern: str) -> str | None:
    rx = re.compile(pattern)

    def shown() -> bool:
        return any(rx.search(ctx.desk.name(w) or "") for w in ctx.desk.windows(ctx.editor))
    if poll(shown, SETTLE_S):
        return None
    return f"no {ctx.editor} dialog titled /{pattern}/: {[ctx.desk.name(w) for w in ctx.desk.windows(ctx.editor)]}"


def minimised(ctx: Context, cls: str) -> str | None:
    before = ctx.seen.get(cls, set())
    if not before:
        return f"no {cls} window was seen before"
    if poll(lambda: not ctx.desk.windows(cls) and any(ctx.desk.exists(w) for w in before), SETTLE_S):
        return None
    if not any(ctx.desk.exists(w) for w in before):
        return f"the {cls} window is gone (closed, not minimised)"
    return f"{cls} still shows: {[ctx.desk.name(w) for w in ctx.desk.windows(cls)]}"


def closed(ctx: Context, cls: str) -> str | None:
    before = ctx.seen.get(cls, set())
    if not before:
        return f"no {cls} window was seen before"
    if poll(lambda: not any(ctx.desk.exists(w) for w in before), SETTLE_S):
        return None
    return f"{cls} is still open: {[ctx.desk.name(w) for w in before if ctx.desk.exists(w)]}"


def title(ctx: Context, spec: dict[str, str]) -> str | None:
    rx = re.compile(spec["has"], re.IGNORECASE)
    timeout = float(spec.get("within_s", SETTLE_S))
    if poll(lambda: any(rx.search(ctx.desk.name(w) or "") for w in ctx.desk.windows(spec["class"])), timeout):
        return None
    return f"no {spec['class']} window titled /{spec['has']}/: {[ctx.desk.name(w) for w in ctx.desk.windows(spec['class'])]}"


def searched(ctx: Context, pattern: str) -> str | None:
    rx = re.compile(pattern, re.IGNORECASE)
    if poll(lambda: any(rx.search(q) for q in ctx.pages.queries), SETTLE_S):
        return None
    return f"the page server was asked {ctx.pages.queries}, none matching /{pattern}/"


def later(ctx: Context, spec: dict[str, Any]) -> str | None:
    """An event whose type matches ``event`` after the command, then a sentence matching
    ``spoken`` said at or after it, both within ``within_s`` of the answer."""
    ev_rx, say_rx = re.compile(spec["event"]), re.compile(spec["spoken"], re.IGNORECASE)

    def fired() -> dict[str, Any] | None:
        return next((e for e in ctx.orb.events() if e.get("ts", 0) >= ctx.said.ts and ev_rx.search(e.get("type", ""))),
                    None)
    event = poll(fired, float(spec["within_s"]))
    if event is None:
        kinds = sorted({e.get("type", "") for e in ctx.orb.events() if e.get("ts", 0) >= ctx.said.ts})
        return f"no event /{spec['event']}/ within {spec['within_s']} s (seen: {kinds})"
    if poll(lambda: any(say_rx.search(s) for s in ctx.orb.spoken(event["ts"])), SETTLE_S):
        return None
    return f"{event['type']} came, but nothing said after it matches /{spec['spoken']}/: {ctx.orb.spoken(event['ts'])}"


#: in this order: what was said first, then window counts and focus, and the text last (reading
#: it activates the editor and so would hide where the focus was)
CHECKS: dict[str, Callable[[Context, Any], str | None]] = {
    "status": status, "reply": reply, "not_reply": not_reply, "windows": windows, "closed": closed, "minimised": minimised,
    "dialog": dialog, "title": title, "active": active, "searched": searched, "later": later, "text": text,
}


def judge(ctx: Context, expect: dict[str, Any]) -> list[str]:
    """The failed checks of ``expect`` (each as "name: what was seen"), in ``CHECKS`` order."""
    unknown = set(expect) - set(CHECKS)
    if unknown:
        return [f"unknown checks {sorted(unknown)}"]
    failures = []
    for name, check in CHECKS.items():
        if name in expect and (why := check(ctx, expect[name])) is not None:
            failures.append(f"{name}: {why}")
    return failures
