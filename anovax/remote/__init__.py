"""The phone remote: a paired, locked-down web page that sends commands and watches the assistant.

``RemoteServer`` (runtime.py) serves ``create_app`` (server.py, routes.py) on waitress with
deadlines, connection caps and its own error pages (wsgi.py, wsgi_parse.py); gate.py lets
requests in, auth.py decides who may use it and bans.py keeps its bans across restarts;
streams.py and capture.py carry the live events and the live screen; page/ is the phone's page.
"""

from anovax.remote.auth import AuthPolicy, Ban, Guard
from anovax.remote.capture import Frame, MssScreen, SyntheticScreen
from anovax.remote.runtime import RemoteServer, lan_address
from anovax.remote.server import Limits, create_app

__all__ = ["AuthPolicy", "Ban", "Frame", "Guard", "Limits", "MssScreen", "RemoteServer", "SyntheticScreen",
           "create_app", "lan_address"]
