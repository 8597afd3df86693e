// The rules of play on the compact position (position.hpp).
#include "position.hpp"

namespace spider {

namespace {

// Take the top n cards off column i (into `to`, when given).
void lift(Position& p, int i, int n, Card* to) {
    const int end = p.off[i + 1];
    const int table = p.off[COLUMNS];
    if (to != nullptr) std::memcpy(to, p.cards.data() + end - n, static_cast<std::size_t>(n));
    std::memmove(p.cards.data() + end - n, p.cards.data() + end,
                 static_cast<std::size_t>(table - end));
    for (int k = i + 1; k <= COLUMNS; ++k) p.off[k] = static_cast<std::uint8_t>(p.off[k] - n);
}

// Put n cards on top of column i (the caller keeps the table within DECK_SIZE cards).
void place(Position& p, int i, const Card* from, int n) {
    const int end = p.off[i + 1];
    const int table = p.off[COLUMNS];
    std::memmove(p.cards.data() + end + n, p.cards.data() + end,
                 static_cast<std::size_t>(table - end));
    std::memcpy(p.cards.data() + end, from, static_cast<std::size_t>(n));
    for (int k = i + 1; k <= COLUMNS; ++k) p.off[k] = static_cast<std::uint8_t>(p.off[k] + n);
}

void turn(Position& p, int i, StepOutcome* out) {
    p.down[i] = static_cast<std::uint8_t>(p.down[i] - 1);
    if (out != nullptr) out->turns[out->turned++] = {i, p.col(i)[p.down[i]]};
}

// Remove completed runs from the top of column i, then turn its top card face up if it
// is face down (model.settle).
void settle(Position& p, int i, StepOutcome* out) {
    while (p.len(i) - p.down[i] >= RUN_LENGTH && completes_run(p, i)) {
        lift(p, i, RUN_LENGTH, nullptr);
        p.removed = static_cast<std::uint8_t>(p.removed + 1);
        if (out != nullptr) ++out->removed;
    }
    if (p.len(i) > 0 && p.len(i) == p.down[i]) turn(p, i, out);
}

// Whether a card just put on top of column i may complete a run there.
bool may_complete(const Position& p, int i) {
    return rank_of(p.top(i)) == ACE && p.len(i) - p.down[i] >= RUN_LENGTH;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

}  // namespace

int top_run(const Position& p, int i) {
    const Card* c = p.col(i);
    const int n = p.len(i);
    int j = n - 1;
    while (j > p.down[i] && c[j - 1] == c[j] + 1) --j;
    return n - j;
}

bool completes_run(const Position& p, int i) {
    const Card* c = p.col(i);
    const int n = p.len(i);
    const int top = c[n - 1];
    if (rank_of(top) != ACE || c[n - RUN_LENGTH] != top + RUN_LENGTH - 1) return false;
    for (int j = n - RUN_LENGTH; j < n - 1; ++j)
        if (c[j] != c[j + 1] + 1) return false;
    return true;
}

void push(Position& p, Move m, const Stock& stock, StepOutcome* out) {
    if (m.is_deal()) {
        for (int i = 0; i < COLUMNS; ++i) {
            const Card card = stock.cards[static_cast<std::size_t>(p.dealt + i)];
            place(p, i, &card, 1);
            if (may_complete(p, i)) settle(p, i, out);
        }
        p.dealt = static_cast<std::uint8_t>(p.dealt + DEAL_SIZE);
        return;
    }
    const int s = m.src;
    const int d = m.dst;
    const int n = m.count;
    Card lifted[DECK_SIZE];
    lift(p, s, n, lifted);
    if (p.len(s) > 0) {
        if (p.len(s) == p.down[s])
            turn(p, s, out);
        else if (may_complete(p, s))  // a completed run the lifted cards uncover
            settle(p, s, out);
    }
    place(p, d, lifted, n);
    if (may_complete(p, d)) settle(p, d, out);
}

bool can_deal(const Position& p, const Stock& stock, const Rules& rules) {
    if (p.dealt >= stock.size()) return false;
    return !p.any_empty() || (rules.deal_over_gap && p.table() < DEAL_SIZE);
}

bool legal(const Position& p, Move m, const Stock& stock, const Rules& rules) {
    if (m.is_deal()) return can_deal(p, stock, rules);
    const int s = m.src;
    const int d = m.dst;
    const int n = m.count;
    if (s == d || s < 0 || s >= COLUMNS || d < 0 || d >= COLUMNS || n < 1) return false;
    if (n > p.len(s) - p.down[s]) return false;
    const Card* c = p.col(s);
    const int len = p.len(s);
    for (int j = len - n; j < len - 1; ++j)
        if (c[j] != c[j + 1] + 1) return false;
    return p.empty(d) || rank_of(p.top(d)) == rank_of(c[len - n]) + 1;
}

bool won(const Position& p, const Stock& stock) {
    return p.dealt == stock.size() && p.table() == 0;
}

namespace {

// Every legal move (games.engine.moves.legal_moves, the same order: by source,
// destination, then count), moves into an empty column for every liftable count.
void legal_moves(const Position& p, std::vector<Move>& out) {
    int tops[COLUMNS];
    for (int i = 0; i < COLUMNS; ++i) tops[i] = p.empty(i) ? 0 : rank_of(p.top(i));
    for (int src = 0; src < COLUMNS; ++src) {
        const int n = p.len(src);
        if (!n) continue;
        const Card* c = p.col(src);
        int j = n - 1;
        while (j > p.down[src] && c[j - 1] == c[j] + 1) --j;
        const int k = n - j;
        const int low = rank_of(c[n - 1]);
        const int high = low + k;
        for (int dst = 0; dst < COLUMNS; ++dst) {
            if (dst == src) continue;
            const int t = tops[dst];
            if (t) {
                if (low < t && t <= high)
                    out.push_back({static_cast<std::int8_t>(src), static_cast<std::int8_t>(dst),
                                   static_cast<std::int8_t>(t - low)});
            } else {
                for (int count = 1; count <= k; ++count)
                    out.push_back({static_cast<std::int8_t>(src), static_cast<std::int8_t>(dst),
                                   static_cast<std::int8_t>(count)});
            }
        }
    }
}

}  // namespace

void moves_of(const Position& p, const Stock& stock, const Rules& rules, std::vector<Move>& out) {
    out.clear();
    // Where the deal may go over empty columns they are no longer alike (stock card i lands
    // on column i, whatever is there): every legal move is tried (model.search_moves).
    if (can_deal(p, stock, rules) && p.any_empty()) {
        legal_moves(p, out);
        out.push_back(DEAL);
        return;
    }
    // at[r]: the columns whose top card has rank r, in column order (at[0]: the empty ones).
    std::uint8_t at[RANK_MASK + 1][COLUMNS];
    std::uint8_t count[RANK_MASK + 1] = {};
    for (int i = 0; i < COLUMNS; ++i) {
        const int t = p.empty(i) ? 0 : rank_of(p.top(i));
        at[t][count[t]++] = static_cast<std::uint8_t>(i);
    }
    const int empties = count[0];
    const int first_empty = empties ? at[0][0] : -1;
    const bool deal_pending = p.dealt < stock.size();
    int fillers = 0;  // runs with cards under them: moved whole, each fills an empty column
    int split_src[COLUMNS];
    int split_len[COLUMNS];
    int splits = 0;
    for (int src = 0; src < COLUMNS; ++src) {
        const int n = p.len(src);
        if (!n) continue;
        const Card* c = p.col(src);
        const int last = c[n - 1];
        const int low = rank_of(last);
        if (low > KING) continue;
        int j = n - 1;
        while (j > p.down[src] && c[j - 1] == c[j] + 1) --j;
        const int k = n - j;
        if (k == 1) {  // one card: onto any top one rank higher
            const int r = low + 1;
            if (r <= RANK_MASK)
                for (int q = 0; q < count[r]; ++q) out.push_back({static_cast<std::int8_t>(src),
                                                                  static_cast<std::int8_t>(at[r][q]), 1});
        } else {
            // By destination, then count (the legal list's order); a run split only onto its
            // own suit.
            const int suit = suit_of(last);
            const std::size_t first = out.size();
            for (int cnt = 1; cnt <= k; ++cnt) {
                const int r = low + cnt;
                if (r > RANK_MASK) break;
                for (int q = 0; q < count[r]; ++q) {
                    const int dst = at[r][q];
                    if (cnt == k || suit_of(p.top(dst)) == suit)
                        out.push_back({static_cast<std::int8_t>(src), static_cast<std::int8_t>(dst),
                                       static_cast<std::int8_t>(cnt)});
                }
            }
            // Insertion sort by (dst, count): a handful of moves.
            for (std::size_t a = first + 1; a < out.size(); ++a) {
                const Move m = out[a];
                std::size_t b = a;
                while (b > first && (out[b - 1].dst > m.dst ||
                                     (out[b - 1].dst == m.dst && out[b - 1].count > m.count))) {
                    out[b] = out[b - 1];
                    --b;
                }
                out[b] = m;
            }
        }
        if (first_empty >= 0 && j > 0) {
            out.push_back({static_cast<std::int8_t>(src), static_cast<std::int8_t>(first_empty),
                           static_cast<std::int8_t>(k)});
            ++fillers;
        }
        if (k > 1) {
            split_src[splits] = src;
            split_len[splits] = k;
            ++splits;
        }
    }
    if (deal_pending && empties > fillers)
        for (int q = 0; q < splits; ++q)
            for (int cnt = 1; cnt < split_len[q]; ++cnt)
                out.push_back({static_cast<std::int8_t>(split_src[q]),
                               static_cast<std::int8_t>(first_empty),
                               static_cast<std::int8_t>(cnt)});
    if (can_deal(p, stock, rules)) out.push_back(DEAL);
}

namespace {
std::array<std::uint64_t, DECK_SIZE + 1> card_powers() {
    std::array<std::uint64_t, DECK_SIZE + 1> out{};
    std::uint64_t x = 1;
    for (auto& v : out) {
        v = x;
        x *= 0x9e3779b97f4a7c15ULL;  // odd: every power is odd, none is zero
    }
    return out;
}
}  // namespace

const std::array<std::uint64_t, DECK_SIZE + 1> CARD_POWERS = card_powers();

std::uint64_t cards_hash(const Position& p, int i) {
    const Card* c = p.col(i);
    const int n = p.len(i);
    std::uint64_t h = 0;
    for (int j = 0; j < n; ++j) h += c[j] * CARD_POWERS[static_cast<std::size_t>(j)];
    return h;
}

std::uint64_t col_hash_of(std::uint64_t cards, int i, int down, int len, bool ordered) {
    const std::uint64_t shape = (ordered ? static_cast<std::uint64_t>(i + 1) << 32 : 0) ^
                                static_cast<std::uint64_t>(down) << 16 ^
                                static_cast<std::uint64_t>(len);
    return mix(cards ^ mix(shape));
}

std::uint64_t col_hash(const Position& p, int i, bool ordered) {
    return col_hash_of(cards_hash(p, i), i, p.down[i], p.len(i), ordered);
}

std::uint64_t key_of(std::uint64_t hsum, int dealt) {
    return hsum * KEY_DEAL_ROOM + static_cast<std::uint64_t>(dealt / DEAL_SIZE);
}

std::uint64_t position_key(const Position& p, const Stock& stock) {
    const bool ordered = p.dealt < stock.size();
    std::uint64_t sum = 0;
    for (int i = 0; i < COLUMNS; ++i) sum += col_hash(p, i, ordered);
    return key_of(sum, p.dealt);
}

}  // namespace spider
