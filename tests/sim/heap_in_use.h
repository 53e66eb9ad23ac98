// The process's heap in use (glibc's count of allocated bytes), for the sims that bound memory over
// a run: the logged-in flood and the swarm. The whole process's: server, clients and harness alike.
#pragma once

#include <malloc.h>

#include <cstddef>

namespace tickwire::test {

inline std::size_t heap_in_use() { return mallinfo2().uordblks; }

}  // namespace tickwire::test
