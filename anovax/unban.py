"""What the console and the orb say after "unban" (the phone remote's bans are lifted).

A module of its own so that neither front end imports the remote (Flask, waitress) to say it.
"""

from __future__ import annotations


def unban_message(lifted: object) -> str:
    """What the console and the orb say after "unban" (``lifted``: how many bans the remote lifted)."""
    if not isinstance(lifted, int) or isinstance(lifted, bool):
        return "Every banned address may try again."
    if lifted == 0:
        return "No address was banned."
    return f"Lifted {lifted} ban{'s' if lifted != 1 else ''}: every address may try again."
