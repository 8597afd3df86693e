// The beam search and the exhaustive proof (games/solver/search.py says how they search).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "position.hpp"

namespace spider {

// Heuristic weights (lower score is better): search.Weights.
struct Weights {
    int down, hard, soft, empty, run, bury, tail;
};

// A column's share of the score, from scratch: of column i, or of the n cards at c with d
// face down.
int col_chaos(const Position& p, int i, const Weights& w);
int span_chaos(const Card* c, int n, int d, const Weights& w);

// The node budget (primary, deterministic) and a wall-clock cap (a safety net).
struct Budget {
    std::int64_t max_nodes = 0;
    std::int64_t nodes = 0;
    double seconds = 0.0;  // from the pass's start
    bool timed_out = false;
};

struct PassRequest {
    Position root;
    Stock stock;
    Rules rules;
    std::int64_t width = 0;  // per deal group
    Weights weights{};
    int max_depth = -1;  // -1: none
    bool progress = true;  // the lowering prune
    // Known distances of positions (by key) from the root along a line: a position met
    // shallower is a shortcut. Empty: none tracked.
    std::unordered_map<std::uint64_t, int> targets;
    bool track_hits = false;
    int best_saving = 0;  // a shortcut must save more than this
    // Keys of positions known to be won: the first met ends the pass.
    std::unordered_map<std::uint64_t, int> goals;  // key -> the caller's index
    // Keys of positions known to be lost (an earlier exhaustive pass of the same deal): met
    // as if seen already, so a pass over everything does not search them again.
    std::vector<std::uint64_t> lost;
    bool collect_seen = false;  // fill PassResult::seen when the pass runs out of positions
};

struct PassResult {
    enum Status { NONE, WON, GOAL } status = NONE;
    std::vector<Move> line;  // to the won position, or to the goal met
    Position end;  // the position `line` reaches
    int goal = -1;  // the goal's index
    std::int64_t cuts = 0;  // positions dropped unexpanded
    bool hit = false;  // the best shortcut met (when it saves more than best_saving)
    int hit_saving = 0;
    int hit_distance = 0;
    std::vector<Move> hit_line;
    // collect_seen: the keys of every position met (those of `lost` included), when the pass
    // ended for want of positions to expand (not at its budget, a win or a goal).
    std::vector<std::uint64_t> seen;
};

// One beam pass at `width` per deal group (search.beam_pass).
PassResult beam_pass(const PassRequest& req, Budget& budget);

}  // namespace spider
