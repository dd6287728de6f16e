#include "tools/client/engine_reply.h"

#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/enum_names.h"

namespace divercite {
namespace {

// The word after a score that bounds it; any other leaves the score the search's value.
constexpr EnumName<ScoreBound> kScoreBoundWords[] = {{ScoreBound::kLower, "lowerbound"},
                                                     {ScoreBound::kUpper, "upperbound"}};
static_assert(NamesAreDistinct(kScoreBoundWords));

// An `info ... [multipv k] score cp X [lowerbound|upperbound] ... [pv m1 m2 ...]` line: the
// line, and k in `rank` (left as it is without `multipv`). None without a score.
std::optional<EngineLine> ParseScoreLine(const std::vector<absl::string_view>& words, int& rank) {
  std::optional<EngineLine> line;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "multipv" && i + 1 < words.size()) {
      (void)absl::SimpleAtoi(words[i + 1], &rank);
    } else if (words[i] == "score" && i + 2 < words.size() && words[i + 1] == "cp") {
      int cp = 0;
      if (!absl::SimpleAtoi(words[i + 2], &cp)) continue;
      line.emplace();
      line->score_cp = cp;
      const absl::string_view next = i + 3 < words.size() ? words[i + 3] : "";
      line->score_bound = ValueNamed(kScoreBoundWords, next).value_or(ScoreBound::kNone);
    } else if (words[i] == "pv" && line) {
      for (size_t j = i + 1; j < words.size(); ++j) line->pv.emplace_back(words[j]);
      break;
    }
  }
  if (rank < 1) rank = 1;
  return line;
}

}  // namespace

ReplyReader::Step ReplyReader::Read(absl::string_view line) {
  const std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
  if (words.empty()) return Step::kMore;
  if (words[0] == "bestmove") {
    if (words.size() < 2) return Step::kNoMove;
    reply_.bestmove = std::string(words[1]);
    return Step::kBestmove;
  }
  if (words[0] != "info") return Step::kMore;  // anything else is ignored, as in UCI
  // Why the engine could not play (its own words), for the record of a lost game.
  if (absl::StartsWith(line, kEngineErrorPrefix)) {
    reply_.error = std::string(absl::StripAsciiWhitespace(line.substr(kEngineErrorPrefix.size())));
  }
  // A resource limit of the engine's sandbox ended its move, for the same record.
  if (absl::StartsWith(line, kEngineLimitPrefix)) {
    reply_.limit = std::string(absl::StripAsciiWhitespace(line.substr(kEngineLimitPrefix.size())));
  }
  // Its own code failed on the move: a crash, not an illegal move, in the same record.
  if (absl::StartsWith(line, kEngineCrashPrefix)) {
    reply_.crash = std::string(absl::StripAsciiWhitespace(line.substr(kEngineCrashPrefix.size())));
  }
  if (words.size() >= 2 && words[1] != "string") {
    // A score line opens line k of a report (`multipv k`, 1 without it), line 1 a new
    // report; the `info string exact` / `proven` lines that follow are that line's.
    int line_rank = 1;
    std::optional<EngineLine> scored = ParseScoreLine(words, line_rank);
    if (!scored) return Step::kMore;
    rank_ = static_cast<size_t>(line_rank);
    if (rank_ == 1) {
      reply_.lines.clear();
      reply_.score_cp = scored->score_cp;
      reply_.score_bound = scored->score_bound;
      reply_.proven = ProvenResult::kUnknown;
    }
    if (reply_.lines.size() < rank_) reply_.lines.resize(rank_);
    reply_.lines[rank_ - 1] = *std::move(scored);
    return Step::kMore;
  }
  EngineLine* current = rank_ > 0 ? &reply_.lines[rank_ - 1] : nullptr;
  if (words.size() >= 3 && words[1] == "string" && words[2] == "exact") {
    if (current != nullptr) current->exact = true;
    if (rank_ <= 1) reply_.exact = true;
  }
  if (words.size() == 4 && words[1] == "string" && words[2] == "proven") {
    // An unknown word is ignored, as any line the client does not understand.
    if (const std::optional<ProvenResult> proven = ValueNamed(kProvenResultNames, words[3])) {
      if (current != nullptr) current->proven = *proven;
      if (rank_ <= 1) reply_.proven = *proven;
    }
  }
  return Step::kMore;
}

}  // namespace divercite
