// The solver's native core: the compact position and the rules of play on it.
//
// The rules are games/engine's (Board.push); this is the search's fast copy of them, held
// to the engine by tests/solver/test_step.py (every move, deal, completed run, card turned).
// Nothing here knows Python: binding.cpp is the only file that does.
//
// A card is `suit << 4 | rank` (rank 1 Ace .. 13 King, suit 0..3), as in games.engine.cards.
// A position packs every card on the table (face-down ones included) column after column
// into one array of at most 104 cards; off[i]..off[i + 1] is column i, bottom to top, and
// down[i] counts its face-down cards. A move shifts the few bytes between its two columns.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace spider {

constexpr int COLUMNS = 10;
constexpr int DEAL_SIZE = 10;
constexpr int RUN_LENGTH = 13;
constexpr int DECK_SIZE = 104;
constexpr int ACE = 1;
constexpr int KING = 13;
constexpr int RANK_MASK = 15;
constexpr int SUIT_SHIFT = 4;
// A key packs the deals made (at most DECK_SIZE / DEAL_SIZE, 10) under the sum of the
// column hashes: it takes this many values.
constexpr std::uint64_t KEY_DEAL_ROOM = 16;

using Card = std::uint8_t;

inline int rank_of(int card) { return card & RANK_MASK; }
inline int suit_of(int card) { return card >> SUIT_SHIFT; }

// A move: `count` cards from column `src` onto column `dst`; src < 0 is the deal.
struct Move {
    std::int8_t src;
    std::int8_t dst;
    std::int8_t count;
    bool is_deal() const { return src < 0; }
    bool operator==(const Move& o) const {
        return src == o.src && dst == o.dst && count == o.count;
    }
};
constexpr Move DEAL{-1, -1, 0};

// Per-game rules the engine may vary.
struct Rules {
    // A deal is also allowed with empty columns while fewer than DEAL_SIZE cards are on the
    // table in total (they cannot fill every column).
    bool deal_over_gap = false;
};

// The stock, in dealing order (stock card i of a deal goes onto column i).
struct Stock {
    std::vector<Card> cards;
    int size() const { return static_cast<int>(cards.size()); }
};

struct Position {
    std::array<Card, DECK_SIZE> cards{};
    std::array<std::uint8_t, COLUMNS + 1> off{};  // column i is cards[off[i] .. off[i + 1])
    std::array<std::uint8_t, COLUMNS> down{};  // face-down cards per column
    std::uint8_t dealt = 0;  // stock cards dealt
    std::uint8_t removed = 0;  // completed runs removed

    int len(int i) const { return off[i + 1] - off[i]; }
    int table() const { return off[COLUMNS]; }
    const Card* col(int i) const { return cards.data() + off[i]; }
    Card* col(int i) { return cards.data() + off[i]; }
    int top(int i) const { return cards[off[i + 1] - 1]; }  // the column is not empty
    bool empty(int i) const { return off[i] == off[i + 1]; }
    bool any_empty() const {
        for (int i = 0; i < COLUMNS; ++i)
            if (empty(i)) return true;
        return false;
    }
};

// What a step did, beside the new position: the runs it removed and the cards it turned
// face up (column, card).
struct StepOutcome {
    int removed = 0;
    int turned = 0;
    std::array<std::pair<int, int>, COLUMNS> turns{};
};

// -- columns ----------------------------------------------------------------------------
// How many cards the top same-suit run of non-empty column i holds (all face up).
int top_run(const Position& p, int i);
// Whether the last RUN_LENGTH cards of column i (it holds that many) are King..Ace of a suit.
bool completes_run(const Position& p, int i);

// -- the step (unchecked: the move is legal) ---------------------------------------------
// Apply the legal move or deal `m`; the outcome says what it removed and turned over.
void push(Position& p, Move m, const Stock& stock, StepOutcome* out = nullptr);
// Whether `m` is legal in `p` (the engine's check_move / check_deal).
bool legal(const Position& p, Move m, const Stock& stock, const Rules& rules);
bool can_deal(const Position& p, const Stock& stock, const Rules& rules);
bool won(const Position& p, const Stock& stock);

// -- the moves a search tries (games.solver.model.search_moves: pruned_moves, the same list
// in the same order, and the deal last when it is legal; every legal move where the deal
// may go over empty columns) ----------------------------------------------------------------
void moves_of(const Position& p, const Stock& stock, const Rules& rules, std::vector<Move>& out);

// -- the position key ---------------------------------------------------------------------
// A column's cards as a polynomial, sum of card_j * CARD_POWERS[j] (mod 2**64): linear in
// the cards, so a move updates it from the cards it moves alone (the search's hot loop).
extern const std::array<std::uint64_t, DECK_SIZE + 1> CARD_POWERS;
std::uint64_t cards_hash(const Position& p, int i);
// A column's share of the key, from its cards' polynomial: its index counts while cards
// remain in the stock (the next deal puts stock card i onto column i); once the stock is
// dealt, column order does not. The mix is not linear, so a sum of column hashes tells a
// swap of two columns apart.
std::uint64_t col_hash_of(std::uint64_t cards, int i, int down, int len, bool ordered);
std::uint64_t col_hash(const Position& p, int i, bool ordered);
// The key of a position: the sum of its column hashes, and the deals made.
std::uint64_t key_of(std::uint64_t hsum, int dealt);
std::uint64_t position_key(const Position& p, const Stock& stock);

}  // namespace spider
