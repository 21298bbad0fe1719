"""set_timer, set_reminder, timers_left, cancel_timer: requests to the app's timer service."""

from __future__ import annotations

from datetime import datetime

from anovax.agents.base import AgentResult, ChildAgent
from anovax.errors import NothingToCancel, PermanentToolError
from anovax.timers.model import Kind
from anovax.timers.when import parse_when


class TimerAgent(ChildAgent):
    """Sets, reads and cancels timers; what it did is said in the reply."""

    def do_work(self) -> AgentResult:
        timers = self.ctx.timers
        if timers is None:
            raise PermanentToolError("Timers are not available here.")
        params = self.step.params
        command_id = self.ctx.command_id
        # the service raises TimerError (a PermanentToolError) with the sentence for the user
        if self.step.tool == "set_timer":
            timer = timers.add(Kind.TIMER, str(params["label"]), seconds=float(params["seconds"]), command_id=command_id)
        elif self.step.tool == "set_reminder":
            due = parse_when(str(params["when"]), datetime.fromtimestamp(timers.now()))
            if due is None:
                raise PermanentToolError(f"I couldn't tell when '{params['when']}' is: say, for example, "
                                         "'in 10 minutes' or 'at 3 pm'.")
            timer = timers.add(Kind.REMINDER, str(params["text"]), due=due.timestamp(), command_id=command_id)
        elif self.step.tool == "timers_left":
            said = timers.left_message()
            return AgentResult(value=said, say=said)
        else:
            try:
                gone = timers.cancel(str(params["label"]), command_id)
            except NothingToCancel as exc:  # an answer, not a failure: the plan goes on
                return AgentResult(value=exc.message, say=exc.message, data={"cancelled": []})
            said = "Cancelled your " + _join([t.name for t in gone]) + "."
            return AgentResult(value=said, say=said, data={"cancelled": [t.timer_id for t in gone]})
        said = timer.set_message(timers.now())
        if getattr(timers, "one_shot", False):
            said += (" AnovaX exits after this command, so it will only go off when you start AnovaX again"
                     " (it tells you then if it was missed).")
        elif getattr(timers, "rehearsal", False):
            said += " This is a simulation: the timer is not kept, so it will not go off."
        return AgentResult(value=said, say=said, data=timer.to_dict())


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
