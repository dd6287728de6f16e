#include "tools/client/protocol_log.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace divercite {

absl::StatusOr<std::unique_ptr<ProtocolLog>> ProtocolLog::Open(const std::string& path) {
  std::ofstream out(path, std::ios::app);
  if (!out) return absl::NotFoundError(absl::StrCat("-log: cannot write ", path));
  return std::unique_ptr<ProtocolLog>(new ProtocolLog(std::move(out)));
}

void ProtocolLog::Write(int game, absl::string_view engine, Direction direction,
                        absl::string_view line) {
  const absl::string_view arrow = direction == Direction::kSent       ? ">"
                                  : direction == Direction::kReceived ? "<"
                                                                      : "*";
  const std::string text =
      absl::StrCat(absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone()),
                   " game ", game, " ", engine, " ", arrow, " ", line, "\n");
  std::lock_guard<std::mutex> lock(mutex_);
  out_ << text;
  out_.flush();
}

}  // namespace divercite
