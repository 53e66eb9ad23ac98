// The server's side of scene edits (seed 000, "Scene edits"): a gesture goes to the room (which
// refuses it whole from a session without world authority or past its rate), the game's refusals go
// to their senders alone, and the game's edit set goes whole to every session that has not been sent
// its revision: everyone after an accepted gesture, and a session that just joined (a late joiner is
// told everything that stands). A durable room's set goes out only at a revision the journal holds.
#include <utility>

#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/server/room_server.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {

void RoomServer::receive_edit(Connection& c, const protocol::SceneEdit& gesture) {
  const std::optional<protocol::EditRefusal> whole = room_.receive_edit(c.owner, gesture, now_);
  if (!whole) return;
  protocol::SceneEditRefused refused;
  refused.gesture = gesture.gesture;
  refused.reason = *whole;
  tell_edit_refusal(c, refused);
}

void RoomServer::send_edit_refusals() {
  edit_refusals_.clear();
  room_.simulation().take_edit_refusals(edit_refusals_);
  for (const EditRefusalOut& r : edit_refusals_)
    if (Connection* c = admitted_connection(r.to)) tell_edit_refusal(*c, r.refused);  // else the sender left
}

// A build that does not list sceneEditRefused is told nothing (it would refuse the message as unknown).
void RoomServer::tell_edit_refusal(Connection& c, const protocol::SceneEditRefused& refused) {
  if (!c.peer.peer_lists(protocol::SceneEditRefused::message_name)) return;
  if (wire::send_message(c.net, config_.reliable_channel, refused).ok()) {
    ++edit_replies_sent_;
  } else {
    drops_.add(SessionDrop::edit_reply_unsent);
  }
}

void RoomServer::send_scene_state() {
  const protocol::SceneNodeState* state = room_.simulation().scene_state();
  if (state != nullptr && gate_ != nullptr) {  // the newest revision the journal holds every edit of
    held_scene_.note(*state, update_number_);
    state = held_scene_.releasable(durable_update_);
  }
  if (state == nullptr || state->revision == 0) return;
  for (const auto& c : connections_) {
    if (!c || !c->admitted || c->scene_revision == state->revision) continue;
    if (!c->peer.peer_lists(protocol::SceneNodeState::message_name)) continue;
    if (wire::send_message(c->net, config_.reliable_channel, *state).ok()) {
      c->scene_revision = state->revision;
      ++scene_states_sent_;
    } else {
      drops_.add(SessionDrop::scene_state_unsent);  // tried again next update
    }
  }
}

}  // namespace tickwire
