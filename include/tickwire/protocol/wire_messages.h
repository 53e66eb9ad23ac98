// The protocol's message registry: every message this build can send or receive. Append new
// messages with new ids; never renumber. The schema text and hash come from here.
#pragma once

#include "tickwire/wire/message_registry.h"

namespace tickwire::protocol {

const wire::WireMessages& protocol_messages();

}  // namespace tickwire::protocol
