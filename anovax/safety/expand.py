"""Variables, aliases and echoed words, substituted the way a shell would before it runs a line.

``x=rm; $x -rf ~`` never spells ``rm -rf ~``, and neither do ``set a=del & %a% /s /q``,
``export R=rm; $R -rf /``, ``alias ls='rm -rf'; ls ~`` or ``$c='Remove-Item'; & $c C:\\``. The
shell builds the command from an assignment first, so the matcher reads one more variant of the
text: every assignment's value put in place of its uses (``$x``, ``${x}``, ``%x%``,
``$env:x``, and an alias's name where a command starts), and ``echo``/``printf`` inside a
substitution replaced by the words it prints (`` `echo rm` -rf ~``). The denylist then judges
the result like any other text, so ``x = 5`` or ``total = price * qty`` change nothing.

Linear and bounded: one scan collects at most ``MAX_NAMES`` assignments (values up to
``MAX_VALUE`` characters, each expanded once with the names known when it was made, so
``a=rm; b=$a`` works without a fixed point), one ``re.sub`` puts them in.
"""

from __future__ import annotations

import re

#: assignments remembered per text (bounded work, and more is not a real command line)
MAX_NAMES = 32
#: characters kept of one value
MAX_VALUE = 80

_NAME = r"[a-z_][\w]{0,31}"
_VALUE = rf"""(?:'([^'\n]{{0,{MAX_VALUE}}})'|"([^"\n]{{0,{MAX_VALUE}}})"|([^\s;&|'"()]{{1,{MAX_VALUE}}}))"""
#: sh ``x=rm``, ``export x=rm``, ``alias ls='rm -rf'``, cmd ``set a=del`` / ``set "a=del"``,
#: doskey ``d=del $*``, PowerShell ``$c = 'Remove-Item'`` (spaces around ``=`` allowed: PowerShell)
_ASSIGN = re.compile(rf"(?<![\w.\-$%])(\$?)({_NAME})[ ]*=[ ]*{_VALUE}")
#: PowerShell aliases: ``Set-Alias x Remove-Item``, ``sal x ri``, ``New-Alias -Name x -Value rm``
_PS_ALIAS = re.compile(
    rf"(?<![\w-])(?:set-alias|new-alias|sal|nal)[ ]+(?:-name[ ]+)?({_NAME})[ ]+(?:-value[ ]+)?([\w.\-]{{1,{MAX_VALUE}}})"
)
#: where a name is used: $x ${x} %x% $env:x
_USE = re.compile(rf"\$env:({_NAME})|\$\{{({_NAME})\}}|\$({_NAME})|%({_NAME})%")
#: a word where a command starts: the place an alias is expanded
_COMMAND_WORD = re.compile(rf"(^|[;&|(\n][ ]*)({_NAME})(?![\w\-=])", re.M)
#: an alias-like definition (its name is used bare, not as $name)
_ALIAS_WORDS = re.compile(r"(?:alias|doskey)[ ]+$")
#: `echo rm`, $(printf rm): the words a substitution prints
_ECHOED = re.compile(r"`[ ]*(?:echo|printf|write-output|write-host)[ ]+([^`\n]{0,80})`"
                     r"|\$\([ ]*(?:echo|printf|write-output)[ ]+([^()\n]{0,80})\)")


def _collect(text: str) -> tuple[dict[str, str], set[str]]:
    """(name -> value) in the order made, and which names are aliases (used bare)."""
    values: dict[str, str] = {}
    aliases: set[str] = set()
    for match in _ASSIGN.finditer(text):
        if len(values) >= MAX_NAMES:
            break
        _dollar, name, single, double, bare = match.groups()
        value = single if single is not None else double if double is not None else bare
        values[name] = _substitute(value, values)  # earlier names expand inside later values
        if _ALIAS_WORDS.search(text[max(0, match.start() - 10):match.start()]):
            aliases.add(name)
    for match in _PS_ALIAS.finditer(text):
        if len(values) >= MAX_NAMES:
            break
        values[match.group(1)] = match.group(2)
        aliases.add(match.group(1))
    return values, aliases


def _substitute(text: str, values: dict[str, str]) -> str:
    if not values or ("$" not in text and "%" not in text):
        return text

    def use(match: re.Match[str]) -> str:
        name = next(g for g in match.groups() if g is not None)
        return values.get(name, match.group())

    return _USE.sub(use, text)


def changed_lines(folded: str) -> str:
    """Only the lines ``expand`` changed ("" when none did): the rest were already scanned as they
    are, so the extra reading costs what the tricks cost, not the whole text again. Substitution
    keeps the lines (no value holds a newline), so line starts stay command positions."""
    expanded = expand(folded)
    if expanded == folded:
        return ""
    return "\n".join(new for old, new in zip(folded.split("\n"), expanded.split("\n")) if old != new)


def expand(folded: str) -> str:
    """``folded`` with assignments and echoed words substituted into their uses (or unchanged)."""
    text = folded
    if "echo" in text or "printf" in text or "write-" in text:
        text = _ECHOED.sub(lambda m: (m.group(1) if m.group(1) is not None else m.group(2)).strip("'\" "), text)
    if "=" not in text and "alias" not in text and "sal " not in text:
        return text
    values, aliases = _collect(text)
    if not values:
        return text
    text = _substitute(text, values)
    if aliases:
        text = _COMMAND_WORD.sub(
            lambda m: m.group(1) + values[m.group(2)] if m.group(2) in aliases else m.group(), text)
    return text
