// divercite-match -merge FILE... [-records OUT] [-text OUT] with the match's own flags: the
// records of the shards of a match (-shard K/N, each its own file), or of any runs of it,
// read together and reported as one run of the whole match would have: every finished game
// in the order of the schedule ("Finished game ..." and the running score), the statistics
// at -ratinginterval and after each game of an SPRT, and the final statistics (W/D/L,
// pentanomial pairs, Elo, LOS, the SPRT's decision, the round-robin or gauntlet tables). With
// -concurrency 1, that is byte for byte what the single run prints, but for its timings.
//
// Nothing is played and no input file is changed, so a merge may run while the shards still
// write. A last line cut short (a shard still writing, or killed) is left out; the same game
// in several records (a file given twice, a game replayed) counts once, as first read. A
// record that does not belong to the match the flags describe (other engines, names, time
// controls, schedule or openings) is refused: the merge fails, naming the file, the line and
// what differs. Notes (files, duplicates, missing games) go to `notes`, the report to `out`.
#ifndef DIVERCITE_TOOLS_MATCH_MERGE_H_
#define DIVERCITE_TOOLS_MATCH_MERGE_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/match/match_settings.h"
#include "tools/records/game_record.h"

namespace divercite {

struct MergeResult {
  std::vector<GameRecord> records;  // by game number
  int duplicates = 0;               // records of a game already read
  int differing_duplicates = 0;     // of them, those with another course than the first
  std::vector<int> missing;         // games of the schedule in no file (from 0)
};

// Reads settings.merge_files and checks every record against the schedule.
absl::StatusOr<MergeResult> ReadShardRecords(const MatchSettings& settings);

// The whole -merge: reads, reports to `out`, writes -records and -text (replaced whole).
absl::Status MergeRecords(const MatchSettings& settings, std::ostream& out, std::ostream& notes);

// divercite-match -ratings FILE...: the records of any runs, read together (the engines told
// apart by their names, each record counted), their standings to `out` as one line of JSON
// (WriteStandingsJson). Errors: a file that cannot be read, a malformed line, no games.
absl::Status WriteRecordsStandings(const std::vector<std::string>& files, std::ostream& out);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MERGE_H_
