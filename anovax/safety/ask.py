"""When the gate asks instead of refusing, and the one question it asks.

A question is only worth asking when the person can see exactly what a yes would do. So shell
input is askable only as plain words and Enter: letters, digits, spaces and ``_ . / : = , @ % +
~ -``. Every character the shell would transform before running the line is out: expansions
(``r${x}m``), quotes (``r''m``), escapes and line continuations (``r\⏎m``), history (``!rm``,
``^a^b``), globs (``/???/?m``), pipes, redirections and separators. Keys other than plain
characters and Enter (editing, history, completion, ctrl+m) are refused by the sequence rules,
so the text shown is the line the shell gets. At most ``MAX_LINES`` commands and ``MAX_CHARS``
characters: a question read aloud or on a phone must stay short.

The content rules ran before this stage, so a flagged command (``rm -rf ~``, ``curl ... | sh``)
never becomes a question. ``shell_problem`` is the second line for terminals: programs and
arguments that change the system, reach the network, install code, run other code or read
secrets stay refused even with a yes, because a person skimming a question cannot be expected
to spot a typosquatted package or a credential file.
"""

from __future__ import annotations

import re

from anovax.safety.canon import plain
from anovax.safety.verdict import Rule, Verdict

#: the longest shell input a question may hold
MAX_CHARS = 120
#: commands (Enter presses) one question may hold
MAX_LINES = 3
#: what askable shell input may contain besides letters, digits and Enter
_PLAIN_PUNCT = frozenset(" _./:=,@+~-")  # no %: cmd.exe expands %VAR%
#: said when shell input is refused even though a person could have been asked
SHELL_REFUSED = "I won't run that kind of command in a terminal, even with your yes."

#: programs a yes never runs: they change or stop the system, move or destroy files, reach the
#: network, run other code or reveal secrets (second line: the first is the question itself)
_DENIED_PROGRAMS = frozenset("""
    sudo su doas pkexec runas gsudo rm rmdir mv dd shred truncate fallocate wipefs mkfs fdisk parted mount
    umount ln chmod chown chgrp chattr setfacl kill pkill killall xkill shutdown reboot halt poweroff systemctl
    service init telinit crontab at batch launchctl ufw iptables ip6tables nft firewall-cmd setenforce sysctl
    modprobe insmod rmmod ri del erase rd format remove-item curl wget nc ncat netcat socat ssh scp sftp rsync
    ftp telnet tftp exec eval source alias unalias export unset set env printenv fc r history bash sh zsh dash
    ksh csh tcsh fish python python2 python3 perl ruby node php lua tclsh osascript pwsh powershell cmd gpg
    gpg2 secret-tool keyring pass npx pipx uvx xargs nohup screen tmux disown tee sed awk gawk perl dpkg rpm
    iex invoke-expression iwr invoke-webrequest irm invoke-restmethod start-process set-executionpolicy
    stop-process reg sc net netsh bcdedit vssadmin wmic taskkill schtasks takeown icacls attrib cipher
    command builtin nice time timeout watch strace ltrace chroot unbuffer ionice taskset setsid flock stdbuf
    busybox script caffeinate start call
""".split())
#: tools with many subcommands: only these read-only ones are put to a person; the rest (install,
#: run, push, pull, exec, revert...) runs or fetches code, changes a repository or reaches a network
_READ_ONLY_SUBCOMMANDS: dict[str, frozenset[str]] = {
    tool: frozenset(subs.split()) for tool, subs in {
        "git": "status log diff show blame shortlog describe rev-parse ls-files grep help version --version",
        "pip": "list show freeze check --version -v help", "pip3": "list show freeze check --version -v help",
        "npm": "ls list view outdated --version -v help", "pnpm": "ls list outdated --version -v",
        "yarn": "list info outdated --version -v", "gem": "list --version", "cargo": "--version -v",
        "go": "version env help", "apt": "list show search policy", "apt-get": "--version",
        "aptitude": "show search", "dnf": "list info search", "yum": "list info search", "zypper": "search info",
        "pacman": "-q -qi -si -ss", "yay": "-ss", "paru": "-ss", "brew": "list info search --version",
        "snap": "list info find", "flatpak": "list info search", "choco": "list search", "winget": "list search show",
        "scoop": "list search info", "conda": "list info search --version", "mamba": "list search",
        "uv": "--version version", "poetry": "show --version", "composer": "show --version",
        "docker": "ps images version info --version", "podman": "ps images version info --version",
        "nerdctl": "ps images version", "kubectl": "get describe version", "nix": "--version",
        "dotnet": "--version --info --list-sdks", "deno": "--version", "bun": "--version",
        "svn": "status log diff info", "hg": "status log diff summary",
    }.items()
}
#: build and test tools run whatever the current folder's files say
_RUNS_FOLDER_CODE = frozenset("""make gmake ninja cmake just task mvn gradle gradlew ant meson bazel scons rake
    pytest tox nox jest mocha phpunit""".split())
_DENIED_EXTRA = frozenset("""nix-shell nix-env gh bunx pip-run emerge apk port pkg unlink install tar unzip 7z
    unrar pastebinit croc wormhole magic-wormhole az aws gcloud gsutil rclone zip bw op lpass run0 machinectl
    systemd-run gsettings dconf defaults yes find strings shred install-module install-package add-appxpackage
    dism""".split())
#: package managers that install when run bare
_BARE_INSTALLS = frozenset("yarn bun pnpm poetry composer".split())
_SCRIPT_EXT = re.compile(r"\.(?:sh|bash|zsh|ps1|psm1|bat|cmd|exe|com|py|pyw|pl|rb|js|mjs|vbs|msi|jar|run|bin|"
                         r"appimage|out|deb|rpm)$")
#: device and kernel files: /dev/zero fills a disk, /proc/self/environ holds secrets
_SYSTEM_PATH = re.compile(r"(?:^|[\s=:])/(?:dev|proc|sys)(?:/|\b)")
_NETWORK = re.compile(r"://|\b(?:\d{1,3}\.){3}\d{1,3}\b|@[\w-]+\.|(?<![\w-])[\w-]+\.(?:com|net|org|io|dev|sh|xyz|ru|"
                      r"cn|info|biz|me|co|us|uk|de|app|site|top|tk|ly|gg|cc|example|local|onion)\b")
#: secrets and the files that start shells: reading or writing them is not a yes/no matter
_SECRET_PATH = re.compile(r"(?:^|[\s/~])\.[\w-]|id_rsa|id_ed25519|id_ecdsa|\bpasswd\b|\bshadow\b|"
                          r"credential|secret|token|keychain|keyring|\bhistory\b")
_FORCE = re.compile(r"(?:^|\s)--?(?:force|delete|no-preserve-root|rf|fr)\b")


def unaskable(text: str, named: bool, recovering: bool) -> str | None:
    """Why this shell input cannot be put to the person, or None when it can. ``named``: the
    desktop, the runtime or an ``open_app`` step named the window, so the question can too."""
    if recovering:
        return "a recovery turn"
    if not named:
        return "a window reached without naming it"
    if not text:
        return "nothing to show"
    odd = next((ch for ch in text if not (ch == "\n" or (ch.isascii() and ch.isalnum()) or ch in _PLAIN_PUNCT)), None)
    if odd is not None:
        return f"a character the shell would transform, or a question could not show ({odd!r})"
    return None


def shell_problem(text: str) -> str | None:
    """Why this shell input (all of it so far) stays refused even with a yes, or None."""
    for line in text.lower().split("\n"):
        words = line.split()
        if not words:
            continue
        program = words[0]
        if "/" in program or "\\" in program or _SCRIPT_EXT.search(program) or program == ".":
            return "runs a program by its path or a script"
        if program in _DENIED_PROGRAMS or program in _DENIED_EXTRA:
            return f"the program {program}"
        if program in _RUNS_FOLDER_CODE:
            return "runs the current folder's build or test code"
        if program in _BARE_INSTALLS and len(words) == 1:
            return f"{program} alone installs packages"
        subs = _READ_ONLY_SUBCOMMANDS.get(program)
        if subs is not None and len(words) > 1 and words[1] not in subs:
            return f"{program} {words[1]}"
        if _SYSTEM_PATH.search(line):
            return "a device or kernel file"
        if _NETWORK.search(line):
            return "a network address"
        if _SECRET_PATH.search(line):
            return "a hidden file or a secret"
        if _FORCE.search(line):
            return "a forcing flag"
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
    """"terminal" -> "Terminal": the app as the question names it (hidden characters dropped)."""
    name = " ".join(plain(name).split())
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
                           detail=f"{len(held)} keystroke step(s) of shell input into {name}, held for a yes")
