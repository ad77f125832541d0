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
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
