// The C API's boundary: nothing thrown inside the library may cross into C, and every failure
// leaves a message on its handle. Messages live in fixed buffers, so recording one never allocates
// (recording "out of memory" must not itself run out of memory).
#pragma once

#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
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

// An *_open function's frame: `body(text, handle)` builds the handle or fails with a message; on
// success the caller gets the handle, on failure null and the message in `error` (may be null).
template <class Handle, class Body>
tw_result open_handle(Handle** out, tw_error* error, Body&& body) noexcept {
  ErrorText text;
  const tw_result result = guarded(text, [&]() -> tw_result {
    if (out == nullptr) return fail(text, TW_ERR_INVALID_ARGUMENT, "out: a null handle pointer");
    *out = nullptr;
    std::unique_ptr<Handle> handle;
    const tw_result built = body(text, handle);
    if (built == TW_OK) *out = handle.release();
    return built;
  });
  return report(error, result, text);
}

// Frees a handle; whatever its destructor throws stays on this side.
template <class Handle>
void destroy_handle(Handle* handle) noexcept {
  ErrorText ignored;
  (void)guarded(ignored, [&] {
    delete handle;
    return TW_OK;
  });
}

}  // namespace tickwire::capi
