"""``domestique run``: the bot, with its token from the environment (never logged)."""

from __future__ import annotations

import logging
import os
import sys

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications, copy its token "
    "into DISCORD_TOKEN, and invite it with the applications.commands and bot scopes. "
    "To see Domestique without a token, run: domestique demo"
)


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 1
    from bot.discord_layer.app import DomestiqueBot

    db_path = os.environ.get("DOMESTIQUE_DB", "domestique.db")
    guild = os.environ.get("DOMESTIQUE_DEV_GUILD", "").strip()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = DomestiqueBot(db_path, dev_guild=int(guild) if guild.isdigit() else None)
    bot.run(token, log_handler=None)
    return 0
