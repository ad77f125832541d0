"""The ``domestique`` command: replay, check, sim, render, demo, run, bench. Games come from the registry."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from renderer.registry import MissingPart, check_games
from rules.errors import DomestiqueError, MalformedRecord
from rules.i18n import LANGUAGES
from rules.record import Record, load_record, replay, rules_of, start_state, versions_of
from rules.registry import featured, find_game, game_ids
from rules.versions import UnknownRulesVersion


def _replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_bytes()
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        record = load_record(text)
        if args.rules is not None:
            record = _under(record, args.rules)
        result = replay(record)
    except DomestiqueError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    played = rules_of(record)
    if result.error_at is not None:
        action = record.actions[result.error_at]
        print(
            f"action {result.error_at} {json.dumps(action.to_json())} is illegal under the rules of {played.name}: "
            f"{result.error}",
            file=sys.stderr,
        )
        return 2
    # the rules version it was replayed under comes first after the game (an added output field)
    view = result.game.rules.public_view(result.state)
    view = {"game": view.pop("game", record.game), "rules": played.name, **view}
    print(json.dumps(view, indent=None if args.compact else 1))
    return 0


def _under(record: Record, name: str) -> Record:
    """``record`` played under the rules version ``name`` (``--rules``), which must be its own if it names one."""
    if record.rules is not None and record.rules != name:
        raise MalformedRecord("--rules", f"the record was played under the rules of {record.rules}, not {name}")
    versions = versions_of(record)
    try:
        return record.under(versions.named(name).name)
    except UnknownRulesVersion as exc:
        raise MalformedRecord("--rules", str(exc)) from None


def _check(args: argparse.Namespace) -> int:
    from bot.cli.check import check

    return check(args.files)


def _options(given: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs as a record's options; a value is read as JSON (3, true) or else as text."""
    options: dict[str, Any] = {}
    for pair in given:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--option {pair!r}: expected NAME=VALUE, e.g. weather=3")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def _sim(args: argparse.Namespace) -> int:
    from bot.cli.sim import simulate

    try:
        record, state = simulate(
            args.game,
            players=args.players,
            pieces=args.pieces,
            seed=args.seed,
            stage=args.stage,
            random_hexagons=args.random,
            options=_options(args.option),
        )
    except (DomestiqueError, ValueError) as exc:
        print(f"cannot simulate: {exc}", file=sys.stderr)
        return 2
    Path(args.out).write_text(json.dumps(record.to_json(), indent=1) + "\n", encoding="utf-8")

    game = find_game(record.game)
    placed = [p.piece for p in game.rules.outcome(state).placings if p.rank is not None]
    print(
        f"{len(record.actions)} decisions, {game.rules.turn(state)} turns; finish: {', '.join(placed[:5])}"
        f"{' ...' if len(placed) > 5 else ''}; record written to {args.out}"
    )
    return 0


def _render(args: argparse.Namespace) -> int:
    from renderer.registry import paint

    if args.readme_images:
        from bot.cli.images import readme_images

        for path in readme_images(Path(args.readme_images)):
            print(f"wrote {path}")
        return 0
    if args.record is None:
        print("give a RECORD to draw (or --readme-images DIR)", file=sys.stderr)
        return 2
    try:
        record = load_record(Path(args.record).read_bytes())
        result = replay(record)
    except OSError as exc:
        print(f"cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    except DomestiqueError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    rules = result.game.rules
    played = record.with_actions(record.actions[: result.applied])  # up to an illegal action, if any
    if args.recap:
        return _recap(played, args)
    state = _state_at_turn(played, args.turn) if args.turn is not None else result.state
    highlight = []
    acting: list[str] = []
    decision = rules.pending(state)
    if args.highlight:  # "next": whoever chooses squares now, if anyone does
        piece = decision.piece if decision is not None else None
        if args.highlight not in {piece, "next"}:
            print(f"{args.highlight} is not the one to move now ({piece or 'nobody'})", file=sys.stderr)
            return 2
        if decision is not None:
            highlight = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
            acting = [piece] if piece else []
    title = record.track if isinstance(record.track, str) else "inline"
    image = paint(record.game, state, highlight=highlight, acting=acting, title=title)
    if image is None:
        print(f"{result.game.title} has no board painter", file=sys.stderr)
        return 2
    Path(args.out).write_bytes(image)
    print(f"wrote {args.out}")
    return 0


def _recap(record: Record, args: argparse.Namespace) -> int:
    from renderer.recap import painted, render_recap, turn_states
    from renderer.registry import find_painter

    if find_painter(record.game) is None:
        print(f"{record.game} has no board painter", file=sys.stderr)
        return 2
    title = record.track if isinstance(record.track, str) else "inline"
    states = turn_states(record, args.last)
    gif = render_recap(states, board=painted(record.game, title), width=args.width)
    out = args.out if args.out != "board.png" else "recap.gif"
    Path(out).write_bytes(gif)
    print(f"wrote {out} ({len(states)} boards, {len(gif) // 1024} kB)")
    return 0


def _state_at_turn(record: Record, turn: int) -> object:
    game, state = start_state(record)
    for action in record.actions:
        if game.rules.turn(state) >= turn:
            break
        state, _ = game.rules.apply(state, action)
    return state


def _bench(args: argparse.Namespace) -> int:
    from bot.cli import bench

    if args.what == "render":
        print(bench.bench_render(args.runs))
    elif args.what == "pace":
        from bot.cli.pace_bench import bench_pace

        def progress(line: str) -> None:  # stdout is the table; a slow run shows it is alive here
            print(line, file=sys.stderr, flush=True)

        games = [args.game] if args.game else None
        print(bench_pace(args.stages, args.players, args.absent, args.median, games=games, progress=progress))
    elif args.what == "web":
        from bot.cli.web_bench import bench_web

        print(bench_web(args.viewers, args.seconds, rounds=args.rounds, same_process=args.same_process))
    elif args.what == "engine":
        print(bench.bench_engine(args.engine_races))
    elif args.what == "ai":
        from bot.cli import ai_bench

        table = ai_bench.bench_levels if args.levels else ai_bench.bench_ai
        print(table(args.seeds, args.game, args.course))
    elif args.against:  # this checkout's burst turn about with other checkouts'
        print(bench.burst_against(args.races, 6, max(args.bursts, 1), args.against))
    else:
        print(bench.bench_bot(args.races, database=args.database, processes=args.processes, bursts=args.bursts))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from bot.cli.demo import league_main
    from bot.cli.demo import main as demo

    if args.league:
        return league_main(args.out, args.game, args.league, args.players, args.seed, language=args.lang)

    return demo(
        args.out,
        args.game,
        args.stage,
        args.players,
        args.seed,
        web=args.web,
        language=args.lang,
        alliances=args.alliances,
    )


def _db(args: argparse.Namespace) -> int:
    from bot.cli.db import main as copy

    return copy(args.source, args.target)


def _run(args: argparse.Namespace) -> int:
    from bot.cli.run import main as run

    return run()


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="domestique", description="Racing board games played by chat.")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a race record and print its state as JSON")
    p.add_argument("file")
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.add_argument(
        "--rules",
        metavar="VERSION",
        help="the rules version of a record written before versions (default: its own, else the last before versions)",
    )
    p.set_defaults(run=_replay)
    p = sub.add_parser("check", help="replay scenario records and check their expectations")
    p.add_argument("files", nargs="+", metavar="FILE", help="a scenario record, or a folder of them")
    p.set_defaults(run=_check)
    p = sub.add_parser("sim", help="play a whole race AI against AI and write its record")
    p.add_argument("--game", default=featured().id, choices=game_ids())
    p.add_argument("--stage", help="a shipped stage or circuit of the game (its usual one if omitted)")
    p.add_argument("--random", type=int, metavar="N", help="a random route of N hexagons")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--pieces", type=int, default=None, help="riders or cars per player (default: the game's sample)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="race.json")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option, e.g. weather=3")
    p.set_defaults(run=_sim)
    p = sub.add_parser("render", help="draw a record's board as a PNG, or its recap as a GIF")
    p.add_argument("record", nargs="?")
    p.add_argument("--out", default="board.png", help="the file to write (recap.gif with --recap)")
    p.add_argument("--turn", type=int, help="the state at the start of this turn")
    p.add_argument("--highlight", metavar="RIDER", help="mark the legal squares of the rider to move ('next')")
    p.add_argument("--recap", action="store_true", help="an animated GIF of the race, one board per turn")
    p.add_argument("--last", type=int, metavar="N", help="with --recap: only the last N turns")
    p.add_argument("--width", type=int, help="with --recap: frames this many pixels wide (a smaller file)")
    p.add_argument("--readme-images", metavar="DIR", help="draw the README's and docs' pictures into DIR")
    p.set_defaults(run=_render)
    p = sub.add_parser("run", help="run the Discord bot (token from DISCORD_TOKEN)")
    p.set_defaults(run=_run)
    p = sub.add_parser("demo", help="play a whole race offline among AI players, writing board images")
    p.add_argument("--out", default="demo-out")
    p.add_argument("--game", default=featured().id, choices=game_ids())
    p.add_argument("--stage", default=None, help="a stage or circuit of the game (its usual one if omitted)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--web", action="store_true", help="then serve the race's web page (DOMESTIQUE_WEB, default 127.0.0.1:8080)"
    )
    p.add_argument("--lang", default="en", choices=LANGUAGES, help="the server's language: messages and boards")
    p.add_argument(
        "--alliances", action="store_true", help="the host and an AI player ally and make each of the game's pacts"
    )
    p.add_argument(
        "--league", type=int, metavar="N", help="an N-stage league with an alliance and a team classification"
    )
    p.set_defaults(run=_demo)
    p = sub.add_parser("db", help="move the database: db copy --from sqlite:///domestique.db --to postgresql://...")
    p.add_argument("action", choices=["copy"])
    p.add_argument("--from", dest="source", required=True, help="sqlite:///file.db or postgresql://...")
    p.add_argument("--to", dest="target", required=True, help="an empty database: postgresql://... or sqlite:///...")
    p.set_defaults(run=_db)
    p = sub.add_parser("bench", help="print performance figures")
    p.add_argument("what", choices=["render", "bot", "engine", "pace", "web", "ai"])
    p.add_argument("--runs", type=int, default=60, help="renders to time (render)")
    p.add_argument("--races", type=int, default=50, help="simultaneous races (bot)")
    p.add_argument("--engine-races", type=int, default=6, help="AI-against-AI races per game (engine)")
    p.add_argument(
        "--stages",
        type=int,
        default=40,
        help=(
            "simulated stages per line (pace). Each of the 4 settings of each game plays that many stages: "
            "measured on a 2-core machine busy with other work, --stages 8 took 134 s, about 17 s per stage "
            "of all the lines (Peloton 14 s, Formula Dé Mini 1.4 s, Hell of the North 1 s, Leader 1 0.6 s), "
            "so the default 40 takes about 11 minutes and --stages 20 about 6, more on a busier machine; "
            "--game runs one game's lines. A line per stage on standard error shows it is going"
        ),
    )
    p.add_argument("--players", type=int, default=6, help="people in the league (pace)")
    p.add_argument("--absent", type=int, default=2, help="of whom never answer (pace)")
    p.add_argument("--median", type=float, default=3.0, help="median hours to answer a decision (pace)")
    p.add_argument("--database", default="", help="a database URL (bot; default: a fresh SQLite file)")
    p.add_argument("--processes", type=int, default=1, help="bot processes sharing the database (bot)")
    p.add_argument("--bursts", type=int, default=1, help="bursts to run again for the CPU per decision's median (bot)")
    p.add_argument(
        "--against",
        action="append",
        default=[],
        metavar="DIR",
        help="another checkout (with its own .venv): its burst and this one's, turn about, --bursts each (bot)",
    )
    p.add_argument("--viewers", type=int, default=200, help="people watching a live race's page (web)")
    p.add_argument("--seconds", type=float, default=20.0, help="seconds with viewers, and without (web)")
    p.add_argument("--rounds", type=int, default=1, help="alternations of without and with viewers (web)")
    p.add_argument(
        "--same-process", action="store_true", help="serve the pages on the bot's own loop, as before, to compare (web)"
    )
    p.add_argument("--seeds", type=int, default=40, help="races per setting (ai)")
    p.add_argument("--game", choices=game_ids(), help="one game only (ai, pace)")
    p.add_argument("--course", help="one course only (ai)")
    p.add_argument("--levels", action="store_true", help="the AI's levels against each other (ai)")
    p.set_defaults(run=_bench)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        check_games()
    except MissingPart as exc:
        print(f"domestique: {exc}", file=sys.stderr)
        return 2
    try:
        code: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (``domestique replay x.json | head``): stop quietly, as Unix
        # tools do, and point stdout at nothing so the interpreter's final flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    raise SystemExit(main())
