"""Acts only the user's own words justify: closing an app, and cancelling every timer.

Closing a window is polite (its app asks "save changes?"), but the plan decides which windows go,
and a reminder cancelled is a medication dose missed. So, default-deny on what the request names:

- a close (``WindowAct.CLOSE``) of an app the request does not name is asked about, one question
  for all such apps. "Named" goes through the app tables (``appnames``): "close my text editor"
  names mousepad. "Close it" / "close this" names the window that has the keys.
- never closed by a plan: AnovaX itself (where a question would be answered), security and
  antivirus tools (the lexicon's security names), and a name that means every app ("all",
  "everything", "all windows").
- a parameter that may sweep everything (``ToolSpec.sweeping_param``: ``cancel_timer "all"``) is
  asked about unless the request itself says all, every or everything; "all" is recognised after
  folding (``canon.fold``: full-width "ａｌｌ", Cyrillic "аll").
- any other value of that parameter (a timer's label) is asked about unless the request names it:
  its words, generic ones ("timer", "the") and number words aside, are among the request's words;
  a generic label ("the timer") needs a word that cancels in the request.

A sub-plan's request is a goal a model wrote, so every such act there asks; a recovery turn never
asks (refused instead), nor does a plan that also stores facts (one question, about one thing).
"""

from __future__ import annotations

from anovax.plan import Plan
from anovax.safety import appnames, targets
from anovax.safety.canon import fold
from anovax.safety.context import Context
from anovax.safety.lexicon import lazy_words
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass
from anovax.timers.model import cancels_all, is_generic
from anovax.toolspec import Sink, WindowAct

_SECURITY = lazy_words("security")
_SWEEP = lazy_words("sweep")
_EVERYTHING = lazy_words("everything")
#: words that make a name mean more than one app ("all", "every app", "the rest")
_MANY = frozenset("""all every everything each any anything everyone other others rest alle alles jede tous tout toutes
    chaque todos todas todo cada tutti tutte tutto ogni elke""".split())
#: how a request points at the window it is in ("close it", "close this window")
_DEICTIC = frozenset("it this that current".split())
#: words of a label that name no timer of their own ("the 5 minute timer")
_LABEL_FILLER = frozenset("a an the my one timer timers reminder reminders alarm alarms countdown to about for".split())
_NUMBERS = {w: str(n) for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                             "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
_NUMBERS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "half": "30"})
#: words that cancel, in the request ("stop the timer")
_CANCELS = frozenset("cancel cancels stop delete remove clear off dismiss end rid kill abort".split())
_SELF_REASON = "I won't close my own window: it is where you answer my questions."
_SECURITY_REASON = "I won't close security or antivirus software."
_ALL_REASON = "I won't close every app at once: name the ones you want closed."


def _focused_name(ctx: Context) -> str:
    if ctx.target is not None:
        return ctx.target.app or ctx.target.title
    return ctx.focused_app or ""


def _close_problem(name: str) -> str | None:
    """Why no plan may close ``name`` whatever was said, or None."""
    if targets.static_class(name) is TargetClass.ASSISTANT or "anovax" in appnames.key(name).replace(" ", ""):
        return _SELF_REASON
    if _SECURITY.search(appnames.key(name)):
        return _SECURITY_REASON
    if _MANY.intersection(appnames.key(name).split()):
        return _ALL_REASON
    return None


def _named(name: str, said: str, focused: str, ctx: Context) -> bool:
    if ctx.depth >= 1:
        return False  # a sub-plan's request is a goal a model wrote, not the person's words
    if appnames.named_in(name, said):
        return True
    return bool(focused) and bool(_DEICTIC.intersection(said.split())) and appnames.same_app(name, focused)


def _label_words(text: str) -> set[str]:
    return {_NUMBERS.get(w, w) for w in appnames.words_of(text).split()}


def _label_named(label: str, said: str, ctx: Context) -> bool:
    """Whether the request names the timer ``label`` cancels (see the module docstring)."""
    if ctx.depth >= 1:
        return False
    heard = _label_words(said)
    if is_generic(fold(label)):
        return bool(_CANCELS & heard)
    wanted = _label_words(label) - _LABEL_FILLER
    return bool(wanted) and wanted <= heard


def _ask(plan: Plan, ctx: Context, index: int, question: str, target: str, action: str, detail: str) -> Verdict:
    if ctx.recovering or plan.remember:
        return Verdict.refuse(Rule.UNASKED, step=index, detail=detail)
    return Verdict.confirm(Rule.UNASKED, question, step=index, target=target, action=action, detail=detail)


def check(plan: Plan, ctx: Context) -> Verdict | None:
    said = appnames.words_of(ctx.user_text)
    focused = _focused_name(ctx)
    unnamed: list[tuple[int, str]] = []
    sweep: tuple[int, str] | None = None
    labels: list[tuple[int, str]] = []
    for index, step in enumerate(plan.steps):
        spec = ctx.registry[step.tool]
        for sink, value in spec.texts(step.params):
            if sink is Sink.WINDOW and spec.window_act in (None, WindowAct.CLOSE):
                reason = _close_problem(value)
                if reason:
                    return Verdict.refuse(Rule.UNASKED, reason, step=index, detail="close_app: never by a plan")
                if not _named(value, said, focused, ctx):
                    unnamed.append((index, targets.question_name(value) or "an app"))
        sweeping = spec.sweeping_param and step.params.get(spec.sweeping_param)
        if isinstance(sweeping, str) and cancels_all(fold(sweeping)):
            if sweep is None and (ctx.depth >= 1 or not (_SWEEP.search(said) or _EVERYTHING.search(said))):
                sweep = (index, step.tool)
        elif spec.sweeping_param and isinstance(sweeping, str) and not _label_named(sweeping, said, ctx):
            labels.append((index, sweeping))
    if labels and not sweep:
        shown = ", ".join(dict.fromkeys(ascii(label)[1:-1] if not label.isprintable() else f'"{label}"'
                                        for _, label in labels))
        if unnamed:
            return Verdict.refuse(Rule.UNASKED, step=unnamed[0][0], detail="two questions in one plan")
        return _ask(plan, ctx, labels[0][0], f"Cancel your {shown} timer? You didn't ask me to.", "your timers",
                    "cancel a timer", "cancel_timer: a timer the request does not name")
    if unnamed and sweep:
        return Verdict.refuse(Rule.UNASKED, step=unnamed[0][0], detail="two questions in one plan")
    if unnamed:
        names = ", ".join(dict.fromkeys(name for _, name in unnamed))
        return _ask(plan, ctx, unnamed[0][0], f"Close {names}? You didn't ask me to.", names, "close",
                    "close_app: an app the request does not name")
    if sweep:
        return _ask(plan, ctx, sweep[0], "Cancel all your timers and reminders?", "your timers", "cancel every timer",
                    f"{sweep[1]}: everything, when the request named one")
    return None
