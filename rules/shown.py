"""Stored names as players read them, in the language of the moment: a stage or circuit by its display
name (its slug stays for commands and records), an AI seat by the language's word for it ("Gép 1")
whatever name the record keeps ("AI 1")."""

from __future__ import annotations

import re

from rules.i18n import N_, _, ngettext

# each shipped stage and circuit's display name (its slug, the file's name, is what commands take)
TRACK_NAMES = {
    "col-du-domestique": N_("Col du Domestique"),
    "first-race": N_("First race"),
    "flatlands": N_("Flatlands"),
    "grand-tour": N_("Grand tour"),
    "rolling-hills": N_("Rolling hills"),
    "ardennes": N_("Ardennes"),
    "flanders": N_("Flanders"),
    "roubaix": N_("Roubaix"),
    "canyon": N_("Canyon"),
    "island": N_("Island"),
    "itt-25": N_("Time trial, 25 hexagons"),
    "itt-50": N_("Time trial, 50 hexagons"),
    "itt-75": N_("Time trial, 75 hexagons"),
    "ttt-100": N_("Team time trial, 100 hexagons"),
    "leg-bohemia": N_("Bohemia"),
    "leg-ridge-and-river": N_("Ridge and river"),
}
AI_SEAT = re.compile(r"AI (\d+)")


def track_title(track: str) -> str:
    """A stage or circuit as a reader names it: "Col du Domestique", "a random route of 25 hexagons"
    (never its id, "random-25-s187431")."""
    name = track.split("/", 1)[-1]
    parts = name.split("-")
    if parts[0] == "random" and len(parts) >= 2 and parts[1].isdigit():
        n = int(parts[1])
        return ngettext("a random route of {n} hexagon", "a random route of {n} hexagons", n)
    if name in TRACK_NAMES:
        return _(TRACK_NAMES[name])
    words = " ".join(p for p in parts if p)
    return words[:1].upper() + words[1:]


def seat_name(name: str) -> str:
    """A player's stored name as read: an AI seat's ("AI 2", the same in every record) in the reader's
    language; a person's as they gave it."""
    ai = AI_SEAT.fullmatch(name)
    return _("AI {number}", number=ai.group(1)) if ai else name
