"""``python -m games.solver --suits 2 --seed 123``: solve one deal and print the line."""

from __future__ import annotations

import argparse
import json
import sys

from games.engine import SUIT_MODES, Layout, deal_layout

from .api import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.solver", description=__doc__)
    parser.add_argument("--suits", type=int, choices=SUIT_MODES, default=2)
    parser.add_argument("--seed", type=int, default=None, help="deal seed (0..2**64-1)")
    parser.add_argument("--layout", default=None, help="a layout in one-line notation instead")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.layout is not None:
        layout = Layout.parse(args.layout)
    elif args.seed is not None:
        layout = deal_layout(suits=args.suits, seed=args.seed)
    else:
        parser.error("give --seed or --layout")
    result = solve(layout, max_nodes=args.max_nodes, max_seconds=args.max_seconds)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(
            f"{result.status}  par={result.par} (found {result.found_par})  "
            f"nodes={result.nodes}+{result.shorten_nodes} shortening  "
            f"seconds={result.seconds:.2f}{'  (seconds cap hit)' if result.timed_out else ''}"
        )
        for n, action in enumerate(result.line, 1):
            if action.kind == "deal":
                print(f"{n:4d}. deal")
            else:
                print(f"{n:4d}. move {action.count} from {action.src} to {action.dst}")
    return 0 if result.status == "won" else 1


if __name__ == "__main__":
    sys.exit(main())
