"""Where the hint-follower deals: per game, the actions between deals, the face-down cards
at each deal, and whether any line over the visible model could still have turned a card
over, emptied a column or completed a run when the follower dealt.

    python bench/hint_deals.py --suits 4 --seeds 1,3,4,5,6

The follower is ``bench/hint.py``'s (hint n=0 through the services, as a client plays). The
probe is a breadth-first search over the hints' model (``_moves`` / ``_apply`` of
games/solver/hint.py: face-down cards unknown, a card turned over ends its column) from
the position the follower dealt in, up to ``--depth`` moves and ``--nodes`` positions;
``probe`` lists the fewest moves to each gain it found (``{}``: none reachable at all when
``exhausted``). One JSON line per game; the LAST line is one JSON object of the totals:
``{"games", "won", "deals", "deals_with_a_gain", "median_since_last_deal",
"median_hidden_at_deal"}``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Board, public_view  # noqa: E402
from games.solver.hint import VisiblePosition, _apply, _moves  # noqa: E402

try:  # imported as bench.<module>
    from bench.hint import follow
except ImportError:  # run as a script: bench/ itself is on sys.path
    from hint import follow  # type: ignore[import-not-found,no-redef]

MAX_ACTIONS = 1000  # as bench/hint.py's default


def probe(visible: VisiblePosition, depth: int, nodes: int) -> dict:
    """The fewest moves (breadth first) to a card turned over, a column emptied, a run."""
    cols, hid = visible.cards, visible.hidden
    hidden = sum(hid)
    empty = sum(1 for c in cols if not c)
    frontier = [(cols, hid)]
    seen = {(cols, hid)}
    made = 0
    found: dict[str, int] = {}
    d = 0
    while frontier and d < depth and made < nodes and "reveal" not in found:
        d += 1
        deeper = []
        for c, h in frontier:
            for move in _moves(c, h):
                nc, nh, runs = _apply(c, h, move)
                made += 1
                if runs:
                    found.setdefault("run", d)
                if sum(nh) < hidden:
                    found.setdefault("reveal", d)
                if sum(1 for x in nc if not x) > empty:
                    found.setdefault("empty", d)
                if (nc, nh) not in seen:
                    seen.add((nc, nh))
                    deeper.append((nc, nh))
        frontier = deeper
    return {"probe": found, "positions": len(seen), "exhausted": not frontier}


def follow_and_probe(
    suits: int, seed: int, depth: int, nodes: int, max_actions: int = MAX_ACTIONS
) -> dict:
    """``bench/hint.py``'s follower on one deal, probing the position before each deal."""
    deals: list[dict] = []
    last_deal = [0]

    def before_deal(board: Board) -> None:
        visible = VisiblePosition.from_view(public_view(board))
        at = board.actions
        deals.append(
            {"at": at, "since": at - last_deal[0], "hidden": sum(visible.hidden)}
            | probe(visible, depth, nodes)
        )
        last_deal[0] = at + 1

    game = follow(suits, seed, max_actions, before_deal=before_deal)
    keep = ("seed", "result", "actions", "runs", "hidden_left")
    return {k: game[k] for k in keep} | {"deals": deals}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--seeds", required=True, help="comma-separated deal seeds")
    parser.add_argument("--depth", type=int, default=12, help="probe: most moves")
    parser.add_argument("--nodes", type=int, default=300_000, help="probe: most positions")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS, help="per game")
    args = parser.parse_args()
    games = []
    for seed in (int(s) for s in args.seeds.split(",")):
        games.append(follow_and_probe(args.suits, seed, args.depth, args.nodes, args.max_actions))
        print(json.dumps(games[-1]), flush=True)
    deals = [d for g in games for d in g["deals"]]
    print(
        json.dumps(
            {
                "games": len(games),
                "won": sum(g["result"] == "won" for g in games),
                "deals": len(deals),
                "deals_with_a_gain": sum(bool(d["probe"]) for d in deals),
                "median_since_last_deal": statistics.median(d["since"] for d in deals)
                if deals
                else None,
                "median_hidden_at_deal": statistics.median(d["hidden"] for d in deals)
                if deals
                else None,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
