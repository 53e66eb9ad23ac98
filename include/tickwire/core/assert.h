// Programmer errors (a broken invariant, a misuse of an API) stop at an assertion; hostile bytes
// never do (they get a decode error instead). The handler is replaceable so tests can observe it.
#pragma once

#include <source_location>

namespace tickwire {

using AssertHandler = void (*)(const char* expression, const char* message, const std::source_location& where);

// Installs a handler and returns the previous one. The default prints and aborts.
AssertHandler set_assert_handler(AssertHandler handler) noexcept;
[[noreturn]] void assert_failed(const char* expression, const char* message,
                                const std::source_location& where = std::source_location::current());

}  // namespace tickwire

#ifndef TICKWIRE_ASSERTS
#define TICKWIRE_ASSERTS 1
#endif

#if TICKWIRE_ASSERTS
#define TW_ASSERT(cond, msg)                                            \
  do {                                                                  \
    if (!(cond)) [[unlikely]] ::tickwire::assert_failed(#cond, (msg));  \
  } while (false)
#else
#define TW_ASSERT(cond, msg) \
  do {                       \
    (void)sizeof(cond);      \
  } while (false)
#endif
