// Programmer errors (a broken invariant, a misuse of an API) stop at an assertion; hostile bytes
// never do (they get a decode error instead). The handler is replaceable so tests can observe it.
#pragma once


namespace tickwire {

// Where an assertion fired (std::source_location is not usable with clang 14 + libstdc++ 12).
struct AssertSite {
  const char* file;
  int line;
  const char* function;
};

using AssertHandler = void (*)(const char* expression, const char* message, const AssertSite& where);

// Installs a handler and returns the previous one. The default prints and aborts.
AssertHandler set_assert_handler(AssertHandler handler) noexcept;
[[noreturn]] void assert_failed(const char* expression, const char* message, const AssertSite& where);

}  // namespace tickwire

#ifndef TICKWIRE_ASSERTS
#define TICKWIRE_ASSERTS 1
#endif

#if TICKWIRE_ASSERTS
#define TW_ASSERT(cond, msg)                                            \
  do {                                                                  \
    if (!(cond)) [[unlikely]] ::tickwire::assert_failed(#cond, (msg), ::tickwire::AssertSite{__FILE__, __LINE__, __func__});  \
  } while (false)
#else
#define TW_ASSERT(cond, msg) \
  do {                       \
    (void)sizeof(cond);      \
  } while (false)
#endif
