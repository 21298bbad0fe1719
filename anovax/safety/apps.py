"""Application names: what open_app may be given, and what kind of app a name is.

open_app takes a *name*, never a path or a command line. Until the fixed app table arrives
(a later issue) the rule is an allowlist by charset and shape, not a list of apps: letters,
digits, spaces and ``_ . + ( ) -`` (ASCII punctuation only, so Windows "best-fit" quote
look-alikes cannot smuggle arguments), no token starting with ``-``, no ``..``, no script or
installer extension, no domain, and no interpreter followed by arguments. Opening a terminal
by name is allowed; what is typed afterwards is the focus rules' business.
"""

from __future__ import annotations

import re
import unicodedata
from enum import Enum

from anovax.safety.canon import fold, is_disguised, plain

_ALLOWED_PUNCT = frozenset(" _.+()-")
_EXT = re.compile(r"\.(?:exe|app|lnk|desktop)$")
_SPLIT = re.compile(r"[\s\-_.]+")
_VERSIONISH = re.compile(r"^\(?(?:v?\d[\d.]*|\d+-?bit|x64|x86|preview|beta|insiders?)\)?$")

#: script, installer and shortcut extensions: launching one runs arbitrary code
_BAD_EXT = re.compile(
    r"\.(?:bat|cmd|ps1|psm1|psd1|vbs|vbe|js|jse|wsf|wsh|hta|scr|msi|msp|mst|com|pif|reg|sh|bash|zsh|py|pyw|pl|rb|"
    r"jar|cpl|inf|url|application|gadget|appref-ms|scf|library-ms|search-ms|settingcontent-ms|dll|sct|xsl|ocx|"
    r"iso|img|vhd|vhdx|zip|mov)$"  # .com is both a DOS executable and a web address; .zip/.mov are both too
)
#: a web address rather than an app ("www.example.org"); "Paint.NET" and "draw.io" are apps
_WEB_ADDRESS = re.compile(r"^www\.|\.(?:html?|php|aspx?)$")

#: full names of terminals, shells, REPLs and run boxes (single words)
_TERMINAL_SINGLE = """
    terminal wt cmd powershell pwsh run command bash sh zsh fish dash ksh csh tcsh ash mksh yash nu nushell
    elvish xonsh xterm uxterm konsole alacritty kitty tilix terminator wezterm urxvt rxvt foot st hyper tabby
    warp guake yakuake tilda terminology sakura termite lxterminal qterminal kgx ptyxis blackbox eterm iterm
    iterm2 mintty cygwin msys2 cmder conemu wsl ubuntu debian kali opensuse termux putty ssh mosh telnet ftp
    mobaxterm securecrt termius xshell ghostty windterm rio contour jupyter jupyterlab rstudio spyder thonny
    tmux screen byobu zellij
    sftp python python2 python3 py ipython bpython ptpython pypy pypy3 idle node nodejs deno bun irb pry ruby
    ghci psql mysql mariadb sqlite sqlite3 mongo mongosh sqlcmd sqlplus lua luajit perl php r rterm julia
    scala jshell clj clojure erl iex racket guile sbcl ocaml utop tclsh wish gdb lldb octave busybox adb dosbox
    conhost nslookup kterm stterm mlterm aterm mrxvt zutty extraterm lilyterm termit footclient urxvtc xiterm
    idle3 ipython3 tkcon drracket wxmaxima maxima sage gp psysh kotlin kotlinc groovysh swift dotnet csi fsi
    radian elixir lein amm ion osh oil rc es expect script krunner albert ulauncher rofi dmenu wofi fuzzel
    vi vim gvim nvim neovim ex ed mc ranger vifm nnn lf stack spotlight alfred raycast launchy wox keypirinha
    commandline cmdline tcc 4nt cmd32 clink murex wayst kmscon cathode edex-ui edex ish far farmanager totalcmd
    doublecmd rgui bc dc swipl prolog clisp chez gforth coqtop scilab mathematica wolframscript wolfram tsx
    ammonite gdb-multiarch r2 radare2 rizin frida scapy metasploit msfconsole minicom picocom lftp remmina
    rdesktop xfreerdp vncviewer tigervnc anydesk teamviewer qemu virtualbox vmware virt-manager nano micro helix
    hx hexchat irssi weechat kupfer synapse kickoff bemenu flow-launcher powertoys quicksilver launchbar cerebro
    openssh
"""
#: multi-word names of the same
_TERMINAL_MULTI = """windows terminal,command prompt,windows powershell,powershell ise,run dialog,run box,git bash,
kali linux,cool retro term,python idle,developer command prompt,developer powershell,anaconda prompt,
node.js command prompt,redis cli,gnome terminal,mate terminal,xfce4 terminal,windows subsystem for linux,
run command,interactive ruby,command line,st 256color,windows console host,powertoys run,start menu,
midnight commander"""
TERMINAL_NAMES = frozenset(_TERMINAL_SINGLE.split()) | frozenset(
    n.strip() for n in _TERMINAL_MULTI.replace("\n", "").split(",")
)

#: words that make any name a terminal ("GNOME Terminal", "Anaconda Prompt", "Python 3.12")
_TERMINAL_WORDS = frozenset(
    """terminal shell console prompt cmd powershell pwsh bash zsh fish ksh csh tcsh xterm uxterm konsole
    alacritty tilix terminator wezterm urxvt rxvt guake yakuake tilda lxterminal qterminal mintty cygwin
    msys2 cmder conemu iterm iterm2 repl python python2 python3 ipython bpython pypy node nodejs irb ghci
    psql mysql sqlite3 mongosh sqlcmd sqlplus julia jshell wsl putty mobaxterm securecrt termius xshell
    ghostty jupyter jupyterlab rstudio matlab octave spyder thonny ubuntu debian kali ruby perl tmux byobu
    zellij ssh rdp vnc""".split()
)
#: a word ending or starting like this names a terminal emulator (kterm, aterm, mlterm, termit)
_TERM_WORD = re.compile(r"^(?:\w*term|term\w*)$")
#: a REPL or shell name with a version glued on ("idle3", "wish8.6", "tclsh8.6", "python3.12")
_VERSIONED = re.compile(r"(?:python|pypy|py|php|lua|perl|ruby|node|idle|ipython|tclsh|wish|guile|ghci|julia|ubuntu|debian|kali|"
                        r"racket|sbcl|ocaml|scala|erl|elixir|swift|kotlin|deno|bun|powershell|pwsh|cmd|jshell|spyder|"
                        r"bash|zsh|fish)[\d.]*")

#: programs that must never be opened by name: they run other code, change the system or are commands
DENIED_APPS = frozenset(
    """regedit regedt32 diskpart mshta regsvr32 rundll32 certutil bitsadmin cscript wscript msiexec
    installutil msbuild cmstp forfiles pcalua msdt odbcconf msxsl wmic schtasks at reg sc net net1 netsh
    bcdedit vssadmin wbadmin cipher sdelete taskkill tskill shutdown format del erase rd rmdir rm mimikatz
    psexec paexec runas sudo su doas pkexec gsudo curl wget scp nc ncat netcat socat mkfs dd fdisk parted
    attrib icacls takeown fsutil wevtutil auditpol bootrec bootsect hh syncappvpublishingserver
    presentationhost mavinject xwizard esentutl extrac32 diskshadow dnscmd ieexec infdefaultinstall
    regasm regsvcs rpcping scriptrunner atbroker control.exe cmdkey vaultcmd reboot poweroff halt logoff
    killall pkill chmod chown crontab launchctl systemctl""".split()
)

#: denied names that also start real app names ("Format Factory", "Net Limiter"): refused only alone
_ALSO_WORDS = frozenset("at sc net format del erase rd rm dd nc su halt reboot control.exe chmod".split())

#: interpreters and shells: with anything after them the name is a command line
_INTERPRETERS = frozenset(
    """cmd powershell pwsh bash sh zsh fish dash ksh csh tcsh ash wsl python python2 python3 py pypy pypy3
    ipython node nodejs deno bun ruby irb perl php lua luajit tclsh osascript julia rscript busybox explorer
    mshta wscript cscript""".split()
)

_FILE_MANAGERS = frozenset(
    ["explorer", "file explorer", "files", "file manager", "nautilus", "dolphin", "thunar", "nemo", "pcmanfm",
     "caja", "finder", "this pc", "my computer", "windows explorer", "konqueror", "krusader", "spacefm", "xfe"]
)
_IDES = frozenset(
    ["code", "vscode", "vs code", "visual studio code", "vscodium", "codium", "code oss", "cursor", "windsurf",
     "zed", "pycharm", "intellij", "intellij idea", "idea", "webstorm", "phpstorm", "clion", "goland", "rider",
     "rubymine", "datagrip", "android studio", "fleet", "eclipse", "netbeans", "kate", "geany", "atom", "lapce",
     "qt creator", "qtcreator", "visual studio", "kdevelop", "gnome builder", "builder", "emacs", "xemacs",
     "spacemacs", "doom emacs", "notepad++", "notepadqq", "sublime", "sublime text", "subl", "textmate"]
)
#: what a runtime reports when it does not know the focused window: never a name to vouch for
PLACEHOLDER_NAMES = frozenset(["unknown", "none", "null", "nil", "desktop", "window", "focused window",
                               "the focused window", "n/a", "na", "app", "application", "undefined"])
_PLACEHOLDER_WORDS = frozenset(["unknown", "none", "null", "nil", "undefined", "unnamed", "untitled", "unavailable",
                                "unk", "notitle"])
#: shell commands that are not apps: typed into a launcher that runs command lines, they run
_COMMANDS = frozenset("""ls dir cat type echo pwd cd whoami id uname ps top kill cp mv rm mkdir rmdir touch
    chmod chown grep find sed awk curl wget ssh scp git sudo su env export set history which where tree
    head tail less more man apt pip npm yes dd tee xargs nohup exec eval source""".split())
_RECYCLE_BINS = frozenset(["recycle bin", "recyclebin", "trash", "wastebasket", "bin", "deleted items"])
_BROWSERS = frozenset(
    ["browser", "web browser", "chrome", "google chrome", "chromium", "firefox", "mozilla firefox", "edge",
     "microsoft edge", "msedge", "brave", "opera", "vivaldi", "safari", "tor browser", "librewolf", "waterfox"]
)
_SYSTEM_APPS = frozenset(
    ["settings", "windows settings", "system settings", "system preferences", "control panel", "control",
     "task manager", "taskmgr", "activity monitor", "system monitor", "services", "services.msc",
     "device manager", "devmgmt.msc", "disk management", "diskmgmt.msc", "computer management",
     "compmgmt.msc", "event viewer", "eventvwr", "gpedit", "gpedit.msc", "secpol.msc", "windows security",
     "windows defender", "defender", "msconfig", "system configuration", "recovery", "backup",
     "disk utility", "gnome disks", "gparted", "mmc", "taskschd.msc", "task scheduler", "windows update"]
)
#: app stores: their search box is harmless, but what is typed there may be installed
_APP_STORES = frozenset(
    ["microsoft store", "ms store", "windows store", "store", "app store", "appstore", "mac app store",
     "gnome software", "software", "ubuntu software", "snap store", "snap-store", "snapstore", "software center",
     "ubuntu software center", "discover", "plasma discover", "play store", "google play", "google play store",
     "pamac", "pamac manager", "add/remove software", "software manager", "mintinstall", "appcenter", "flathub"]
)
#: parts of a folded, squeezed app name that end the session or power the computer off
_SESSION_END = re.compile(r"log(?:out|off)|signout|shutdown|poweroff|reboot|restart|hibernate|sessionquit|"
                          r"endsession|exitsession|leavesession|lockandquit")
#: parts of a folded, squeezed app name that reset, reinstall or wipe the system
_SYSTEM_RESET = re.compile(r"systemreset|factoryreset|resetthispc|resetpc|recovery|reinstall|"
                           r"eraseallcontent|wipedevice|freshstart|recoverydrive|recoveryenvironment|refreshpc")


class AppKind(str, Enum):
    """What focus the plan is in after an app opens (drives the sequence rules)."""

    TERMINAL = "terminal"
    #: an editor or IDE with a built-in terminal panel a key opens
    IDE = "ide"
    BROWSER = "browser"
    RECYCLE_BIN = "recycle_bin"
    FILE_MANAGER = "file_manager"
    SYSTEM = "system"
    #: log out, shut down, restart: opening one ends the session (asked first)
    SESSION_END = "session_end"
    #: reset this PC, factory reset, recovery: opening one can wipe the system (refused)
    SYSTEM_RESET = "system_reset"
    #: an app store (its search is fine; remote-control software typed there is not)
    APP_STORE = "app_store"
    OTHER = "other"


def app_key(name: str) -> str:
    """The folded app name without an .exe/.app suffix."""
    return _EXT.sub("", fold(name)).strip()


def _is_terminal(key: str) -> bool:
    words = [w for w in _SPLIT.split(key) if w]
    joined = " ".join(words)
    if key in TERMINAL_NAMES or joined in TERMINAL_NAMES or any(w in _TERMINAL_WORDS for w in words):
        return True
    squeezed = key.replace(" ", "")
    if squeezed in TERMINAL_NAMES or squeezed in ("commandprompt", "windowsterminal", "gitbash"):
        return True  # "c m d", "commandprompt"
    if any(part in key for part in ("terminal", "console", "xterm", "command line", "commandline", "cmdline",
                                    "ssh")) or any(_TERM_WORD.match(w) for w in words):
        return True
    # "R 4.3.1", "Ubuntu 22.04 LTS", "Ruby 3.2 (x64)": a REPL or shell name plus a version
    if words and words[0] in TERMINAL_NAMES and all(_VERSIONISH.match(w) or w == "lts" for w in words[1:]):
        return True
    return bool(_VERSIONED.fullmatch(key)) or any(_VERSIONED.fullmatch(w) for w in words[:1])


def kind(name: str) -> AppKind:
    key = app_key(name)
    words = [w for w in _SPLIT.split(key) if w]
    joined = " ".join(words)
    if _is_terminal(key):
        return AppKind.TERMINAL
    if key in _RECYCLE_BINS or joined in _RECYCLE_BINS:
        return AppKind.RECYCLE_BIN
    if key in _BROWSERS or joined in _BROWSERS:
        return AppKind.BROWSER
    if key in _IDES or joined in _IDES:
        return AppKind.IDE
    if key in _FILE_MANAGERS or joined in _FILE_MANAGERS:
        return AppKind.FILE_MANAGER
    squeezed = "".join(words)
    if _SYSTEM_RESET.search(squeezed):
        return AppKind.SYSTEM_RESET
    if _SESSION_END.search(squeezed):
        return AppKind.SESSION_END
    if key in _SYSTEM_APPS or joined in _SYSTEM_APPS:
        return AppKind.SYSTEM
    if key in _APP_STORES or joined in _APP_STORES:
        return AppKind.APP_STORE
    return AppKind.OTHER


def is_placeholder(name: str) -> bool:
    """A focused-window name that says nobody knows: "(unknown)", "no active window", "0x3a00007",
    "pid 1234", "Window 1", "desktop"."""
    key = app_key(name)
    words = re.findall(r"[a-z0-9]+", key)
    if not words or key in PLACEHOLDER_NAMES or " ".join(words) in PLACEHOLDER_NAMES:
        return True
    if any(w in _PLACEHOLDER_WORDS for w in words) or words[0] in ("no", "not", "pid", "error", "nothing"):
        return True
    # a window id or a process number rather than a name
    return all(re.fullmatch(r"\d+|0x[0-9a-f]+", w) or w in ("window", "win", "id", "pid") for w in words)


def is_command(typed: str) -> bool:
    """Text whose first word is a shell command rather than an app's name ("ls", "rm notes")."""
    words = app_key(typed).split()
    return bool(words) and words[0] in _COMMANDS


def may_open_terminal(typed: str) -> bool:
    """Text typed into a search launcher ("powers", "termi", "comman") that the launcher may
    complete to a terminal: a terminal name itself, or the start of one."""
    key = app_key(typed)
    if not key:
        return False
    if kind(key) is AppKind.TERMINAL:
        return True
    return any(name.startswith(key) for name in TERMINAL_NAMES) or any(w.startswith(key) for w in _TERMINAL_WORDS)


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a plain application name, or None. (Control characters and
    length were checked before this.)"""
    if unicodedata.normalize("NFKC", name) != name:
        return "compatibility look-alike characters"  # ｃｍｄ, 𝐜𝐦𝐝: the executor would see other bytes
    text = plain(name).strip()
    if not text:
        return "empty"
    for ch in text:
        if not (ch.isalnum() or ch in _ALLOWED_PUNCT):
            return f"character {ch!r} is not allowed in an app name"
    if ".." in text:
        return "parent-directory reference"
    tokens = text.split()
    if any(t.startswith(("-", "+")) for t in tokens):
        return "command-line switch"
    if any(is_disguised(t) for t in re.findall(r"\w+", text)):
        return "mixed-script look-alike letters"
    key = app_key(name)
    if _BAD_EXT.search(key) or _WEB_ADDRESS.search(key):
        return "script, installer or web address instead of an app"
    words = key.split()
    if key in DENIED_APPS or (words and words[0] in DENIED_APPS and words[0] not in _ALSO_WORDS):
        return "system tool that runs commands"
    if words and words[0] in _INTERPRETERS and len(words) > 1 and " ".join(words) not in TERMINAL_NAMES:
        if not all(_VERSIONISH.match(w) for w in words[1:]):
            return "interpreter with arguments"
    return None
