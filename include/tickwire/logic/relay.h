// The relay: a named junction in the wiring. A trigger fires onTrigger while the relay is enabled;
// disabled, it ignores triggers (silently, counted as target_disabled) and, as every disable does,
// drops the continuations it had in flight, so a chain it started stops where it was.
#pragma once

#include <string_view>

#include "tickwire/logic/behaviour.h"
#include "tickwire/logic/boolean_level.h"

namespace tickwire {

struct LogicRelaySettings {
  bool start_disabled = false;
};

class LogicRelay final : public LogicBehaviour {
 public:
  static constexpr std::string_view kTrigger = "trigger";
  static constexpr std::string_view kEnable = "enable";
  static constexpr std::string_view kDisable = "disable";
  static constexpr std::string_view kToggle = "toggle";  // enabled <-> disabled
  static constexpr std::string_view kOnTrigger = "onTrigger";

  explicit LogicRelay(const LogicRelaySettings& settings = {}) : enabled_(!settings.start_disabled) {}

  std::string_view kind() const override { return "relay"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  bool enabled() const { return enabled_.value(); }
  void save(ByteRecordWriter& write) const override { enabled_.save(write); }
  bool restore(ByteRecordReader& read, const LogicLimits&) override { return enabled_.restore(read); }

 private:
  void set_enabled(bool enabled, LogicContext& context);

  BooleanLevel enabled_;
};

}  // namespace tickwire
