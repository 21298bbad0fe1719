"""The safety gate: every plan is untrusted input and must pass ``safety_check`` first.

Modules, in the order a plan meets them:

- ``verdict``: the Verdict returned (allow, confirm, refuse) and the stable rule codes;
- ``ask``: when shell input is held for a yes instead of refused, and the question;
- ``limits``: the field caps (plan size is ``anovax.plan.LIMITS``); ``context``: trusted runtime
  state, validated;
- ``check``: ``safety_check`` itself, orchestrating the stages below and never raising;
- ``shape``: tool allowlist, exact params, budgets, field caps, forbidden characters;
- ``canon``/``confusables``/``decode``: canonical and de-obfuscated forms for matching;
- ``commands``/``prose``/``web``/``leaks``/``keys``/``apps``: what each kind of text may hold;
  ``hoist``: their regex alternatives spelled to start with a literal (same matches, faster);
- ``scan``: one text, screened for the context it lands in;
- ``content``: per-step rules; ``forget``: forgetting facts the person did not name is asked about;
- ``targets``: the class of a window (the desktop's word, else the static allowlist);
  ``focus``: the focus model and the line encoding; ``keystrokes`` and ``chords``: the
  keyboard policy by class; ``sequence``: the walk, sub-tasks, searches, exfiltration;
- ``carry``: ``after(plan, before)``, the state a plan leaves for the next check;
- ``stream``: commands split across steps; ``memory``: facts to store; ``taint``: memory,
  screen text and the transcript steering the plan.
"""

from anovax.safety.carry import Carried, after
from anovax.safety.check import safety_check
from anovax.safety.verdict import Decision, Rule, Verdict

__all__ = ["Carried", "Decision", "Rule", "Verdict", "after", "safety_check"]
