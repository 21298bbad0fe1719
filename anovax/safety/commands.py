"""The command denylist: shell, PowerShell and cmd syntax that must never reach a keyboard.

It is applied to everything that executes or that a model reads back (typed text, app names,
sub-task goals, memory), never to search queries, so "password manager reviews" passes.
Patterns run on folded text (see canon.py) and on its de-obfuscated variants (decode.py).

Word boundaries are explicit: a command word may not be glued to letters, dots or hyphens
(``sudoku``, ``Netshoes``, ``curly``, ``confirm -RFQ`` pass), and ambiguous English words
(halt, parted, shred, net, at, ftp...) only match with command-like arguments or in command
position. Terminals are handled by the focus rules, not here: content rules cannot
enumerate every destructive command, so this list is defence in depth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anovax.safety import hoist

#: left boundary of a command word: not glued to a word character, dot or hyphen
_L = r"(?<![\w.\-])"
#: right boundary, allowing an .exe/.com suffix
_R = r"(?:\.exe|\.com)?(?![\w\-])"
#: command position: start of a line or after a separator, with wrappers such as sudo
_CP = (
    r"(?:^|[;&|(){}`\n]|\$\()[ ]*"
    r"(?:(?:sudo|doas|nohup|exec|command|builtin|env|time|nice|xargs|busybox|call|start|"
    r"cmd(?:\.exe)?[ ]+/[ck])(?:[ ]+-\S+)*[ ]+)*"
)
_ARGS = r"(?:[ ]+-\S+)*"  # optional flags
#: what follows a tool's name in a sentence rather than on a command line: punctuation and a
#: space, the end of the line, or an English function word (a closed class: "never run sudo on
#: a shared machine", "use netsh only if IT asks", "change your passwd yearly"). None of these is
#: an argument that makes the tool do anything, so the word alone is prose, not a command
_FUNCTION_WORDS = (
    "on|in|to|for|from|with|without|by|of|about|as|into|onto|over|under|only|just|again|too|also|and|or|but|"
    "nor|so|yet|if|when|whenever|unless|until|while|because|since|though|although|before|after|then|than|"
    "is|are|was|were|be|been|being|am|will|would|can|could|should|shall|may|might|must|does|did|has|have|"
    "had|the|an?|this|that|these|those|it|its|your|my|our|their|his|her|here|there|yearly|daily|weekly|"
    "monthly|regularly|often|sometimes|never|always|carefully|first|anymore|anyway|yourself|itself|"
    "access|rights|privileges?|permissions?|password|group|mode|prompt|tools?|utility|etc|e\\.g|i\\.e|"
    "[a-z]{3,}ly"  # adverbs: safely, rarely, wisely
)
_PROSE_TAIL = rf"(?:[.,!?)\"'`]+(?:[ ]|$)|[ ]?$|'s(?![\w-])|[ ](?:{_FUNCTION_WORDS})(?![\w-]))"


class _Word(str):
    """A pattern that starts with a command word (its left boundary is added once per category)."""

    def __add__(self, other: str) -> _Word:
        return _Word(str(self) + other)


def _w(names: str) -> _Word:
    return _Word(rf"(?:{names}){_R}")


def _prose_ok(names: str) -> list[str]:
    """A tool's name that is also a word people write: refused in command position, or with
    anything but prose after it (``sudo rm``, ``passwd root``, ``netsh advfirewall``)."""
    # `sudo` alone in inline code is a name: run, it would only print its usage
    return [_Word(rf"(?:{names}){_R}(?!{_PROSE_TAIL})"), _CP + rf"(?:{names}){_R}(?!`)"]


def _then(prefix: _Word, tail: str) -> _Word:
    """``prefix``, anything on the same line, then ``tail``. The gap stops where ``prefix`` starts
    again: a match through it would also start there, and without the stop every ``prefix`` of a
    line re-reads the rest of the line (quadratic on "dd dd dd ...")."""
    return prefix + rf"(?:(?!{_L}{prefix})[^\n])*" + tail


_SHELLS = r"sh|bash|zsh|dash|ksh|csh|tcsh|fish|ash|mksh|yash"
_INTERPRETERS = (
    r"python[\d.]*|py|pypy[\d.]*|perl|ruby|node|nodejs|deno|bun|php[\d.]*|lua[\d.]*|luajit|"
    r"tclsh|osascript|jjs|jrunscript|rscript|julia|awk|gawk|nawk|mawk|groovy"
)

_DESTROY = [
    _w("rm|srm") + r"[ ]+(?:[-/~*.$\\%\"'`]|[a-z]:)",  # rm `cat list`: a substitution as its argument
    _w("rmdir|rd") + r"[ ]+(?:/[sq]|-)",
    _w("rmdir") + r"[ ]+\S",
    _w("del|erase") + r"[ ]+(?:/[a-z]|-[a-z]|\"?[a-z]:[\\/]|[\\/]|\S*\*|%|\.\\|\$|~|`)",
    _w("shred|wipe|srm") + r"[ ]+(?:-[a-z]|/|~|\$)",
    _w("wipefs|blkdiscard|sdelete|sdelete64|diskpart|fdisk|sfdisk|cfdisk|gdisk|sgdisk|newfs|"
       "vssadmin|wbadmin|bcdedit|bootrec|bootsect|format-volume|clear-disk|initialize-disk|"
       "remove-partition|clear-recyclebin|remove-item|clear-content|clear-item|"
       "remove-computerrestorepoint|disable-computerrestore|rimraf|userdel|deluser|delgroup|groupdel|"
       "remove-localuser|remove-aduser|clc"),
    _Word(r"mkfs(?:\.\w+)?(?![\w-])"),
    _w("parted") + r"[ ]+(?:-|/dev)",
    _w("format") + r"[ ]+(?:[a-z]:|/[a-z]|-[a-z])",
    _then(_w("dd") + r"[ ]+", r"\b(?:if|of)="),
    r"\bof=/dev/",
    r">[ ]*/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|r?disk)",
    _w("cipher") + r"[ ]+/w",
    _then(_w("robocopy"), r"[ ]/(?:mir|purge|move|mov)\b"),
    _then(_w("git") + r"[ ]+clean[ ]+", r"-[^\s-]*[fdx]"),
    _then(_w("git") + r"[ ]+reset[ ]+", r"--hard"),
    _then(_w("git") + r"[ ]+push[ ]+", r"(?:--force|[ ]-f\b|[ ]\+)"),
    _then(_w("find") + r"[ ]", r"-(?:delete|exec(?:dir)?[ ]+(?:rm|shred|del)\b)"),
    _w("xargs") + _ARGS + r"[ ]+(?:rm|shred|del|kill)\b",
    r"\|[ ]*(?:%[ ]*\{[ ]*)?(?:ri|rm|del|erase|rd|rmdir|remove-item|rimraf|shred)(?![\w-])",
    _w("ri") + r"[ ]+-\w",
    r":[ ]*\([ ]*\)[ ]*\{",  # :(){ :|:& };:
    r"\b(\w+)[ ]*\([ ]*\)[ ]*\{[ ]*\1[ ]*\|[ ]*\1[ ]*&",  # bomb(){ bomb|bomb& }
    r"%0[ ]*\|[ ]*%0",
    _w("chmod") + _ARGS + r"[ ]+[0-7]?777\b",
    _w("chmod") + _ARGS + r"[ ]+\S+[ ]+/(?:[ ]|$|etc|bin|usr|boot|var|home)",
    _w("chmod|chown|chgrp") + r"[ ]+-[a-z]*r",
    _w("chattr") + r"[ ]+[-+]",
    _w("truncate") + r"[ ]+-s",
    r"\btruncate[ ]+table\b",
    r"\bdrop[ ]+(?:table|database|schema)\b",
    r"\bdelete[ ]+from[ ]+\S+[ ]*;",
    _then(_w("mv") + r"[ ]+", r"[ ]/dev/null"),
    _w("mv") + r"[ ]+(?:~/?|/\*?|\*)[ ]",
    r"(?:\becho\.|\btype[ ]+nul|\bcat[ ]+/dev/null|\bcopy[ ]+nul|(?:^|[;&\n])[ ]*:)[ ]*>",
    _w("apt|apt-get|aptitude|dnf|yum|zypper|snap|brew|choco|winget|scoop|flatpak")
    + _ARGS + r"[ ]+(?:remove|purge|autoremove|uninstall|erase)\b",
    _w("pacman") + r"[ ]+-r",
    _w("dpkg") + r"[ ]+(?:-r|-p|--remove|--purge)\b",
    _w("docker|podman") + r"[ ]+(?:system[ ]+prune|rm[ ]+-|rmi|volume[ ]+(?:rm|prune)|container[ ]+prune|image[ ]+prune)",
    _w("kubectl") + r"[ ]+delete",
    _w("net") + r"[ ]+user[ ]+\S+[ ]+/del",
    _w("diskutil") + r"[ ]+(?:erase\w*|zero\w*|secureerase|partitiondisk|reformat|apfs[ ]+delete\w*)",
    _w("tmutil") + r"[ ]+delete",
]

_POWER = [
    _w("shutdown") + r"[ ]+(?:[-/][a-z]|now|\+\d|\d{1,2}:\d{2})",
    _CP + r"(?:shutdown|reboot|poweroff|halt|logoff)(?:\.exe)?[ ]*(?:$|[;&|)\n])",
    _w("stop-computer|restart-computer|poweroff|tsdiscon|psshutdown|psshutdown64|logoff"),
    _w("reboot|halt") + r"[ ]+(?:-|now)",
    _w("systemctl|loginctl") + r"[ ]+(?:poweroff|reboot|halt|suspend|hibernate|kexec|emergency|rescue|isolate|terminate-\w+|kill-\w+)",
    _w("init|telinit") + r"[ ]+[06s](?![\w])",
    r"/proc/sysrq-trigger",
    r"\bexitwindowsex\b",
    _w("pmset") + r"[ ]+(?:sleepnow|halt|restart|shutdown)",
]

_PRIVILEGE = [
    *_prose_ok("sudo|doas|pkexec|gsudo|runas|visudo"),
    _w("su\\.exe|setcap|psexec|psexec64|paexec"),
    _CP + r"su(?:[ ]+(?:-\S*|root))*[ ]*(?:$|[;&|\n])",
    _w("su") + r"[ ]+(?:-[lcm]?|root|\w+[ ]+-c)(?:[ ]|$)",
    r"-verb[ ]+runas",
    r"/etc/sudoers",
    r"\bnopasswd\b",
    _then(_w("usermod|gpasswd|adduser|useradd") + r"[ ]", r"\b(?:sudo|wheel|admin)\b"),
    _w("net") + r"[ ]+localgroup[ ]+administrators",
    _w("net") + r"[ ]+user[ ]+\S+[ ]+(?:/add|/active|\S+[ ]+/add)",
    _w("add-localgroupmember|add-adgroupmember"),
    _w("chmod") + _ARGS + r"[ ]+(?:[ugoa]*\+[rwxt]*s|[2-7][0-7]{3})\b",
    r"\benablelua\b|\bconsentpromptbehavior\w*",
]

_CREDENTIAL = [
    r"\.ssh[/\\]",
    r"[/\\]\.ssh\b",
    r"\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?\b",
    r"\bauthorized_keys\b",
    r"\.aws[/\\](?:credentials|config)",
    r"\.git-credentials|\.netrc\b|\.pgpass\b|\.pypirc\b|\.npmrc\b|\.vault-token\b|\.password-store\b|\.gnupg\b",
    r"\.docker[/\\]config\.json|\.kube[/\\]config|\.config[/\\]gh[/\\]hosts",
    r"\blogin data\b|\blogins\.json\b|\bkey[34]\.db\b|\bcookies\.sqlite\b",
    r"/etc/(?:shadow|gshadow|master\.passwd)",
    *_prose_ok("passwd"),
    r"\\config\\(?:sam|security|system)\b|\bhklm\\(?:sam|security)\b|\bhkey_local_machine\\(?:sam|security)\b",
    _w("reg") + r"[ ]+save",
    _w("lsass|procdump|procdump64|sekurlsa|mimikatz|lazagne|secretsdump|pypykatz|rubeus|hashcat|vaultcmd|cmdkey"),
    r"\bkeymgr\.dll\b|\bntds\.dit\b|\bwallet\.dat\b|\.kdbx\b|\blogin\.keychain|\bconvertfrom-securestring\b|\bdpapi\b",
    _w("security") + r"[ ]+(?:find-(?:generic|internet)-password|dump-keychain|unlock-keychain)",
    _w("secret-tool") + r"[ ]+(?:lookup|search)",
    _w("gh") + r"[ ]+auth[ ]+token",
    _then(_w("findstr|grep|select-string|sls") + r"[ ]", r"\b(?:password|passwd|pwd|secret|token|api[_-]?key)"),
    r"\bget-storedcredential\b",
]

_SECURITY = [
    *_prose_ok("netsh|auditpol|fsutil|wevtutil|mountvol|takeown|cacls|icacls|xcacls|attrib|regedit|regedt32|regini|"
               "secedit|csrutil|spctl"),
    _w("mpcmdrun|modprobe|insmod|rmmod|bcdboot"),
    _w("set-mppreference|add-mppreference|remove-mppreference|set-executionpolicy|set-netfirewallprofile|"
       "disable-netfirewallrule|new-netfirewallrule|set-itemproperty|new-itemproperty|remove-itemproperty|"
       "set-service|stop-service|remove-service|clear-eventlog|remove-eventlog|disable-bitlocker|"
       "suspend-bitlocker|disable-windowsoptionalfeature|set-acl"),
    r"-(?:executionpolicy|exec|ep)[ ]+(?:bypass|unrestricted)",
    r"disable\w*monitoring\b|\bdisableantispyware\b|\btamperprotection\b|\bdisableantivirus\b",
    _w("ufw") + r"[ ]+(?:disable|reset|default[ ]+allow)",
    _w("iptables|ip6tables|nft") + r"[ ]+(?:-f|--flush|-x|flush|-p[ ]+\w+[ ]+accept)",
    _w("setenforce") + r"[ ]+0",
    _w("systemctl") + r"[ ]+(?:stop|disable|mask|kill)",
    _CP + r"service[ ]+\S+[ ]+(?:stop|disable)",
    _w("sc") + r"[ ]+(?:\\\\\S+[ ]+)?(?:stop|delete|config|create|failure|sdset)\b",
    _then(_w("net") + r"[ ]+(?:stop|start|share|session|accounts|use|user|localgroup)\b",
          r"(?:[ ]/[a-z]|\\\\|[ ][a-z]:|[ ]\*)"),
    _w("reg") + r"[ ]+(?:add|delete|import|load|unload|restore|copy|export)\b",
    r"\bhk(?:lm|cu|cr|u|cc)(?::|\\)|\bhkey_(?:local_machine|current_user|classes_root|users)\b",
    _w("history") + r"[ ]+-c",
    _w("unset") + r"[ ]+histfile|histfile=/dev/null",
    r"(?:/etc/|\\drivers\\etc\\)hosts\b",
    _then(_w("dism") + r"[ ]", r"/(?:disable|remove)-"),
    _w("launchctl") + r"[ ]+(?:unload|disable|bootout|remove)",
]

_PERSISTENCE = [
    *_prose_ok("schtasks|crontab"),
    _w("register-scheduledtask|new-scheduledtask\\w*|new-service|set-wmiinstance|register-wmievent"),
    _w("at") + r"[ ]+\d{1,2}:\d{2}[ ]+(?:/(?:every|next|interactive|delete)\b|\S+\.(?:exe|bat|cmd|ps1)\b)",
    r"/etc/cron|/var/spool/cron|/etc/rc\.local|/etc/init\.d|/etc/systemd/system|\.config/autostart",
    _w("systemctl") + r"[ ]+enable",
    _w("launchctl") + r"[ ]+(?:load|bootstrap|submit|enable)",
    r"\blaunch(?:agents|daemons)\b",
    r"\\start menu\\programs\\startup|\bshell:(?:common )?startup\b",
    r"(?:>>?|\btee(?:[ ]+-a)?)[ ]*[^\s>]*(?:bashrc|zshrc|bash_profile|zprofile|/\.profile|rc\.local|autostart|authorized_keys|sudoers|crontab|/etc/)",
    r"\\currentversion\\(?:run|runonce|policies|winlogon|image file execution options)\b",
    r"\bwinlogon\\(?:userinit|shell)\b|\bappinit_dlls\b|\bimage file execution options\b",
    r"\bwmic(?:(?!\bwmic)[^\n])*startup",
]

_NETWORK = [
    _then(_w("curl") + r"[ ]+", r"(?<=[ ])(?:-[a-z]|--[a-z]|https?:|ftps?:|file:|\S[^\s.]*+\.\S[^\s/]*+/|\d+\.\d+\.\d+\.\d+|localhost|\$|@)"),
    _w("wget|wget2|aria2c|iwr|invoke-webrequest|invoke-restmethod|irm|start-bitstransfer|bitsadmin|certutil|"
       "ncat|socat|powercat|netcat|mkfifo|mknod|ngrok|msfvenom|msfconsole|meterpreter|chisel|"
       "send-mailmessage|ssh-copy-id|smbclient|rclone|scp|pscp|new-psdrive"),
    r"\bdownload(?:string|file|data)(?:async)?\b|\bnet\.webclient\b|\bsystem\.net\.\w+|\burldownloadtofile\b",
    r"\bnew-object[ ]+(?:-(?!new-object[ ])\S+[ ]+)*+(?:system\.)?net\.|\bmsxml2\.\w*http\b|\bxmlhttp\b|\bwinhttp\.winhttprequest\b",
    _w("nc|telnet") + _ARGS + r"[ ]+\S+[ ]+\d{1,5}\b",
    _w("nc") + r"[ ]+-",
    r"/dev/(?:tcp|udp)/",
    _w(_SHELLS) + r"[ ]+-i\b",
    _w("sftp|ftp|tftp") + r"[ ]+(?:-|\S+@|\S+\.\S+|\d)",
    _then(_w("rsync") + r"[ ]", r"\S:"),
    _w("ssh") + _ARGS + r"[ ]+\S+@\S+",
    _w("ssh") + r"[ ]+-[a-z]*[rldwn]\b",
    r"-infile\b|-method[ ]+(?:post|put)\b",
    _then(_w("copy-item|move-item|copy|xcopy|robocopy") + r"[ ]", r"\\\\"),
    _then(_w("tar|zip|7z") + r"[ ]", r"\|[ ]*(?:ssh|nc|curl)"),
    r"\|[ ]*(?:curl|nc|ncat|telnet|ssh|scp)\b",
    _w("python[\\d.]*|py") + r"[ ]+-m[ ]+(?:http\.server|simplehttpserver|smtpd|pyftpdlib|uploadserver)",
]

_EXEC = [
    r"\$\(",  # command substitution
    # backtick substitution where a command starts, with arguments after it (`cat f` -rf ~); one
    # glued to a word (r`echo m`) is ``_glued_substitution``'s, which pairs the backticks; Markdown's
    # `ls -la` in a sentence is only text (the inside is scanned like the rest, and `echo rm` is
    # read as rm by decode's variants)
    _CP + r"`[^`\n]+`[ ]+(?:-\w|[/~$\\])",
    r"\$\{?ifs\}?",
    r"\$\{(?:(?!\$\{)[^}\n])*[:#%/^,!]",  # ${PATH:0:1} and friends
    r"\$\{?[a-z_]\w*\}?\$\{?[a-z_]\w*",  # $a$b
    r"%\w+(?::~[^%\n]*)?%[ ]*%\w+(?::~[^%\n]*)?%",  # %a%%b%
    r"%\w+:~-?\d",  # %PATH:~0,1%
    r"%comspec%|\$env:comspec|\bcall[ ]+%\w+%",
    _w("cmd") + r"/[a-z]\b",  # cmd.exe/c
    _then(_w("cmd") + r"[ ]+", r"(?<=[ ])/[a-z]\b"),  # cmd /c, cmd /d /c
    r"&[ ]*(?:[(\[]|\$[a-z_{(])",  # & ('Stop-Com'+'puter'), & $x, & [scriptblock]; not "& $200"
    r"(?:^|[\s;|(])\.[ ]*(?:[(\[]|\$[a-z_{(])",  # . (gal iex), . $x: PowerShell dot-invocation
    r"\$executioncontext\b|\binvokecommand\b|\bnewscriptblock\b|\]::start\(",
    _w("iex|invoke-expression|invoke-command|icm|invoke-item|start-process|saps|add-type|invoke-wmimethod|"
       "invoke-cimmethod|mshta|regsvr32|rundll32|cscript|wscript|cmstp|installutil|msbuild|forfiles|pcalua|msdt|"
       "odbcconf|msxsl|wmic|syncappvpublishingserver|ieexec|dnscmd|diskshadow|esentutl|extrac32|"
       "presentationhost|rpcping|scriptrunner|xwizard|mavinject|regasm|regsvcs|infdefaultinstall|atbroker|"
       "hh\\.exe|control\\.exe|uudecode|busybox|toybox"),
    r"\[scriptblock\]|scriptblock\]?::create|frombase64string|\[char\][ ]*\(?\d|\[(?:system\.)?text\.encoding\]",
    r"-bxor\b|\[reflection\.assembly\]|\.invoke\(|getdelegateforfunctionpointer|\bamsi(?:utils|initfailed|scanbuffer|\.dll)\b|\bvirtualalloc\b",
    _w("powershell|pwsh|powershell_ise") + r"[-/][a-z]",
    _then(_w("powershell|pwsh|powershell_ise") + r"[ ]+", r"(?<=[ ])[-/][a-z]"),
    _w(_SHELLS) + _ARGS + r"[ ]+-[a-z]*c\b",
    _w(_INTERPRETERS) + _ARGS + r"[ ]+-{1,2}(?:c|e|r|eval|exec|command)(?![\w-])",
    _w("deno") + r"[ ]+eval",
    _then(_w("msiexec") + r"[ ]", r"(?:/i|/q|/y|https?:)"),
    r"\|[ ]*(?:sudo[ ]+)?(?:[^\s/|]*/)*(?:" + _SHELLS + "|" + _INTERPRETERS
    + r"|pwsh|powershell|cmd|iex|invoke-expression|source|xargs)(?:\.exe)?(?![\w-])(?![ ]*\|)",  # not a table cell
    r"(?:\b(?:" + _SHELLS + r"|source)|(?:^|[ ;&])\.)[ ]+<[ ]*\(|<\([ ]*(?:curl|wget)",
    _w("eval|exec") + r"[ ]+[\"'$`(]",
    r"(?<![\w.])(?:exec|eval|execfile|system|popen|spawn|shell_exec|passthru|proc_open|pcntl_exec|execsync|"
    r"spawnsync|execfilesync|execv\w*|spawnv\w*)\(",
    r"\bos\.(?:system|popen|exec\w*|spawn\w*|remove|rmdir|unlink|removedirs|kill)\b|\bshutil\.rmtree\b",
    r"\bsubprocess\.|\bimport[ ]+subprocess\b|\bfrom[ ]+subprocess\b|\bchild_process\b|\b__import__\b|\bruntime\.getruntime\b|\bprocess\.start\b",
    r"\bwscript\.shell\b|\bshell\.application\b|\bcreateobject[ ]*\(|\bactivexobject\b|\bfs\.(?:rm|rmdir|unlink)\w*\b",
    _then(_w("base64") + r"[ ]", r"(?:-d|--decode|-di)\b"),
    _then(_w("xxd") + r"[ ]", r"-r"),
    _then(_w("openssl") + r"[ ]+(?:enc|base64)", r"-d\b"),
    _w("tr") + r"[ ]+['\"]?\[?a-z",
    r"\|[ ]*rev(?![\w])",
    r"(?:\\x[0-9a-f]{2}){3,}|(?:\\[0-7]{3}){3,}|(?:\\u[0-9a-f]{4}){3,}|\$'[^'\n]*\\[x0-7u]",
    r"\bcharcodeat\b|string\.fromcharcode",
    # spreadsheet formulas that start programs: DDE (=cmd|' /c calc'!A0), LibreOffice's DDE()
    r"(?:^|\n)[ ]*[=+@-][ ]*[\w.]+[ ]*\|[ ]*['\"]",
    r"\bdde(?:auto)?[ ]*\(",
    # a glob in command position: /???/r?, /bin/r*, r[m] -rf
    r"(?:^|[;&|(\n])[ ]*(?:sudo[ ]+)?[.~]*/(?:(?![;&|(][.~]*/)\S)*[?*\[]\S*",
    r"(?:^|[;&|(\n])[ ]*\{[\w/.~-]+,(?:(?![;&|(]\{)[^}\s])*\}",  # {rm,-rf,~}
]

_PROCESS = [
    _w("taskkill|tskill|pkill|killall|stop-process|spps"),
    _w("kill") + r"(?:[ ]+-\S+)*[ ]+-1\b",
    _w("kill") + r"(?:[ ]+-\S+)*[ ]+1[ ]*$",
    _w("kill") + r"[ ]+-(?:9|kill|sigkill)\b",
]


@dataclass(frozen=True)
class Category:
    """One family of dangerous commands and the sentence spoken when one is found."""

    name: str
    reason: str
    pattern: re.Pattern[str]


def _compile(parts: list[str]) -> re.Pattern[str]:
    # Word-led patterns share one left-boundary check: the regex engine then tests each
    # branch's first letter instead of re-running a lookbehind per branch (~30x faster).
    words = [p for p in parts if isinstance(p, _Word)]
    others = [p for p in parts if not isinstance(p, _Word)]
    alternatives = [f"{_L}(?:{'|'.join(f'(?:{w})' for w in words)})"] if words else []
    # each pattern's own alternatives spelled to start with a literal where possible (hoist.py)
    alternatives += [f"(?:{alt})" for p in others for alt in hoist.alternatives(p)]
    return re.compile("|".join(alternatives), re.M)


CATEGORIES: tuple[Category, ...] = (
    Category("destroy", "I won't run commands that delete or wipe files or disks.", _compile(_DESTROY)),
    Category("power", "I won't shut down or restart the computer with a command.", _compile(_POWER)),
    Category("privilege", "I won't run commands that take administrator or root rights.", _compile(_PRIVILEGE)),
    Category("credential", "I won't read or dump passwords, keys or other credentials.", _compile(_CREDENTIAL)),
    Category("security", "I won't change security settings or system configuration with a command.", _compile(_SECURITY)),
    Category("persistence", "I won't set up programs that start on their own.", _compile(_PERSISTENCE)),
    Category("network", "I won't download code or send files to another computer with a command.", _compile(_NETWORK)),
    Category("exec", "I won't run hidden, encoded or interpreted code.", _compile(_EXEC)),
    Category("process", "I won't kill running programs with a command.", _compile(_PROCESS)),
)


_EXEC_CATEGORY = next(c for c in CATEGORIES if c.name == "exec")


@dataclass(frozen=True)
class CommandHit:
    """A denylisted command found in a text."""

    category: Category
    matched: str


#: a backtick span, paired left to right (``finditer`` never reuses a closing backtick as an opening one)
_SPAN = re.compile(r"`[^`\n]+`")
_GLUE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_$")


def _glued_substitution(text: str) -> str | None:
    """A backtick substitution glued to a word (r`echo m`, `printf r`m): its output becomes part of
    a command word. Markdown's inline code stands apart from the words around it."""
    for match in _SPAN.finditer(text) if "`" in text else ():
        start, end = match.span()
        if (start and text[start - 1] in _GLUE) or (end < len(text) and text[end] in _GLUE):
            return match.group()
    return None


#: categories whose commands do harm only when a shell runs them: as words in a document ("ask IT
#: to add me to sudoers", "run `netsh wlan show profiles`") they are prose (see scan.exec_issue)
DOCUMENT_SAFE = frozenset({"privilege", "security"})


def find_command(texts: tuple[str, ...] | list[str], skip: frozenset[str] = frozenset()) -> CommandHit | None:
    """The first denylisted command in any of ``texts`` (already folded variants), leaving out
    the categories named in ``skip``."""
    for category in CATEGORIES:
        if category.name in skip:
            continue
        for text in texts:
            match = category.pattern.search(text)
            if match:
                return CommandHit(category, match.group())
    for text in texts:
        span = _glued_substitution(text)
        if span:
            return CommandHit(_EXEC_CATEGORY, span)
    return None
