// Fuzzes a deterministic-mode authority: the input is a stream of peer messages, each as [seat u8]
// [u16 little-endian length][body], fed to a started four-seat relay that compares, polices and
// writes every seat's relay after each. Whatever arrives, nothing crashes and every relay it
// writes reads back through its own field table.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "tickwire/core/bytes.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/wire/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  lockstep::LockstepSettings settings;
  settings.policy.lag_policy = LagPolicy::disconnect;
  settings.policy.lag_limit_ms = 50;
  lockstep::LockstepRelay relay(settings);
  for (uint8_t seat = 0; seat < settings.policy.seats; ++seat) (void)relay.take_seat(seat);
  MonoTime now{};
  relay.start(now);
  std::span<const uint8_t> in(data, size);
  uint8_t out[1200];
  while (in.size() >= 3) {
    const uint8_t seat = in[0];
    const std::size_t length = load_le<uint16_t>(in.data() + 1);
    if (length > in.size() - 3) break;
    (void)relay.receive(seat, in.subspan(3, length), now);
    in = in.subspan(3 + length);
    now += Duration::milliseconds(17);
    relay.update(now);
    while (relay.take_dropped()) {
    }
    for (uint8_t s = 0; s < settings.policy.seats; ++s) {
      const std::size_t n = relay.write_relay(s, now, out);
      lockstep::RelayFrames back;
      if (n > 0 && !wire::decode(std::span<const uint8_t>(out + 1, n - 1), back).ok()) std::abort();
    }
  }
  return 0;
}
