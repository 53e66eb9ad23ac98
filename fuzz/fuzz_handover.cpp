// Fuzzes host migration's handshake reader: any bytes as a HandoverOffer body, decoded and, when
// they read, restored into a relay (every count and frame checked against its rules) which then
// compares, polices, relays every seat and exports its state again. A restored relay's export must
// read back and restore again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/wire/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  if (size == 0) return 0;
  lockstep::HandoverOffer offer;
  if (!wire::decode(std::span<const uint8_t>(data + 1, size - 1), offer).ok()) return 0;
  MonoTime now = MonoTime::from_ns(1'000'000'000);
  std::optional<lockstep::LockstepRelay> relay = lockstep::LockstepRelay::restore(offer.state, now, Duration::milliseconds(20));
  if (!relay) return 0;
  uint8_t out[1200];
  for (int i = 0; i < 3; ++i) {
    now += Duration::milliseconds(17);
    relay->update(now);
    while (relay->take_dropped()) {
    }
    for (uint8_t s = 0; s < relay->settings().policy.seats; ++s) (void)relay->write_relay(s, now, out);
  }
  const lockstep::RelayState again = relay->export_state(now);
  if (!lockstep::LockstepRelay::restore(again, now, Duration{}).has_value()) std::abort();
  return 0;
}
