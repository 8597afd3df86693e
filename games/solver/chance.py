"""The chance as the player saw it (docs/rules.md#the-move-review): the share of the ways the
unseen cards could lie from which a win still exists.

A position's cards **not in view** are its face-down cards and its stock: the player knows
which cards they are (the deck less the cards in view and the runs removed) but not where
each lies. A **world** is one way they could lie: the same visible table (every face-up card,
every face-down count, the stock's length, the runs removed, the table rule) with exactly
that multiset of cards dealt uniformly at random into the face-down places and the stock
(``worlds``). The random draw is seeded by the visible position alone (``world_seed``), so
two games that look the same get the same worlds, whatever their real hidden cards, and the
answer is repeatable.

Each world is decided by the full-information solver, which then sees that world's cards,
within a named budget (``WorldBudget``): a win found (replayed through the engine) is
**won**, a search that met every reachable position without one is **lost**, anything else
is **undecided**, counted apart and never as won or lost. The answer (``Chance``) carries the
counts, so a reader knows the sample size and how much of it is unsettled.

``estimate_moves`` weighs a position's candidate actions in the same worlds (each world of
the position with the action applied): the chance after an action as the player could
judge it before playing it (a card the action turns over is one of the worlds' cards, not
the real one), and a paired comparison, every action met with the same hidden cards.

Nothing here knows Django; the review (review.py) and its caller choose the budgets.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any, Final, Literal

from games.engine import Action, Board, Layout, apply_action
from games.engine.cards import format_card

from .api import exhaust, solve

# The seed's domain: bumping it draws other worlds for every position (never needed unless
# the drawing itself changes, since answers are stored with their sample).
WORLD_SALT: Final = b"spider-worlds-1"
SEED_BYTES: Final = 8
SHARE_DIGITS: Final = 3  # a share as the answer says it

Outcome = Literal["won", "lost", "undecided"]


@dataclass(frozen=True, slots=True)
class WorldBudget:
    """What deciding one world may spend, in solver positions (deterministic)."""

    search_nodes: int  # the beam search (``solve``) for a win
    proof_nodes: int  # then, no win found, the exhaustive search (``exhaust``); 0: none

    @property
    def most(self) -> int:
        """The most one world can cost (each search stops within a move list of its cap)."""
        return self.search_nodes + self.proof_nodes


@dataclass(frozen=True, slots=True)
class Chance:
    """How many of ``sample`` worlds were won, lost and undecided (``nodes``: spent)."""

    won: int
    lost: int
    undecided: int
    nodes: int = 0

    @property
    def sample(self) -> int:
        return self.won + self.lost + self.undecided

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def share(self) -> float | None:
        """The share of the decided worlds that were won (None: none decided)."""
        return self.won / self.decided if self.decided else None

    @property
    def low(self) -> float:
        """The share of won worlds if every undecided one were lost."""
        return self.won / self.sample if self.sample else 0.0

    @property
    def high(self) -> float:
        """The share of won worlds if every undecided one were won."""
        return (self.won + self.undecided) / self.sample if self.sample else 1.0

    def to_json(self) -> dict[str, Any]:
        share = self.share
        return {
            "share": None if share is None else round(share, SHARE_DIGITS),
            "won": self.won,
            "lost": self.lost,
            "undecided": self.undecided,
            "sample": self.sample,
        }


def unseen_cards(layout: Layout) -> list[int]:
    """The cards not in view (face-down and stock), in card order: what the player knows of
    them is this multiset, never where each lies."""
    cards = [c for down, _ in layout.columns for c in down]
    cards.extend(layout.stock)
    return sorted(cards)


def visible_text(layout: Layout) -> str:
    """The position as the player sees it, one line: per column the face-down count and the
    face-up cards, the stock's length, the runs removed, the suit mode and the table rule.
    Two positions that look the same have the same text, whatever lies face down."""
    cols = "/".join(f"{len(d)}|{''.join(format_card(c) for c in u)}" for d, u in layout.columns)
    removed = "".join(str(s) for s in layout.removed)
    return f"{layout.suits} {cols} {len(layout.stock)} {removed or '-'} {int(layout.deal_over_gap)}"


def world_seed(layout: Layout) -> int:
    """The worlds' random seed, from the visible position alone."""
    digest = blake2b(visible_text(layout).encode(), digest_size=SEED_BYTES, key=WORLD_SALT).digest()
    return int.from_bytes(digest, "big")


def worlds(layout: Layout, count: int) -> Iterator[Layout]:
    """``count`` worlds of ``layout``: its visible table with its unseen cards dealt
    uniformly at random into its face-down places (column by column, bottom to top) and its
    stock, seeded by the visible position."""
    rng = random.Random(world_seed(layout))
    unseen = unseen_cards(layout)
    for _ in range(count):
        cards = list(unseen)
        rng.shuffle(cards)
        at = 0
        columns = []
        for down, up in layout.columns:
            columns.append((tuple(cards[at : at + len(down)]), up))
            at += len(down)
        yield Layout(
            layout.suits,
            tuple(columns),
            tuple(cards[at:]),
            layout.removed,
            layout.deal_over_gap,
        )


def decide(world: Layout, budget: WorldBudget) -> tuple[Outcome, int]:
    """One world, every card known: won (a win replayed), lost (every reachable position
    searched), or undecided within ``budget``; and the positions spent."""
    outcome, nodes, _ = _decide(world, budget)
    return outcome, nodes


def _decide(world: Layout, budget: WorldBudget) -> tuple[Outcome, int, Action | None]:
    """``decide``, and a won world's first action of its win (None: not won, or won as it
    stands)."""
    found = solve(world, max_nodes=budget.search_nodes, shorten_ratio=0)
    if found.won:
        return "won", found.nodes, found.line[0] if found.line else None
    if found.exhausted:
        return "lost", found.nodes, None
    if budget.proof_nodes < 1:
        return "undecided", found.nodes, None
    proof = exhaust(world, max_nodes=budget.proof_nodes)
    spent = found.nodes + proof.nodes
    if proof.won:
        return "won", spent, proof.line[0] if proof.line else None
    return ("lost" if proof.exhausted else "undecided"), spent, None


def _tally(outcomes: Sequence[tuple[Outcome, int]]) -> Chance:
    counts = Counter(o for o, _ in outcomes)
    return Chance(counts["won"], counts["lost"], counts["undecided"], sum(n for _, n in outcomes))


def estimate(layout: Layout, *, sample: int, budget: WorldBudget) -> Chance:
    """The chance to win from ``layout`` as the player sees it: ``sample`` worlds, each
    decided within ``budget``."""
    return _tally([decide(w, budget) for w in worlds(layout, sample)])


def estimate_moves(
    layout: Layout, actions: Sequence[Action], *, sample: int, budget: WorldBudget
) -> tuple[Chance, list[Chance], list[list[bool]]]:
    """The chance before, and after each of ``actions`` (legal from ``layout``), all in the
    same ``sample`` worlds of ``layout``: what the player could know of each action before
    playing it. Also, per action, which worlds were won after it (for paired comparisons).
    A world lost before is lost after any action (a win after one would be a win before);
    a world won by a line that starts with an action is won after that action (the rest of
    the line, replayed, wins), with no search."""
    before: list[tuple[Outcome, int]] = []
    after: list[list[tuple[Outcome, int]]] = [[] for _ in actions]
    for world in worlds(layout, sample):
        outcome, nodes, first = _decide(world, budget)
        before.append((outcome, nodes))
        for i, action in enumerate(actions):
            if outcome == "lost":
                after[i].append(("lost", 0))
                continue
            if action == first:
                after[i].append(("won", 0))
                continue
            board = Board(world)
            apply_action(board, action)
            after[i].append(decide(board.layout(), budget))
    won = [[o == "won" for o, _ in a] for a in after]
    return _tally(before), [_tally(a) for a in after], won
