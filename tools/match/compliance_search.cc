#include "tools/match/compliance_search.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/move.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "tools/client/engine_reply.h"

namespace divercite::compliance_internal {
namespace {

// `go infinite`: `isready` this long after it, `stop` this long after it.
constexpr absl::Duration kBeforeIsready = absl::Milliseconds(100);
constexpr absl::Duration kBeforeStop = absl::Milliseconds(300);

// The position of `startpos [moves ...]` or `fen <rows> <side> [moves ...]`.
absl::StatusOr<Position> PositionOf(const std::string& text) {
  const std::vector<absl::string_view> words = absl::StrSplit(text, ' ', absl::SkipEmpty());
  Position start = Position::Start();
  size_t next = 1;
  if (words[0] == "fen") {
    absl::StatusOr<Position> parsed = ParsePositionString(absl::StrCat(words[1], " ", words[2]));
    if (!parsed.ok()) return parsed.status();
    start = *parsed;
    next = 3;
  }
  if (next < words.size()) ++next;  // "moves"
  return PlayMoveTexts(start, std::vector<absl::string_view>(words.begin() + next, words.end()));
}

}  // namespace

absl::Status CheckGo(ComplianceSession& session, const std::string& check,
                     const std::string& position_text, const std::string& go_line,
                     std::optional<absl::Duration> limit) {
  EngineUnderTest& engine = session.engine();
  absl::StatusOr<Position> position = PositionOf(position_text);
  if (!position.ok()) return Wrong(position.status().message());
  const std::string position_line = absl::StrCat("position ", position_text);
  // The position first, answered: an error after `go` is then the go's own.
  if (!engine.Send(position_line).ok()) return Wrong(session.Exited("before go"));
  if (absl::Status ready = engine.Ready(session.Deadline()); !ready.ok()) {
    return session.WaitFailed(ready, "readyok after the position", session.settings().timeout);
  }
  if (!engine.Send(go_line).ok()) return Wrong(session.Exited(absl::StrCat("before ", go_line)));
  const absl::Time start = absl::Now();
  ReplyReader reader;
  bool probing = false;  // an isready sent after an error line: a readyok first, a refusal
  bool searched = false;
  while (true) {
    absl::StatusOr<std::string> line = engine.Read(start + session.settings().timeout);
    if (!line.ok()) {
      return session.WaitFailed(line.status(), absl::StrCat("bestmove to '", go_line, "'"),
                                session.settings().timeout);
    }
    if (*line == "readyok" && probing && engine.AllReady()) {
      return Wrong(
          absl::StrCat("'", go_line, "' was refused: ", QuotedStart(reader.reply().error)));
    }
    if (absl::StartsWith(*line, kEngineErrorPrefix) && !searched && !probing) {
      probing = engine.Send("isready").ok();
    }
    searched =
        searched || (absl::StartsWith(*line, "info ") && !absl::StartsWith(*line, "info string"));
    const ReplyReader::Step step = reader.Read(*line);
    if (step == ReplyReader::Step::kMore) continue;
    const absl::Duration elapsed = absl::Now() - start;
    if (step == ReplyReader::Step::kNoMove) {
      return Wrong(absl::StrCat(QuotedStart(*line), " names no move"));
    }
    session.played().push_back({check, *position, reader.reply().bestmove});
    if (limit && elapsed > *limit) {
      return Wrong(absl::StrCat("bestmove after ", Ms(elapsed), " (at most ", Ms(*limit), ")"));
    }
    return absl::OkStatus();
  }
}

void CheckInfinite(ComplianceSession& session) {
  EngineUnderTest& engine = session.engine();
  const std::string during = "isready during search";
  if (!session.blocked().empty()) {
    session.Report({during, CheckStatus::kSkip, session.blocked()});
    session.Report({"stop", CheckStatus::kSkip, session.blocked()});
    return;
  }
  std::string position_text = absl::StrCat("startpos moves ", kMoves);
  if (!session.played().empty() && session.played().back().check == "go clock") {
    Position game = session.played().back().position;
    absl::StatusOr<Move> reply = ParseMove(session.played().back().move);
    if (reply.ok() && game.CheckLegal(*reply).ok()) {
      game.Play(*reply);
      position_text = absl::StrCat("startpos moves RC14 ", session.played().back().move, " ",
                                   MoveToString(divercite::LegalMoves(game)[0]));
    }
  }
  const absl::StatusOr<Position> position = PositionOf(position_text);
  auto fail_both = [&](const absl::Status& status) {
    session.Report({during, CheckStatus::kFail, std::string(status.message())});
    session.Report({"stop", CheckStatus::kSkip, std::string(status.message())});
  };
  if (!engine.Send(absl::StrCat("position ", position_text)).ok()) {
    return fail_both(Wrong(session.Exited("before go infinite")));
  }
  if (absl::Status ready = engine.Ready(session.Deadline()); !ready.ok()) {
    return fail_both(
        session.WaitFailed(ready, "readyok after the position", session.settings().timeout));
  }
  if (!engine.Send("go infinite").ok())
    return fail_both(Wrong(session.Exited("before go infinite")));
  const absl::Time go = absl::Now();
  std::optional<absl::Duration> ended;  // when the bestmove came, from `go infinite`
  std::string move;
  auto watch = [&](const std::string& line) {
    if (ended || !absl::StartsWith(line, "bestmove")) return;
    ended = absl::Now() - go;
    const std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    move = words.size() >= 2 ? words[1] : "";
  };
  auto read_until = [&](absl::Time until) {
    for (absl::StatusOr<std::string> line = engine.Read(until); line.ok();
         line = engine.Read(until)) {
      watch(*line);
    }
  };
  read_until(go + kBeforeIsready);
  // isready during the search: its readyok at once, and no bestmove yet.
  CheckResult isready{during, CheckStatus::kOk, ""};
  std::vector<std::string> before;
  const absl::Status ready = engine.Ready(absl::Now() + kComplianceIsready, &before);
  for (const std::string& line : before) watch(line);
  if (engine.closed()) return fail_both(Wrong(session.Exited("during go infinite")));
  if (!ready.ok()) {
    isready = {during, CheckStatus::kFail,
               absl::StrCat("no readyok within ", absl::FormatDuration(kComplianceIsready))};
  } else if (ended) {
    isready = {during, CheckStatus::kFail,
               absl::StrCat("the search of 'go infinite' ended by itself (bestmove after ",
                            Ms(*ended), "), before isready")};
  }
  session.Report(isready);
  read_until(go + kBeforeStop);
  for (const std::string& line : engine.Drain()) watch(line);
  // stop: no bestmove before it, one within the limit after it.
  CheckResult stop{"stop", CheckStatus::kOk, ""};
  if (ended) {
    stop = {"stop", CheckStatus::kFail,
            absl::StrCat("bestmove ", Ms(*ended),
                         " after 'go infinite', before stop (it must wait for stop)")};
  } else if (!engine.Send("stop").ok()) {
    stop = {"stop", CheckStatus::kFail, session.Exited("before stop")};
  } else {
    const absl::Time stopped = absl::Now();
    while (!ended) {
      absl::StatusOr<std::string> line = engine.Read(stopped + session.settings().timeout);
      if (!line.ok()) {
        stop = {
            "stop", CheckStatus::kFail,
            std::string(
                session.WaitFailed(line.status(), "bestmove after stop", session.settings().timeout)
                    .message())};
        break;
      }
      watch(*line);
    }
    const absl::Duration elapsed = absl::Now() - stopped;
    if (ended && elapsed > kComplianceStop) {
      stop = {"stop", CheckStatus::kFail,
              absl::StrCat("bestmove ", Ms(elapsed), " after stop (at most ", Ms(kComplianceStop),
                           ")")};
    }
  }
  if (ended && position.ok()) session.played().push_back({"go infinite", *position, move});
  session.Report(stop);
  if (isready.status != CheckStatus::kOk || stop.status != CheckStatus::kOk) session.Resync();
}

}  // namespace divercite::compliance_internal
