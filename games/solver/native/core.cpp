// The core's rules and searches as one translation unit: the search's hot loop calls the
// rules (push, the moves, the column hashes) and is compiled with them, so the compiler
// inlines them with no link-time optimisation (which not every toolchain has).
#include "position.cpp"
#include "search.cpp"
#include "rollout.cpp"
