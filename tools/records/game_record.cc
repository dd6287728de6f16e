#include "tools/records/game_record.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace divercite {
namespace {

absl::StatusOr<const JsonValue*> Field(const JsonValue& json, absl::string_view key,
                                       JsonValue::Type type) {
  const JsonValue* value = json.Find(key);
  if (value == nullptr || value->type() != type) {
    return absl::InvalidArgumentError(absl::StrCat("record: missing or mistyped '", key, "'"));
  }
  return value;
}

absl::StatusOr<int> IntField(const JsonValue& json, absl::string_view key) {
  absl::StatusOr<const JsonValue*> value = Field(json, key, JsonValue::Type::kNumber);
  if (!value.ok()) return value.status();
  absl::StatusOr<std::int64_t> n = (*value)->AsInt64();
  if (!n.ok()) return n.status();
  return static_cast<int>(*n);
}

absl::StatusOr<std::string> StringField(const JsonValue& json, absl::string_view key) {
  absl::StatusOr<const JsonValue*> value = Field(json, key, JsonValue::Type::kString);
  if (!value.ok()) return value.status();
  return (*value)->AsString();
}

}  // namespace

JsonValue GameRecord::ToJson() const {
  JsonValue json;
  json.Set("game", game);
  json.Set("round", round);
  json.Set("pair", pair);
  json.Set("p1", p1);
  json.Set("p2", p2);
  json.Set("result", result);
  json.Set("termination", termination);
  json.Set("reason", reason);
  json.Set("start", start);
  json.Set("opening", opening);
  json.Set("engines", JsonValue::Array{first_engine, second_engine});
  json.Set("tc", JsonValue::Array{time_controls[0], time_controls[1]});
  JsonValue::Array move_list;
  for (const MoveRecord& move : moves) {
    JsonValue entry;
    entry.Set("move", move.move);
    entry.Set("ms", move.ms);
    if (move.score_cp) entry.Set("score", *move.score_cp);
    entry.Set("exact", move.exact);
    move_list.push_back(std::move(entry));
  }
  json.Set("moves", std::move(move_list));
  json.Set("final", JsonValue::Array{final_scores[0], final_scores[1]});
  return json;
}

absl::StatusOr<GameRecord> GameRecord::FromJson(const JsonValue& json) {
  GameRecord record;
  absl::StatusOr<int> game = IntField(json, "game");
  absl::StatusOr<std::string> result = StringField(json, "result");
  absl::StatusOr<std::string> p1 = StringField(json, "p1");
  absl::StatusOr<std::string> p2 = StringField(json, "p2");
  for (const absl::Status& status : {game.status(), result.status(), p1.status(), p2.status()}) {
    if (!status.ok()) return status;
  }
  if (*result != "1-0" && *result != "0-1" && *result != "1/2-1/2") {
    return absl::InvalidArgumentError(absl::StrCat("record: bad result '", *result, "'"));
  }
  record.game = *game;
  record.result = *result;
  record.p1 = *p1;
  record.p2 = *p2;
  if (absl::StatusOr<int> round = IntField(json, "round"); round.ok()) record.round = *round;
  if (absl::StatusOr<int> pair = IntField(json, "pair"); pair.ok()) record.pair = *pair;
  const std::pair<const char*, std::string*> text_fields[] = {
      {"termination", &record.termination},
      {"reason", &record.reason},
      {"start", &record.start},
      {"opening", &record.opening}};
  for (const auto& [key, target] : text_fields) {
    if (absl::StatusOr<std::string> text = StringField(json, key); text.ok()) *target = *text;
  }
  if (const JsonValue* engines = json.Find("engines"); engines && engines->is_array() &&
                                                      engines->AsArray().size() == 2) {
    record.first_engine = static_cast<int>(engines->AsArray()[0].AsInt64().value_or(0));
    record.second_engine = static_cast<int>(engines->AsArray()[1].AsInt64().value_or(1));
  }
  if (const JsonValue* moves = json.Find("moves"); moves && moves->is_array()) {
    for (const JsonValue& entry : moves->AsArray()) {
      MoveRecord move;
      if (const JsonValue* m = entry.Find("move"); m && m->is_string()) move.move = m->AsString();
      if (const JsonValue* ms = entry.Find("ms"); ms && ms->is_number()) {
        move.ms = ms->AsInt64().value_or(0);
      }
      if (const JsonValue* s = entry.Find("score"); s && s->is_number()) {
        move.score_cp = static_cast<int>(s->AsInt64().value_or(0));
      }
      if (const JsonValue* e = entry.Find("exact"); e && e->is_bool()) move.exact = e->AsBool();
      record.moves.push_back(move);
    }
  }
  if (const JsonValue* final_scores = json.Find("final");
      final_scores && final_scores->is_array() && final_scores->AsArray().size() == 2) {
    record.final_scores = {static_cast<int>(final_scores->AsArray()[0].AsInt64().value_or(0)),
                           static_cast<int>(final_scores->AsArray()[1].AsInt64().value_or(0))};
  }
  return record;
}

std::string GameRecord::ToText() const {
  std::string text = absl::StrFormat("Game %d (round %d): %s vs %s  %s {%s%s%s}  final %d-%d\n",
                                     game + 1, round + 1, p1, p2, result, termination,
                                     reason.empty() ? "" : ": ", reason, final_scores[0],
                                     final_scores[1]);
  absl::StrAppend(&text, "  start ", start, opening.empty() ? "" : ", opening ", opening, "\n");
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StrAppend(&text, i % 2 == 0 ? "  " : " ", moves[i].move, " (", moves[i].ms, " ms",
                    moves[i].score_cp ? absl::StrFormat(", %+.2f", *moves[i].score_cp / 100.0)
                                      : "",
                    moves[i].exact ? " exact" : "", ")");
    if (i % 2 == 1 || i + 1 == moves.size()) absl::StrAppend(&text, "\n");
  }
  return text;
}

}  // namespace divercite
