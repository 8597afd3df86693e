// games.solver._core: the native core as a Python module. The only file that knows Python:
// it reads and checks what Python passes (anything malformed raises ValueError, never
// reaches the core), and builds the answers.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <string>

#include "position.hpp"
#include "search.hpp"
#include "rollout.hpp"

namespace py = pybind11;
using namespace spider;

namespace {

[[noreturn]] void bad(const std::string& what) { throw py::value_error(what); }

// A list or tuple (nothing else: a string or a generator is refused).
py::sequence as_seq(py::handle h, const std::string& what) {
    if (!py::isinstance<py::list>(h) && !py::isinstance<py::tuple>(h))
        bad(what + " must be a list or tuple, not " + std::string(py::str(py::type::of(h).attr("__name__"))));
    return py::reinterpret_borrow<py::sequence>(h);
}

long long as_int(py::handle h, long long lo, long long hi, const std::string& what) {
    if (!PyLong_Check(h.ptr())) bad(what + " must be an int");
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow != 0 || v < lo || v > hi)
        bad(what + " must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return v;
}

Card as_card(py::handle h, const std::string& what) {
    const long long v = as_int(h, 0, 255, what);
    const int rank = static_cast<int>(v) & RANK_MASK;
    const int suit = static_cast<int>(v) >> SUIT_SHIFT;
    if (rank < ACE || rank > KING || suit > 3)
        bad(what + " is not a card (suit << 4 | rank, rank 1..13, suit 0..3): " + std::to_string(v));
    return static_cast<Card>(v);
}

Stock read_stock(py::handle h) {
    const py::sequence seq = as_seq(h, "stock");
    const std::size_t n = seq.size();
    if (n > static_cast<std::size_t>(DECK_SIZE) || n % DEAL_SIZE != 0)
        bad("the stock must hold a multiple of 10 cards, at most 104, not " + std::to_string(n));
    Stock stock;
    stock.cards.reserve(n);
    for (std::size_t i = 0; i < n; ++i) stock.cards.push_back(as_card(seq[i], "stock card " + std::to_string(i)));
    return stock;
}

// (cols, down, dealt) of the model (games.solver.model.Position), checked.
Position read_position(py::handle cols_h, py::handle down_h, py::handle dealt_h, int stock_size) {
    const py::sequence cols = as_seq(cols_h, "cols");
    const py::sequence down = as_seq(down_h, "down");
    if (cols.size() != COLUMNS) bad("cols must hold 10 columns, not " + std::to_string(cols.size()));
    if (down.size() != COLUMNS) bad("down must hold 10 counts, not " + std::to_string(down.size()));
    Position p;
    const long long dealt = as_int(dealt_h, 0, stock_size, "dealt");
    if (dealt % DEAL_SIZE != 0) bad("dealt must be a multiple of 10, not " + std::to_string(dealt));
    p.dealt = static_cast<std::uint8_t>(dealt);
    int at = 0;
    const int room = DECK_SIZE - (stock_size - static_cast<int>(dealt));
    for (int i = 0; i < COLUMNS; ++i) {
        const std::string name = "column " + std::to_string(i);
        const py::sequence col = as_seq(cols[static_cast<std::size_t>(i)], name);
        const long long n = static_cast<long long>(col.size());
        if (at + n > room)
            bad("too many cards: the table and the stock left hold at most 104");
        p.off[i] = static_cast<std::uint8_t>(at);
        for (long long j = 0; j < n; ++j)
            p.cards[static_cast<std::size_t>(at + j)] = as_card(col[static_cast<std::size_t>(j)], name + " card " + std::to_string(j));
        at += static_cast<int>(n);
        const long long d = as_int(down[static_cast<std::size_t>(i)], 0, DECK_SIZE, name + "'s face-down count");
        if (n ? d >= n : d != 0)
            bad(name + "'s face-down count must be below its length (its top card is face up)");
        p.down[i] = static_cast<std::uint8_t>(d);
    }
    p.off[COLUMNS] = static_cast<std::uint8_t>(at);
    return p;
}

Move read_move(py::handle h) {
    const py::sequence seq = as_seq(h, "a move");
    if (seq.size() != 3) bad("a move is (src, dst, count)");
    const long long src = as_int(seq[0], -1, COLUMNS - 1, "a move's source");
    const long long dst = as_int(seq[1], -1, COLUMNS - 1, "a move's destination");
    const long long count = as_int(seq[2], 0, DECK_SIZE, "a move's count");
    const bool deal = src < 0 || dst < 0;
    if (deal && !(src == -1 && dst == -1 && count == 0)) bad("the deal is (-1, -1, 0)");
    if (!deal && count < 1) bad("a move's count must be at least 1");
    return {static_cast<std::int8_t>(src), static_cast<std::int8_t>(dst), static_cast<std::int8_t>(count)};
}

py::tuple columns_of(const Position& p) {
    py::tuple cols(COLUMNS);
    for (int i = 0; i < COLUMNS; ++i) {
        py::tuple col(static_cast<std::size_t>(p.len(i)));
        for (int j = 0; j < p.len(i); ++j) col[static_cast<std::size_t>(j)] = py::int_(p.col(i)[j]);
        cols[static_cast<std::size_t>(i)] = col;
    }
    return cols;
}

py::tuple downs_of(const Position& p) {
    py::tuple down(COLUMNS);
    for (int i = 0; i < COLUMNS; ++i) down[static_cast<std::size_t>(i)] = py::int_(p.down[i]);
    return down;
}

py::tuple move_tuple(Move m) { return py::make_tuple(m.src, m.dst, m.count); }

py::object step(py::handle cols, py::handle down, py::handle dealt, py::handle stock_h, py::handle move_h,
                bool deal_over_gap) {
    const Stock stock = read_stock(stock_h);
    Position p = read_position(cols, down, dealt, stock.size());
    const Move m = read_move(move_h);
    const Rules rules{deal_over_gap};
    if (!legal(p, m, stock, rules)) return py::none();
    StepOutcome out;
    push(p, m, stock, &out);
    py::list turned;
    for (int k = 0; k < out.turned; ++k) turned.append(py::make_tuple(out.turns[static_cast<std::size_t>(k)].first, out.turns[static_cast<std::size_t>(k)].second));
    return py::make_tuple(columns_of(p), downs_of(p), static_cast<int>(p.dealt), turned, out.removed);
}

py::list moves(py::handle cols, py::handle down, py::handle dealt, py::handle stock_h, bool deal_over_gap) {
    const Stock stock = read_stock(stock_h);
    const Position p = read_position(cols, down, dealt, stock.size());
    std::vector<Move> out;
    moves_of(p, stock, Rules{deal_over_gap}, out);
    py::list result;
    for (const Move& m : out) result.append(move_tuple(m));
    return result;
}

// The key needs only the stock's size: a fake stock of that many cards stands in for it.
Stock stock_of_size(py::handle h) {
    const long long n = as_int(h, 0, DECK_SIZE, "stock_len");
    if (n % DEAL_SIZE != 0) bad("stock_len must be a multiple of 10");
    Stock s;
    s.cards.assign(static_cast<std::size_t>(n), static_cast<Card>(ACE));
    return s;
}

std::uint64_t key(py::handle cols, py::handle down, py::handle dealt, py::handle stock_len) {
    const Stock stock = stock_of_size(stock_len);
    return position_key(read_position(cols, down, dealt, stock.size()), stock);
}

bool is_won(py::handle cols, py::handle down, py::handle dealt, py::handle stock_h) {
    const Stock stock = read_stock(stock_h);
    return won(read_position(cols, down, dealt, stock.size()), stock);
}

std::uint64_t as_key(py::handle h, const std::string& what) {
    if (!PyLong_Check(h.ptr())) bad(what + " must be an int");
    const unsigned long long v = PyLong_AsUnsignedLongLong(h.ptr());
    if (PyErr_Occurred()) {
        PyErr_Clear();
        bad(what + " must be a key (an int from 0 to 2**64 - 1)");
    }
    return v;
}

py::list move_list(const std::vector<Move>& line) {
    py::list out;
    for (const Move& m : line) out.append(move_tuple(m));
    return out;
}

Weights read_weights(py::handle weights_h) {
    const py::sequence w = as_seq(weights_h, "weights");
    if (w.size() != 7) bad("weights are (down, hard, soft, empty, run, bury, tail)");
    Weights weights{};
    int* fields[] = {&weights.down, &weights.hard, &weights.soft, &weights.empty,
                     &weights.run, &weights.bury, &weights.tail};
    for (std::size_t k = 0; k < 7; ++k) *fields[k] = static_cast<int>(as_int(w[k], -1000, 1000, "a weight"));
    return weights;
}

// One beam pass (search.hpp): (status, line, (cols, down, dealt, removed) reached, goal index,
// nodes, timed out, cuts, (saving, distance, line) of the best shortcut or None).
py::tuple pass(py::handle cols, py::handle down, py::handle dealt, py::handle removed, py::handle stock_h,
               py::handle width, py::handle weights_h, py::handle max_nodes, py::handle nodes,
               py::handle seconds_h, py::handle max_depth, bool progress, py::handle targets_h,
               py::handle best_saving, py::handle goals_h, bool deal_over_gap, py::handle lost_h,
               py::handle seen_h) {
    PassRequest req;
    req.stock = read_stock(stock_h);
    req.root = read_position(cols, down, dealt, req.stock.size());
    req.root.removed = static_cast<std::uint8_t>(as_int(removed, 0, DECK_SIZE / RUN_LENGTH, "removed"));
    req.rules.deal_over_gap = deal_over_gap;
    req.width = as_int(width, 1, LLONG_MAX, "width");
    req.weights = read_weights(weights_h);
    Budget budget;
    budget.max_nodes = as_int(max_nodes, 0, LLONG_MAX / 2, "max_nodes");
    budget.nodes = as_int(nodes, 0, LLONG_MAX / 2, "nodes");
    if (!PyFloat_Check(seconds_h.ptr()) && !PyLong_Check(seconds_h.ptr())) bad("seconds must be a number");
    budget.seconds = PyFloat_AsDouble(seconds_h.ptr());
    if (PyErr_Occurred()) {
        PyErr_Clear();
        bad("seconds must be a number");
    }
    if (!(budget.seconds >= 0)) budget.seconds = 0;  // NaN and negative: no time left
    req.max_depth = static_cast<int>(as_int(max_depth, -1, INT_MAX, "max_depth"));
    req.progress = progress;
    if (!targets_h.is_none()) {
        if (!py::isinstance<py::dict>(targets_h)) bad("targets must be a dict of key: distance");
        for (auto item : py::reinterpret_borrow<py::dict>(targets_h))
            req.targets[as_key(item.first, "a target's key")] =
                static_cast<int>(as_int(item.second, 0, INT_MAX, "a target's distance"));
        req.track_hits = true;
    }
    req.best_saving = static_cast<int>(as_int(best_saving, 0, INT_MAX, "best_saving"));
    if (!goals_h.is_none()) {
        const py::sequence goals = as_seq(goals_h, "goals");
        for (std::size_t k = 0; k < goals.size(); ++k)
            req.goals.emplace(as_key(goals[k], "a goal's key"), static_cast<int>(k));
    }
    if (!lost_h.is_none()) {
        if (!py::isinstance<py::iterable>(lost_h)) bad("lost must be an iterable of keys");
        for (auto key : py::iter(lost_h)) req.lost.push_back(as_key(key, "a lost key"));
    }
    if (!seen_h.is_none() && !py::isinstance<py::list>(seen_h)) bad("seen must be a list (keys are added)");
    req.collect_seen = !seen_h.is_none();
    PassResult r;
    {
        py::gil_scoped_release free;  // the search touches no Python object
        r = beam_pass(req, budget);
    }
    if (req.collect_seen) {
        py::list out = py::reinterpret_borrow<py::list>(seen_h);
        for (std::uint64_t key : r.seen) out.append(py::int_(key));
    }
    static const char* const names[] = {"none", "won", "goal"};
    py::object hit = py::none();
    if (r.hit) hit = py::make_tuple(r.hit_saving, r.hit_distance, move_list(r.hit_line));
    py::object end = py::none();
    if (r.status != PassResult::NONE) end = py::make_tuple(columns_of(r.end), downs_of(r.end), static_cast<int>(r.end.dealt),
                                                             static_cast<int>(r.end.removed));
    return py::make_tuple(names[r.status], move_list(r.line), end, r.goal, budget.nodes, budget.timed_out,
                          r.cuts, hit);
}

int chaos(py::handle cols, py::handle down, py::handle dealt, py::handle removed, py::handle stock_len,
          py::handle weights_h) {
    const Stock stock = stock_of_size(stock_len);
    Position p = read_position(cols, down, dealt, stock.size());
    const Weights weights = read_weights(weights_h);
    const int runs = static_cast<int>(as_int(removed, 0, DECK_SIZE / RUN_LENGTH, "removed"));
    int score = -weights.run * runs;
    for (int i = 0; i < COLUMNS; ++i) score += col_chaos(p, i, weights);
    return score;
}

}  // namespace

namespace {

// The rollouts of a hint (rollout.hpp) from the visible position only: `cols` the face-up
// cards of each column, `down` its face-down count, `stock_left` the stock's size.
// (worlds played, actions played, timed out, [(wins, ended, score) per candidate]).
py::tuple rollout(py::handle cols_h, py::handle down_h, py::handle stock_left, py::handle suits,
                  py::handle removed_h, py::handle candidates_h, py::handle worlds, py::handle playout_moves,
                  py::handle max_steps, py::handle seconds_h, bool deal_over_gap) {
    RolloutRequest req;
    req.suits = static_cast<int>(as_int(suits, 1, 4, "suits"));
    req.stock_left = static_cast<int>(as_int(stock_left, 0, DECK_SIZE - DEAL_SIZE * 5, "stock_left"));
    if (req.stock_left % DEAL_SIZE != 0) bad("stock_left must be a multiple of 10");
    const py::sequence cols = as_seq(cols_h, "cols");
    const py::sequence down = as_seq(down_h, "down");
    if (cols.size() != COLUMNS) bad("cols must hold 10 columns, not " + std::to_string(cols.size()));
    if (down.size() != COLUMNS) bad("down must hold 10 counts, not " + std::to_string(down.size()));
    int at = 0, places = req.stock_left;
    for (int i = 0; i < COLUMNS; ++i) {
        const std::string name = "column " + std::to_string(i);
        const py::sequence col = as_seq(cols[static_cast<std::size_t>(i)], name);
        const int d = static_cast<int>(as_int(down[static_cast<std::size_t>(i)], 0, DECK_SIZE, name + "'s face-down count"));
        if (d > 0 && col.size() == 0) bad(name + " has face-down cards but no face-up card on top");
        places += d;
        if (at + static_cast<int>(col.size()) + places > DECK_SIZE)
            bad("too many cards: the table and the stock hold at most 104");
        req.visible.off[i] = static_cast<std::uint8_t>(at);
        for (std::size_t j = 0; j < col.size(); ++j)
            req.visible.cards[static_cast<std::size_t>(at++)] = as_card(col[j], name + " card " + std::to_string(j));
        req.visible.down[i] = static_cast<std::uint8_t>(d);
    }
    req.visible.off[COLUMNS] = static_cast<std::uint8_t>(at);
    const py::sequence removed = as_seq(removed_h, "removed_suits");
    if (removed.size() > static_cast<std::size_t>(DECK_SIZE / RUN_LENGTH)) bad("at most 8 runs are removed");
    for (std::size_t k = 0; k < removed.size(); ++k)
        req.removed_suits.push_back(static_cast<int>(as_int(removed[k], 0, req.suits - 1, "a removed run's suit")));
    req.visible.removed = static_cast<std::uint8_t>(req.removed_suits.size());
    req.rules.deal_over_gap = deal_over_gap;
    // The visible position with its unseen places face down, to check the candidates on: a
    // face-up card never depends on the unseen ones, so a move legal here is legal in every
    // world (the stock's cards stand in as Aces: only its size matters to the rules here).
    Position shape;
    int k = 0;
    for (int i = 0; i < COLUMNS; ++i) {
        shape.off[i] = static_cast<std::uint8_t>(k);
        for (int j = 0; j < req.visible.down[i]; ++j) shape.cards[static_cast<std::size_t>(k++)] = ACE;
        for (int j = 0; j < req.visible.len(i); ++j) shape.cards[static_cast<std::size_t>(k++)] = req.visible.col(i)[j];
        shape.down[i] = req.visible.down[i];
    }
    shape.off[COLUMNS] = static_cast<std::uint8_t>(k);
    Stock shape_stock;
    shape_stock.cards.assign(static_cast<std::size_t>(req.stock_left), static_cast<Card>(ACE));
    const py::sequence cands = as_seq(candidates_h, "candidates");
    if (cands.size() > 64) bad("at most 64 candidates");
    for (std::size_t c = 0; c < cands.size(); ++c) {
        const Move m = read_move(cands[c]);
        if (!legal(shape, m, shape_stock, req.rules)) bad("candidate " + std::to_string(c) + " is not a legal action here");
        req.candidates.push_back(m);
    }
    req.worlds = static_cast<int>(as_int(worlds, 0, 100000, "worlds"));
    req.playout_moves = static_cast<int>(as_int(playout_moves, 0, 100000, "playout_moves"));
    req.max_steps = as_int(max_steps, 0, LLONG_MAX / 2, "max_steps");
    if (!PyFloat_Check(seconds_h.ptr()) && !PyLong_Check(seconds_h.ptr())) bad("max_seconds must be a number");
    req.max_seconds = PyFloat_AsDouble(seconds_h.ptr());
    if (PyErr_Occurred()) {
        PyErr_Clear();
        bad("max_seconds must be a number");
    }
    if (!(req.max_seconds >= 0)) req.max_seconds = 0;
    std::vector<Card> deck;
    const std::string wrong = unseen_cards(req, deck);
    if (!wrong.empty()) bad(wrong);
    RolloutResult r;
    {
        py::gil_scoped_release free;  // the playouts touch no Python object
        r = rollouts(req);
    }
    py::list outcomes;
    for (const CandidateOutcome& o : r.outcomes) outcomes.append(py::make_tuple(o.wins, o.ended, o.score));
    return py::make_tuple(r.worlds, r.steps, r.timed_out, outcomes);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "The solver's native core: the compact position, its moves and step, the key.";
    m.def("step", &step, py::arg("cols"), py::arg("down"), py::arg("dealt"), py::arg("stock"), py::arg("move"),
          py::kw_only(), py::arg("deal_over_gap") = false,
          "The position after the move or deal `move`, as (cols, down, dealt, turned, removed), "
          "or None if the rules refuse it.");
    m.def("moves", &moves, py::arg("cols"), py::arg("down"), py::arg("dealt"), py::arg("stock"), py::kw_only(),
          py::arg("deal_over_gap") = false,
          "The moves a search tries (games.solver.model.search_moves), the deal last if legal.");
    m.def("key", &key, py::arg("cols"), py::arg("down"), py::arg("dealt"), py::arg("stock_len"),
          "The search's key of a position.");
    m.def("beam_pass", &pass, py::arg("cols"), py::arg("down"), py::arg("dealt"), py::arg("removed"),
          py::arg("stock"), py::arg("width"), py::arg("weights"), py::arg("max_nodes"), py::arg("nodes"),
          py::arg("seconds"), py::kw_only(), py::arg("max_depth") = -1, py::arg("progress") = true,
          py::arg("targets") = py::none(), py::arg("best_saving") = 0, py::arg("goals") = py::none(),
          py::arg("deal_over_gap") = false, py::arg("lost") = py::none(), py::arg("seen") = py::none(),
          "One beam pass (games.solver.search.beam_pass).");
    m.def("score", &chaos, py::arg("cols"), py::arg("down"), py::arg("dealt"), py::arg("removed"),
          py::arg("stock_len"), py::arg("weights"), "A position's score under `weights` (lower is better).");
    m.def("won", &is_won, py::arg("cols"), py::arg("down"), py::arg("dealt"), py::arg("stock"));
    m.def("rollouts", &rollout, py::arg("cols"), py::arg("down"), py::arg("stock_left"), py::arg("suits"),
          py::arg("removed_suits"), py::arg("candidates"), py::arg("worlds"), py::arg("playout_moves"),
          py::arg("max_steps"), py::arg("max_seconds"), py::kw_only(), py::arg("deal_over_gap") = false,
          "Each candidate played out in worlds drawn from the cards not in view: (worlds, actions, "
          "timed out, [(wins, ended, score)]).");
}
