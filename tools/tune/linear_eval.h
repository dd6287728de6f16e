// The linear evaluation, kept as the pattern tuner's baseline: the score difference plus nine
// weighted counts of what the course's evaluations missed (the cities that can still become a
// divercité and who can complete or spoil them, the own-colour resources still to come, and
// the cities each player holds back). The engine evaluated positions so before the learned
// patterns (tools/tune/pattern_eval.h) replaced it; divercite-tune-patterns prints its error
// beside theirs on the same positions, so that fits on different games stay comparable. Its
// weights are fixed: a baseline that moved would compare nothing.
#ifndef DIVERCITE_TOOLS_TUNE_LINEAR_EVAL_H_
#define DIVERCITE_TOOLS_TUNE_LINEAR_EVAL_H_

#include "engine/position.h"

namespace divercite {

// The expected final margin, in centipoints from the side to move's view.
int EvaluateLinear(const Position& position);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_LINEAR_EVAL_H_
