// The typed entry points: encode, measure and decode a shape (or a whole message with its id byte)
// through its field table. Decode refuses trailing bytes and reports the first error by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/status.h"
#include "tickwire/wire/read_walker.h"
#include "tickwire/wire/write_walker.h"

namespace tickwire::wire {

// Bytes the shape's body takes on the wire.
template <class T>
std::size_t measure(const T& value) {
  CountingSink sink;
  WriteWalker<CountingSink> walker(sink);
  visit_fields(walker, const_cast<T&>(value));  // the write modes never modify
  return sink.size();
}

// Writes the body into out; returns the byte count or buffer_full.
template <class T>
Result<std::size_t> encode(const T& value, std::span<uint8_t> out) {
  BufferSink sink(out);
  WriteWalker<BufferSink> walker(sink);
  visit_fields(walker, const_cast<T&>(value));
  if (sink.overflow()) return Error::buffer_full;
  return sink.size();
}

// The body as a vector of exactly its measure.
template <class T>
std::vector<uint8_t> encode_bytes(const T& value) {
  std::vector<uint8_t> out(measure(value));
  const auto written = encode(value, std::span<uint8_t>(out));
  TW_ASSERT(written && *written == out.size(), "a measured shape fits its measure");
  return out;
}

struct DecodeReport {
  Error error = Error::ok;
  const char* field = "";  // the field the error was found at
};

// Reads a body that must fill `in` exactly.
template <class T>
Status decode(std::span<const uint8_t> in, T& value, DecodeReport* report = nullptr) {
  ReadWalker walker(in);
  visit_fields(walker, value);
  if (walker.ok() && walker.remaining() != 0) walker.fail("<end>", Error::trailing_bytes);
  if (report) *report = DecodeReport{walker.error(), walker.error_field()};
  return walker.error();
}

// Refusals counted by their error, as every reader on the packet path keeps them.
using DecodeErrorCounters = ReasonCounters<Error>;

// decode(), with a refusal counted under its error.
template <class T>
Status decode_counted(std::span<const uint8_t> in, T& value, DecodeErrorCounters& counters,
                      DecodeReport* report = nullptr) {
  const Status status = decode(in, value, report);
  if (!status) counters.add(status.error());
  return status;
}

// A message on the wire: one id byte (the envelope), then the body.
template <class M>
Result<std::size_t> encode_message(const M& message, std::span<uint8_t> out) {
  if (out.empty()) return Error::buffer_full;
  out[0] = M::wire_id;
  auto body = encode(message, out.subspan(1));
  if (!body) return body.error();
  return *body + 1;
}

}  // namespace tickwire::wire
