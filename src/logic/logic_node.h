// A loaded node as the runtime holds it: shared by the runtime's runs (logic_runtime.cpp) and its
// checkpoint (logic_runtime_state.cpp), which both reach into it.
#pragma once

#include <cstdint>

#include "tickwire/logic/logic_runtime.h"

namespace tickwire {

struct LogicRuntime::Node {
  LogicNodeSpec spec;
  LogicBehaviours behaviours;
  uint64_t generation = 0;
  bool retired = false;  // unloaded: still in memory only until the run that held it returns
};

}  // namespace tickwire
