// Rollouts: a hint's candidate moves played out in worlds drawn from what the player cannot
// see (games/solver/hint.py says how the hints use them).
//
// The input is the visible position only: face-up cards, face-down counts, the stock's size,
// the suits of the runs removed. The cards not in view (the suit mode's deck less every card
// in view and every run removed) are dealt at random onto the face-down places and into the
// stock, uniformly, from a seed taken from the visible position itself: the same position
// always draws the same worlds, whatever the hidden cards really are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "position.hpp"

namespace spider {

// What a playout's end is worth: a won game, a completed run, a card turned over, and a
// card joined in suit where it ends (the runs under way, at 4 suits the most a playout
// usually shows).
constexpr int ROLLOUT_WON = 1000;
constexpr int ROLLOUT_RUN = 100;
constexpr int ROLLOUT_TURN = 10;
constexpr int ROLLOUT_JOIN = 3;

struct RolloutRequest {
    Position visible;  // face-up cards only; down[i] counts column i's unseen cards
    int suits = 1;  // 1, 2 or 4
    int stock_left = 0;  // stock cards not yet dealt (a multiple of DEAL_SIZE)
    std::vector<int> removed_suits;  // the suit of each run removed
    Rules rules;
    std::vector<Move> candidates;  // legal moves (or the deal) of the visible position
    int worlds = 0;  // worlds drawn (each candidate is played in every one)
    int playout_moves = 0;  // actions a playout makes at most after its candidate
    std::int64_t max_steps = 0;  // actions over every playout: no new world past it
    double max_seconds = 0.0;  // a safety net in CPU seconds (bound above all by max_steps)
};

struct CandidateOutcome {
    int wins = 0;  // playouts won
    int ended = 0;  // playouts that reached the game's end (won or no action left)
    std::int64_t score = 0;  // summed outcome (ROLLOUT_*)
};

struct RolloutResult {
    int worlds = 0;  // worlds played (every candidate in each)
    std::int64_t steps = 0;
    bool timed_out = false;
    std::vector<CandidateOutcome> outcomes;  // per candidate, in the request's order
};

// The cards not in view (empty string: they fit; else what is wrong, the caller raises).
std::string unseen_cards(const RolloutRequest& req, std::vector<Card>& out);
// The seed of a visible position (deterministic on every machine).
std::uint64_t visible_seed(const RolloutRequest& req);
// Play every candidate in req.worlds worlds (fewer if max_steps runs out).
RolloutResult rollouts(const RolloutRequest& req);

}  // namespace spider
