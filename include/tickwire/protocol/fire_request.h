// FireRequest (seed 000, "Hits"): a client asks the server to fire its pawn's weapon from the eye
// it claims along the aim it claims, as it drew the world at its render tick. The server never
// trusts the claim: it recomputes the pawn's eye from its own state and drops a request whose
// origin strays past its tolerance, rate-limits each session by the contract's fires per second,
// and traces the world as the shooter saw it (no further back than the contract's max rewind). A
// shot names the last input the client had applied to its prediction when it fired: the server
// traces it once that input has been simulated, so the eye it re-checks the claim against is the
// pawn's after the same input (the client's eye leads the server's by the inputs queued between
// them; on a link with a deep queue, a running shooter's honest claim would otherwise stray).
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/protocol/vec3.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

struct FireRequest {
  static constexpr std::string_view wire_name = "FireRequest";
  static constexpr std::string_view message_name = "fireRequest";
  static constexpr uint8_t wire_id = 23;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint32_t shot = 0;            // the client's own shot counter, echoed in the hit events it causes
  Vec3 eye;                     // the claimed eye origin, metres
  Vec3 aim;                     // the claimed aim direction (any length; the server normalises it)
  uint32_t render_tick = 0;     // the server tick the client's interpolated world stood at when it fired
  uint16_t render_fraction = 0; // and how far toward the next tick, in 1/65536ths
  bool after_input = false;     // the client had applied an input when it fired (a build before this says nothing)
  uint32_t input_sequence = 0;  // and this was the last one

  friend bool operator==(const FireRequest&, const FireRequest&) = default;

  template <class W>
  void fields(W& w) {
    w.varu32("shot", shot);
    w.shape("eye", eye);
    w.shape("aim", aim);
    w.u32("renderTick", render_tick);
    w.u16("renderFraction", render_fraction);
    w.tail();  // a build that predates the input mark ends its shot here: traced on arrival
    w.boolean("afterInput", after_input);
    w.varu32("inputSequence", input_sequence);
  }
};

}  // namespace tickwire::protocol
