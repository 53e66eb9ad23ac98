// FireScriptWriter: writes fuzz_fire_handler's scripts as its interpreter (fire_script.h) reads
// them, operation by operation; the seed corpus is built with it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "fire_script.h"

namespace tickwire::world::scripts {

// Writes scripts as the interpreter reads them (the seeds are built with it).
class FireScriptWriter {
 public:
  FireScriptWriter& request_body(uint8_t owner, std::span<const uint8_t> body) {
    TW_ASSERT(body.size() <= kFireScriptMaxBody, "a seed's body fits the script's cap");
    op(FireOp::request).owner(owner).put(static_cast<uint8_t>(body.size()));
    bytes_.insert(bytes_.end(), body.begin(), body.end());
    return *this;
  }
  FireScriptWriter& request(uint8_t owner, const protocol::FireRequest& request) {
    std::array<uint8_t, kFireScriptMaxBody> body{};
    const auto size = wire::encode(request, body);
    TW_ASSERT(size.ok(), "a fireRequest body fits");
    return request_body(owner, std::span<const uint8_t>(body.data(), *size));
  }
  FireScriptWriter& shot(uint8_t owner, const FireAim& aim) { return op(FireOp::shot).owner(owner).fire_aim(aim); }
  FireScriptWriter& place(uint8_t owner, Vec3 feet, Vec3 velocity, float yaw_deg, float pitch_deg, bool crouched = false) {
    op(FireOp::place).owner(owner).put(feet.x).put(feet.y).put(feet.z).put(velocity.x).put(velocity.y).put(velocity.z);
    return put(yaw_deg).put(pitch_deg).put(static_cast<uint8_t>(crouched ? 1 : 0));
  }
  FireScriptWriter& place_at_rim(uint8_t owner, uint8_t side, uint8_t along) {
    return op(FireOp::place_at_rim).owner(owner).put(side).put(along);
  }
  FireScriptWriter& advance(uint8_t ticks_less_one) { return op(FireOp::advance).put(ticks_less_one); }
  FireScriptWriter& wait(uint16_t ms) { return op(FireOp::wait).put(ms); }
  FireScriptWriter& leave_or_join(uint8_t owner) { return op(FireOp::leave_or_join).owner(owner); }
  FireScriptWriter& drain() { return op(FireOp::drain); }
  FireScriptWriter& flood(uint8_t owner, uint8_t count, const FireAim& aim) {
    return op(FireOp::flood).owner(owner).put(count).fire_aim(aim);
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  FireScriptWriter& op(FireOp o) { return put(static_cast<uint8_t>(o)); }
  FireScriptWriter& owner(uint8_t owner) {  // read back as 1 + byte % kFireScriptOwners
    TW_ASSERT(owner >= 1 && owner <= kFireScriptOwners, "a script's owners are 1..kFireScriptOwners");
    return put(static_cast<uint8_t>(owner - 1));
  }
  FireScriptWriter& fire_aim(const FireAim& aim) {
    for (const int8_t cm : aim.eye_offset_cm) put(cm);
    return put(aim.yaw).put(aim.pitch_deg).put(aim.tick_offset).put(aim.fraction);
  }
  template <class T>
  FireScriptWriter& put(T value) {
    uint8_t le[sizeof(T)];
    store_le<T>(le, value);
    bytes_.insert(bytes_.end(), le, le + sizeof(T));
    return *this;
  }
  std::vector<uint8_t> bytes_;
};

}  // namespace tickwire::world::scripts
