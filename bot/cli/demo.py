"""The offline demo: a whole race among AI players through the bot's own service layer and
SQLite file, writing the board images, the channel's messages and the record to a folder."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.leagues.alliance import AllianceService
from bot.leagues.pacts import PactService
from bot.service.model import Elsewhere, Outcome, Post
from bot.service.races import RaceService
from bot.service.store import Opened
from bot.storage import RaceRow
from bot.storage.sqlite import SqliteStorage
from rules.i18n import Language, speaking
from rules.pacts import PactKind
from rules.registry import default_track

GUILD, CHANNEL, HOST = 1, 10, 1001
THREAD = 11  # the alliance's private thread (``--alliances``)


async def run_demo(
    out: Path,
    *,
    game: str,
    track: str | None = None,
    players: int = 4,
    seed: int = 7,
    language: Language = "en",
    alliances: bool = False,
) -> list[str]:
    """Play the race; returns the lines the channel would show. ``language``: the demo server's and its
    host's (the channel, the boards and the host's own answers in it), as Discord would tell the bot.
    ``alliances``: the host and the first AI player ally and make each of the game's pacts; the alliance's
    private thread, each choice marked as breaking one (asked again, then taken) and the ledger at the
    finish are in the transcript."""
    out.mkdir(parents=True, exist_ok=True)
    db = out / "domestique-demo.db"
    for stale in out.glob("domestique-demo.db*"):
        stale.unlink()
    storage = SqliteStorage(str(db))
    await storage.open()
    service = RaceService(storage)
    allied = AllianceService(service, storage) if alliances else None
    pacts = PactService(allied, storage) if allied is not None else None
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
            if allied is not None and pacts is not None:
                transcript += await _ally(service, allied, pacts)
            outcome = await service.lobby.start(CHANNEL, HOST)
            while True:
                if outcome.lobby_edit is not None:  # in Discord the lobby message is edited to read this
                    transcript.append(f"(the lobby message now reads)\n{outcome.lobby_edit.text}")
                elif outcome.retire:  # in Discord the answered prompt is edited to show this line
                    transcript.append(outcome.retire)
                for post in outcome.posts:
                    transcript.append(post.text)
                    transcript += _marked(post)
                    if post.image is not None and not post.image_name.endswith(".png"):
                        (out / post.image_name).write_bytes(post.image)  # the finish's recap.gif
                    elif post.image is not None:
                        images += 1
                        (out / f"board-{images:03d}.png").write_bytes(post.image)
                transcript += _in_thread(outcome)
                move = await _host_move(service, storage, CHANNEL)
                if move is None:
                    break
                outcome = move.outcome
                if move.asked is not None:
                    transcript.append(f"(asked of the host alone) {move.asked}")
            exported = await service.reading.export(CHANNEL)
            assert exported.file is not None
            (out / exported.file[0]).write_bytes(exported.file[1])
            (out / "channel.md").write_text("\n\n".join(transcript) + "\n", encoding="utf-8")
    finally:
        await storage.close()
    return transcript


async def _ally(service: RaceService, allied: AllianceService, pacts: PactService) -> list[str]:
    """In the lobby: the host allies with the first AI player (its thread stands for Discord's private
    one), then proposes each of the game's pacts, which the AI accepts at once."""
    race = await service.storage.active_race(CHANNEL)
    assert race is not None
    host = next(str(s["player"]) for s in race.lobby["seats"] if not s.get("ai"))
    ai = next(str(s["player"]) for s in race.lobby["seats"] if s.get("ai"))
    lines = [f"(/alliance invite ai:{ai}) {allied_text(await allied.ally_ai(race, CHANNEL, host, ai))}"]
    mine = await allied.mine(race, host)
    assert mine is not None
    await allied.thread_opened(mine.id, THREAD)
    for kind in pact_kinds(race):
        made = await pacts.propose(CHANNEL, HOST, kind.id, None, None, True)  # public: marked on the buttons
        lines.append(f"(/alliance pact kind:{kind.id} public:True) {made.reply}")
        lines += [
            f"(in the channel) {post.text}"
            for effect in made.effects
            if isinstance(effect, Elsewhere) and effect.channel_id == CHANNEL
            for post in effect.outcome.posts
        ]
        lines += _in_thread(made)
    return lines


def allied_text(outcome: Outcome) -> str:
    return " ".join(p.text for p in outcome.posts)


def _in_thread(outcome: Outcome) -> list[str]:
    """What the alliance's private thread is told (only its members read it)."""
    return [
        f"(in the alliance's private thread) {post.text}"
        for effect in outcome.effects
        if isinstance(effect, Elsewhere) and effect.channel_id == THREAD
        for post in effect.outcome.posts
    ]


def _marked(post: Post) -> list[str]:
    """The choices on a prompt that would break a pact, as their buttons and menu lines read."""
    if post.prompt is None:
        return []
    return [f"(on its button) {c.label} — {c.breaks}" for c in post.prompt.choices if c.breaks]


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
    out: str,
    game: str,
    track: str | None,
    players: int,
    seed: int,
    web: bool = False,
    language: Language = "en",
    alliances: bool = False,
) -> int:
    demo = run_demo(
        Path(out), game=game, track=track, players=players, seed=seed, language=language, alliances=alliances
    )
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


LEAGUE_CHANNEL = 20


async def run_league_demo(
    out: Path, *, game: str, stages: int, players: int = 4, seed: int = 7, language: Language = "en"
) -> dict[str, list[str]]:
    """``demo --league N``: an N-stage league (its alliances scored) among the demo host and AI players.
    In stage 1 the host allies with the first AI player; the alliance rides on into every stage, where
    they make the game's pacts. Writes each stage's channel (``stage-N.md``), the alliance's thread
    (``alliance-thread.md``), the standings images after each stage and the team classification's."""
    import datetime
    import random

    from bot.leagues.league import LeagueService

    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("domestique-demo.db*"):
        stale.unlink()
    storage = SqliteStorage(str(out / "domestique-demo.db"))
    await storage.open()
    clock = [datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC).timestamp()]
    seeds = random.Random(seed)
    service = RaceService(storage, now=lambda: clock[0], seeds=lambda: seeds.getrandbits(63))
    leagues = LeagueService(service, storage)
    allied = AllianceService(service, storage)
    pacts = PactService(allied, storage)
    leagues.stage_opened.append(allied.carry_over)
    leagues.pact_tally = pacts.tally
    leagues.teams = allied.teams
    channels: dict[str, list[str]] = {"league.md": [], "alliance-thread.md": []}
    made: dict[int, str] = {}

    async def make_channel(_parent: int, name: str) -> int:
        channel = 100 + len(made)
        made[channel] = f"stage-{len(made) + 1}.md"
        channels[made[channel]] = [f"# {name}"]
        return channel

    def tell(channel: int, outcome: Outcome) -> None:
        shown = channels[made.get(channel, "league.md")]
        if outcome.retire:
            shown.append(outcome.retire)
        for post in outcome.posts:
            shown.append(post.text)
            shown += _marked(post)
        for effect in outcome.effects:
            if isinstance(effect, Elsewhere) and effect.channel_id == THREAD:
                channels["alliance-thread.md"] += [p.text for p in effect.outcome.posts]
            elif isinstance(effect, Elsewhere):
                tell(effect.channel_id, effect.outcome)

    await service.languages.seen(GUILD, language, HOST, language)
    track = default_track(game)
    try:
        with speaking(language):
            said = await leagues.create(
                GUILD, HOST, "Demo league", LEAGUE_CHANNEL, game=game, stages=",".join([track] * stages), teams=True
            )
            channels["league.md"].append(said.reply)
            await leagues.join(GUILD, None, HOST, "Demo host", None)
            for _ in range(players - 1):
                await leagues.add_ai(GUILD, None, HOST, True, None)
            channels["league.md"].append((await leagues.close(GUILD, None, HOST, True)).reply)
            league = (await storage.leagues(GUILD))[0]
            for number in range(1, stages + 1):
                stage = (await storage.stages(league.id))[number - 1]
                clock[0] = max(clock[0], (stage.due or clock[0]) + 1)
                for channel, outcome in await leagues.tick(make_channel):
                    tell(channel, outcome)
                stage = (await storage.stages(league.id))[number - 1]
                if stage.channel_id is None or stage.race_id is None:
                    break
                channel = stage.channel_id
                race = await storage.active_race(channel)
                if race is not None:
                    if number == 1:
                        ai = next(str(s["player"]) for s in race.lobby["seats"] if s.get("ai"))
                        host = next(str(s["player"]) for s in race.lobby["seats"] if not s.get("ai"))
                        tell(channel, await allied.ally_ai(race, channel, host, ai))
                        mine = await allied.mine(race, host)
                        assert mine is not None
                        await allied.thread_opened(mine.id, THREAD)
                    for kind in pact_kinds(race):
                        tell(channel, await pacts.propose(channel, HOST, kind.id, None, None, True))
                    await _play_out(service, storage, channel, tell)
                standings = await leagues.standings(GUILD, None, HOST)
                channels["league.md"].append(standings.reply)
                if standings.image is not None:
                    (out / f"standings-{number}.png").write_bytes(standings.image)
                if standings.file is not None:
                    (out / f"teams-{number}.png").write_bytes(standings.file[1])
        for name, lines in channels.items():
            (out / name).write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    finally:
        await storage.close()
    return channels


async def _play_out(
    service: RaceService, storage: SqliteStorage, channel: int, tell: Callable[[int, Outcome], None]
) -> None:
    """The demo host plays its seat like the AI until the stage's race finishes (a choice that breaks a
    pact is asked again and taken, as the host's buttons would)."""
    while (move := await _host_move(service, storage, channel)) is not None:
        tell(channel, move.outcome)


@dataclass(frozen=True)
class HostMove:
    """What one of the demo host's decisions told the channel, and the question it was asked alone
    first (a choice that breaks a pact, with the button it pressed), if any."""

    outcome: Outcome
    asked: str | None = None


async def _host_move(service: RaceService, storage: SqliteStorage, channel: int) -> HostMove | None:
    """The demo host's next decision in ``channel``'s race, played like the AI through the same buttons a
    person would press (eating a kept tile typed; a choice that breaks a pact asked again and taken);
    None when the race is over or nobody is to act."""
    race = await storage.active_race(channel)
    if race is None:
        return None
    loaded = await service.core.store.load(race)
    game, state = loaded.game, loaded.state
    decision = game.rules.pending(state)
    if decision is None:
        return None
    action = game.ai(state, decision.player)
    choices = game.rules.choices(state, decision.player)
    index = next(i for i, c in enumerate(choices) if c.action == action)
    if choices[index].anytime:
        return HostMove(await service.core.play(channel, HOST, action.text().split(" ", 1)[1]))
    outcome = await service.core.decide(race.id, race.version, HOST, index)
    asked = outcome.prompt
    if asked is not None and asked.choices and asked.choices[0].confirm:
        question = f"{outcome.reply} [{asked.choices[0].label}]"
        return HostMove(await service.core.decide(race.id, race.version, HOST, index, sure=True), question)
    return HostMove(outcome)


def league_main(out: str, game: str, stages: int, players: int, seed: int, language: Language = "en") -> int:
    channels = asyncio.run(
        run_league_demo(Path(out), game=game, stages=stages, players=players, seed=seed, language=language)
    )
    print(channels["league.md"][-1] if channels["league.md"] else "")
    print(f"\nEach stage's channel, the alliance's thread and the standings images are in {out}/")
    return 0


def pact_kinds(race: RaceRow) -> tuple[PactKind[Any], ...]:
    """The pact kinds a demo's alliance makes: every one the race's game has."""
    return tuple(Opened.of(race).game.pacts.kinds)
