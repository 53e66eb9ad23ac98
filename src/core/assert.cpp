// The default assertion handler and the hook that replaces it.
#include "tickwire/core/assert.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace tickwire {
namespace {

void default_handler(const char* expression, const char* message, const AssertSite& where) {
  std::fprintf(stderr, "tickwire assertion failed: %s (%s) at %s:%d in %s\n", expression, message, where.file,
               where.line, where.function);
  std::fflush(stderr);
}

std::atomic<AssertHandler> g_handler{&default_handler};

}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) noexcept {
  return g_handler.exchange(handler ? handler : &default_handler);
}

void assert_failed(const char* expression, const char* message, const AssertSite& where) {
  g_handler.load()(expression, message, where);
  // A handler that returns (tests throw instead) must not let execution continue past the breach.
  std::abort();
}

}  // namespace tickwire
