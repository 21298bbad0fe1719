"""The agents that only read or wait or talk: time, date, screenshot, wait, speak, sub-tasks."""

from __future__ import annotations

from anovax.agents.base import AgentResult, ChildAgent
from anovax.desktop.base import Cancelled
from anovax.errors import PermanentToolError
from anovax.paths import shown


def _clock_time(hour: int, minute: int) -> str:
    # built by hand: strftime's %-I does not exist on Windows
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


class InfoAgent(ChildAgent):
    """get_time, get_date, screenshot: read-only, so they may be speculated and cached."""

    def do_work(self) -> AgentResult:
        desktop = self.ctx.desktop
        if self.step.tool == "screenshot":
            path = desktop.screenshot(self.cancel)
            if getattr(desktop, "name", None) == "simulated":
                # no file is written without a display: name no file as if it were (issue 18, round 2)
                folder = shown(path.parent)
                return AgentResult(value="simulated", say=f"No screenshot was taken: this desktop is simulated "
                                                          f"(on a real one it would go to {folder}).",
                                   data={"simulated": True, "folder": folder})
            # the folder too: "as anovax-….png" left a first-time user hunting for it
            where = shown(path)
            return AgentResult(value=str(path), say=f"I saved a screenshot to {where}.",
                               data={"path": str(path), "shown": where})
        now = desktop.now()
        if self.step.tool == "get_time":
            said = _clock_time(now.hour, now.minute)
            return AgentResult(value=now.strftime("%H:%M"), say=f"It's {said}.")
        said = f"{now:%A}, {now:%B} {now.day}, {now.year}"
        return AgentResult(value=now.date().isoformat(), say=f"Today is {said}.")


class TimingAgent(ChildAgent):
    """wait: an interruptible pause."""

    def do_work(self) -> AgentResult:
        seconds = float(self.step.params["seconds"])
        if self.cancel.wait(seconds):
            raise Cancelled("Stopped while waiting.")
        return AgentResult(value=f"waited {seconds:g} s")


class DialogAgent(ChildAgent):
    """speak: say something mid-plan, under the tts lock."""

    def do_work(self) -> AgentResult:
        text = self.step.params["text"]
        self.ctx.speak(text, self.cancel)
        return AgentResult(value=f"said {len(text)} characters")


class MetaAgent(ChildAgent):
    """plan_subtask: plan the sub-goal and run it one level deeper (plan → safety → dispatch)."""

    def do_work(self) -> AgentResult:
        goal = self.step.params["goal"]
        outcome = self.ctx.run_subtask(goal, self.cancel)
        if not outcome.ok:
            raise PermanentToolError(f"The sub-task '{goal[:60]}' did not finish: {outcome.error_summary()}")
        return AgentResult(value=f"sub-task done in {len(outcome.steps)} steps", say=outcome.spoken,
                           data={"steps": len(outcome.steps)})
