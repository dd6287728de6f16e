// divercite: the engine, speaking the UCI-style protocol on stdin/stdout.
#include <iostream>

#include "tools/uci/protocol.h"

int main() {
  std::ios::sync_with_stdio(false);
  divercite::Protocol protocol(std::cout);
  protocol.Loop(std::cin);
  return 0;
}
