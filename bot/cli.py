"""The ``domestique`` command: replay, sim, and (as they land) render, demo, run, bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from rules.errors import DomestiqueError
from rules.record import load_record, replay


def _replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        record = load_record(text)
        result = replay(record)
    except DomestiqueError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    if result.error_at is not None:
        action = record.actions[result.error_at]
        print(f"action {result.error_at} {json.dumps(action.to_json())} is illegal: {result.error}", file=sys.stderr)
        return 2
    print(json.dumps(result.game.public_view(result.state), indent=None if args.compact else 1))
    return 0


def _sim(args: argparse.Namespace) -> int:
    from bot.sim import simulate

    try:
        record, state = simulate(
            args.game,
            players=args.players,
            riders=args.riders,
            seed=args.seed,
            stage=args.stage,
            random_hexagons=args.random,
        )
    except DomestiqueError as exc:
        print(f"cannot simulate: {exc}", file=sys.stderr)
        return 2
    Path(args.out).write_text(json.dumps(record.to_json(), indent=1) + "\n", encoding="utf-8")
    from rules.registry import find_game

    result = find_game(record.game).outcome(state)
    print(
        f"{len(record.actions)} decisions, {state.turn} turns; arrival: {', '.join(result.arrivals[:5])}"
        f"{' ...' if len(result.arrivals) > 5 else ''}; record written to {args.out}"
    )
    return 0


def _render(args: argparse.Namespace) -> int:
    from bot.games import adapter

    try:
        record = load_record(Path(args.record).read_text(encoding="utf-8"))
        result = replay(record)
    except OSError as exc:
        print(f"cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    except DomestiqueError as exc:
        print(f"malformed record: {exc}", file=sys.stderr)
        return 2
    state = result.state
    if args.turn is not None:
        state = _state_at_turn(record, args.turn)
    game = adapter(record.game)
    highlight = None
    if args.highlight:  # "next": whoever chooses squares now, if anyone does
        highlight = game.highlight(state)
        if args.highlight not in {highlight, "next"}:
            print(f"{args.highlight} is not the one to move now ({highlight or 'nobody'})", file=sys.stderr)
            return 2
    title = record.track if isinstance(record.track, str) else "inline"
    Path(args.out).write_bytes(game.board(state, highlight_rider=highlight, title=title, alliances=[]))
    print(f"wrote {args.out}")
    return 0


def _state_at_turn(record: object, turn: int) -> object:
    from rules.record import Record, start_state

    assert isinstance(record, Record)
    game, state = start_state(record)
    for action in record.actions:
        if state.turn >= turn:
            break
        state, _ = game.apply(state, action)
    return state


def _bench(args: argparse.Namespace) -> int:
    from bot import bench

    if args.what == "render":
        print(bench.bench_render(args.runs))
    else:
        print(bench.bench_bot(args.races))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import main as demo

    stage = args.stage or ("canyon" if args.game == "formula-de-mini" else "first-race")
    return demo(args.out, f"{args.game}/{stage}", args.players, args.seed, args.game)


def _run(args: argparse.Namespace) -> int:
    from bot.run import main as run

    return run()


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="domestique", description="Racing board games played by chat.")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a race record and print its state as JSON")
    p.add_argument("file")
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(run=_replay)
    p = sub.add_parser("sim", help="play a whole race AI against AI and write its record")
    p.add_argument("--game", default="leader1")
    p.add_argument("--stage", help="a shipped stage, e.g. first-race")
    p.add_argument("--random", type=int, metavar="N", help="a random route of N hexagons")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--riders", type=int, default=None, help="riders per player (default: the most allowed)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="race.json")
    p.set_defaults(run=_sim)
    p = sub.add_parser("render", help="draw a record's board as a PNG")
    p.add_argument("record")
    p.add_argument("--out", default="board.png")
    p.add_argument("--turn", type=int, help="the state at the start of this turn")
    p.add_argument("--highlight", metavar="RIDER", help="mark the legal squares of the rider to move ('next')")
    p.set_defaults(run=_render)
    p = sub.add_parser("run", help="run the Discord bot (token from DISCORD_TOKEN)")
    p.set_defaults(run=_run)
    p = sub.add_parser("demo", help="play a whole race offline among AI players, writing board images")
    p.add_argument("--out", default="demo-out")
    p.add_argument("--game", default="leader1", choices=["leader1", "formula-de-mini"])
    p.add_argument("--stage", default=None, help="a stage (Leader 1) or circuit (Formula Dé Mini)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(run=_demo)
    p = sub.add_parser("bench", help="print performance figures")
    p.add_argument("what", choices=["render", "bot"])
    p.add_argument("--runs", type=int, default=60, help="renders to time (render)")
    p.add_argument("--races", type=int, default=50, help="simultaneous races (bot)")
    p.set_defaults(run=_bench)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
