"""The games' data files (tracks, tiles, dice, boards of roads), one folder per game named as its
rules package. Read through ``rules.resources`` (importlib.resources), so a built wheel carries them."""
