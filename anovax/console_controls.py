"""The console's own commands: lines starting with ":" (``:help``, ``:remote on``...), never
sent to AnovaX. The orb has buttons for the same switches."""

from __future__ import annotations

import re
from typing import Any

from anovax.unban import unban_message

#: the console's own commands, as ``:help`` lists them
CONSOLE_COMMANDS = (
    (":help", "this list"),
    (":remote on", "start the phone remote and show the link that pairs a phone"),
    (":remote off", "stop the phone remote"),
    (":unban", "let phones locked out after wrong pairing codes try again"),
    ("stop", "while a command runs: stop it (also \"cancel\", \"never mind\", Ctrl-C)"),
    ("quit", "leave (also \"exit\", \"goodbye\", \"close the console\", \":q\", Ctrl-D; \"quit now\" too)"),
)

#: what ends the console session (typed on a line of its own; see ``is_quit``)
QUIT_WORDS = frozenset({"quit", "exit", ":q", "bye anova", "bye", "bye bye", "goodbye", "good bye", "see you",
                        "see you later", "see ya", "that's all", "that is all"})
#: words around a quit word that leave it a quit ("quit now", "exit please.")
_QUIT_FILLER = frozenset({"now", "please", "right", "anova", "anovax"})


def is_quit(line: str) -> bool:
    """Whether a typed line ends the session: a quit word, alone or with "now" or "please" and a
    full stop ("quit now" was read as closing an app called "now")."""
    low = line.strip().lower().rstrip(".!")
    if low in QUIT_WORDS:
        return True
    words = low.replace(",", " ").split()
    core = [w for w in words if w not in _QUIT_FILLER]
    if len(core) == 1 and len(words) > 1 and core[0] in {"quit", "exit", "bye", "goodbye"}:
        return True
    # "close the console", "exit this console": the console itself ("Terminal isn't open" before)
    return bool(_LEAVE_CONSOLE.fullmatch(" ".join(w for w in words if w not in {"now", "please", "right"})))


_LEAVE_CONSOLE = re.compile(r"(?:close|quit|exit|leave)(?: the| this)? (?:console|anovax|anova)|leave")


def console_help() -> str:
    width = max(len(name) for name, _ in CONSOLE_COMMANDS)
    lines = ["Console commands:", *(f"  {name:<{width}}  {what}" for name, what in CONSOLE_COMMANDS)]
    lines.append("Anything else is a command for AnovaX, e.g. 'open notepad and type hello'.")
    return "\n".join(lines)


def console_control(text: str, remote: Any) -> str:
    """The console's own switches (the orb has buttons for them)."""
    words = text[1:].lower().split()
    if words in (["help"], ["?"], ["h"]):
        return console_help()
    if words not in (["remote", "on"], ["remote", "off"], ["unban"]):
        return f"There is no console command {text.split()[0]!r}: :help lists them."
    if remote is None:
        return "The phone remote is not available here."
    try:
        if words == ["remote", "on"]:
            if not remote.running:
                remote.start()
            return f"Phone remote on at {remote.address}. Pair a phone by opening: {remote.pairing_url}"
        if words == ["remote", "off"]:
            if remote.running:
                remote.stop()
            return "Phone remote off."
        if words == ["unban"]:
            return unban_message(remote.unban())
    except OSError as exc:  # the port is taken, or the address is gone
        return f"The phone remote can't start: {exc.strerror or exc}."
    return console_help()
