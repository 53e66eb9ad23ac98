// Yaw and pitch to unit vectors. Plain float trigonometry: the same binary gives the same bits,
// which is all prediction needs (server and client share the mover verbatim).
#include "tickwire/world/look_frame.h"

#include <cmath>

namespace tickwire::world {

namespace {
constexpr float kRadiansPerDegree = 3.14159265358979323846f / 180.0f;
}

LookFrame look_frame(float yaw_deg, float pitch_deg) {
  const float yaw = yaw_deg * kRadiansPerDegree;
  const float pitch = pitch_deg * kRadiansPerDegree;
  const float sin_yaw = std::sin(yaw), cos_yaw = std::cos(yaw);
  const float sin_pitch = std::sin(pitch), cos_pitch = std::cos(pitch);
  LookFrame frame;
  frame.forward_flat = {sin_yaw, 0.0f, cos_yaw};
  frame.right = {cos_yaw, 0.0f, -sin_yaw};
  frame.forward = {sin_yaw * cos_pitch, sin_pitch, cos_yaw * cos_pitch};
  return frame;
}

}  // namespace tickwire::world
