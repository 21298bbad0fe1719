"""Well-known programs and what they are, per platform: the allowlist identity falls back on.

A program is looked up here when its desktop gives no better evidence (no ``.desktop`` entry on
Linux, always on Windows and macOS, where the process image or bundle id is the evidence). The
tables only ever *allow* (TEXT, BROWSER) what is listed; everything else is UNKNOWN, which the
safety gate treats like a shell. The SHELL and CODE rows are here so that a terminal or an
editor that can run code is named for what it is even when its desktop entry says "TextEditor".
"""

from __future__ import annotations

import re

from anovax.target import TargetClass

TEXT, BROWSER, CODE, SHELL = TargetClass.TEXT, TargetClass.BROWSER, TargetClass.CODE, TargetClass.SHELL


def _rows(**classes: str) -> dict[str, TargetClass]:
    return {name: TargetClass(kind) for kind, names in classes.items() for name in names.split()}


#: processes that give whoever types into them a command line: shells, interpreters, REPLs, and
#: the programs that carry keys to one elsewhere (ssh, tmux, su). Found *under* a window's process,
#: any of these makes the window SHELL. Versions are stripped first ("python3.11" -> "python").
SHELL_LIKE = frozenset("""
    sh bash dash zsh fish ksh mksh pdksh oksh ash csh tcsh busybox nu elvish xonsh pwsh powershell rbash
    python pypy ipython node nodejs deno bun perl ruby irb php lua luajit tclsh wish expect
    julia ghci guile sbcl clisp racket ocaml erl iex scala groovy jshell R rlwrap
    ssh mosh-client telnet tmux screen su sudo doas login gdb lldb psql mysql sqlite
""".split())

#: Linux executables (file name of /proc/PID/exe, or of the Exec program) and their class
LINUX_PROGRAMS = _rows(
    text="""gedit gnome-text-editor mousepad xed pluma leafpad l3afpad featherpad xedit kwrite
            abiword gnumeric soffice.bin libreoffice oosplash
            galculator gnome-calculator kcalc mate-calc qalculate-gtk qalculate-qt xcalc speedcrunch""",
    # x-www-browser: Debian's "default browser" alternative, which only a browser may provide
    browser="""x-www-browser firefox firefox-esr firefox-bin chromium chromium-browser chrome google-chrome google-chrome-stable
               brave brave-browser epiphany falkon midori vivaldi-bin opera""",
    # editors that run code, open a shell or a command line inside them
    code="""emacs emacs-gtk emacs-nox emacs-lucid xemacs gvim vim.gtk vim.gtk3 vim.athena nvim-qt neovide
            kate geany code codium code-oss vscodium sublime_text atom pycharm idea eclipse gnome-builder
            kdevelop qtcreator spyder thonny idle""",
    # terminal emulators (their own process; the shell under them is caught as well)
    shell="""xterm uxterm koi8rxterm lxterm x-terminal-emulator gnome-terminal gnome-terminal-server konsole
             xfce4-terminal mate-terminal lxterminal qterminal terminator tilix alacritty kitty wezterm
             wezterm-gui foot st urxvt rxvt rxvt-unicode sakura terminology guake tilda yakuake
             cool-retro-term eterm mlterm hyper tabby""",
)

#: Windows process images (lower case) and their class
WINDOWS_IMAGES = _rows(
    text="""notepad.exe wordpad.exe write.exe winword.exe excel.exe powerpnt.exe onenote.exe calc.exe
            calculatorapp.exe soffice.bin soffice.exe""",
    browser="chrome.exe msedge.exe firefox.exe brave.exe opera.exe vivaldi.exe",
    code="""code.exe codium.exe devenv.exe notepad++.exe sublime_text.exe pycharm64.exe idea64.exe
            emacs.exe runemacs.exe gvim.exe""",
    shell="""cmd.exe powershell.exe pwsh.exe conhost.exe openconsole.exe windowsterminal.exe wt.exe wsl.exe
             wslhost.exe bash.exe mintty.exe putty.exe alacritty.exe wezterm-gui.exe python.exe pythonw.exe
             py.exe node.exe""",
)

#: macOS bundle identifiers (as CFBundleIdentifier spells them) and their class
MAC_BUNDLES = _rows(
    text="""com.apple.TextEdit com.apple.Notes com.apple.calculator com.apple.iWork.Pages
            com.apple.iWork.Numbers com.apple.iWork.Keynote com.microsoft.Word com.microsoft.Excel
            com.microsoft.Powerpoint com.barebones.bbedit""",
    browser="""com.apple.Safari com.google.Chrome org.mozilla.firefox com.microsoft.edgemac
               com.brave.Browser org.chromium.Chromium""",
    code="""com.microsoft.VSCode com.apple.dt.Xcode com.sublimetext.4 com.jetbrains.pycharm
            org.gnu.Emacs org.vim.MacVim""",
    shell="""com.apple.Terminal com.googlecode.iterm2 io.alacritty net.kovidgoyal.kitty
             com.github.wez.wezterm dev.warp.Warp-Stable co.zeit.hyper""",
)

_VERSION = re.compile(r"[\d.]+$")


def program_key(name: str) -> str:
    """A program's file name without a version suffix: "python3.11" -> "python", "perl5.36" -> "perl"."""
    return _VERSION.sub("", name) or name


def shell_like(name: str) -> bool:
    """Whether a process running ``name`` (a file name) gives its keys a command line."""
    return program_key(name) in SHELL_LIKE or name in SHELL_LIKE


def linux_program(name: str) -> TargetClass | None:
    """The class of a well-known Linux program, by file name; None when it is not listed.

    A version suffix is ignored only for the classes that deny ("python3.11", "emacs29"): an
    allowed name is allowed exactly as listed."""
    exact = LINUX_PROGRAMS.get(name)
    if exact is not None:
        return exact
    keyed = LINUX_PROGRAMS.get(program_key(name))
    return keyed if keyed in (CODE, SHELL) else None


def windows_image(path: str) -> TargetClass | None:
    """The class of a Windows process image (a full path or a file name); None when not listed."""
    name = path.replace("/", "\\").rsplit("\\", 1)[-1].casefold()
    return WINDOWS_IMAGES.get(name)


def mac_bundle(bundle_id: str) -> TargetClass | None:
    """The class of a macOS app by bundle id (compared case-insensitively); None when not listed."""
    wanted = bundle_id.casefold()
    return next((kind for bid, kind in MAC_BUNDLES.items() if bid.casefold() == wanted), None)
