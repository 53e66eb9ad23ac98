// The replay file: "TWREPLAY", version, game name, logic rate, seats, input size, the initial state,
// then per frame [presence u16][seats x input][checksum u64], little-endian. Frames are fixed size,
// so their count is the remaining length divided by the record size (a recording cut mid-record
// does not read).
#include "tickwire/lockstep/replay.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"
#include "tickwire/protocol/room_policy.h"
#include "tickwire/transport/byte_cursor.h"

namespace tickwire::lockstep {

namespace {
constexpr std::array<uint8_t, 8> kMagic = {'T', 'W', 'R', 'E', 'P', 'L', 'A', 'Y'};
constexpr uint16_t kVersion = 1;

template <class T>
void append_le(std::vector<uint8_t>& out, T value) {
  uint8_t bytes[sizeof(T)];
  store_le(bytes, value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}
}  // namespace

ReplayRecorder::ReplayRecorder(std::string game, uint32_t logic_hz, uint32_t seats, uint32_t input_bytes,
                               std::span<const uint8_t> initial_state)
    : seats_(seats), input_bytes_(input_bytes) {
  TW_ASSERT(!game.empty() && game.size() <= kMaxReplayGameNameBytes, "a replay names its game in 1..64 bytes");
  TW_ASSERT(seats >= 1 && seats <= kMaxPeers && input_bytes >= 1 && input_bytes <= kMaxInputBytes, "replay seats or input size outside the caps");
  TW_ASSERT(initial_state.size() <= kMaxReplayStateBytes, "an initial state past the replay's cap");
  bytes_.reserve(kMagic.size() + 16 + game.size() + initial_state.size());
  for (uint8_t b : kMagic) bytes_.push_back(b);  // (an insert() here trips GCC 12's -Wstringop-overflow)
  append_le<uint16_t>(bytes_, kVersion);
  bytes_.push_back(static_cast<uint8_t>(game.size()));
  bytes_.insert(bytes_.end(), game.begin(), game.end());
  append_le<uint32_t>(bytes_, logic_hz);
  bytes_.push_back(static_cast<uint8_t>(seats));
  bytes_.push_back(static_cast<uint8_t>(input_bytes));
  append_le<uint32_t>(bytes_, static_cast<uint32_t>(initial_state.size()));
  bytes_.insert(bytes_.end(), initial_state.begin(), initial_state.end());
}

void ReplayRecorder::on_confirmed(uint32_t frame, std::span<const PeerInput> inputs, uint64_t checksum) {
  const std::size_t record = replay_record_bytes(seats_, input_bytes_);
  if (frame != kFirstFrame + frames_ || inputs.size() != seats_ || bytes_.size() + record > kMaxReplayBytes) {
    ++frames_refused_;
    return;
  }
  uint16_t presence = 0;
  for (uint32_t s = 0; s < seats_; ++s) presence |= static_cast<uint16_t>(inputs[s].present ? 1u << s : 0u);
  append_le<uint16_t>(bytes_, presence);
  for (const PeerInput& in : inputs) {
    TW_ASSERT(in.bytes.size() == input_bytes_, "an input of the wrong size");
    bytes_.insert(bytes_.end(), in.bytes.begin(), in.bytes.end());
  }
  append_le<uint64_t>(bytes_, checksum);
  ++frames_;
}

Result<Replay> read_replay(std::span<const uint8_t> bytes) {
  ByteReader r(bytes);
  std::array<uint8_t, 8> magic{};
  r.bytes(magic);
  const uint16_t version = r.u16();
  const uint8_t name_bytes = r.u8();
  if (!r.ok()) return Error::truncated;
  if (magic != kMagic || version != kVersion) return Error::value_out_of_range;
  if (name_bytes == 0 || name_bytes > kMaxReplayGameNameBytes) return Error::string_over_cap;
  const std::span<const uint8_t> name = r.bytes(name_bytes);
  Replay replay;
  replay.logic_hz = r.u32();
  replay.seats = r.u8();
  replay.input_bytes = r.u8();
  const uint32_t state_bytes = r.u32();
  if (!r.ok()) return Error::truncated;
  replay.game.assign(name.begin(), name.end());
  if (replay.logic_hz < 1 || replay.logic_hz > kContractMaxTickRateHz || replay.seats < 1 || replay.seats > kMaxPeers ||
      replay.input_bytes < 1 || replay.input_bytes > kMaxInputBytes) {
    return Error::value_out_of_range;
  }
  if (state_bytes > kMaxReplayStateBytes) return Error::length_past_end;
  const std::span<const uint8_t> state = r.bytes(state_bytes);
  if (!r.ok()) return Error::truncated;
  replay.initial_state.assign(state.begin(), state.end());
  const std::size_t rest = r.remaining();
  if (rest % replay.record_bytes() != 0) return Error::truncated;
  replay.frames = static_cast<uint32_t>(rest / replay.record_bytes());
  const std::span<const uint8_t> records = r.bytes(rest);
  replay.records.assign(records.begin(), records.end());
  return replay;
}

ReplayVerdict replay_run(const Replay& replay, DeterministicGame& game) {
  ReplayVerdict verdict;
  verdict.loaded = game.load(replay.initial_state);
  if (!verdict.loaded) return verdict;
  std::vector<PeerInput> inputs(replay.seats);
  std::vector<uint8_t> state(game.max_state_bytes());
  for (uint32_t i = 0; i < replay.frames; ++i) {
    const uint8_t* record = replay.records.data() + static_cast<std::size_t>(i) * replay.record_bytes();
    const uint16_t presence = load_le<uint16_t>(record);
    for (uint32_t s = 0; s < replay.seats; ++s) {
      inputs[s] = PeerInput{std::span<const uint8_t>(record + 2 + s * replay.input_bytes, replay.input_bytes),
                            (presence >> s & 1u) != 0};
    }
    const uint32_t frame = kFirstFrame + i;
    game.step(FrameInputs{frame, inputs});
    const std::size_t n = game.save(state);
    const uint64_t ours = game.checksum(std::span<const uint8_t>(state.data(), n));
    const uint64_t recorded = load_le<uint64_t>(record + 2 + static_cast<std::size_t>(replay.seats) * replay.input_bytes);
    verdict.frames_replayed = i + 1;
    if (ours != recorded) {
      verdict.first_divergence = frame;
      verdict.recorded_checksum = recorded;
      verdict.replayed_checksum = ours;
      return verdict;
    }
  }
  return verdict;
}

}  // namespace tickwire::lockstep
