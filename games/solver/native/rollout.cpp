// Rollouts (rollout.hpp).
#include "rollout.hpp"

#include <time.h>

#include <algorithm>
#include <unordered_set>

namespace spider {

namespace {

// splitmix64: small, fast, the same numbers on every machine.
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) (rejection: no modulo bias).
    std::uint32_t below(std::uint32_t n) {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t x;
        do x = next();
        while (x >= limit);
        return static_cast<std::uint32_t>(x % n);
    }
};

// This thread's CPU time: the safety net counts the work done, not the time waited on a
// loaded machine (a wall clock cut the worlds short under load, and the same position got
// other hints).
double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::uint64_t fold(std::uint64_t h, std::uint64_t v) {
    Rng r{h ^ (v * 0xff51afd7ed558ccdULL)};
    return r.next();
}

// A world: the visible position with its face-down places and its stock dealt from `deck`.
void draw_world(const RolloutRequest& req, std::vector<Card> deck, Rng& rng, Position& p, Stock& stock) {
    for (std::size_t i = deck.size(); i > 1; --i)
        std::swap(deck[i - 1], deck[rng.below(static_cast<std::uint32_t>(i))]);
    std::size_t k = 0;
    p = Position{};
    int at = 0;
    for (int i = 0; i < COLUMNS; ++i) {
        p.off[i] = static_cast<std::uint8_t>(at);
        const int down = req.visible.down[i];
        for (int j = 0; j < down; ++j) p.cards[static_cast<std::size_t>(at++)] = deck[k++];
        const Card* up = req.visible.col(i);
        for (int j = 0; j < req.visible.len(i); ++j) p.cards[static_cast<std::size_t>(at++)] = up[j];
        p.down[i] = static_cast<std::uint8_t>(down);
    }
    p.off[COLUMNS] = static_cast<std::uint8_t>(at);
    p.removed = req.visible.removed;
    stock.cards.assign(deck.begin() + static_cast<std::ptrdiff_t>(k), deck.end());
}

// The playout policy's worth of a move, from what a player sees: a card turned over, a
// column emptied, a join in suit (more the longer the run it makes), a run completed;
// less for a join broken or an empty column filled. Greedy: the best move worth more
// than nothing is played, else the deal, else a column filled for the deal.
int move_worth(const Position& p, Move m, bool stock_left) {
    const int s = m.src, d = m.dst, n = m.count;
    const Card* c = p.col(s);
    const int len = p.len(s);
    const int moved = c[len - n];
    int w = 0;
    const int rest = len - n;
    // turns a card over: more the fewer are left under it (the column empties sooner)
    if (rest > 0 && rest == p.down[s]) w += 100 + 4 * (5 - std::min(5, rest - 1));
    if (rest == 0) w += stock_left ? 40 : 60;
    if (rest > p.down[s]) {  // a face-up card stays under the moved ones
        const int under = c[rest - 1];
        if (under == moved + 1) {  // a join in suit broken: what joining it earned
            int j = rest - 1;
            while (j > p.down[s] && c[j - 1] == c[j] + 1) --j;
            const int run = rest - j + n;
            w -= 12 + 2 * (run < RUN_LENGTH ? run : RUN_LENGTH);
        } else if (rank_of(under) == rank_of(moved) + 1) {
            w -= 2;
        }
    }
    if (p.empty(d)) {
        w -= stock_left ? 45 : 60;
    } else {
        const int top = p.top(d);
        if (top == moved + 1) {
            // the run in suit it extends, below the destination's top
            const Card* dc = p.col(d);
            int j = p.len(d) - 1;
            while (j > p.down[d] && dc[j - 1] == dc[j] + 1) --j;
            const int run = p.len(d) - j + n;  // the run in suit after the move, at least
            if (run >= RUN_LENGTH && rank_of(c[len - 1]) == ACE) {
                // only if the moved cards are in suit all the way (a legal move's are)
                w += 400;
            }
            w += 12 + 2 * (run < RUN_LENGTH ? run : RUN_LENGTH);
        } else {
            w += 2;
        }
    }
    return w;
}

// Moves that gain nothing at once a playout may make in a row, and how much they may lose.
constexpr int IDLE_MOVES = 8;
constexpr int IDLE_FLOOR = -20;
// Actions with no card turned over, no run completed and no deal, after which a playout
// gives the game up (it wanders: the position changes, nothing is gained).
constexpr int STALL_MOVES = 60;

struct Playout {
    int turned = 0;
    int runs = 0;
    int joins = 0;  // cards on the next-higher card of their suit at the end
    bool won = false;
    bool ended = false;
    int steps = 0;
};

Playout play_out(Position p, const Stock& stock, const Rules& rules, Move first, int max_moves,
                 std::vector<Move>& moves, std::unordered_set<std::uint64_t>& seen) {
    Playout out;
    StepOutcome step;
    const int runs0 = p.removed;
    int progress_at = 0;  // the last action that turned a card, completed a run or dealt
    auto apply = [&](Move m) {
        step = StepOutcome{};
        push(p, m, stock, &step);
        out.turned += step.turned;
        ++out.steps;
        if (step.turned || step.removed || m.is_deal()) progress_at = out.steps;
    };
    int idle_left = IDLE_MOVES;
    seen.clear();
    seen.insert(position_key(p, stock));
    apply(first);
    seen.insert(position_key(p, stock));
    while (out.steps <= max_moves) {
        if (won(p, stock)) {
            out.won = out.ended = true;
            break;
        }
        if (out.steps - progress_at > STALL_MOVES) {
            out.ended = true;  // moving cards about for nothing: the policy gives the game up
            break;
        }
        moves_of(p, stock, rules, moves);
        const bool stock_left = p.dealt < stock.size();
        int best = 0;  // only a move worth more than nothing
        int best_fill = INT32_MIN;
        int pick = -1, fill = -1, idle = -1;
        int best_idle = INT32_MIN;
        bool deal = false;
        for (int k = 0; k < static_cast<int>(moves.size()); ++k) {
            const Move m = moves[static_cast<std::size_t>(k)];
            if (m.is_deal()) {
                deal = true;
                continue;
            }
            const int w = move_worth(p, m, stock_left);
            const bool idle_ok = idle_left > 0 && w > best_idle && w >= IDLE_FLOOR;
            if (w > best || (p.empty(m.dst) && w > best_fill) || idle_ok) {
                Position q = p;
                push(q, m, stock, nullptr);
                if (seen.count(position_key(q, stock))) continue;
                if (w > best) {
                    best = w;
                    pick = k;
                }
                if (p.empty(m.dst) && w > best_fill) {
                    best_fill = w;
                    fill = k;
                }
                if (idle_ok) {
                    best_idle = w;
                    idle = k;
                }
            }
        }
        Move m;
        if (pick >= 0)
            m = moves[static_cast<std::size_t>(pick)];
        else if (deal)
            m = DEAL;
        else if (fill >= 0 && stock_left)
            m = moves[static_cast<std::size_t>(fill)];
        else if (idle >= 0) {
            // Nothing gains at once: a move that loses little, to a position not met in
            // this playout, may open a way (a few in a row at most).
            m = moves[static_cast<std::size_t>(idle)];
            --idle_left;
        } else {
            out.ended = true;  // nothing useful left: the policy gives the game up
            break;
        }
        if (pick >= 0 || m.is_deal()) idle_left = IDLE_MOVES;
        apply(m);
        seen.insert(position_key(p, stock));
    }
    out.runs = p.removed - runs0;
    for (int i = 0; i < COLUMNS; ++i) {
        const Card* c = p.col(i);
        for (int j = p.down[i] + 1; j < p.len(i); ++j) out.joins += c[j - 1] == c[j] + 1;
    }
    return out;
}

}  // namespace

std::string unseen_cards(const RolloutRequest& req, std::vector<Card>& out) {
    if (req.suits != 1 && req.suits != 2 && req.suits != 4) return "suits must be 1, 2 or 4";
    int count[4][RANK_MASK + 1] = {};
    const int copies = 8 / req.suits;
    for (int s = 0; s < req.suits; ++s)
        for (int r = ACE; r <= KING; ++r) count[s][r] = copies;
    auto take = [&](int card) -> bool {
        const int s = suit_of(card), r = rank_of(card);
        if (s >= req.suits || count[s][r] == 0) return false;
        --count[s][r];
        return true;
    };
    for (int suit : req.removed_suits)
        for (int r = ACE; r <= KING; ++r)
            if (!take(suit << SUIT_SHIFT | r)) return "the runs removed do not fit the suit mode";
    for (int i = 0; i < req.visible.table(); ++i)
        if (!take(req.visible.cards[static_cast<std::size_t>(i)]))
            return "the cards in view do not fit the suit mode (too many copies of a card)";
    out.clear();
    for (int s = 0; s < req.suits; ++s)
        for (int r = ACE; r <= KING; ++r)
            for (int k = 0; k < count[s][r]; ++k) out.push_back(static_cast<Card>(s << SUIT_SHIFT | r));
    int places = req.stock_left;
    for (int i = 0; i < COLUMNS; ++i) places += req.visible.down[i];
    if (static_cast<int>(out.size()) != places)
        return "the cards not in view (" + std::to_string(out.size()) +
               ") do not fill the face-down places and the stock (" + std::to_string(places) + ")";
    return "";
}

std::uint64_t visible_seed(const RolloutRequest& req) {
    std::uint64_t h = 0x5eed;
    for (int i = 0; i < COLUMNS; ++i) {
        h = fold(h, static_cast<std::uint64_t>(req.visible.down[i]) << 8 | 0xd0);
        for (int j = 0; j < req.visible.len(i); ++j) h = fold(h, req.visible.col(i)[j]);
        h = fold(h, 0xc0);  // the column's end
    }
    h = fold(h, static_cast<std::uint64_t>(req.stock_left));
    for (int s : req.removed_suits) h = fold(h, static_cast<std::uint64_t>(s) | 0x100);
    return fold(h, static_cast<std::uint64_t>(req.suits));
}

RolloutResult rollouts(const RolloutRequest& req) {
    RolloutResult result;
    result.outcomes.assign(req.candidates.size(), CandidateOutcome{});
    std::vector<Card> deck;
    if (!unseen_cards(req, deck).empty() || req.candidates.empty()) return result;
    const std::uint64_t seed = visible_seed(req);
    const double start = thread_cpu_seconds();
    std::vector<Move> moves;
    moves.reserve(128);
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(2048);
    Position world;
    Stock stock;
    for (int w = 0; w < req.worlds; ++w) {
        // Every candidate in a world, or none: each candidate has the same sample.
        if (result.steps >= req.max_steps) break;
        if (w > 0 && thread_cpu_seconds() - start > req.max_seconds) {
            result.timed_out = true;
            break;
        }
        Rng rng{fold(seed, static_cast<std::uint64_t>(w))};
        draw_world(req, deck, rng, world, stock);
        for (std::size_t c = 0; c < req.candidates.size(); ++c) {
            const Move m = req.candidates[c];
            if (!legal(world, m, stock, req.rules)) continue;  // the caller passes legal ones
            const Playout po = play_out(world, stock, req.rules, m, req.playout_moves, moves, seen);
            CandidateOutcome& o = result.outcomes[c];
            o.wins += po.won;
            o.ended += po.ended;
            o.score += static_cast<std::int64_t>(po.won) * ROLLOUT_WON + po.runs * ROLLOUT_RUN +
                       po.turned * ROLLOUT_TURN + po.joins * ROLLOUT_JOIN;
            result.steps += po.steps;
        }
        ++result.worlds;
    }
    return result;
}

}  // namespace spider
