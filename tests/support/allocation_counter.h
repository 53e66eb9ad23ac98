// Counts every heap allocation in a test binary (the replaced global operator new lives in
// allocation_counter.cpp and is linked in when a test calls allocation_count()): the proof that a
// path allocates nothing, however hostile its input.
#pragma once

#include <cstdint>

namespace tickwire::test {

uint64_t allocation_count();

}  // namespace tickwire::test
