"""The service layer: one method per user intent, gathered in ``races.RaceService``. It never imports discord.

``core.py`` loads, applies, saves and reports; ``lobby.py``, ``reading.py`` and ``timers.py``
hold the intents; ``model.py`` the plain values handed to the Discord layer; ``seats.py`` the
lobby seats.
"""
