"""AnovaX: a local-first desktop voice assistant.

A command (spoken, typed into the orb, or sent from the phone) enters through
``Assistant.on_speech``; a planner turns it into a ``Plan``; ``safety_check``
decides whether it may run.
"""

__version__ = "0.1.0"
