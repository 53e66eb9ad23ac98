// Fuzzes plan translation: bytes of the frozen v0 build (tests/fixtures/wire/v0/schema.txt) are
// translated through a plan made from that text alone into ours. The first byte is the peer's
// message id, the rest its body. A translation must succeed or be refused by name, and what it
// produces must be read by our own typed reader without complaint.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/wire_plan.h"

namespace {

std::optional<tickwire::wire::WirePlan>& plan() {
  static std::optional<tickwire::wire::WirePlan> p;
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const std::string path = std::string(TICKWIRE_SOURCE_DIR) + "/tests/fixtures/wire/v0/schema.txt";
  std::ifstream in(path, std::ios::binary);
  const std::string peer_text((std::istreambuf_iterator<char>(in)), {});
  auto built = tickwire::wire::WirePlan::build(peer_text, tickwire::protocol::protocol_messages().schema_text());
  if (!built) {
    std::fprintf(stderr, "cannot build the v0 plan from %s\n", path.c_str());
    std::abort();
  }
  plan().emplace(std::move(*built));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tickwire;
  if (size == 0) return 0;
  const auto& registry = protocol::protocol_messages();
  for (auto direction : {wire::Direction::client_to_server, wire::Direction::server_to_client}) {
    std::vector<uint8_t> out;
    auto translated = plan()->translate(data[0], direction, std::span<const uint8_t>(data + 1, size - 1), out);
    if (!translated) {
      if (!out.empty()) __builtin_trap();
      continue;
    }
    const wire::MessageEntry* entry = registry.find(translated->id, direction);
    if (!entry || translated->body_bytes != out.size() || !entry->check(out).ok()) __builtin_trap();
  }
  return 0;
}
