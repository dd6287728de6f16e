#include "tools/records/game_record.h"

#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/enum_names.h"

namespace divercite {
namespace {

constexpr EnumName<Termination> kTerminationNames[] = {{Termination::kNormal, "normal"},
                                                       {Termination::kTime, "time"},
                                                       {Termination::kIllegal, "illegal"},
                                                       {Termination::kCrash, "crash"},
                                                       {Termination::kStall, "stall"},
                                                       {Termination::kLimit, "limit"},
                                                       {Termination::kAdjudication, "adjudication"},
                                                       {Termination::kMaxPlies, "maxplies"}};
static_assert(NamesAreDistinct(kTerminationNames));

// The member `key` when present, read by `read` into `*target`; absent leaves the default.
template <typename T, typename Read>
absl::Status ReadOptional(const Json& json, absl::string_view key, Read read, T* target) {
  const Json* value = FindJsonMember(json, key);
  if (value == nullptr) return absl::OkStatus();
  auto result = read(*value, absl::StrCat("'", key, "'"));
  if (!result.ok()) return result.status();
  *target = *std::move(result);
  return absl::OkStatus();
}

// A two-element array member when present, each element read by `read`.
template <typename T, typename Read>
absl::Status ReadOptionalPair(const Json& json, absl::string_view key, Read read,
                              std::array<T, 2>* target) {
  if (FindJsonMember(json, key) == nullptr) return absl::OkStatus();
  absl::StatusOr<const Json*> array = JsonArrayMember(json, key, 2);
  if (!array.ok()) return array.status();
  for (int i = 0; i < 2; ++i) {
    auto element = read((**array)[i], absl::StrCat("'", key, "'[", i, "]"));
    if (!element.ok()) return element.status();
    (*target)[i] = *std::move(element);
  }
  return absl::OkStatus();
}

// A move's "proven": a string, one of the three results.
absl::StatusOr<ProvenResult> ReadProven(const Json& json, absl::string_view what) {
  absl::StatusOr<std::string> text = JsonToString(json, what);
  if (!text.ok()) return text.status();
  const std::optional<ProvenResult> proven = ValueNamed(kProvenResultNames, *text);
  if (!proven) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": unknown proven result '", *text, "' (expected win, draw or loss)"));
  }
  return *proven;
}

absl::StatusOr<MoveRecord> MoveFromJson(const Json& json, absl::string_view what) {
  if (!json.is_object()) return JsonTypeError(json, what, "an object");
  MoveRecord move;
  for (const absl::Status& status : {ReadOptional(json, "move", JsonToString, &move.move),
                                     ReadOptional(json, "ms", JsonToInt64, &move.ms),
                                     ReadOptional(json, "score", JsonToInt, &move.score_cp),
                                     ReadOptional(json, "exact", JsonToBool, &move.exact),
                                     ReadOptional(json, "proven", ReadProven, &move.proven),
                                     ReadOptional(json, "cpu", JsonToInt64, &move.cpu_ms),
                                     ReadOptional(json, "wait", JsonToInt64, &move.wait_ms)}) {
    if (!status.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", status.message()));
  }
  return move;
}

// GameRecord::FromJson without the "record: " before its errors.
absl::StatusOr<GameRecord> RecordFromJson(const Json& json) {
  if (!json.is_object()) return JsonTypeError(json, "a record", "an object");
  GameRecord record;
  absl::StatusOr<int> game = JsonIntMember(json, "game");
  absl::StatusOr<std::string> result = JsonStringMember(json, "result");
  absl::StatusOr<GameResult> read_result =
      result.ok() ? ParseGameResult(*result) : absl::StatusOr<GameResult>(result.status());
  absl::StatusOr<std::string> p1 = JsonStringMember(json, "p1");
  absl::StatusOr<std::string> p2 = JsonStringMember(json, "p2");
  for (const absl::Status& status :
       {game.status(), read_result.status(), p1.status(), p2.status()}) {
    if (!status.ok()) return status;
  }
  record.game = *game;
  record.result = *read_result;
  record.p1 = *std::move(p1);
  record.p2 = *std::move(p2);
  std::string termination(TerminationText(record.termination));
  std::array<int, 2> engines = {record.first_engine, record.second_engine};
  for (const absl::Status& status :
       {ReadOptional(json, "round", JsonToInt, &record.round),
        ReadOptional(json, "pair", JsonToInt, &record.pair),
        ReadOptional(json, "termination", JsonToString, &termination),
        ReadOptional(json, "reason", JsonToString, &record.reason),
        ReadOptional(json, "start", JsonToString, &record.start),
        ReadOptional(json, "opening", JsonToString, &record.opening),
        ReadOptionalPair(json, "engines", JsonToInt, &engines),
        ReadOptionalPair(json, "tc", JsonToString, &record.time_controls),
        ReadOptionalPair(json, "final", JsonToInt, &record.final_scores)}) {
    if (!status.ok()) return status;
  }
  for (auto [key, target] :
       {std::pair("cpu", &record.cpu_ms), std::pair("wait", &record.wait_ms)}) {
    if (FindJsonMember(json, key) == nullptr) continue;
    std::array<std::int64_t, 2> pair{};
    if (absl::Status status = ReadOptionalPair(json, key, JsonToInt64, &pair); !status.ok()) {
      return status;
    }
    *target = pair;
  }
  absl::StatusOr<Termination> parsed_termination = ParseTermination(termination);
  if (!parsed_termination.ok()) return parsed_termination.status();
  record.termination = *parsed_termination;
  record.first_engine = engines[0];
  record.second_engine = engines[1];
  if (FindJsonMember(json, "moves") != nullptr) {
    absl::StatusOr<const Json*> moves = JsonArrayMember(json, "moves");
    if (!moves.ok()) return moves.status();
    for (size_t i = 0; i < (*moves)->size(); ++i) {
      absl::StatusOr<MoveRecord> move =
          MoveFromJson((**moves)[i], absl::StrCat("'moves'[", i, "]"));
      if (!move.ok()) return move.status();
      record.moves.push_back(*std::move(move));
    }
  }
  return record;
}

}  // namespace

absl::StatusOr<GameResult> ParseGameResult(absl::string_view text) {
  const std::optional<GameResult> result = ValueNamed(kGameResultNames, text);
  if (!result || *result == GameResult::kOngoing) {
    return absl::InvalidArgumentError(absl::StrCat("unknown result '", text, "'"));
  }
  return *result;
}

absl::string_view TerminationText(Termination termination) {
  return NameOf(kTerminationNames, termination);
}

absl::StatusOr<Termination> ParseTermination(absl::string_view text) {
  const std::optional<Termination> termination = ValueNamed(kTerminationNames, text);
  if (!termination) {
    return absl::InvalidArgumentError(absl::StrCat("unknown termination '", text, "'"));
  }
  return *termination;
}

double GameRecord::FirstPlayerPoints() const {
  switch (result) {
    case GameResult::kFirstWins:
      return 1.0;
    case GameResult::kSecondWins:
      return 0.0;
    case GameResult::kDraw:
    case GameResult::kOngoing:
      break;
  }
  return 0.5;
}

double GameRecord::PointsOf(int engine) const {
  return engine == first_engine ? FirstPlayerPoints() : 1 - FirstPlayerPoints();
}

Json GameRecord::ToJson() const {
  Json json = Json::object();
  json["game"] = game;
  json["round"] = round;
  json["pair"] = pair;
  json["p1"] = p1;
  json["p2"] = p2;
  json["result"] = std::string(GameResultText(result));
  json["termination"] = std::string(TerminationText(termination));
  json["reason"] = reason;
  json["start"] = start;
  json["opening"] = opening;
  json["engines"] = Json::array({first_engine, second_engine});
  json["tc"] = Json::array({time_controls[0], time_controls[1]});
  Json move_list = Json::array();
  for (const MoveRecord& move : moves) {
    Json entry = Json::object();
    entry["move"] = move.move;
    entry["ms"] = move.ms;
    if (move.score_cp) entry["score"] = *move.score_cp;
    entry["exact"] = move.exact;
    if (move.proven != ProvenResult::kUnknown) {
      entry["proven"] = std::string(ProvenResultText(move.proven));
    }
    if (move.cpu_ms) entry["cpu"] = *move.cpu_ms;
    if (move.wait_ms) entry["wait"] = *move.wait_ms;
    move_list.push_back(std::move(entry));
  }
  json["moves"] = std::move(move_list);
  json["final"] = Json::array({final_scores[0], final_scores[1]});
  if (cpu_ms) json["cpu"] = Json::array({(*cpu_ms)[0], (*cpu_ms)[1]});
  if (wait_ms) json["wait"] = Json::array({(*wait_ms)[0], (*wait_ms)[1]});
  return json;
}

absl::StatusOr<GameRecord> GameRecord::FromJson(const Json& json) {
  absl::StatusOr<GameRecord> record = RecordFromJson(json);
  if (!record.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("record: ", record.status().message()));
  }
  return record;
}

std::string GameRecord::ToText() const {
  std::string text =
      absl::StrFormat("Game %d (round %d): %s vs %s  %s {%s%s%s}  final %d-%d\n", game + 1,
                      round + 1, p1, p2, GameResultText(result), TerminationText(termination),
                      reason.empty() ? "" : ": ", reason, final_scores[0], final_scores[1]);
  absl::StrAppend(&text, "  start ", start, opening.empty() ? "" : ", opening ", opening, "\n");
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StrAppend(&text, i % 2 == 0 ? "  " : " ", moves[i].move, " (", moves[i].ms, " ms",
                    moves[i].score_cp ? absl::StrFormat(", %+.2f", *moves[i].score_cp / 100.0) : "",
                    moves[i].exact ? " exact" : "",
                    moves[i].proven != ProvenResult::kUnknown
                        ? absl::StrCat(", proven ", ProvenResultText(moves[i].proven))
                        : "",
                    ")");
    if (i % 2 == 1 || i + 1 == moves.size()) absl::StrAppend(&text, "\n");
  }
  return text;
}

}  // namespace divercite
