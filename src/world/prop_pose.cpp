// The round trip through the record quantizer, on one record.
#include "tickwire/world/prop_pose.h"

#include <variant>
#include <vector>

#include "tickwire/replication/frames/record_quantizer.h"

namespace tickwire::world {

PropPose wire_pose(const PropPose& pose, const ReplicaKinds& kinds) {
  protocol::ObjectRecord object;
  object.transform.emplace();
  object.transform->position = pose.position.to_wire();
  object.transform->rotation = protocol::Rotation{wire::Quat{pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w}};
  const protocol::Record record{0, std::move(object)};
  thread_local std::vector<ReplicaState> states;
  quantize_records({&record, 1}, kinds, states);
  protocol::Record back;
  dequantize_state(states.front(), kinds, back);
  const protocol::ObjectTransform& t = *std::get<protocol::ObjectRecord>(back.body).transform;
  const wire::Quat q = t.rotation ? t.rotation->q : wire::Quat{};
  return PropPose{Vec3::from_wire(t.position), Quat{q.x, q.y, q.z, q.w}};
}

}  // namespace tickwire::world
