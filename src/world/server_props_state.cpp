// The props in a save state (seed 002): a room restored from one has every crate where it stood,
// sliding as it slid, asleep where it slept. Every body is read through a scratch solver first, so
// a save that does not read changes no prop.
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/world/server_props.h"

namespace tickwire::world {
namespace {

void write_pose(ByteRecordWriter& write, const PropPose& pose) {
  for (float v : {pose.position.x, pose.position.y, pose.position.z, pose.rotation.x, pose.rotation.y, pose.rotation.z,
                  pose.rotation.w})
    write.f32(v);
}

bool read_pose(ByteRecordReader& read, PropPose& pose) {
  for (float* v : {&pose.position.x, &pose.position.y, &pose.position.z, &pose.rotation.x, &pose.rotation.y,
                   &pose.rotation.z, &pose.rotation.w}) {
    *v = read.f32();
    if (!std::isfinite(*v)) return false;
  }
  return read.ok();
}

}  // namespace

void ServerProps::save(ByteRecordWriter& write) const {
  write.u32(static_cast<uint32_t>(props_.size()));
  for (uint32_t slot = 0; slot < props_.size(); ++slot) {
    write.flag(spawned_[slot]);
    if (!spawned_[slot]) continue;
    write_pose(write, poses_[slot]);
    physics_.save_body(slot, write);
  }
}

bool ServerProps::check(ByteRecordReader& read) const {
  if (read.u32() != props_.size() || !read.ok()) return false;
  PropPhysics scratch(physics_settings_);  // each body read into one scratch slot: nothing here changes
  for (uint32_t slot = 0; slot < props_.size(); ++slot) {
    if (!read.flag()) continue;
    PropPose pose;
    if (!read_pose(read, pose)) return false;
    if (!scratch.has(0)) scratch.add(0, props_[slot], pose);
    if (!scratch.load_body(0, read)) return false;
  }
  return read.ok();
}

bool ServerProps::load(ByteRecordReader& read) {
  ByteRecordReader checked = read;
  if (!check(checked)) return false;
  (void)read.u32();
  for (uint32_t slot = 0; slot < props_.size(); ++slot) {
    const bool present = read.flag();
    if (!present) {
      despawn(slot);
      continue;
    }
    spawn(slot);
    PropPose pose;
    (void)read_pose(read, pose);
    stand(slot, pose);
    (void)physics_.load_body(slot, read);
  }
  return read.ok();
}

}  // namespace tickwire::world
