#include "tools/match/live_log.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace divercite {
namespace {

Json ClocksJson(const LiveClocks& clocks) {
  Json json = Json::array();
  for (const std::optional<std::int64_t>& ms : clocks) {
    json.push_back(ms ? Json(*ms) : Json(nullptr));
  }
  return json;
}

Json ToMoveJson(std::optional<int> to_move) {
  if (!to_move) return nullptr;
  return *to_move == 0 ? "p1" : "p2";
}

}  // namespace

absl::StatusOr<std::unique_ptr<LiveLog>> LiveLog::Open(const std::string& path) {
  std::ofstream out(path, std::ios::app);
  if (!out) return absl::NotFoundError(absl::StrCat("-live: cannot write ", path));
  return std::unique_ptr<LiveLog>(new LiveLog(std::move(out)));
}

Json LiveLog::Event(absl::string_view event, int game) {
  Json json = Json::object();
  json["event"] = std::string(event);
  json["game"] = game;
  json["time"] = absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone());
  return json;
}

void LiveLog::GameStarted(int game, const GameRecord& record, int ply, const LiveClocks& clocks,
                          std::optional<int> to_move) {
  Json json = Event("start", game);
  json["p1"] = record.p1;
  json["p2"] = record.p2;
  json["start"] = record.start;
  json["opening"] = record.opening;
  json["tc"] = Json::array({record.time_controls[0], record.time_controls[1]});
  json["ply"] = ply;
  json["clocks"] = ClocksJson(clocks);
  json["to_move"] = ToMoveJson(to_move);
  Write(json);
}

void LiveLog::MovePlayed(int game, int ply, absl::string_view move, std::int64_t ms,
                         const LiveClocks& clocks, std::optional<int> to_move) {
  Json json = Event("move", game);
  json["ply"] = ply;
  json["move"] = std::string(move);
  json["ms"] = ms;
  json["clocks"] = ClocksJson(clocks);
  json["to_move"] = ToMoveJson(to_move);
  Write(json);
}

void LiveLog::GameEnded(int game, const GameRecord& record, int ply) {
  Json json = Event("end", game);
  json["ply"] = ply;
  json["result"] = std::string(GameResultText(record.result));
  json["termination"] = std::string(TerminationText(record.termination));
  json["reason"] = record.reason;
  json["final"] = Json::array({record.final_scores[0], record.final_scores[1]});
  Write(json);
}

void LiveLog::Write(const Json& line) {
  const std::string text = DumpJson(line) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  out_ << text;
  out_.flush();
}

}  // namespace divercite
