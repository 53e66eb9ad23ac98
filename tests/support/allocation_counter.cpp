// The replaced global allocation operators behind allocation_count(). GCC cannot see that the
// malloc/free pair inside them is the pair, hence the pragma.
#include "allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define TW_SANITIZED_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TW_SANITIZED_ALLOCATOR 1
#endif
#endif

namespace {
std::atomic<uint64_t> g_allocations{0};
}  // namespace

#ifndef TW_SANITIZED_ALLOCATOR
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace tickwire::test {
#ifdef TW_SANITIZED_ALLOCATOR
bool allocation_counting() { return false; }
#else
bool allocation_counting() { return true; }
#endif
uint64_t allocation_count() { return g_allocations.load(std::memory_order_relaxed); }
}  // namespace tickwire::test
