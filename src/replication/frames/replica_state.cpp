// Bit-exact comparison of owner details, for ReplicaFrame's equality (the protocol shapes have
// none of their own, and the client's reconcile needs bit patterns, not float equality).
#include "tickwire/replication/frames/replica_state.h"

#include <bit>

namespace tickwire {
namespace {

bool same_bits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }
bool same_bits(const protocol::Vec3& a, const protocol::Vec3& b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

bool same_values(const protocol::PawnValues& a, const protocol::PawnValues& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_bits(a[i].value, b[i].value)) return false;
  }
  return true;
}

}  // namespace

bool same_owner_detail(const protocol::OwnerDetail& a, const protocol::OwnerDetail& b) {
  const bool acks = a.ack.has_value() == b.ack.has_value() && (!a.ack || a.ack->sequence == b.ack->sequence);
  const protocol::PawnDetail& p = a.pawn;
  const protocol::PawnDetail& q = b.pawn;
  return acks && a.queue_depth == b.queue_depth && a.claim == b.claim && p.pawn_ref == q.pawn_ref &&
         same_bits(p.position, q.position) && same_bits(p.velocity, q.velocity) &&
         same_values(p.values, q.values) && p.flags == q.flags &&
         p.placement_epoch == q.placement_epoch;
}

}  // namespace tickwire
