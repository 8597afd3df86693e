// The beam pass (search.hpp; the algorithm is described in games/solver/search.py).
#include "search.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>

namespace spider {

namespace {

// The keys met in one pass: open addressing, linear probing. Key 0 marks a free slot, so a
// key of 0 is stored as 1 (a collision no likelier than any other).
class KeySet {
public:
    KeySet() : slots_(1 << 12, 0), mask_(slots_.size() - 1) {}

    bool contains(std::uint64_t key) const {
        key = key ? key : 1;
        for (std::size_t i = spread(key) & mask_;; i = (i + 1) & mask_) {
            if (slots_[i] == key) return true;
            if (slots_[i] == 0) return false;
        }
    }

    // Start fetching the key's first slot (a search looks up a dozen children's keys in a
    // row: their cache misses overlap instead of following one another).
    void prefetch(std::uint64_t key) const {
        key = key ? key : 1;
        __builtin_prefetch(&slots_[spread(key) & mask_]);
    }

    void keys(std::vector<std::uint64_t>& out) const {
        out.reserve(out.size() + size_);
        for (std::uint64_t key : slots_)
            if (key) out.push_back(key);
    }

    // Whether the key was new.
    bool insert(std::uint64_t key) {
        key = key ? key : 1;
        if (2 * (size_ + 1) > slots_.size()) grow();
        for (std::size_t i = spread(key) & mask_;; i = (i + 1) & mask_) {
            if (slots_[i] == key) return false;
            if (slots_[i] == 0) {
                slots_[i] = key;
                ++size_;
                return true;
            }
        }
    }

private:
    static std::size_t spread(std::uint64_t key) {
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> 20);
    }

    void grow() {
        std::vector<std::uint64_t> old;
        old.swap(slots_);
        slots_.assign(old.size() * 2, 0);
        mask_ = slots_.size() - 1;
        size_ = 0;
        for (std::uint64_t key : old)
            if (key) insert(key);
    }

    std::vector<std::uint64_t> slots_;
    std::size_t mask_;
    std::size_t size_ = 0;
};

// A position of the beam with its score's and key's parts per column.
struct Node {
    Position pos;
    std::array<int, COLUMNS> chaos{};
    std::array<std::uint64_t, COLUMNS> cards{};  // cards_hash per column
    std::array<std::uint64_t, COLUMNS> hash{};
    std::uint64_t hsum = 0;
    int score = 0;
    int hist = -1;  // its entry in the pass's history (the line to it); -1: the root
};

// A candidate child of the beam: built again from its parent if it is kept.
struct Candidate {
    int score;
    std::int64_t seq;  // generation order within the pass: ties go to the earlier
    int parent;  // index in the beam it was generated from
    Move move;
    std::uint8_t group;  // deals made: its deal group
    std::uint64_t key;
};

// A child as first seen: its key, and its score when it had to be built to know the key.
struct Made {
    Move move;
    std::uint64_t key;
    int score;
    bool built;
    bool won;  // only a built child can be won: winning removes a run
};

struct Step {
    int parent;  // history index, -1: the root
    Move move;
};

class Pass {
public:
    Pass(const PassRequest& req, Budget& budget)
        : req_(req), budget_(budget), w_(req.weights), stock_len_(req.stock.size()),
          start_(std::chrono::steady_clock::now()) {}

    PassResult run();

private:
    void fill(Node& n) const;  // chaos, hashes and score from scratch
    void child(const Node& parent, Move m, Node& out) const;
    bool quick_key(const Node& parent, Move m, std::uint64_t& key) const;
    int quick_score(const Node& parent, Move m) const;
    bool spent();
    std::vector<Move> line_to(int hist, const Move* last) const;
    void finish(PassResult::Status status, const Node& parent, int parent_hist, Move m);

    const PassRequest& req_;
    Budget& budget_;
    const Weights& w_;
    const int stock_len_;
    const std::chrono::steady_clock::time_point start_;
    std::vector<Step> history_;
    PassResult result_;
};

void Pass::fill(Node& n) const {
    const bool ordered = n.pos.dealt < stock_len_;
    n.hsum = 0;
    int sum = 0;
    for (int i = 0; i < COLUMNS; ++i) {
        n.chaos[i] = col_chaos(n.pos, i, w_);
        n.cards[i] = cards_hash(n.pos, i);
        n.hash[i] = col_hash_of(n.cards[i], i, n.pos.down[i], n.pos.len(i), ordered);
        n.hsum += n.hash[i];
        sum += n.chaos[i];
    }
    n.score = sum - w_.run * n.pos.removed;
}

void Pass::child(const Node& parent, Move m, Node& out) const {
    out = parent;
    if (m.is_deal()) {  // every column changed (and the key's column order may have)
        push(out.pos, m, req_.stock);
        fill(out);
        return;
    }
    const int s = m.src;
    const int d = m.dst;
    const int n = m.count;
    // The moved cards' polynomial from the bottom one: it leaves the source's from its new
    // length on and joins the destination's from its old length on.
    const Card* lifted = parent.pos.col(s) + parent.pos.len(s) - n;
    std::uint64_t moved = 0;
    for (int k = 0; k < n; ++k) moved += lifted[k] * CARD_POWERS[static_cast<std::size_t>(k)];
    const int source_len = parent.pos.len(s) - n;
    const int dest_len = parent.pos.len(d);
    push(out.pos, m, req_.stock);
    if (out.pos.removed != parent.pos.removed) {  // a run left: from scratch
        out.cards[s] = cards_hash(out.pos, s);
        out.cards[d] = cards_hash(out.pos, d);
    } else {
        out.cards[s] -= moved * CARD_POWERS[static_cast<std::size_t>(source_len)];
        out.cards[d] += moved * CARD_POWERS[static_cast<std::size_t>(dest_len)];
    }
    const bool ordered = out.pos.dealt < stock_len_;
    for (int i : {s, d}) {
        const std::uint64_t h = col_hash_of(out.cards[i], i, out.pos.down[i], out.pos.len(i), ordered);
        out.hsum += h - out.hash[i];
        out.hash[i] = h;
        const int c = col_chaos(out.pos, i, w_);
        out.score += c - out.chaos[i];
        out.chaos[i] = c;
    }
    out.score -= w_.run * (out.pos.removed - parent.pos.removed);
}

// The key of the position move `m` leads to, worked out without building it (most
// children were met before: the search only needs their keys); false when the move may
// remove a run, whose child must be built to know.
bool Pass::quick_key(const Node& parent, Move m, std::uint64_t& key) const {
    if (m.is_deal()) return false;
    const Position& p = parent.pos;
    const int s = m.src;
    const int d = m.dst;
    const int n = m.count;
    const Card* c = p.col(s);
    const int left = p.len(s) - n;  // the source's new length
    int source_down = p.down[s];
    if (left > 0 && left == source_down) {
        --source_down;  // its top card turns face up
    } else if (left > 0 && rank_of(c[left - 1]) == ACE && left - source_down >= RUN_LENGTH) {
        return false;  // a completed run uncovered
    }
    const int dest_len = p.len(d) + n;
    if (rank_of(c[p.len(s) - 1]) == ACE && dest_len - p.down[d] >= RUN_LENGTH) return false;
    std::uint64_t moved = 0;
    for (int k = 0; k < n; ++k) moved += c[left + k] * CARD_POWERS[static_cast<std::size_t>(k)];
    const bool ordered = p.dealt < stock_len_;
    const std::uint64_t hs = col_hash_of(parent.cards[s] - moved * CARD_POWERS[static_cast<std::size_t>(left)],
                                         s, source_down, left, ordered);
    const std::uint64_t hd = col_hash_of(parent.cards[d] + moved * CARD_POWERS[static_cast<std::size_t>(p.len(d))],
                                         d, p.down[d], dest_len, ordered);
    key = key_of(parent.hsum - parent.hash[s] - parent.hash[d] + hs + hd, p.dealt);
    return true;
}

// The score of the position a move with a quick key leads to (it removes no run), from its
// parent's: the source column scored again from its remaining cards, the destination's
// seam and top run adjusted (the lifted cards are one same-suit run: no break inside).
int Pass::quick_score(const Node& parent, Move m) const {
    const Position& p = parent.pos;
    const int s = m.src;
    const int d = m.dst;
    const int n = m.count;
    const int left = p.len(s) - n;
    int source_down = p.down[s];
    if (left > 0 && left == source_down) --source_down;
    const int cs = span_chaos(p.col(s), left, source_down, w_);
    int cd;
    if (p.empty(d)) {
        cd = -w_.tail * (n - 1);
    } else {
        const int bottom = p.col(s)[left];  // the lifted run's bottom card
        const int tail = w_.tail ? w_.tail * top_run(p, d) : 0;
        if (bottom == p.top(d) - 1)  // a join: the top run grows by n
            cd = parent.chaos[d] - w_.tail * n;
        else  // a legal move fits by rank: a soft break, and a top run of n
            cd = parent.chaos[d] + w_.soft + (p.down[d] ? w_.bury : 0) + tail - w_.tail * n;
    }
    return parent.score - parent.chaos[s] - parent.chaos[d] + cs + cd;
}

bool Pass::spent() {
    if (budget_.nodes >= budget_.max_nodes) return true;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
    if (took.count() >= budget_.seconds) {
        budget_.timed_out = true;
        return true;
    }
    return false;
}

std::vector<Move> Pass::line_to(int hist, const Move* last) const {
    std::vector<Move> line;
    if (last != nullptr) line.push_back(*last);
    for (int h = hist; h >= 0; h = history_[static_cast<std::size_t>(h)].parent)
        line.push_back(history_[static_cast<std::size_t>(h)].move);
    std::reverse(line.begin(), line.end());
    return line;
}

void Pass::finish(PassResult::Status status, const Node& parent, int parent_hist, Move m) {
    result_.status = status;
    result_.line = line_to(parent_hist, &m);
    result_.end = parent.pos;
    push(result_.end, m, req_.stock);
}

PassResult Pass::run() {
    Node root;
    root.pos = req_.root;
    fill(root);
    const std::uint64_t root_key = key_of(root.hsum, root.pos.dealt);
    if (!req_.goals.empty()) {
        auto g = req_.goals.find(root_key);
        if (g != req_.goals.end()) {
            result_.status = PassResult::GOAL;
            result_.goal = g->second;
            result_.end = root.pos;
            return result_;
        }
    }
    KeySet seen;
    for (std::uint64_t key : req_.lost) seen.insert(key);
    seen.insert(root_key);
    std::vector<Node> beam{root};
    std::vector<Node> next;
    constexpr int GROUPS = DECK_SIZE / DEAL_SIZE + 1;
    std::array<std::vector<Candidate>, GROUPS> groups;
    std::vector<Candidate> kids;
    std::vector<Made> made;
    std::vector<Move> moves;
    Node scratch;
    std::int64_t seq = 0;
    int depth = 0;
    const bool track = req_.track_hits && !req_.targets.empty();
    while (!beam.empty()) {
        if (req_.max_depth >= 0 && depth >= req_.max_depth) {
            result_.cuts += static_cast<std::int64_t>(beam.size());  // not a search of everything
            return result_;
        }
        ++depth;
        for (auto& g : groups) g.clear();
        for (std::size_t b = 0; b < beam.size(); ++b) {
            if (spent()) return result_;
            const Node& node = beam[b];
            const int base = node.score;
            moves_of(node.pos, req_.stock, req_.rules, moves);
            budget_.nodes += static_cast<std::int64_t>(moves.size());
            kids.clear();
            bool lowered = false;  // some move lowers the score
            // First every child's key (its slot in `seen` fetched meanwhile), then, in move
            // order, the children not met before, scored.
            made.clear();
            for (const Move m : moves) {
                Made k{m, 0, 0, false, false};
                if (!quick_key(node, m, k.key)) {
                    child(node, m, scratch);
                    k.key = key_of(scratch.hsum, scratch.pos.dealt);
                    k.score = scratch.score;
                    k.built = true;
                    k.won = won(scratch.pos, req_.stock);
                }
                seen.prefetch(k.key);
                made.push_back(k);
            }
            for (const Made& k : made) {
                if (seen.contains(k.key)) continue;
                const int score = k.built ? k.score : quick_score(node, k.move);
                if (!k.move.is_deal() && score < base) lowered = true;
                ++seq;
                if (k.won) {
                    finish(PassResult::WON, node, node.hist, k.move);
                    return result_;
                }
                const int dealt = node.pos.dealt + (k.move.is_deal() ? DEAL_SIZE : 0);
                kids.push_back({score, seq, static_cast<int>(b), k.move,
                                static_cast<std::uint8_t>(dealt / DEAL_SIZE), k.key});
            }
            // The progress rule: when some moves lower the score, only they and the deal
            // stay. Not while an empty column waits for a deal: the moves that fill it may
            // be the only way to the deal, lowering the score or not.
            if (req_.progress && lowered &&
                (node.pos.dealt >= stock_len_ || !node.pos.any_empty())) {
                std::size_t kept = 0;
                for (const Candidate& c : kids)
                    if (c.score < base || c.move.is_deal()) kids[kept++] = c;
                result_.cuts += static_cast<std::int64_t>(kids.size() - kept);
                kids.resize(kept);
            }
            for (const Candidate& c : kids) {
                if (!seen.insert(c.key)) continue;
                if (!req_.goals.empty()) {
                    auto g = req_.goals.find(c.key);
                    if (g != req_.goals.end()) {
                        result_.goal = g->second;
                        finish(PassResult::GOAL, node, node.hist, c.move);
                        return result_;
                    }
                }
                if (track) {
                    auto t = req_.targets.find(c.key);
                    if (t != req_.targets.end()) {
                        const int saving = t->second - depth;
                        if (saving > std::max(req_.best_saving, result_.hit_saving)) {
                            result_.hit = true;
                            result_.hit_saving = saving;
                            result_.hit_distance = t->second;
                            result_.hit_line = line_to(node.hist, &c.move);
                        }
                    }
                }
                groups[c.group].push_back(c);
            }
        }
        // The best `width` of each deal group (lowest score, ties by generation order),
        // fewest deals first.
        next.clear();
        auto better = [](const Candidate& a, const Candidate& b) {
            return a.score != b.score ? a.score < b.score : a.seq < b.seq;
        };
        for (auto& g : groups) {
            if (g.empty()) continue;
            std::size_t keep = g.size();
            if (static_cast<std::int64_t>(g.size()) > req_.width) {
                keep = static_cast<std::size_t>(req_.width);
                result_.cuts += static_cast<std::int64_t>(g.size() - keep);
                std::nth_element(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(keep), g.end(), better);
                g.resize(keep);
            }
            std::sort(g.begin(), g.end(), better);
            for (const Candidate& c : g) {
                const Node& parent = beam[static_cast<std::size_t>(c.parent)];
                next.emplace_back();
                child(parent, c.move, next.back());
                history_.push_back({parent.hist, c.move});
                next.back().hist = static_cast<int>(history_.size()) - 1;
            }
        }
        beam.swap(next);
    }
    if (req_.collect_seen) seen.keys(result_.seen);
    return result_;
}

}  // namespace

int span_chaos(const Card* c, int n, int d, const Weights& w) {
    if (!n) return -w.empty;
    const int soft = w.soft + (d ? w.bury : 0);
    const int hard = w.hard + (d ? w.bury : 0);
    int chaos = d * w.down;
    int a = c[d];
    int run = 1;  // the top same-suit run so far
    for (int j = d + 1; j < n; ++j) {
        const int b = c[j];
        if (b != a - 1) {
            chaos += rank_of(b) == rank_of(a) - 1 ? soft : hard;
            run = 1;
        } else {
            ++run;
        }
        a = b;
    }
    return chaos - w.tail * (run - 1);
}

int col_chaos(const Position& p, int i, const Weights& w) {
    return span_chaos(p.col(i), p.len(i), p.down[i], w);
}

PassResult beam_pass(const PassRequest& req, Budget& budget) {
    Pass pass(req, budget);
    return pass.run();
}

}  // namespace spider
