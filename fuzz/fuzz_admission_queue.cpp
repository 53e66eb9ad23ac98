// Fuzzes the admission queue with call scripts (tests/fleet/admission_script.h, shared with its
// seeded test): any sequence of requests, refreshes, claims, releases, leaves, silences and capacity
// changes must keep every promise the LineWatch checks, and every answer must round-trip the wire as
// an AdmissionPlace. (Hostile admissionPlace bytes are fuzz_wire_messages' part, as every message's.)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>

#include "admission_script.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto outcome = tickwire::fleet::test::run_admission_script(std::span<const uint8_t>(data, size));
  if (outcome.violation) {
    std::fprintf(stderr, "admission queue: %s (after %llu calls)\n", outcome.violation->c_str(),
                 static_cast<unsigned long long>(outcome.calls));
    __builtin_trap();
  }
  return 0;
}
