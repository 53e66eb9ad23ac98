// Names for send refusals, as they appear in stats and test output.
#include "tickwire/transport/send_result.h"

namespace tickwire {

std::string_view send_error_name(SendError error) noexcept {
  switch (error) {
    case SendError::ok: return "ok";
    case SendError::unknown_channel: return "unknown_channel";
    case SendError::message_too_large: return "message_too_large";
    case SendError::send_queue_full: return "send_queue_full";
    case SendError::endpoint_failed: return "endpoint_failed";
    case SendError::count_: break;
  }
  return "unknown_send_error";
}

}  // namespace tickwire
