"""The Discord layer: slash commands, buttons and menus, posting; it calls the service layer and
turns its ``Outcome`` values into messages. ``app.py`` is the client that gathers it."""
