// The UCI-style text protocol (also spoken in its UGI dialect): one command loop that
// dispatches by first token to a small method per command. All text formatting lives here;
// the rules and the search never read or write a stream.
#ifndef DIVERCITE_TOOLS_PROTOCOL_H_
#define DIVERCITE_TOOLS_PROTOCOL_H_

#include <istream>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/position.h"

namespace divercite {

class Protocol {
 public:
  // Every protocol line goes to `out`, flushed line by line.
  explicit Protocol(std::ostream& out);

  // Reads commands until `quit` or the end of the input.
  void Loop(std::istream& in);

  // Handles one line. Returns false when the engine must exit (`quit`).
  bool HandleLine(absl::string_view line);

  const Position& position() const { return position_; }

 private:
  using Arguments = std::vector<absl::string_view>;

  void Identify(absl::string_view dialect);
  void SetPosition(const Arguments& args);
  void Go(const Arguments& args);
  void GoPerft(const Arguments& args);
  void Display();
  void Query(const Arguments& args);

  void Send(absl::string_view line);
  void SendError(absl::string_view reason);

  std::ostream& out_;
  std::mutex out_mutex_;
  Position position_ = Position::Start();
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_PROTOCOL_H_
