// divercite: the engine, speaking the UCI-style protocol on stdin/stdout; or, given arguments,
// running them as one protocol command and exiting (`divercite bench`, as Stockfish and
// OpenBench expect).
#include <iostream>
#include <string>

#include "absl/strings/str_join.h"
#include "search/network.h"
#include "tools/uci/build_info.h"
#include "tools/uci/protocol.h"

namespace {

void PrintVersion() {
  std::cout << "divercite " << divercite::EngineVersion() << "\n"
            << "built by " << divercite::CompilerDescription() << " for "
            << divercite::InstructionSetLevel() << "\n"
            << "network kernels: " << divercite::NetworkKernels() << "\n";
}

void PrintHelp() {
  std::cout << "Usage: divercite [--help | --version | COMMAND [ARGUMENT...]]\n"
               "\n"
               "Without arguments, divercite reads protocol commands on standard input and\n"
               "answers on standard output (UCI-style: uci, isready, setoption, position, go,\n"
               "stop, d, eval, query, bench, quit; docs/protocol.md specifies them).\n"
               "\n"
               "With arguments, they form one protocol command, which runs to its end; then\n"
               "the engine exits, with status 1 if the command was refused. For example:\n"
               "  divercite bench          the search's node-count signature, depth 6\n"
               "  divercite bench 8        the same to depth 8\n"
               "  divercite go perft 4     move-tree counts from the start position\n"
               "  divercite go depth 10    a search of the start position\n"
               "\n"
               "  --version   the version, the compiler, the instruction-set level and the\n"
               "              network's kernels\n"
               "  --help      this text\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc > 1) {
    const std::string first = argv[1];
    if (first == "--version" || first == "-v") {
      PrintVersion();
      return 0;
    }
    if (first == "--help" || first == "-h") {
      PrintHelp();
      return 0;
    }
    if (first.starts_with("-")) {
      std::cerr << "divercite: unknown flag '" << first << "' (divercite --help lists them)\n";
      return 2;
    }
  }
  divercite::Protocol protocol(std::cout);
  if (argc > 1) {
    protocol.HandleLine(absl::StrJoin(argv + 1, argv + argc, " "));
    protocol.WaitForSearch();
    return protocol.errors_sent() == 0 ? 0 : 1;
  }
  protocol.Loop(std::cin);
  return 0;
}
