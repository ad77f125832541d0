"""The offline demo: a whole race among AI players through the bot's own service layer and
SQLite file, writing the board images, the channel's messages and the record to a folder."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from rules.i18n import Language, speaking

GUILD, CHANNEL, HOST = 1, 10, 1001


async def run_demo(
    out: Path, *, game: str, track: str | None = None, players: int = 4, seed: int = 7, language: Language = "en"
) -> list[str]:
    """Play the race; returns the lines the channel would show. ``language``: the demo server's and its
    host's (the channel, the boards and the host's own answers in it), as Discord would tell the bot."""
    out.mkdir(parents=True, exist_ok=True)
    db = out / "domestique-demo.db"
    for stale in out.glob("domestique-demo.db*"):
        stale.unlink()
    storage = SqliteStorage(str(db))
    await storage.open()
    service = RaceService(storage)
    transcript: list[str] = []
    images = 0
    await service.languages.seen(GUILD, language, HOST, language)  # as an interaction tells the bot
    try:
        with speaking(language):  # the host's own answers (the channel's speak the server's language)
            outcome = await service.lobby.new_race(
                GUILD,
                CHANNEL,
                HOST,
                "Demo host",
                game=game,
                track=track,
                seed=seed,
                timer=3600,
            )
            for _ in range(players - 1):
                outcome = await service.lobby.add_ai(CHANNEL, HOST)
            transcript.append(outcome.reply)
            outcome = await service.lobby.start(CHANNEL, HOST)
            while True:
                if outcome.lobby_edit is not None:  # in Discord the lobby message is edited to read this
                    transcript.append(f"(the lobby message now reads)\n{outcome.lobby_edit.text}")
                elif outcome.retire:  # in Discord the answered prompt is edited to show this line
                    transcript.append(outcome.retire)
                for post in outcome.posts:
                    transcript.append(post.text)
                    if post.image is not None and not post.image_name.endswith(".png"):
                        (out / post.image_name).write_bytes(post.image)  # the finish's recap.gif
                    elif post.image is not None:
                        images += 1
                        (out / f"board-{images:03d}.png").write_bytes(post.image)
                race = await storage.active_race(CHANNEL)
                if race is None:
                    break
                loaded = await service.core.store.load(race)
                rules, state = loaded.game, loaded.state
                decision = rules.rules.pending(state)
                if decision is None:
                    break
                # the demo host plays like the AI, through the same buttons a person would press
                action = rules.ai(state, decision.player)
                choices = rules.rules.choices(state, decision.player)
                index = next(i for i, c in enumerate(choices) if c.action == action)
                if choices[index].anytime:  # eating a kept tile: typed, as a person would
                    outcome = await service.core.play(CHANNEL, HOST, action.text().split(" ", 1)[1])
                    continue
                outcome = await service.core.decide(race.id, race.version, HOST, index)
            exported = await service.reading.export(CHANNEL)
            assert exported.file is not None
            (out / exported.file[0]).write_bytes(exported.file[1])
            (out / "channel.md").write_text("\n\n".join(transcript) + "\n", encoding="utf-8")
    finally:
        await storage.close()
    return transcript


async def serve_demo(out: Path, address: str, language: Language = "en") -> None:
    """Serve the demo race's page (``demo --web``) until interrupted, its URL printed on a line of its own.
    The page is served as ``domestique run`` serves it: by a process of its own (``bot/web/process.py``)."""
    import signal

    from bot.web.process import WebProcess
    from bot.web.server import parse_address, settings_for

    database = str(out / "domestique-demo.db")
    storage = SqliteStorage(database)
    await storage.open()
    try:
        race = await storage.latest_race(CHANNEL)
        assert race is not None
        token = await storage.web_token("race", race.id)
    finally:
        await storage.close()
    host, port = parse_address(address)
    pages = WebProcess(settings_for(database), (host, port))
    await pages.start()
    try:
        print("The race's page (Ctrl-C stops serving it):", flush=True)
        shown = f"?lang={language}" if language != "en" else ""
        print(f"http://{host}:{pages.port}/r/{token}{shown}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        await pages.stop()


def main(
    out: str, game: str, track: str | None, players: int, seed: int, web: bool = False, language: Language = "en"
) -> int:
    demo = run_demo(Path(out), game=game, track=track, players=players, seed=seed, language=language)
    transcript = asyncio.run(demo)
    images = sorted(Path(out).glob("board-*.png"))
    print("\n".join(line for line in transcript[-3:]))
    print(
        f"\n{len(images)} board images, the race's recap (recap.gif), the record and the channel's messages "
        f"are in {out}/ "
        f"(SQLite file: {out}/domestique-demo.db)"
    )
    if web:
        import os

        from bot.web.process import WebProcessFailed
        from bot.web.server import DEMO_ADDRESS, BadAddress

        address = os.environ.get("DOMESTIQUE_WEB", "").strip() or DEMO_ADDRESS
        try:
            asyncio.run(serve_demo(Path(out), address, language))
        except (BadAddress, OSError, WebProcessFailed) as exc:
            print(f"domestique demo: cannot serve the page: {exc}", file=sys.stderr)
            return 1
    return 0
