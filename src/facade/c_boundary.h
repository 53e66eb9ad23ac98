// The C API's boundary: nothing thrown inside the library may cross into C, and every failure
// leaves a message on its handle. Messages live in fixed buffers, so recording one never allocates
// (recording "out of memory" must not itself run out of memory).
#pragma once

#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <string_view>

#include "tickwire/tickwire_c.h"

namespace tickwire::capi {

// One handle's last error message (empty: none).
class ErrorText {
 public:
  void set(std::string_view message) noexcept {
    const std::size_t n = message.size() < sizeof(text_) - 1 ? message.size() : sizeof(text_) - 1;
    std::memcpy(text_, message.data(), n);
    text_[n] = '\0';
  }
  void clear() noexcept { text_[0] = '\0'; }
  const char* c_str() const noexcept { return text_; }

 private:
  char text_[TW_ERROR_BYTES] = {};
};

inline tw_result fail(ErrorText& error, tw_result result, std::string_view message) noexcept {
  error.set(message);
  return result;
}

// Runs `body` (which returns a tw_result), turning anything it throws into a result and a message.
template <class Body>
tw_result guarded(ErrorText& error, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(error, TW_ERR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(error, TW_ERR_INTERNAL, e.what());
  } catch (...) {
    return fail(error, TW_ERR_INTERNAL, "an unknown exception inside the library");
  }
}

// The *_open functions' out-param, when the caller gave one.
inline tw_result report(tw_error* out, tw_result result, const ErrorText& error) noexcept {
  if (out != nullptr) {
    out->result = result;
    std::memcpy(out->message, error.c_str(), sizeof(out->message));
  }
  return result;
}

}  // namespace tickwire::capi
