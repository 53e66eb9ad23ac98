// Names of the drop reasons at the netcode/reliability seam, for logs and stats output.
#include "tickwire/transport/reliable_link_drop.h"

namespace tickwire {

std::string_view reliable_link_drop_name(ReliableLinkDrop reason) noexcept {
  switch (reason) {
    case ReliableLinkDrop::no_endpoint: return "no_endpoint";
    case ReliableLinkDrop::malformed_payload: return "malformed_payload";
    case ReliableLinkDrop::send_refused: return "send_refused";
    case ReliableLinkDrop::endpoint_failed: return "endpoint_failed";
    case ReliableLinkDrop::count_: break;
  }
  return "unknown";
}

}  // namespace tickwire
