"""Board images drawn with Pillow: read a track and a state, return PNG (or GIF) bytes.

The drawing kit (palette, text, pieces, camera, encoding, recap, standings) is here; each game's
painters are in ``renderer/<game>/``, found through ``renderer.registry``.

Every picture is designed to be read 400 px wide on a phone: see docs/board.md.
"""
