"""Sequence rules: what the steps do *together*, walked through the focus model.

The plan's steps are walked in order with a ``Focus`` (``anovax.safety.focus``): which class
of window the keys go to, whether a question could name it, and what is on its line. Typed
text and opened apps are judged in ``keystrokes``, key chords in ``chords``; both apply the
default-deny policy by ``TargetClass`` and keep the old name lists as a second line. This
module adds what only the whole plan shows:

* a web search opens a page that may or may not take the keyboard;
* a sub-task's steps may go anywhere (and a sub-task is never asked about, so none may start
  once a terminal is in front or shell input is held);
* exfiltration: a web address typed into an address bar together with a paste;
* one question, about one thing: shell input held for a yes cannot also store facts, nor share
  a plan with a GUI question (select all + delete, an app that logs out: ``anovax.safety.gui``
  keeps it in ``Focus.question`` and the walk goes on, so a later step may still refuse);
* the confirm verdict itself, naming the window the held input goes to.

``walk`` is shared with ``anovax.safety.carry``, which reports the focus a plan leaves behind.
"""

from __future__ import annotations

from anovax.plan import Plan, Step
from anovax.safety import appnames, ask, chords, keys, keystrokes
from anovax.safety.apps import AppKind
from anovax.safety.context import Context
from anovax.safety.focus import Focus, initial
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass
from anovax.toolspec import Effect, Sink, WindowAct

#: the name a question would use for the page a search opens (never asked about: BROWSER is vouched)
_SEARCH_PAGE = "the web browser"


def _window(state: Focus, act: WindowAct | None, name: str, index: int) -> None:
    """A window closed, minimised, maximised or restored: where the keys go afterwards.

    Maximising or restoring the window that has the keys keeps them there, and minimising another
    window leaves them where they were; minimising the window with the keys, or showing another
    (restore and maximise may raise it), lets the window manager pick: nobody named that one.
    A close may bring up its app's own "save changes?" dialog: no key may follow until a window
    is verified in front again (``open_app``, ``switch_to_app``)."""
    mine = bool(state.name) and appnames.same_app(name, state.name)
    if act is WindowAct.SHOW and mine:
        return
    if act is WindowAct.HIDE and not mine:
        return
    state.lose()
    if act not in (WindowAct.HIDE, WindowAct.SHOW):
        state.closed_at = index


def _step(state: Focus, index: int, step: Step, ctx: Context) -> Verdict | None:
    spec = ctx.registry[step.tool]
    verdict: Verdict | None = None
    for sink, value in spec.texts(step.params):
        if state.closed_at is not None and sink in (Sink.KEYS, Sink.TYPED):
            verdict = verdict or Verdict.refuse(Rule.GUI_DESTRUCTIVE, keystrokes.AFTER_CLOSE_REASON, step=index,
                                                detail=f"keys after the close of step {state.closed_at}")
            continue
        if sink is Sink.APP:
            verdict = verdict or keystrokes.open_app(state, value, ctx, index, by_name=True,
                                                     switched=spec.window_act is WindowAct.FOCUS)
            state.closed_at = None  # a window verified in front: the keys go there, not to a dialog
        elif sink is Sink.WINDOW:
            _window(state, spec.window_act, value, index)
        elif sink is Sink.KEYS:
            for chord in keys.parse(value):  # content.check_steps refused keys that do not parse
                verdict = verdict or chords.check(state, chord, ctx, index)
        elif sink is Sink.TYPED:
            verdict = verdict or keystrokes.type_text(state, value, ctx, index)
    if spec.effect is Effect.BROWSER:
        if state.shell_input or state.klass not in (None, TargetClass.TEXT, TargetClass.BROWSER):
            # a page opening in the background (focus-stealing prevention) may leave the keys where
            # they were, or not: no question could say which window gets them
            state.name = ""
        else:
            state.point(TargetClass.BROWSER, _SEARCH_PAGE, AppKind.BROWSER.value)
    elif spec.effect is Effect.SUBPLAN:
        if state.closed_at is not None:
            # the sub-task's keys could answer the closed app's "save changes?" dialog
            verdict = verdict or Verdict.refuse(Rule.GUI_DESTRUCTIVE, keystrokes.AFTER_CLOSE_REASON, step=index,
                                                detail="a sub-task after a close_app")
        if state.held or ctx.recovering:
            if state.known_shell or state.held:
                # one question about one thing; a recovery turn never hands a shell to a sub-task
                verdict = verdict or Verdict.refuse(Rule.SHELL_TYPING, step=index, detail="a sub-task into a terminal")
        elif state.known_shell:
            # the sub-task's steps are not known yet, so no question here could show them: it is
            # held, and at run time the sub-plan itself is checked against the window then in
            # front and asked about with its exact steps (the orchestrator defers this question)
            name = state.name or "the terminal"
            verdict = verdict or Verdict.confirm(
                Rule.SHELL_TYPING, f"Let a sub-task type into {name}?", step=index, target=name,
                action="let a sub-task type into", detail="a sub-task into a terminal")
        state.lose()  # the sub-plan may move the focus anywhere
    return verdict


def walk(plan: Plan, ctx: Context, state: Focus, *, stop: bool = True) -> Verdict | None:
    """Every step through the focus model; the first verdict (``stop``: and no further steps)."""
    first: Verdict | None = None
    for index, step in enumerate(plan.steps):
        verdict = _step(state, index, step, ctx)
        if verdict and first is None:
            first = verdict
            if stop:
                break
    return first


def check(plan: Plan, ctx: Context) -> Verdict | None:
    state = initial(ctx)
    verdict = walk(plan, ctx, state)
    if verdict:
        return verdict
    if state.url_step is not None and state.paste_step is not None:
        if state.address_bar or state.paste_step > state.url_step:
            return Verdict.refuse(Rule.EXFILTRATION, step=state.url_step, detail="web address typed with a paste")
    if state.held and state.question:
        # one question, about one thing: shell input and a GUI question cannot share a yes
        return Verdict.refuse(Rule.SHELL_TYPING, step=state.held[0][0], detail="shell input and another question")
    if state.question:
        if plan.remember:
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=state.question.step, detail="remember with a question")
        return state.question
    if state.held:
        if plan.remember:
            # one question, about one thing: a yes must not also store facts the question never showed
            return Verdict.refuse(Rule.SHELL_TYPING, step=state.held[0][0], detail="remember with shell input")
        return ask.confirm_shell(state.held, state.held_name)
    return None
