"""GUI sequences that destroy or leak without any shell: the rules for vouched windows.

A browser or an editor takes text and keys without asking (``anovax.safety.keystrokes``), but a
few sequences there do what the typed words never show:

* the address bar: after ctrl+l, alt+d, F6 (or the search bar's ctrl+k / ctrl+e) in a browser,
  what is typed is opened as an address or sent as a search when Enter goes. It is checked like
  a link and a search: no script or local schemes, no network shares or local paths, no data in
  a query string or a user name, no secrets (the whole address, from the bar key on, so text
  typed in several steps or by an earlier plan is read as one);
* developer tools (F12, ctrl+shift+i/j/c/k, cmd+option+i/j/c/u) open a console that runs script
  on the page with the user's sessions: refused in a browser and in any window not vouched as
  TEXT. In a text editor or office app they are ordinary keys (Save As, italic, small caps);
  ctrl+u (view source) only shows the page, so it stays a key like any other;
* select all, then delete, cut, paste or type over it: everything in the window goes at once,
  so a person is asked first, naming the window (copy, undo and save after a select all are
  not asked about). So are shift+delete where nobody said which window has the keys, and
  delete in an app's file dialog (it deletes the selected file);
* apps that end the session (log out, shut down, restart) are asked about; apps that reset or
  reinstall the system are refused; remote-control software typed into an app store (the
  tech-support scam's first step) is refused.

One question per plan, about one window: a second, about another window, refuses the plan.
A recovery turn never asks: what would have been a question is refused.
"""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

from anovax import sites
from anovax.safety import address, ask, keys, leaks, urldata, web
from anovax.safety.apps import AppKind
from anovax.safety.canon import fold
from anovax.safety.context import Context
from anovax.safety.focus import FILE_DIALOG, KEEPS_SELECTION, Focus, decode_for_scan, encode
from anovax.safety.lexicon import words
from anovax.safety.scan import mentioned_chords, secret_issue
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass

_DEVTOOLS_REASON = "I won't open a browser's developer tools: their console runs code with your logins."
_RESET_REASON = "I won't open tools that reset, reinstall or wipe the computer."
_REMOTE_REASON = "I won't install remote-control software: scammers use it to take over computers."
_ONE_QUESTION = "one question per plan, about one window"
#: keys that keep the address bar's text being edited (anything else hands the keys back to the page)
_ADDRESS_EDIT = frozenset(keys.ADDRESS_BAR + keys.BROWSER_ADDRESS_BAR) | frozenset(
    frozenset(k) for k in ({"backspace"}, {"delete"}, {"left"}, {"right"}, {"home"}, {"end"}, {"space"},
                           {"ctrl", "a"}, {"ctrl", "backspace"}, {"ctrl", "left"}, {"ctrl", "right"},
                           {"shift", "left"}, {"shift", "right"}, {"shift", "home"}, {"shift", "end"}))
#: what replaces a whole selection besides typed characters: cut, delete, paste
_CLEARS = (frozenset({"ctrl", "x"}), frozenset({"delete"}), frozenset({"backspace"}), frozenset({"shift", "delete"}),
           frozenset({"ctrl", "backspace"}), frozenset({"ctrl", "delete"})) + keys.PASTE
#: keys after a select all that leave the text as it was: copy, undo, redo, save, formatting
_KEEPS = frozenset(frozenset(name.split("+")) for name in KEEPS_SELECTION) | {
    frozenset({"ctrl", "z"}), frozenset({"ctrl", "s"}), frozenset({"ctrl", "y"}), frozenset({"ctrl", "shift", "z"}),
    frozenset({"ctrl", "b"}), frozenset({"ctrl", "i"}), frozenset({"ctrl", "u"}), frozenset({"shift"}), frozenset({"ctrl"})}
#: remote-control and remote-support tools, spelled with or without a space or hyphen
#: remote-control tools, from the lexicon's one list; "any-desk", "team_viewer" read as "any desk"
_REMOTE_CONTROL = re.compile(words("remote"))
_NAME_GLUE = str.maketrans("._-", "   ")


def ask_about(state: Focus, ctx: Context, index: int, question: str, action: str, detail: str,
              target: str = "") -> Verdict | None:
    """Hold the plan for a yes before step ``index`` (the first such question wins; one about
    another window refuses); a recovery turn never asks, so there it is a refusal. ``{target}``
    in ``question`` and ``action`` is the window's name (default: the one with the keys)."""
    target = target or (ask.display_name(state.name) if state.name else "the window in front")
    if ctx.recovering:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail=f"{detail} (recovery turn)")
    if state.question is not None:
        if state.question.target != target:
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail=f"{detail} ({_ONE_QUESTION})")
        return None
    state.question = Verdict.confirm(Rule.GUI_DESTRUCTIVE, question.replace("{target}", target), step=index,
                                     target=target, action=action.replace("{target}", target), detail=detail)
    return None


def address_problem(address: str, said: str = "", memory: tuple[str, ...] = (), typed_before: str = "",
                    search_hosts: tuple[str, ...] = ()) -> str | None:
    """Why an address-bar entry must not be opened or searched for, or None. ``said``: what the
    user said; an address whose query data the user dictated ("youtube.com/watch?v=dQw4w9WgXcQ")
    carries nothing of theirs they did not hand over themselves."""
    text = address.strip()
    if not text:
        return None
    # a browser decodes what it is given before it reads the scheme: "jav&#97;script:", "%6Aavascript:"
    for reading in dict.fromkeys((text, html.unescape(text), unquote(text), unquote(html.unescape(text)))):
        problem = web.scheme_problem(reading, query=False) or web.local_problem(reading)
        if problem:
            return problem
    if web.unc_problem(text):
        return "network share"
    leak = urldata.problem(text, said, memory, typed_before, search_hosts)
    if leak:
        return leak
    if secret_issue(text) or leaks.assigned_in_query(text):
        return "a secret"
    return None


def _address(state: Focus, typed: str, index: int, ctx: Context, *, sent: bool = False) -> Verdict | None:
    problem = address_problem(state.address + typed, ctx.user_text, tuple(value for _, value in ctx.memory),
                              decode_for_scan(ctx.session_tail), ctx.search_hosts)
    if problem:
        return Verdict.refuse(Rule.EXFILTRATION if "data" in problem or "secret" in problem else Rule.URL_SCHEME,
                              step=index, detail=f"address bar: {problem}")
    return _opened((state.address + typed).strip(), index, ctx) if sent else None


def _opened(entry: str, index: int, ctx: Context) -> Verdict | None:
    """An address Enter sends from the bar: a remembered fact in its host or path leaves as surely
    as one in its query ("<fact>.attacker.example" reaches that host's name server). A plain address
    otherwise opens, as it always did; open_website asks about one the request does not hold."""
    site = sites.resolve(entry) if entry and not any(ch.isspace() for ch in entry) else "a search"
    if isinstance(site, str) or ("." not in site.host and not sites.looks_like_site(site, entry)):
        return None  # words the browser searches for: the query rules above judged them
    if address.carries_fact(site, ctx) and not address.named(site, ctx.user_text):
        return Verdict.refuse(Rule.PERSONAL_DATA, step=index, detail="address bar: a remembered fact in the address")
    return None


def store_issue(state: Focus, typed: str, index: int) -> Verdict | None:
    """Remote-control software named in an app store's window (whatever its class: by its kind)."""
    if state.where == AppKind.APP_STORE.value and _REMOTE_CONTROL.search(fold(decode_for_scan(state.line) + typed).translate(_NAME_GLUE)):
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, _REMOTE_REASON, step=index, detail="remote control from a store")
    return None


def _cleared(state: Focus, ctx: Context, index: int, how: str) -> Verdict | None:
    state.selected_all = False
    state.deleted_all = how != "type"  # then Enter (a form sent empty, a file saved blank) is refused
    verb = {"type": "Replace", "cut": "Cut"}.get(how, "Delete")
    return ask_about(state, ctx, index, verb + " everything in {target}" + (" with new text?" if how == "type" else "?"),
                     verb.lower() + " everything in {target}", f"select all + {how}")


def _answers_prompt(chord_: keys.Chord) -> bool:
    """An access key (alt + one letter) a browser's permission prompt answers to (Firefox: alt+a
    "Allow"); alt+d is the address bar, never a prompt's button."""
    rest = chord_ - {"alt", "shift"}
    return "alt" in chord_ and len(rest) == 1 and next(iter(rest)) in "abcefghijklmnopqrstuvwxyz"


def chord(state: Focus, chord_: keys.Chord, ctx: Context, index: int) -> Verdict | None:
    """A chord in a vouched (or unclaimed) window, before it lands on the line."""
    if state.klass is TargetClass.BROWSER and _answers_prompt(chord_) and chord_ not in mentioned_chords(ctx.user_text):
        # policy: a browser's alt+letter may click "Allow" on a camera, microphone, location or
        # notification prompt a page raised; only the person's own words may press it unasked
        return ask_about(state, ctx, index, f"Press {encode(chord_).strip('<>')} in {{target}}? It may "
                         "answer a permission prompt (camera, microphone, location).",
                         f"press {encode(chord_).strip('<>')} in {{target}}",
                         "a browser access key the request did not name")
    if any(tools <= chord_ for tools in keys.DEVTOOLS) and state.klass is not TargetClass.TEXT:
        return Verdict.refuse(Rule.LAUNCHER_HOTKEY, _DEVTOOLS_REASON, step=index, detail=f"developer tools {encode(chord_)}")
    char = keys.typed_char(chord_)
    if state.omnibox_from is not None:
        if chord_ == frozenset({"enter"}):
            return _address(state, "", index, ctx, sent=True)
        if chord_ not in _ADDRESS_EDIT and (char is None or char == "\t"):
            state.omnibox_from = None  # tab, escape, a shortcut: the page has the keys again
        return None
    if state.selected_all and chord_ != keys.SELECT_ALL and chord_ not in _KEEPS:
        if chord_ in _CLEARS or char is not None:
            if chord_ == frozenset({"ctrl", "x"}):
                return _cleared(state, ctx, index, "cut")
            typing = chord_ in keys.PASTE or (char is not None and char != "\b")
            return _cleared(state, ctx, index, "type" if typing else "delete")
        state.selected_all = False  # moved, undone or saved: the selection is gone or harmless
        return None
    if "delete" in chord_ and state.where == FILE_DIALOG:
        return ask_about(state, ctx, index, "Delete the selected file in {target}'s file dialog?",
                         "delete a file in {target}", "delete in a file dialog")
    if chord_ == frozenset({"shift", "delete"}) and state.klass is None:
        # permanent delete in a file manager, cut in an editor: nobody said which this is
        return ask_about(state, ctx, index, "Delete what is selected in {target} for good?",
                         "delete in {target}", "shift+delete in an unnamed window")
    return None


def typed(state: Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """Text typed into a vouched (or unclaimed) window, before it lands on the line."""
    if state.omnibox_from is not None:
        line, *rest = text.replace("\r", "\n").split("\n", 1)
        return _address(state, line, index, ctx, sent=bool(rest))
    if state.selected_all and text:
        return _cleared(state, ctx, index, "type")
    return None


def opened(state: Focus, kind: AppKind, name: str, ctx: Context, index: int) -> Verdict | None:
    """An app about to open: one that resets the system is refused, one that ends the session asked."""
    if kind is AppKind.SYSTEM_RESET:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, _RESET_REASON, step=index, detail="system reset app")
    if kind is AppKind.SESSION_END:
        shown = ask.display_name(name)
        return ask_about(state, ctx, index, "Open {target} (it can sign you out or shut the computer down)?",
                         "open {target}", "session-ending app", target=shown)
    return None
