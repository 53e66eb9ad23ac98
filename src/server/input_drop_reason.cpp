// Names of the input queue's drop reasons, for stats lines and test messages.
#include "tickwire/server/input_drop_reason.h"

namespace tickwire {

std::string_view input_drop_reason_name(InputDropReason reason) {
  switch (reason) {
    case InputDropReason::duplicate: return "duplicate";
    case InputDropReason::stale: return "stale";
    case InputDropReason::overflow: return "overflow";
    case InputDropReason::sequence_end: return "sequence_end";
    case InputDropReason::count_: break;
  }
  return "unknown";
}

}  // namespace tickwire
