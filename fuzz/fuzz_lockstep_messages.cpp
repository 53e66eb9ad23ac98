// Fuzzes the typed reader of every message of deterministic mode's registry (the welcome, peer
// frames, relays and host migration's handshake: offer, accept, move, done, stay, successors), as
// a packet arrives: the envelope byte, then the body; and hands the same bytes to the old host's
// handshake, which must ignore anything but its own candidate's accept or done.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/lockstep/host_handover.h"
#include "tickwire/lockstep/lockstep_messages.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tickwire;
  if (size == 0) return 0;
  const auto& registry = lockstep::lockstep_messages();
  for (auto direction : {wire::Direction::client_to_server, wire::Direction::server_to_client}) {
    if (const auto* entry = registry.find(data[0], direction)) (void)entry->check(std::span<const uint8_t>(data + 1, size - 1));
  }
  lockstep::LockstepRelay relay(lockstep::LockstepSettings{});
  for (uint8_t seat = 0; seat < 4; ++seat) (void)relay.take_seat(seat);
  relay.start(MonoTime{});
  lockstep::HostHandover handover(relay, Duration::seconds(1));
  const uint8_t ranked[] = {1, 2};
  handover.begin(ranked, MonoTime{});
  std::vector<lockstep::OutgoingMessage> out;
  handover.update(MonoTime{}, out);
  handover.receive(1, std::span<const uint8_t>(data, size));
  handover.update(MonoTime::from_ns(1'000'000), out);
  return 0;
}
