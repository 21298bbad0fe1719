"""Turning the pieces of one request into a Plan: merge openers, skip keyboard steps that
depend on a failed part, join the replies, fit the steps into LIMITS.max_steps, and check the result."""

from __future__ import annotations

import re

from anovax.plan import LIMITS, Plan, Step
from anovax.planner import lexicon as lx
from anovax.planner.apps import PRIVATE_WINDOW, PRIVATE_WINDOWS
from anovax.planner.pieces import Piece
from anovax.safety.limits import MAX_FINAL_RESPONSE
from anovax.tools import TOOLS, Effect, Sink

#: the said part of final_response (its first line) is at most this long (the online planner's
#: response schema says 500); lines after the first are shown, not said ("what can I say")
MAX_REPLY_CHARS = 500
#: the words of a request quoted back in "I didn't understand '...'" are cut to this length
MAX_QUOTED_CHARS = 80
#: tools that act on whatever window has focus: they type text or press keys
_KEYBOARD = frozenset(s.name for s in TOOLS if any(p.sink in (Sink.TYPED, Sink.KEYS) for p in s.params))

#: tools that open a page in the default browser (which starts it when it is not running)
_IN_BROWSER = frozenset(s.name for s in TOOLS if s.effect == Effect.BROWSER)


#: a clause that asks for a search by that word, not a question searched for want of an answer
_SEARCH_VERB = re.compile(r"(?:and |then )?(?:search|look up|look for)\b(?! (?:on |in |with |the )?(?:google|wikipedia|"
                          r"bing|duckduckgo|the web|web|the internet|internet|online)\b)")


def merge_openers(pieces: list[Piece]) -> list[Piece]:
    """'open youtube and play X' / 'open pandora and play X' / 'go to youtube and search for X': the
    YouTube search replaces the opener."""
    private = next((p for p in pieces if PRIVATE_WINDOW.search(p.clause.lower())
                    and (p.about_site or any(s.tool in _IN_BROWSER for s in p.steps))), None)
    if private is not None:
        # "open youtube in incognito and search for divorce lawyers": nothing of it in a normal
        # window, where the history keeps what the person wanted kept out of it
        return [Piece("decline", PRIVATE_WINDOWS, clause=private.clause, about_site=True)]
    out: list[Piece] = []
    pieces = list(pieces)  # a search turned YouTube's replaces its piece here, not in the caller's list
    for i, piece in enumerate(pieces):
        prev = pieces[i - 1] if i else None
        if (
            prev is not None
            and [s.tool for s in prev.steps] == ["screenshot"]
            and [dict(s.params) for s in piece.steps] == [{"keys": "ctrl+s"}]
        ):
            continue  # "take a screenshot and save it": the screenshot is saved already
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        if (nxt is not None and [(s.tool, s.params.get("name")) for s in piece.steps] == [("open_app", piece.app)]
                and piece.app in lx.BROWSER_APPS and nxt.steps and nxt.steps[0].tool in _IN_BROWSER):
            continue  # "open chrome and go to github": the page opens the browser, once
        if (piece.media_opener == "YouTube" and nxt is not None and [s.tool for s in nxt.steps] == ["web_search"]
                and _SEARCH_VERB.match(nxt.clause.lower())):
            # "open youtube and search for cats": the search is YouTube's, as "… and play cats" is
            query = str(nxt.steps[0].params.get("query", ""))
            nxt = pieces[i + 1] = Piece("act", f"Searching YouTube for {query}.",
                                        [Step("youtube_search", {"query": query})], clause=nxt.clause)
        if piece.media_opener and nxt is not None and any(s.tool == "youtube_search" for s in nxt.steps):
            if piece.media_opener != "YouTube" and "can't control" not in nxt.say:
                nxt.say = f"I can't control {piece.media_opener}, so: " + nxt.say[:1].lower() + nxt.say[1:]
            continue
        out.append(piece)
    return out


def assemble(pieces: list[Piece]) -> Plan:
    """One Plan from the pieces, in order, with one reply that covers every part."""
    steps: list[Step] = []
    says: list[str] = []
    unknown = 0
    failed = False
    skipped = False
    for piece in pieces:
        if piece.kind == "unknown":
            unknown += 1
            failed = True
            continue
        if piece.kind == "decline":
            failed = True
        if failed and piece.steps and all(s.tool in _KEYBOARD for s in piece.steps):
            # typing or keys after a part we could not do would land in whatever window has focus
            skipped = True
            continue
        steps.extend(piece.steps)
        # a sentence said once, unless it announces steps of its own ("open notepad, close it,
        # open the calculator, close it": both closes ran, and the reply named one)
        if piece.say and (piece.steps or piece.say not in says):
            says.append(piece.say)
    if unknown:
        words = _quoted(" ".join(p.clause for p in pieces if p.kind == "unknown" and p.clause))
        if steps or says:
            says.append(f"I didn't understand '{words}'." if words else "I didn't understand part of that.")
        else:
            says.append(f"I didn't understand '{words}' — say 'what can I say' for examples." if words
                        else "I didn't understand that — say 'what can I say' for examples.")
    if skipped:
        says.append("I skipped the typing and key presses that depended on it.")
    if len(steps) > LIMITS.max_steps:
        steps, note = _fit(pieces, steps)
        says.append(note)
    if not says and not any(piece.kind == "answer" for piece in pieces):
        says.append("Okay.")  # an answer's agent says the whole reply (a recalled fact)
    # nothing here to do, and no part of it was talk or an answer: the command ends not_done
    unable = not steps and failed and not any(piece.kind in ("chat", "answer") for piece in pieces)
    return Plan(tuple(steps), _cap_reply(tidy(" ".join(says))), unable=unable)


#: a run of sentence-end marks at a word's end: "bread....", "done!.", "'foo.'."
_CLOSE = "'\"’”)"
_END_RUN = re.compile(rf"[.!?…]+(?:[{_CLOSE}][.!?…]+)?(?=\s|$)")
#: runs that are one mark already: ".", "...", "…", "?!"
_ONE_END = re.compile(rf"\.|\.\.\.|…|[!?]{{1,3}}|[.!?…]+[{_CLOSE}]")


def _one_end(run: re.Match[str]) -> str:
    marks = run.group(0)
    if _ONE_END.fullmatch(marks):
        return marks
    head, quote = marks, ""
    close = re.search(f"[{_CLOSE}]", marks)
    if close:  # the quoted words' own end stays inside the quote
        head, quote = marks[:close.start()], close.group(0)
    return ("..." if head.startswith("...") else head[0]) + quote


def tidy(say: str) -> str:
    """One sentence end where a reply quotes typed words that end in one: "…and bread...." ->
    "…and bread...", "I didn't understand 'foo.'." -> "I didn't understand 'foo.'"."""
    return _END_RUN.sub(_one_end, say)


def plan_problem(plan: Plan) -> str | None:
    """Why ``plan`` is not one the tools accept (too many steps, bad parameters), or None."""
    if len(plan.steps) > LIMITS.max_steps:
        return f"{len(plan.steps)} steps"
    for step in plan.steps:
        spec = TOOLS.get(step.tool)
        if spec is None:
            return f"unknown tool {step.tool}"
        problem = spec.param_problem(step.params)
        if problem:
            return f"{step.tool}: {problem}"
    if not plan.final_response.strip() and not plan.steps:
        return "empty final_response"  # steps may answer for themselves; no steps must say something
    return None


def _quoted(words: str) -> str:
    """The user's words to quote back: at most MAX_QUOTED_CHARS, cut at a word."""
    words = " ".join(words.split())
    if len(words) <= MAX_QUOTED_CHARS:
        return words
    return words[:MAX_QUOTED_CHARS].rsplit(" ", 1)[0] + "…"


def _cap_reply(text: str) -> str:
    """The said first line at most MAX_REPLY_CHARS (cut at a sentence end where possible); the
    whole at most safety's MAX_FINAL_RESPONSE, cut after a whole shown line."""
    said, sep, shown = text.partition("\n")
    if sep:
        lines = shown.split("\n")
        while lines and len(said) + 1 + len("\n".join(lines)) > MAX_FINAL_RESPONSE:
            lines.pop()
        return _cap_said(said) + ("\n" + "\n".join(lines) if lines else "")
    return _cap_said(text)


def _cap_said(text: str) -> str:
    """At most MAX_REPLY_CHARS, cut at a sentence end where possible."""
    if len(text) <= MAX_REPLY_CHARS:
        return text
    cut = text[: MAX_REPLY_CHARS - 1]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    # a sentence end in the first half would throw away too much: cut mid-sentence instead
    return cut[: end + 1] if end > MAX_REPLY_CHARS // 2 else cut.rstrip() + "…"


def _fit(pieces: list[Piece], steps: list[Step]) -> tuple[list[Step], str]:
    """Too many steps for one plan: keep whole clauses that fit and hand the rest on as one
    plan_subtask (planned again when its turn comes), or cut at LIMITS.max_steps if that cannot work."""
    goal_len = TOOLS["plan_subtask"].param("goal").max_len
    kept: list[Step] = []
    rest: list[str] = []
    for piece in pieces:
        if not piece.steps:
            continue
        # LIMITS.max_steps - 1: the last slot is the plan_subtask
        if not rest and len(kept) + len(piece.steps) <= LIMITS.max_steps - 1:
            kept.extend(piece.steps)
        else:
            rest.append(piece.clause)
    goal = ", then ".join(c for c in rest if c)
    if kept and goal and len(goal) <= goal_len:
        kept.append(Step("plan_subtask", {"goal": goal}))
        return kept, "The last part will be planned when I get to it."
    return steps[:LIMITS.max_steps], f"I could only plan the first {LIMITS.max_steps} steps."
