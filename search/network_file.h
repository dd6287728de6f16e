// The evaluation network's weight file (search/network.h), as text, versioned and checked when
// read; tools/tune/train_network.py --export writes it.
//
//   # comments (any line starting with '#', before the checksum)
//   divercite-net 1
//   layout net-1 features=376+2x1739 patterns=patterns-2 accumulator=32 hidden=16,16
//   data <what the network was trained on>
//   fit <the training that made it>
//   feature-bias <32 values>
//   features <n>
//   <feature> <32 values>            n lines, increasing; features not listed are 0
//   hidden1-bias <16 values>
//   hidden1 <j> <64 values>          j = 0 .. 15
//   hidden2-bias <16 values>
//   hidden2 <j> <16 values>          j = 0 .. 15
//   output-bias <value>
//   output <16 values>
//   output-shift <0..14>
//   checksum <16 hex digits>         FNV-1a (64 bits) of every byte before this line
//
// First-layer values are int16, hidden and output weights int8 (-127..127), biases int32.
// A file made for another layout, cut short, edited without a new checksum or malformed is
// refused; the error names the file, the line and the fault.
#ifndef DIVERCITE_SEARCH_NETWORK_FILE_H_
#define DIVERCITE_SEARCH_NETWORK_FILE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "search/network.h"

namespace divercite {

inline constexpr int kNetworkFileVersion = 1;
inline constexpr char kNetworkFileMagic[] = "divercite-net";

std::string FormatNetworkFile(const NetworkWeights& weights);
// Reads a weight file's text; `source` names it in errors. (The weights are large: on the
// heap.)
absl::StatusOr<std::shared_ptr<const NetworkWeights>> ParseNetworkFile(absl::string_view text,
                                                                       absl::string_view source);

// The same from a file; `path` names it in errors.
absl::StatusOr<std::shared_ptr<const NetworkWeights>> ReadNetworkFile(const std::string& path);

// The network the engine starts with: search/network.net, compiled in (never freed).
std::shared_ptr<const NetworkWeights> DefaultNetworkWeights();

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_NETWORK_FILE_H_
