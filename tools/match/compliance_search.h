// Inside the compliance check (compliance.h), not part of its interface: the checks of a
// search, `go` under each limit and `go infinite` with `isready` and `stop` during it.
#ifndef DIVERCITE_TOOLS_MATCH_COMPLIANCE_SEARCH_H_
#define DIVERCITE_TOOLS_MATCH_COMPLIANCE_SEARCH_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "tools/match/compliance_session.h"

namespace divercite::compliance_internal {

// A position (`startpos ...` or `fen ...`), the position's line, and `go_line`: a `bestmove`
// naming a move within `limit` (or within the patience, when the check has none); the move
// is kept for the check of legal moves.
absl::Status CheckGo(ComplianceSession& session, const std::string& check,
                     const std::string& position_text, const std::string& go_line,
                     std::optional<absl::Duration> limit);

// `go infinite`: isready during the search, then stop, reported as two checks. The position
// continues the game of `go clock` when its move was legal (second player to move again: a
// course agent's process for that side is already running through the bridge), else it is
// `startpos moves RC14 GR04`.
void CheckInfinite(ComplianceSession& session);

}  // namespace divercite::compliance_internal

#endif  // DIVERCITE_TOOLS_MATCH_COMPLIANCE_SEARCH_H_
