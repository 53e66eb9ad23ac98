// The counter: a value between a minimum and a maximum that calls add to, subtract from or set.
// Any change fires onChanged; reaching the maximum fires onHitMax and reaching the minimum onHitMin,
// each on the edge only (a counter held at its maximum and added to again fires nothing): the value
// stays inside the node, and only events leave it.
#pragma once

#include <string_view>

#include "tickwire/logic/behaviour.h"
#include "tickwire/logic/boolean_level.h"

namespace tickwire {

struct LogicCounterSettings {
  double min = 0;
  double max = 1;
  double start = 0;  // clamped into [min, max]; being at a bound from the start is not an edge
};

class LogicCounter final : public LogicBehaviour {
 public:
  static constexpr std::string_view kAdd = "add";            // the parameter, or 1
  static constexpr std::string_view kSubtract = "subtract";  // the parameter, or 1
  static constexpr std::string_view kSet = "set";            // the parameter (required)
  static constexpr std::string_view kOnChanged = "onChanged";
  static constexpr std::string_view kOnHitMax = "onHitMax";
  static constexpr std::string_view kOnHitMin = "onHitMin";

  explicit LogicCounter(const LogicCounterSettings& settings = {});
  // Retuned (a scene edit): its bounds hold from its next input, which moves the value inside them
  // (the start was the load's). Bounds not finite or not ordered are ignored.
  void retune(const LogicCounterSettings& settings);

  std::string_view kind() const override { return "counter"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  double value() const { return value_; }
  // The value and which bound it sits at (the edges it has fired).
  void save(ByteRecordWriter& write) const override;
  bool restore(ByteRecordReader& read, const LogicLimits& limits) override;

 private:
  void change_to(double value, LogicContext& context);

  LogicCounterSettings settings_;
  double value_ = 0;
  BooleanLevel at_max_;
  BooleanLevel at_min_;
};

}  // namespace tickwire
