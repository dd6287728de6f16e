#include "search/network_file.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "search/default_network_text.h"
#include "search/weight_file.h"

namespace divercite {
namespace {

constexpr std::int64_t kInt16Max = 32767;
constexpr std::int64_t kInt8Max = 127;            // hidden and output weights
constexpr std::int64_t kBiasMax = 1'000'000'000;  // int32 biases, far from overflow

template <typename T, std::size_t n>
void AppendValues(std::string& text, const std::array<T, n>& values) {
  absl::StrAppend(&text, " ", absl::StrJoin(values, " "), "\n");
}

// The content lines of a weight file in order, with errors that name the file and the line.
class LineReader {
 public:
  LineReader(const std::vector<absl::string_view>& lines, absl::string_view source)
      : lines_(lines), source_(source) {}

  absl::Status Error(absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat(source_, ":", line_number_, ": ", why));
  }

  // The next line that is neither blank nor a comment; false at the end of the lines.
  bool Next() {
    while (line_number_ < static_cast<int>(lines_.size())) {
      line_ = absl::StripAsciiWhitespace(lines_[line_number_++]);
      if (!line_.empty() && line_[0] != '#') {
        words_ = absl::StrSplit(line_, ' ', absl::SkipEmpty());
        return true;
      }
    }
    ++line_number_;  // the checksum's line: where the missing line should have been
    return false;
  }

  // The next line must be `key` and the rest of it: its text.
  absl::StatusOr<std::string> Text(absl::string_view key) {
    if (!Next()) return Error(absl::StrCat("the file ends early (expected '", key, " ...')"));
    if (words_[0] != key) return Error(absl::StrCat("expected '", key, " ...'"));
    return std::string(absl::StripAsciiWhitespace(line_.substr(key.size())));
  }

  // The next line must be the words `key`, then out.size() integers within +-limit.
  template <typename T, std::size_t n>
  absl::Status Values(std::initializer_list<absl::string_view> key, std::int64_t limit,
                      std::array<T, n>& out) {
    return Values(key, limit, out.data(), static_cast<int>(n));
  }
  template <typename T>
  absl::Status Values(std::initializer_list<absl::string_view> key, std::int64_t limit, T* out,
                      int count) {
    const std::string name = absl::StrJoin(key, " ");
    if (!Next()) return Error(absl::StrCat("the file ends early (expected '", name, " ...')"));
    if (words_.size() < key.size() || !std::equal(key.begin(), key.end(), words_.begin())) {
      return Error(absl::StrCat("expected '", name, " ...'"));
    }
    return ValuesAfter(key.size(), name, limit, out, count);
  }

  // This line's words after the first `skip` ones (`name`, in errors) must be out.size()
  // integers within +-limit.
  template <typename T, std::size_t n>
  absl::Status ValuesAfter(std::size_t skip, absl::string_view name, std::int64_t limit,
                           std::array<T, n>& out) {
    return ValuesAfter(skip, name, limit, out.data(), static_cast<int>(n));
  }
  template <typename T>
  absl::Status ValuesAfter(std::size_t skip, absl::string_view name, std::int64_t limit, T* out,
                           int count) {
    if (words_.size() != skip + count) {
      return Error(absl::StrCat("expected ", count, " values after '", name, "', found ",
                                words_.size() - skip));
    }
    for (int i = 0; i < count; ++i) {
      std::int64_t value = 0;
      if (!absl::SimpleAtoi(words_[skip + i], &value) || value < -limit || value > limit) {
        return Error(absl::StrCat("'", words_[skip + i], "' after '", name,
                                  "' is not an integer within +-", limit));
      }
      out[i] = static_cast<T>(value);
    }
    return absl::OkStatus();
  }

  const std::vector<absl::string_view>& words() const { return words_; }

 private:
  const std::vector<absl::string_view>& lines_;
  absl::string_view source_;
  int line_number_ = 0;
  absl::string_view line_;
  std::vector<absl::string_view> words_;
};

// A hidden layer: `name-bias` and its biases, then `name j` and output j's weights.
template <typename Biases, typename Rows>
absl::Status ReadLayer(LineReader& in, absl::string_view name, Biases& biases, Rows& rows) {
  if (absl::Status s = in.Values({absl::StrCat(name, "-bias")}, kBiasMax, biases); !s.ok()) {
    return s;
  }
  for (std::size_t j = 0; j < rows.size(); ++j) {
    if (absl::Status s = in.Values({name, absl::StrCat(j)}, kInt8Max, rows[j]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

template <typename Biases, typename Rows>
void AppendLayer(std::string& text, absl::string_view name, const Biases& biases,
                 const Rows& rows) {
  absl::StrAppend(&text, name, "-bias");
  AppendValues(text, biases);
  for (std::size_t j = 0; j < rows.size(); ++j) {
    absl::StrAppend(&text, name, " ", j);
    AppendValues(text, rows[j]);
  }
}

absl::Status ParseInto(LineReader& in, NetworkWeights& weights) {
  using namespace network;
  if (!in.Next()) return in.Error("not a Divercite network file (it is empty)");
  int version = 0;
  if (!in.words().empty() && in.words()[0] == "divercite-eval") {
    // The pattern sum's tables, which the engine read until the network replaced them.
    return in.Error(absl::StrCat(
        "a pattern weight file (divercite-eval), which the engine no longer reads: its "
        "evaluation is the network, from a network file ('",
        kNetworkFileMagic, " <version>')"));
  }
  if (in.words().size() != 2 || in.words()[0] != kNetworkFileMagic ||
      !absl::SimpleAtoi(in.words()[1], &version)) {
    return in.Error(absl::StrCat("not a Divercite network file (expected '", kNetworkFileMagic,
                                 " <version>')"));
  }
  if (version != kNetworkFileVersion) {
    return in.Error(
        absl::StrCat("file format version ", version, ", this engine reads ", kNetworkFileVersion));
  }
  absl::StatusOr<std::string> layout = in.Text("layout");
  if (!layout.ok()) return layout.status();
  if (*layout != LayoutText()) {
    return in.Error(absl::StrCat("the file's network is '", *layout, "', this engine's is '",
                                 LayoutText(), "'"));
  }
  absl::StatusOr<std::string> data = in.Text("data");
  if (!data.ok()) return data.status();
  weights.data = *std::move(data);
  absl::StatusOr<std::string> fit = in.Text("fit");
  if (!fit.ok()) return fit.status();
  weights.fit = *std::move(fit);
  if (absl::Status s = in.Values({"feature-bias"}, kInt16Max, weights.feature_bias); !s.ok()) {
    return s;
  }
  std::array<int, 1> rows{};
  if (absl::Status s = in.Values({"features"}, kFeatures, rows); !s.ok()) return s;
  if (rows[0] < 0) return in.Error("a negative count of features");
  int previous = -1;
  for (int k = 0; k < rows[0]; ++k) {
    if (!in.Next()) return in.Error("the file ends early (feature lines missing)");
    int feature = -1;
    const std::string word(in.words()[0]);
    if (!absl::SimpleAtoi(word, &feature) || feature < 0 || feature >= kFeatures) {
      return in.Error(absl::StrCat("expected a feature line '<feature 0..", kFeatures - 1, "> <",
                                   kAccumulator, " values>'"));
    }
    if (feature <= previous) return in.Error("feature lines must be in increasing order");
    previous = feature;
    if (absl::Status s = in.ValuesAfter(1, absl::StrCat("feature ", feature), kInt16Max,
                                        weights.features[feature]);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = ReadLayer(in, "hidden1", weights.hidden1_bias, weights.hidden1); !s.ok()) {
    return s;
  }
  if (absl::Status s = ReadLayer(in, "hidden2", weights.hidden2_bias, weights.hidden2); !s.ok()) {
    return s;
  }
  std::array<std::int32_t, 1> output_bias{};
  if (absl::Status s = in.Values({"output-bias"}, kBiasMax, output_bias); !s.ok()) return s;
  weights.output_bias = output_bias[0];
  if (absl::Status s = in.Values({"output"}, kInt8Max, weights.output); !s.ok()) return s;
  std::array<int, 1> shift{};
  if (absl::Status s = in.Values({"output-shift"}, kMaxOutputShift, shift); !s.ok()) return s;
  if (shift[0] < 0) return in.Error(absl::StrCat("output-shift must be 0..", kMaxOutputShift));
  weights.output_shift = shift[0];
  if (in.Next()) return in.Error("more lines than the network has");
  return absl::OkStatus();
}

}  // namespace

std::string FormatNetworkFile(const NetworkWeights& weights) {
  using namespace network;
  std::string text =
      "# An evaluation network (search/network.h): its integer weights, made by\n"
      "# tools/tune/train_network.py --export; the format is search/network_file.h's.\n";
  absl::StrAppend(&text, kNetworkFileMagic, " ", kNetworkFileVersion, "\n");
  absl::StrAppend(&text, "layout ", LayoutText(), "\n");
  absl::StrAppend(&text, "data ", OneLine(weights.data), "\n");
  absl::StrAppend(&text, "fit ", OneLine(weights.fit), "\n");
  absl::StrAppend(&text, "feature-bias");
  AppendValues(text, weights.feature_bias);
  std::vector<int> rows;
  for (int k = 0; k < kFeatures; ++k) {
    if (weights.features[k] != Accumulator{}) rows.push_back(k);
  }
  absl::StrAppend(&text, "features ", rows.size(), "\n");
  for (const int k : rows) {
    absl::StrAppend(&text, k);
    AppendValues(text, weights.features[k]);
  }
  AppendLayer(text, "hidden1", weights.hidden1_bias, weights.hidden1);
  AppendLayer(text, "hidden2", weights.hidden2_bias, weights.hidden2);
  absl::StrAppend(&text, "output-bias ", weights.output_bias, "\n");
  absl::StrAppend(&text, "output");
  AppendValues(text, weights.output);
  absl::StrAppend(&text, "output-shift ", weights.output_shift, "\n");
  return WithChecksum(std::move(text));
}

absl::StatusOr<std::shared_ptr<const NetworkWeights>> ParseNetworkFile(absl::string_view text,
                                                                       absl::string_view source) {
  const ChecksummedText split = SplitAtChecksum(text);
  LineReader in(split.lines, source);
  auto weights = std::make_shared<NetworkWeights>();
  if (absl::Status parsed = ParseInto(in, *weights); !parsed.ok()) return parsed;
  PackNetwork(*weights);
  if (absl::Status checksum = CheckChecksum(split); !checksum.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ":", split.lines.size() + 1, ": ", checksum.message()));
  }
  return std::shared_ptr<const NetworkWeights>(std::move(weights));
}

absl::StatusOr<std::shared_ptr<const NetworkWeights>> ReadNetworkFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return ParseNetworkFile(*text, path);
}

std::shared_ptr<const NetworkWeights> DefaultNetworkWeights() {
  static const std::shared_ptr<const NetworkWeights> weights = [] {
    absl::StatusOr<std::shared_ptr<const NetworkWeights>> parsed = ParseNetworkFile(
        absl::StrJoin(kDefaultNetworkText, ""), "search/network.net (compiled in)");
    if (!parsed.ok()) {
      // The build's own file: the network_file test keeps it valid.
      std::fprintf(stderr, "%s\n", std::string(parsed.status().message()).c_str());
      std::abort();
    }
    return *std::move(parsed);
  }();
  return weights;
}

}  // namespace divercite
