"""The real ``domestique run``, pointed at a loopback Discord: ``python run_bot.py`` with ``LOOPBACK_API``
(``http://127.0.0.1:PORT/api/v10``) and ``LOOPBACK_GATEWAY`` (``ws://127.0.0.1:PORT/gateway``) besides the
bot's own ``DISCORD_TOKEN`` and ``DOMESTIQUE_DB``.

Nothing in ``bot/`` changes: discord.py's REST base and default gateway are set here before the client is
built, and the bot is told to print one marker line when it is ready (``loopback: ready``) and when it
resumes (``loopback: resumed``), so a test waits on those instead of guessing. ``LOOPBACK_SECOND_TIMERS=1``
also lets ``/race new timer:`` take seconds (``timer:5sec``), so a test sees a timer fire in seconds.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

READY = "loopback: ready"
RESUMED = "loopback: resumed"


def point_at_loopback(api: str, gateway: str) -> None:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api  # REST and the interactions' webhooks (they share Route)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def announce_ready() -> None:
    """``make_bot``'s bot prints a marker line on ready and on resume; the guilds' wait is short."""
    from bot.discord_layer import app

    made = app.make_bot

    def make_bot(db: str, **options: Any) -> app.DomestiqueBot:
        bot = made(db, guild_ready_timeout=0.2, **options)

        async def on_ready() -> None:
            print(READY, file=sys.stderr, flush=True)

        async def on_resumed() -> None:
            print(RESUMED, file=sys.stderr, flush=True)

        bot.on_ready = on_ready  # type: ignore[attr-defined]
        bot.on_resumed = on_resumed  # type: ignore[attr-defined]
        return bot

    app.make_bot = make_bot  # bot.cli.run imports it when it runs


def second_timers() -> None:
    """``timer:5sec`` is five seconds (the bot's least is a minute: too long for a test)."""
    from bot.service import durations, lobby

    durations.UNITS.update(sec=1, second=1)
    durations.TIMER_MIN = 1  # type: ignore[misc]
    lobby.TIMER_MIN = 1  # type: ignore[misc]


def die_with_the_test() -> None:
    """On Linux, SIGTERM this process when the test process that started it dies (a killed pytest leaves
    no bot running)."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def main() -> int:
    die_with_the_test()
    point_at_loopback(os.environ["LOOPBACK_API"], os.environ["LOOPBACK_GATEWAY"])
    announce_ready()
    if os.environ.get("LOOPBACK_SECOND_TIMERS"):
        second_timers()
    from bot.cli import main as domestique

    return domestique(["run"])


if __name__ == "__main__":
    raise SystemExit(main())
