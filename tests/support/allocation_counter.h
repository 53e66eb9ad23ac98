// Counts every heap allocation in a test binary (the replaced global operator new lives in
// allocation_counter.cpp and is linked in when a test calls allocation_count()): the proof that a
// path allocates nothing, however hostile its input. Sanitizer builds keep their own allocator
// (replacing it trips their new/free pairing checks), so there allocation_counting() is false.
#pragma once

#include <cstdint>

namespace tickwire::test {

bool allocation_counting();
uint64_t allocation_count();

}  // namespace tickwire::test
