// The list of registered messages, built once.
#include "tickwire/protocol/wire_messages.h"

#include "tickwire/protocol/admission_place.h"
#include "tickwire/protocol/construct_call.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/fire_request.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/material_set.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/protocol/resume_ticket.h"
#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/protocol/room_welcome.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/protocol/server_info.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/protocol/timed_input_frame.h"

namespace tickwire::protocol {

const wire::WireMessages& protocol_messages() {
  static const wire::WireMessages messages =
      wire::WireMessages::of<ConnectRequest, SchemaRequest, SchemaText, Ping, ServerInfo, InputFrame, RecordBatch,
                             MaterialSet, RoomWelcome, SnapshotFragment, Snapshot, InteractRequest, SnapshotDelta, RestTableChunk,
                             RelayRefused, EntityEvent, FireRequest, HitEvent, SceneEdit, SceneNodeState,
                             SceneEditRefused, ResumeTicket, AdmissionPlace, ConstructCall,
                             TimedInputFrame>();
  return messages;
}

}  // namespace tickwire::protocol
