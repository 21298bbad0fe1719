"""When the gate asks instead of refusing, and the one question it asks.

A question is only worth asking when the person can see exactly what a yes would do. So shell
input is askable only as plain printable ASCII plus Enter (no look-alike letters, no control
characters, no Tab completion or Backspace editing that would change what runs), at most
``MAX_LINES`` commands and ``MAX_CHARS`` characters (a question read aloud or on a phone must
stay short), typed into a terminal the desktop can vouch for. The content rules ran before
this stage: a flagged command (``rm -rf ~``, ``curl ... | sh``) never becomes a question.
"""

from __future__ import annotations

from anovax.safety.verdict import Rule, Verdict

#: the longest shell input a question may hold
MAX_CHARS = 120
#: commands (Enter presses) one question may hold
MAX_LINES = 3
_PRINTABLE = frozenset(chr(c) for c in range(0x20, 0x7F))


def unaskable(text: str, vouched: bool, recovering: bool) -> str | None:
    """Why this shell input cannot be put to the person, or None when it can."""
    if recovering:
        return "a recovery turn"
    if not vouched:
        return "a terminal reached without naming it"
    if not text:
        return "nothing to show"
    # a backtick would break the question's own quoting of the command
    odd = next((ch for ch in text if ch != "\n" and (ch not in _PRINTABLE or ch == "`")), None)
    if odd is not None:
        return f"a character a question cannot show ({ord(odd):#x})"
    return None


def too_long(held: list[tuple[int, str]]) -> bool:
    text = "".join(part for _, part in held)
    return len(text) > MAX_CHARS or text.count("\n") > MAX_LINES


def _phrases(text: str) -> list[str]:
    """"ls\\nwhoami\\n" -> ["type `ls`", "press Enter", "type `whoami`", "press Enter"]."""
    out: list[str] = []
    line = ""
    for ch in text:
        if ch == "\n":
            if line:
                out.append(f"type `{line}`")
            out.append("press Enter")
            line = ""
        else:
            line += ch
    if line:
        out.append(f"type `{line}`")
    return out


def display_name(name: str) -> str:
    """"terminal" -> "Terminal": the app as the question names it."""
    name = " ".join(name.split())
    return name[:1].upper() + name[1:] if name.islower() else name


def question(held: list[tuple[int, str]], target: str) -> str:
    """One short question: "Type `ls` and press Enter in Terminal?"."""
    phrases = _phrases("".join(part for _, part in held))
    said = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return f"{said[:1].upper()}{said[1:]} in {display_name(target)}?"


def confirm_shell(held: list[tuple[int, str]], target: str) -> Verdict:
    """The confirm verdict for shell input; ``step`` is the first held step (asked before it)."""
    name = display_name(target)
    return Verdict.confirm(Rule.SHELL_TYPING, question(held, target), step=held[0][0], target=name,
                           action=f"type into {name}",
                           detail=f"{len(held)} keystroke step(s) into a terminal, held for a yes")
