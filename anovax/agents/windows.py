"""The window tools' agent: switch to, close, minimise, maximise, restore an app, and list what is open.

The desktop does the work and verifies it (``anovax.desktop.windowing``); this agent picks the
window, decides what an empty answer means, and says what happened from the evidence: a switch
to an app with no window launches it, a close that brought up the app's own "save changes?"
dialog says so, and nothing open is a plain sentence, never a "done".
"""

from __future__ import annotations

from typing import Any

from anovax.agents.base import AgentResult, ChildAgent
from anovax.desktop.base import launch_evidence
from anovax.desktop.windowing import AppWindow, CloseOutcome, WindowState, app_names, spoken_list
from anovax.errors import PermanentToolError

#: the state each state tool asks for, and the word its messages use
_STATES = {"minimize_app": (WindowState.MINIMIZED, "minimise"), "maximize_app": (WindowState.MAXIMIZED, "maximise"),
           "restore_app": (WindowState.NORMAL, "restore")}


def _named(name: str) -> str:
    name = " ".join(name.split())
    return name[:1].upper() + name[1:]


def _port(desktop: Any, method: str) -> Any:
    found = getattr(desktop, method, None)
    if not callable(found):
        raise PermanentToolError("This desktop can't list or manage windows.", code="no_window_tools")
    return found


class WindowAgent(ChildAgent):
    """switch_to_app, close_app, minimize_app, maximize_app, restore_app and list_windows."""

    def do_work(self) -> AgentResult:
        tool = self.step.tool
        if tool == "list_windows":
            windows = _port(self.ctx.desktop, "app_windows")(None)
            names = app_names(windows)
            return AgentResult(value=", ".join(names) or "no windows", say=spoken_list(windows),
                               data={"apps": names})
        name = self.step.params["name"]
        windows: list[AppWindow] = _port(self.ctx.desktop, "app_windows")(name)
        self.cancel.check()
        if tool == "switch_to_app":
            return self._switch(name, windows)
        if tool == "close_app":
            return self._close(name, windows)
        state, verb = _STATES[tool]
        if not windows:
            raise PermanentToolError(f"{_named(name)} isn't open, so there's nothing to {verb}.", code="not_open")
        # restoring: the window that is minimised or maximised, not one already normal in front
        pick = next((w for w in windows if w.state is not WindowState.NORMAL), windows[0]) \
            if state is WindowState.NORMAL else windows[0]
        data = {"app": pick.app, "window": hex(pick.window), "state": state.value}
        if state is WindowState.NORMAL and pick.state is WindowState.NORMAL:
            return AgentResult(value=f"{pick.app} already normal", data=data,
                               say=f"{pick.app} is already its normal size. Say 'minimise {name}' to hide it.")
        _port(self.ctx.desktop, "set_window_state")(pick, state, self.cancel)
        say = f"Restored {pick.app}." if state is WindowState.NORMAL else ""
        return AgentResult(value=f"{pick.app} {state.value}", say=say, data=data)

    def _switch(self, name: str, windows: list[AppWindow]) -> AgentResult:
        desktop = self.ctx.desktop
        if not windows:  # nothing to switch to: open it (a verified launch, as open_app)
            detail = desktop.launch_app(name, self.cancel)
            self.ctx.set_current_app(name)
            data: dict[str, object] = {"app": name, "launched": True}
            evidence = launch_evidence(desktop)
            if evidence is not None:
                data["verified"] = evidence.as_data()
            return AgentResult(value=detail, say=f"{_named(name)} wasn't open, so I opened it.", data=data)
        window = windows[0]  # topmost: the one the person used last
        _port(desktop, "focus_window")(window, self.cancel)
        self.ctx.set_current_app(name)
        return AgentResult(value=f"switched to {window.app}", data={
            "app": name, "launched": False, "verified": {"window": hex(window.window), "title": window.title,
                                                         "app": window.app, "windows": len(windows)}})

    def _close(self, name: str, windows: list[AppWindow]) -> AgentResult:
        if not windows:
            raise PermanentToolError(f"{_named(name)} isn't open, so there's nothing to close.", code="not_open")
        window = windows[0]
        outcome = _port(self.ctx.desktop, "close_window")(window, self.cancel)
        data = {"app": window.app, "window": hex(window.window), "outcome": outcome.value}
        if outcome is CloseOutcome.ASKING:
            return AgentResult(value="its save dialog is waiting",
                               say=f"{window.app} is asking whether to save your changes.", data=data)
        if outcome is CloseOutcome.DIALOG_OPEN:
            return AgentResult(value="a dialog of it is waiting",
                               say=f"{window.app} has a dialog open that is waiting for your answer.", data=data)
        more, others = len(windows) - 1, app_names(windows[1:])
        if not others:
            rest = ""
        elif others == [window.app]:
            rest = f" {more} more {window.app} window{'s are' if more > 1 else ' is'} still open."
        else:  # "close the browser" with Chrome and Firefox open: what is left is Firefox, by its name
            rest = f" {' and '.join(others)} {'are' if len(others) > 1 else 'is'} still open."
        return AgentResult(value=f"closed {window.app}", say=f"Closed {window.app}.{rest}", data=data)
