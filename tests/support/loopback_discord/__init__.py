"""A fault-injecting Discord of the project's own on 127.0.0.1, and the real ``domestique run`` against it
(docs/testing-discord.md): ``LoopbackDiscord`` (the server), ``BotProcess`` (the bot), ``race`` (a player's
session)."""

from tests.support.loopback_discord.process import BotProcess
from tests.support.loopback_discord.server import LoopbackDiscord
from tests.support.loopback_discord.world import Channel, Guild, Message, User

__all__ = ["BotProcess", "Channel", "Guild", "LoopbackDiscord", "Message", "User"]
