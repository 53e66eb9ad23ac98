// The cube scene's trace (SCENARIOS.md (b)): what a physics run produced, frame by frame, so the
// encoder is measured on motion it does not control, ours or anyone's. The TWCUBES1 file format:
//   "TWCUBES1" | u32 frames | u32 cubes | f32 hz | frames x cubes x (px py pz qx qy qz qw) f32, LE.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tickwire::bench {

struct CubePose {
  float px = 0, py = 0, pz = 0;  // metres, z up
  float qx = 0, qy = 0, qz = 0, qw = 1;
  friend bool operator==(const CubePose&, const CubePose&) = default;
};

struct CubeTrace {
  static constexpr uint32_t kMaxCubes = 4096;    // MaxRecordsPerSnapshot
  static constexpr uint32_t kMaxFrames = 36000;  // 10 minutes at 60 Hz
  static constexpr std::size_t kMaxPoses = std::size_t{1} << 23;  // 235 MB of file at most
  static constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 4;
  static constexpr std::size_t kPoseBytes = 7 * 4;

  uint32_t cubes = 0;
  float hz = 60;
  std::vector<CubePose> poses;  // frame-major: poses[frame * cubes + cube]; cube 0 is the player

  uint32_t frames() const { return cubes == 0 ? 0 : static_cast<uint32_t>(poses.size() / cubes); }
  const CubePose& at(uint32_t frame, uint32_t cube) const { return poses[std::size_t{frame} * cubes + cube]; }
  friend bool operator==(const CubeTrace&, const CubeTrace&) = default;
};

// A parse that failed says why, in words an operator can act on.
struct TraceLoad {
  bool ok = false;
  std::string error;
};

std::vector<uint8_t> serialize_cube_trace(const CubeTrace& trace);
// Reads a TWCUBES1 image: checks the magic, the caps, that the length is exactly what the header
// announces and that every value is finite; never reads past `bytes`.
TraceLoad parse_cube_trace(std::span<const uint8_t> bytes, CubeTrace& out);
TraceLoad read_cube_trace_file(const std::string& path, CubeTrace& out);
TraceLoad write_cube_trace_file(const std::string& path, const CubeTrace& trace);

}  // namespace tickwire::bench
