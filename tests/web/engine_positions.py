"""Positions and what the engine allows in each, as JSON: the fixture that holds the web
client's rules (web/static/web/rules.js) to the engine, which is the rules' authority.

Each position is the public view the client is sent (``public_view``), with the engine's
legal moves, whether a deal is legal, how many cards each column can lift, and the one-tap
destination of every column, for the whole run and for every face-up count. The positions
come from games at 1, 2 and 4 suits played from real deals (mostly by one-tap, sometimes by
any legal move or a deal), and from made-up layouts for the edges play seldom reaches: empty
columns, runs completed by the layout itself, a deal over gaps, a won table.

    python -m tests.web.engine_positions OUT.json [--games N]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from games.engine import DEAL, Board, Layout, choose_destination, deal_layout, public_view
from games.engine.cards import make_card
from games.engine.layout import COLUMNS, DEAL_SIZE

SUIT_MODES = (1, 2, 4)


def describe(board: Board) -> dict[str, Any]:
    """One fixture entry: the client's view of ``board`` and the engine's answers."""
    game = {**public_view(board), "version": 0}
    onetap = []
    for src in range(COLUMNS):
        face_up = len(board.cols[src]) - board.down[src]
        run = board.tail_run(src)
        # count None: the whole run's one tap; then each count (none once it is not a run)
        choices: list[list[int] | None] = [_tap(board, src, None) if face_up else None]
        choices += [
            _tap(board, src, count) if count <= run else None for count in range(1, face_up + 1)
        ]
        onetap.append(choices)
    return {
        "game": game,
        "moves": [list(m) for m in board.legal_moves()] if not board.won else [],
        "can_deal": board.can_deal() and not board.won,
        "lift": [board.tail_run(i) for i in range(COLUMNS)],
        "onetap": onetap,
    }


def _tap(board: Board, src: int, count: int | None) -> list[int] | None:
    move = choose_destination(board, src, count)
    return None if move is None else [move[1], move[2]]


def played(suits: int, seed: int, rng: random.Random, steps: int) -> list[Board]:
    """Positions along one game from a real deal, one copy per step."""
    board = Board(deal_layout(suits=suits, seed=seed))
    seen = []
    for _ in range(steps):
        seen.append(_copy(board))
        moves = board.legal_moves()
        roll = rng.random()
        if board.can_deal() and (not moves or roll < 0.12):
            board.play(DEAL)
        elif moves and roll < 0.75:
            taps = [m for src in range(COLUMNS) if (m := _try_tap(board, src))]
            board.play(rng.choice(taps or moves))
        elif moves:
            board.play(rng.choice(moves))
        else:
            break
        if board.won:
            break
    return seen


def _try_tap(board: Board, src: int) -> tuple[int, int, int] | None:
    if len(board.cols[src]) <= board.down[src]:
        return None
    return choose_destination(board, src)


def _copy(board: Board) -> Board:
    layout = Layout(
        board.suits,
        tuple(
            (tuple(c[: board.down[i]]), tuple(c[board.down[i] :])) for i, c in enumerate(board.cols)
        ),
        tuple(board.stock[board.dealt :]),
        tuple(board.removed),
        board.deal_over_gap,
    )
    copy = Board(layout)
    copy.actions = board.actions
    return copy


def made_up(suits: int, rng: random.Random) -> Board:
    """A layout with the edges: some columns empty, long runs (some complete, removed as the
    game starts), few cards or none, a stock or none, either table rule."""
    pool = [make_card(s % suits, r) for s in range(8) for r in range(1, 14)]
    rng.shuffle(pool)
    columns: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    empty = rng.sample(range(COLUMNS), rng.choice((0, 1, 2, 3, 5, 9, 10)))
    for i in range(COLUMNS):
        if i in empty or not pool:
            columns.append(((), ()))
            continue
        down = tuple(pool.pop() for _ in range(min(len(pool), rng.choice((0, 0, 1, 3, 5)))))
        up = [pool.pop()] if pool else []
        if not up:
            columns.append(((), down))  # the last cards: face up
            continue
        # a run down from this card (same suit), as long as the deck has its cards
        for _ in range(rng.choice((0, 1, 3, 6, 12, 13))):
            want = up[-1] - 1
            if want & 15 == 0 or want not in pool:
                break
            pool.remove(want)
            up.append(want)
        if rng.random() < 0.3 and pool:
            up.append(pool.pop())  # an off-run card on top
        columns.append((down, tuple(up)))
    stock_size = rng.choice((0, 0, 1, 2)) * DEAL_SIZE
    stock = tuple(pool[:stock_size]) if len(pool) >= stock_size else ()
    layout = Layout(suits, tuple(columns), stock, (), rng.random() < 0.5)
    return Board(layout)


def positions(games: int, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for suits in SUIT_MODES:
        for g in range(games):
            boards = played(suits, 1000 * suits + g, rng, steps=60)
            out += [describe(b) for b in boards[:: max(1, len(boards) // 25)]]
        out += [describe(made_up(suits, rng)) for _ in range(40 * games // 4)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=6, help="games played per suit mode")
    args = parser.parse_args()
    args.out.write_text(json.dumps({"positions": positions(args.games)}))


if __name__ == "__main__":
    main()
