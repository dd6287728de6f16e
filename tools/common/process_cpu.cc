#include "tools/common/process_cpu.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace divercite {
namespace {

// The numeric entries of a /proc folder (processes, or a process's threads).
std::vector<pid_t> NumberedEntries(const std::string& folder) {
  std::vector<pid_t> ids;
  std::unique_ptr<DIR, int (*)(DIR*)> dir(opendir(folder.c_str()), closedir);
  if (dir == nullptr) return ids;
  while (const dirent* entry = readdir(dir.get())) {
    char* end = nullptr;
    const long id = std::strtol(entry->d_name, &end, 10);
    if (end != entry->d_name && *end == '\0' && id > 0) ids.push_back(static_cast<pid_t>(id));
  }
  return ids;
}

// What /proc/PID/stat says of a process: its parent and its processor time.
struct ProcessStat {
  pid_t pid = 0, parent = 0;
  std::int64_t cpu_ns = 0;
};

// None if the process is gone. The fields after the name, which is in parentheses and may
// hold spaces and parentheses itself: state, ppid, then utime and stime 11 and 12 further.
std::optional<ProcessStat> StatOf(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(file, line)) return std::nullopt;
  const size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(name_end + 1));
  std::string state;
  long parent = 0;
  if (!(rest >> state >> parent)) return std::nullopt;
  std::string skipped;
  for (int field = 0; field < 9; ++field) rest >> skipped;
  long long user_ticks = 0, system_ticks = 0;
  if (!(rest >> user_ticks >> system_ticks)) return std::nullopt;
  static const long ticks_per_second = sysconf(_SC_CLK_TCK);
  return ProcessStat{pid, static_cast<pid_t>(parent),
                     (user_ticks + system_ticks) * (1'000'000'000 / ticks_per_second)};
}

// `root` and its descendants, found through every process's parent.
std::vector<ProcessStat> ProcessTree(pid_t root) {
  std::vector<ProcessStat> all;
  for (pid_t pid : NumberedEntries("/proc")) {
    if (std::optional<ProcessStat> stat = StatOf(pid)) all.push_back(*stat);
  }
  std::sort(all.begin(), all.end(),
            [](const ProcessStat& a, const ProcessStat& b) { return a.parent < b.parent; });
  std::vector<ProcessStat> tree;
  for (const ProcessStat& stat : all) {
    if (stat.pid == root) tree.push_back(stat);
  }
  for (size_t i = 0; i < tree.size(); ++i) {
    auto children = std::equal_range(
        all.begin(), all.end(), ProcessStat{0, tree[i].pid, 0},
        [](const ProcessStat& a, const ProcessStat& b) { return a.parent < b.parent; });
    tree.insert(tree.end(), children.first, children.second);
  }
  return tree;
}

}  // namespace

std::optional<CpuSnapshot> CpuSnapshot::Take(pid_t root) {
  const std::vector<ProcessStat> tree = ProcessTree(root);
  if (tree.empty()) return std::nullopt;  // gone, or no /proc
  CpuSnapshot snapshot;
  for (const ProcessStat& process : tree) {
    snapshot.cpu_ns_[process.pid] = process.cpu_ns;
    const std::string tasks = "/proc/" + std::to_string(process.pid) + "/task";
    for (pid_t tid : NumberedEntries(tasks)) {
      // "<ns on a core> <ns waiting on a run queue> <time slices>"
      std::ifstream file(tasks + "/" + std::to_string(tid) + "/schedstat");
      std::int64_t on_core = 0, waiting = 0;
      if (file >> on_core >> waiting) snapshot.wait_ns_[tid] = waiting;
    }
  }
  return snapshot;
}

namespace {

// The sum of each key's growth from `before` to `now` (a key new in `now` counts whole; a
// number that fell, an id reused, counts none).
std::int64_t Growth(const std::map<pid_t, std::int64_t>& now,
                    const std::map<pid_t, std::int64_t>& before) {
  std::int64_t total = 0;
  for (const auto& [id, value] : now) {
    const auto it = before.find(id);
    total += std::max<std::int64_t>(value - (it == before.end() ? 0 : it->second), 0);
  }
  return total;
}

}  // namespace

CpuUse CpuSnapshot::Since(const CpuSnapshot& before) const {
  return {Growth(cpu_ns_, before.cpu_ns_), Growth(wait_ns_, before.wait_ns_)};
}

}  // namespace divercite
