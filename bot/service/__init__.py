"""The service layer: one method per user intent, in parts composed by ``races.RaceService``. It never imports discord.

``store.py`` reads races (row, game, state); ``core.py`` applies, saves and reports decisions with
the parts a commit needs (``pace_clocks.py``, ``catch_up.py``, ``web_pages.py``, ``listeners.py``);
``lobby.py``, ``reading.py``, ``timers.py``, ``pace.py``, ``away.py``, ``people.py``, ``recap.py``
hold the intents; ``model.py`` the plain values handed to the Discord layer; ``seats.py`` the
lobby seats.
"""
