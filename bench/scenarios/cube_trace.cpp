// TWCUBES1 both ways: a bounds-checked reader with errors an operator can act on, and the writer.
#include "cube_trace.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include <fmt/format.h>

#include "tickwire/core/bytes.h"

namespace tickwire::bench {
namespace {

constexpr std::string_view kMagic = "TWCUBES1";

TraceLoad refuse(std::string text) { return TraceLoad{false, std::move(text)}; }

}  // namespace

std::vector<uint8_t> serialize_cube_trace(const CubeTrace& trace) {
  std::vector<uint8_t> out(CubeTrace::kHeaderBytes + trace.poses.size() * CubeTrace::kPoseBytes);
  std::memcpy(out.data(), kMagic.data(), kMagic.size());
  store_le<uint32_t>(out.data() + 8, trace.frames());
  store_le<uint32_t>(out.data() + 12, trace.cubes);
  store_le<float>(out.data() + 16, trace.hz);
  uint8_t* at = out.data() + CubeTrace::kHeaderBytes;
  for (const CubePose& p : trace.poses) {
    for (float v : {p.px, p.py, p.pz, p.qx, p.qy, p.qz, p.qw}) {
      store_le<float>(at, v);
      at += 4;
    }
  }
  return out;
}

TraceLoad parse_cube_trace(std::span<const uint8_t> bytes, CubeTrace& out) {
  if (bytes.size() < CubeTrace::kHeaderBytes) {
    return refuse(fmt::format("{} bytes: shorter than the {}-byte header", bytes.size(), CubeTrace::kHeaderBytes));
  }
  if (std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) return refuse("not a TWCUBES1 trace (magic differs)");
  const auto frames = load_le<uint32_t>(bytes.data() + 8);
  const auto cubes = load_le<uint32_t>(bytes.data() + 12);
  const auto hz = load_le<float>(bytes.data() + 16);
  if (cubes == 0 || cubes > CubeTrace::kMaxCubes) return refuse(fmt::format("{} cubes: must be 1..{}", cubes, CubeTrace::kMaxCubes));
  if (frames == 0 || frames > CubeTrace::kMaxFrames) {
    return refuse(fmt::format("{} frames: must be 1..{}", frames, CubeTrace::kMaxFrames));
  }
  if (!(hz >= 1.0f && hz <= 1000.0f)) return refuse(fmt::format("{} Hz: must be 1..1000", hz));
  const std::size_t poses = std::size_t{frames} * cubes;
  if (poses > CubeTrace::kMaxPoses) return refuse(fmt::format("{} poses: more than the cap of {}", poses, CubeTrace::kMaxPoses));
  const std::size_t expected = CubeTrace::kHeaderBytes + poses * CubeTrace::kPoseBytes;
  if (bytes.size() != expected) {
    return refuse(fmt::format("{} bytes where {} frames x {} cubes need exactly {}", bytes.size(), frames, cubes, expected));
  }
  out.cubes = cubes;
  out.hz = hz;
  out.poses.resize(poses);
  const uint8_t* at = bytes.data() + CubeTrace::kHeaderBytes;
  for (std::size_t i = 0; i < poses; ++i, at += CubeTrace::kPoseBytes) {
    float v[7];
    for (int k = 0; k < 7; ++k) v[k] = load_le<float>(at + 4 * k);
    for (float x : v) {
      if (!std::isfinite(x)) return refuse(fmt::format("frame {} cube {}: a value is not finite", i / cubes, i % cubes));
    }
    const double norm2 = double{v[3]} * v[3] + double{v[4]} * v[4] + double{v[5]} * v[5] + double{v[6]} * v[6];
    if (std::fabs(norm2 - 1.0) > 1e-3) {
      return refuse(fmt::format("frame {} cube {}: quaternion is not unit (|q|^2 = {:.6f})", i / cubes, i % cubes, norm2));
    }
    out.poses[i] = CubePose{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
  }
  return TraceLoad{true, {}};
}

TraceLoad read_cube_trace_file(const std::string& path, CubeTrace& out) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return refuse(fmt::format("{}: {}", path, ec.message()));
  const std::size_t cap = CubeTrace::kHeaderBytes + CubeTrace::kMaxPoses * CubeTrace::kPoseBytes;
  if (size > cap) return refuse(fmt::format("{}: {} bytes, more than any trace within the caps ({})", path, size, cap));
  std::vector<uint8_t> bytes(static_cast<std::size_t>(size));
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
    return refuse(fmt::format("{}: read failed", path));
  }
  TraceLoad load = parse_cube_trace(bytes, out);
  if (!load.ok) load.error = path + ": " + load.error;
  return load;
}

TraceLoad write_cube_trace_file(const std::string& path, const CubeTrace& trace) {
  const std::vector<uint8_t> bytes = serialize_cube_trace(trace);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
    return refuse(fmt::format("{}: write failed", path));
  }
  return TraceLoad{true, {}};
}

}  // namespace tickwire::bench
