// The gate: a held boolean level. setTrue, setFalse, toggle and set (parameter non-zero = true)
// move the level; onTrue and onFalse fire only when it changes, never for a set that finds the level
// already there. This is how logic says "is": a level held here, an edge sent out.
#pragma once

#include <string_view>

#include "tickwire/logic/behaviour.h"
#include "tickwire/logic/boolean_level.h"

namespace tickwire {

struct LogicGateSettings {
  bool initial = false;
};

class LogicGate final : public LogicBehaviour {
 public:
  static constexpr std::string_view kSetTrue = "setTrue";
  static constexpr std::string_view kSetFalse = "setFalse";
  static constexpr std::string_view kToggle = "toggle";
  static constexpr std::string_view kSet = "set";  // the parameter (required): non-zero is true
  static constexpr std::string_view kOnTrue = "onTrue";
  static constexpr std::string_view kOnFalse = "onFalse";

  explicit LogicGate(const LogicGateSettings& settings = {}) : level_(settings.initial) {}

  std::string_view kind() const override { return "gate"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  bool level() const { return level_.value(); }
  void save(ByteRecordWriter& write) const override { level_.save(write); }
  bool restore(ByteRecordReader& read, const LogicLimits&) override { return level_.restore(read); }

 private:
  void set(bool level, LogicContext& context);

  BooleanLevel level_;
};

}  // namespace tickwire
