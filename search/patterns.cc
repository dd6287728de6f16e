#include "search/patterns.h"

#include "absl/strings/str_format.h"

namespace divercite {
namespace patterns {
namespace {

constexpr const char* kShapeText[kNumShapes] = {"-",     "1", "2",   "1+1", "3",     "2+1",
                                                "1+1+1", "4", "3+1", "2+2", "2+1+1", "1+1+1+1"};

std::string BestText(int best) {
  return best == kNoCity ? std::string("none") : absl::StrFormat("%d", best);
}

}  // namespace

std::string DescribePattern(int pattern) {
  if (pattern < 0 || pattern >= kNumPatterns) return "no pattern";
  if (pattern < kDeadOffset) {
    const int r = pattern - kLiveOffset;
    return absl::StrFormat(
        "live city, owner %s, %d empty, own colour %s, missing held: owner %d "
        "opponent %d",
        r / 200 ? "to move" : "waiting", r / 50 % 4 + 1, r / 25 % 2 ? "present" : "absent",
        r / 5 % 5, r % 5);
  }
  if (pattern < kEmptyOffset) {
    const int r = pattern - kDeadOffset;
    return absl::StrFormat(
        "dead city, owner %s, %d empty, %d own-colour, own colour held: owner "
        "%s opponent %s",
        r / 64 ? "to move" : "waiting", r / 16 % 4 + 1, r / 4 % 4, r / 2 % 2 ? "yes" : "no",
        r % 2 ? "yes" : "no");
  }
  if (pattern < kThreatOffset) {
    const int r = pattern - kEmptyOffset;
    return absl::StrFormat("empty cell, neighbours %s, divercite %s, best city: ours %s theirs %s",
                           kShapeText[r / 98], r / 49 % 2 ? "possible" : "impossible",
                           BestText(r / 7 % 7), BestText(r % 7));
  }
  if (pattern < kCitiesInHandOffset) {
    const int r = pattern - kThreatOffset;
    return absl::StrFormat("open threes: ours %d%s theirs %d%s", r / 4, r / 4 == 3 ? "+" : "",
                           r % 4, r % 4 == 3 ? "+" : "");
  }
  if (pattern < kSideToMoveOffset) {
    return absl::StrFormat("cities in hand, ours less theirs %+d",
                           pattern - kCitiesInHandOffset - 8);
  }
  return pattern - kSideToMoveOffset ? "second player to move" : "first player to move";
}

std::string LayoutText() {
  return absl::StrFormat("%s live=%d dead=%d empty=%d threats=%d hand=%d side=%d", kLayoutName,
                         kLiveCities, kDeadCities, kEmptyCells, kThreats, kCitiesInHand,
                         kSideToMove);
}

}  // namespace patterns
}  // namespace divercite
