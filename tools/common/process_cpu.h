// The processor time a process and everything it started have had, and how long their
// threads waited for a core while they could run, summed over the process's descendants:
// each process's user and system time (/proc/PID/stat: its ended threads too, in clock ticks)
// and each live thread's run-queue delay (the scheduler's /proc/PID/task/TID/schedstat; an
// ended thread's is lost, so a wait is never overstated).
//
// The match runner measures each move so: an agent that lost on time while it got little of
// a core it wanted (the worker was busy with other work) is told apart from one that used
// its time (docs/arena.md, "Fair games on busy workers"). The wait is the run-queue delay, not
// the time asleep: an agent that sleeps, or waits on a lock or its pipe, is not starved.
//
// Only Linux has these files; elsewhere, or where /proc hides them, no figure is given.
#ifndef DIVERCITE_TOOLS_COMMON_PROCESS_CPU_H_
#define DIVERCITE_TOOLS_COMMON_PROCESS_CPU_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>

namespace divercite {

struct CpuUse {
  std::int64_t cpu_ns = 0;   // on a core
  std::int64_t wait_ns = 0;  // runnable, waiting for one
};

// The figures of `root` and of its descendants at one moment.
class CpuSnapshot {
 public:
  // None where the figures cannot be read (not Linux, no /proc, `root` gone).
  static std::optional<CpuSnapshot> Take(pid_t root);

  // What was used since `before`: each process's and each thread's growth (one started since
  // counts whole; a process that ended since is lost with its figures).
  CpuUse Since(const CpuSnapshot& before) const;

 private:
  std::map<pid_t, std::int64_t> cpu_ns_;   // by process
  std::map<pid_t, std::int64_t> wait_ns_;  // by thread
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_PROCESS_CPU_H_
