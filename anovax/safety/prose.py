"""Natural-language patterns for text a model reads back: sub-task goals, memory, screen text.

A sub-planner or a later prompt turns words into actions, so these contexts are screened for
intent as well as for command syntax: instructions hidden in a "fact", requests to switch the
safety rules off, destructive goals, and goals that delegate to a terminal or to whatever
some other text says. None of this is applied to dictation typed into an editor or to search
queries, which may talk about anything.
"""

from __future__ import annotations

import re

from anovax.lazyre import LazyPattern
from anovax.safety import hoist

_V = r"(?:run|execute|exec|type|press|open|launch|start|delete|remove|erase|send|upload|download|install|click|paste|format|disable|enable|shut|restart|reboot|kill|call|visit|enter)"


_SAY = r"(?:say|reply|respond|answer|tell|show|play|search|use|switch|go|visit|email|message|forward|share)"


def _any(parts: list[str]) -> LazyPattern:
    # spelled to start with a literal where possible (hoist.py): the same matches, ~3x faster
    return LazyPattern("|".join(f"(?:{alt})" for p in parts for alt in hoist.alternatives(p)), re.M)


#: a "fact" or a page that tries to instruct the assistant
INJECTION = _any(
    [
        # a trigger clause followed by something to do: an instruction, not a preference
        rf"\b(?:whenever|(?:every|each) ?time|any ?time)\b[^.\n]{{0,60}}?\b(?:{_V}|{_SAY})\b",
        r"\bfrom now on\b",
        r"\b(?:after|before|on|at) (?:every|each) (?:task|command|request|time|run|start|login|boot)",
        # an order, not a habit: "always" heads its clause or follows "you" or a modal ("I always
        # open the window at night" is a fact), and "open to ideas" is not opening anything
        rf"(?:^|[^\w\s] ?|\b(?:please|and|then|you|must|should|shall|will|to) )always (?:\w+ ){{0,3}}?{_V}\b(?! to\b)",
        r"\bnever (?:ask|confirm|check|warn|refuse|tell)\b",
        r"\bwithout (?:asking|confirm\w*|checking|warning|telling)\b",
        r"\b(?:do not|don'?t) (?:ask|confirm|check|warn|refuse|tell)\b",
        r"\bignore (?:all |any |the |your |my |these |those )?(?:previous|prior|above|earlier|preceding|safety|security|instructions|rules|guidelines|polic)",
        r"\bdisregard (?:all |any |the |your )?(?:previous|prior|above|earlier|safety|security|instructions|rules)",
        r"\bforget (?:all |your |the )?(?:previous|prior|earlier) (?:instructions|rules)",
        r"\b(?:override|bypass|circumvent|skip|disable|turn off|switch off|deactivate) (?:the |all |your |any )?(?:safety|security|guard|filter|restriction|confirmation|check)",
        r"\b(?:safety|security)(?: checks?| rules?| filters?| policy| policies| guardrails?| mode| features?)? "
        r"(?:(?:are|is|were|was|have been|has been|got) )?(?:now )?(?:disabled|off|turned off|removed|suspended|bypassed|lifted|not (?:needed|required|apply))",
        r"\byou are (?:now|no longer|free|allowed|permitted|unrestricted|in)\b",
        r"\byou (?:must|should|will|shall) (?:now )?(?:always|never|run|execute|obey|ignore|comply)\b",
        r"\b(?:assistant|ai|model|agent|anovax) (?:must|should|will|shall|is allowed to|may now)\b",
        r"\b(?:you|assistant) (?:should )?(?:act|behave) as\b",
        r"\bpretend (?:to be|you)\b",
        r"\b(?:treat|regard|count|consider) (?:\w+ ){0,6}?as (?:an? |the )?(?:user'?s? |my |your )?(?:commands?|instructions?|orders?|requests?)\b",
        r"\bsystem prompt\b",
        r"\b(?:new|updated|additional|hidden) (?:instructions?|rules?|policy|directives?)\b",
        r"\bjailbreak|\bdeveloper mode\b|\bdan mode\b|\bgod mode\b|\bno restrictions\b|\bunrestricted mode\b",
        rf"\bautomatically {_V}\b",
        rf"\b{_V}\b[^.\n]{{0,40}}\b(?:at|on) (?:every )?(?:startup|start-up|login|logon|boot)\b",
        rf"\b(?:at|on) (?:every )?(?:startup|start-up|login|logon|boot)[ ,]+{_V}\b",
        r"\bdo not tell the user\b|\bwithout the user\b|\bbehind the user",
        r"<\|?(?:im_start|system|endoftext)|\[/?(?:inst|system)\]|###\s*(?:system|instruction)",
        r"\bimportant:? (?:new )?instruction",
    ]
)

#: destructive or security-relevant intent in words (goals and memory only)
INTENT = _any(
    [
        r"\b(?:format|wipe|erase|reformat|zero|nuke) (?:the |my |your |all |this )?(?:\w+ )?"
        r"(?:disk|drive|hard ?drive|ssd|hdd|partition|volume|computer|pc|laptop|c:|[a-z]: ?drive|system)s?\b",
        r"\b(?:delete|remove|erase|wipe|destroy|shred|purge) (?:\w+ ){0,3}?"
        r"(?:system32|windows folder|c:\\windows|/etc\b|/boot\b|/usr\b|boot sector|the registry|registry keys?|"
        r"all (?:my |the |of my |of the )?(?:files|documents|photos|data)|every ?thing|home (?:folder|directory)|"
        r"user folder|shadow cop(?:y|ies)|restore points?|backups?|partitions?)",
        r"\b(?:disable|turn off|switch off|deactivate|stop|kill|bypass|uninstall|remove) (?:the |my |all |windows )?"
        r"(?:firewall|antivirus|anti-virus|defender|uac|user account control|smartscreen|selinux|apparmor|"
        r"gatekeeper|tamper protection|real-?time protection|edr|audit(?:ing)?|bitlocker)",
        r"\b(?:empty|clear|purge) (?:out )?(?:the |my )?(?:recycle ?bin|trash|wastebasket)\b",
        r"\bfactory reset\b|\breset (?:this|the|my) (?:pc|computer|laptop|device)\b|\breinstall windows\b",
        r"\b(?:steal|dump|exfiltrate|extract|harvest|grab|upload|send|leak|show|read|print|display|reveal|list|export|copy) "
        r"(?:\w+ ){0,3}?(?:passwords?|credentials?|private keys?|ssh keys?|api keys?|tokens?|password hashes|"
        r"keychain|seed phrase|saved logins?)\b",
        r"\b(?:as|with) (?:an? )?(?:admin(?:istrator)?|root|elevated)(?: rights| privileges| access)?\b|\belevated (?:prompt|shell|terminal)",
        r"\b(?:clear|delete|wipe|erase) (?:the |all )?(?:event logs?|system logs?|audit logs?)\b",
        r"\b(?:kill|end|terminate) (?:all )?(?:processes|tasks|lsass|csrss|winlogon|svchost)\b",
        r"\b(?:shut ?down|power off|restart|reboot) (?:the |my |this )?(?:computer|pc|laptop|machine|system|server)\b",
        r"\b(?:disable|stop|pause) (?:windows )?updates?\b",
        # language-neutral-ish: a destructive verb stem in common languages near a drive or system path
        r"(?:\bformat|formatear|formater|formatieren|formatar|formattare|формат|格式化|フォーマット|포맷|"
        r"\bborr|\belimin|supprim|\beffac|lösch|losch|\bapag|cancell|удал|стер|сотр|删除|刪除|削除|삭제|\bwipe|\berase|\bdelete)"
        r"[^\n]{0,40}?(?:(?<![\w])[a-z]:(?:[\\/ ]|$)|system32|/etc\b|/boot\b|\b(?:disco|disque|festplatte|laufwerk)\b|диск|磁盘|硬盘|[a-z]盘|ドライブ|드라이브)",
    ]
)

_SHELL_WORD = (
    r"(?:terminal|shell|command prompt|command line|cmd|powershell|pwsh|console|bash|zsh|run (?:dialog|box)|"
    r"win\+r|repl|python (?:shell|prompt|interpreter))"
)
_RUN = r"(?:run|type|execute|enter|paste|invoke|issue)"
#: a goal that sends the sub-planner to a terminal to type or run something
SHELL_INTENT = LazyPattern(
    # each gap stops where its first word starts again (a match through it would start there too),
    # so a sentence of repeated "shell shell ..." is read once, not once per word
    rf"\b{_SHELL_WORD}\b(?:(?!\b{_SHELL_WORD}\b)[^.\n])*\b(?:run|type|execute|enter|paste|invoke|issue)\b"
    rf"|\b{_RUN}\b(?:(?!\b{_RUN}\b)[^.\n])*\b(?:in|into|from|via|using|with) (?:a |an |the )?{_SHELL_WORD}\b"
)
#: search-like goals about terminals are fine ("how to open a terminal")
_RESEARCH = LazyPattern(r"\b(?:search|look up|find out|learn|how (?:do|to|can)|tutorial|what is|explain)\b")
#: a goal that hands control to some other text
DELEGATION = LazyPattern(
    r"\b(?:do|follow|execute|run|obey) (?:what|whatever|everything) (?:it|that|this|the \w+) (?:says|said|tells|asks)"
    r"|\bfollow (?:the |its |these |those )?(?:instructions|directions|steps) (?:on|in|from) (?:the )?(?:screen|page|dialog|email|message|file|text)"
    r"|\bdecode\b(?:(?!\bdecode\b)[^.\n])*\b(?:and|then) (?:do|run|execute|follow|type)"
)


#: screen text that tells the reader to fetch or run a program (a fake update, a "fix")
OBSERVATION_LURE = LazyPattern(
    r"\b(?:download|install|run|execute|open|launch|update)\b[^\n]{0,80}"
    r"(?:https?://|\bwww\.|\b[\w-]+\.(?:exe|msi|ps1|bat|cmd|vbs|js|hta|scr|sh|jar|apk|dmg|pkg|lnk)\b)"
)


def shell_intent(folded: str) -> bool:
    return bool(SHELL_INTENT.search(folded)) and not _RESEARCH.search(folded)
