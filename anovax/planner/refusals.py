"""What the offline planner will not do, whatever the request: the safety tables and the check.

A refused request plans to zero steps, so no part of it is ever acted on. The tables are data
(regexes and replies); ``refusal_for`` is the whole-request check, run before any parsing. The
clause-level checks (typing a shell command, typing into a shell, system shortcuts) are made
where the step is built, in ``keyboard.py`` and ``apps.py``.
"""

from __future__ import annotations

import re

#: apps where typed text is run as a command: the planner never types into these
SHELL_APPS = frozenset({"terminal"})

#: hotkeys the planner will not press: they reach the system, not the app in front
BLOCKED_KEYS = frozenset(
    frozenset(combo.split("+"))
    for combo in ("ctrl+alt+delete", "win+r", "win+x", "win+l", "shift+delete", "ctrl+shift+esc", "ctrl+alt+end")
)

# --- refusals: destructive, system, shell and credential requests --------------------------
# Each entry: (regex on the normalised request, what to say). Checked on the whole request
# before anything else, so no part of a destructive request is ever carried out.

_FILEWORDS = (
    r"(?:files?|folders?|director(?:y|ies)|documents folder|my documents|downloads|desktop|photos|pictures|system ?32|"
    r"hard ?drive|c drive|the drive|the disk|home folder|recycle bin|trash|everything on (?:my|the) \w+|all (?:my|the) data|my data)"
)
REFUSALS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.I), say)
    for p, say in (
        (
            r"\b(?:delete|erase|remove|wipe|destroy|shred|trash|get rid of|clean out|empty)\b.{0,40}?\b" + _FILEWORDS + r"\b"
            r"|\brm\s+-|\bdel\s+/|\brmdir\b|\bdeltree\b|\bshred\b",
            "Sorry, I won't delete files or folders: that can't be undone, so please do it yourself if you're sure.",
        ),
        (
            r"\b(?:format|reformat|wipe|erase|partition|repartition)\b.{0,30}?\b(?:disk|drive|hard ?drive|ssd|usb|c:?|partition|computer|pc|laptop|system)\b|\bmkfs\b|\bdd\s+if=|\bdiskpart\b",
            "Sorry, I won't format or wipe disks: that would destroy data.",
        ),
        (
            r"\b(?:shut ?down|power ?off|turn off|switch off|restart|reboot|log ?off|log ?out|sign out|hibernate|suspend|lock)\b.{0,20}?\b(?:computer|pc|laptop|machine|system|windows|device|session|screen)\b"
            r"|^(?:shut ?down|reboot|restart|log ?off|hibernate)\b|\bshutdown\s*[/-]",
            "Sorry, I don't shut down, restart or log off the computer; please do that yourself.",
        ),
        (
            r"\b(?:run|execute|exec)\b.{0,25}?\b(?:commands?|scripts?|shell|bash|batch file|programs? as admin\w*)\b"
            r"|\bkill (?:all|every|the|this) (?:process|processes|tasks?|programs?|apps?)\b|\bend (?:all )?(?:tasks?|processes)\b"
            r"|\bsudo\b|\bchmod\b|\bchown\b|\bregedit\b|\bregistry\b|\bcurl\b.*\|\s*(?:ba)?sh|\bwget\b|\bpowershell\s+-|\bcmd\s*/c\b|\beval\(|\bexec\(|:\(\)\s*\{|\bkill\s+-9\b|\btaskkill\b|\bnet user\b|\bformat\s+[a-z]:",
            "Sorry, I don't run shell commands or scripts; that's outside what I can safely do.",
        ),
        (
            r"\b(?:passwords?|passcodes?|passphrases?|credentials?|api keys?|secret keys?|private keys?|access tokens?|credit card numbers?|pin codes?|social security)\b",
            "Sorry, I can't reveal or handle passwords, keys or other credentials.",
        ),
        (
            r"\b(?:disable|turn off|switch off|uninstall|remove|kill|stop)\b.{0,20}?\b(?:antivirus|anti-virus|firewall|defender|security|updates?)\b",
            "Sorry, I won't turn off security features or updates.",
        ),
        (
            r"\b(?:uninstall|install|download and run|download and install)\b",
            "Sorry, I can't install or uninstall software.",
        ),
        (
            r"\bhack (?:into|someone|somebody|my|a|the|his|her|their)\b|\b(?:keylog\w*|ransomware|malware|spyware)\b",
            "Sorry, I can't help with that.",
        ),
    )
)

#: text that looks like a shell command must never be typed (checked on type_text content)
SHELL_LIKE = re.compile(
    r"(?:^|[\s;&|`])(?:rm|rmdir|del|erase|format|mkfs|dd|sudo|su|chmod|chown|shutdown|reboot|halt|kill|taskkill|"
    r"powershell|cmd|bash|sh|zsh|curl|wget|nc|netcat|reg|regedit|diskpart|cipher|bcdedit|net|sc|schtasks|icacls|takeown)"
    r"(?:\s+[-/]\w|\s+\S*[/\\]|\s*$)|\|\s*(?:ba|z)?sh\b|\$\(|`[^`]+`|>\s*/dev/|:\(\)\s*\{|\b[a-z]:\\",
    re.I,
)


def refusal_for(request: str) -> str | None:
    """The refusal sentence for a whole (cleaned) request, or None if nothing in it is refused."""
    low = request.lower().replace("’", "'")
    for pattern, say in REFUSALS:
        if pattern.search(low):
            return say
    return None
