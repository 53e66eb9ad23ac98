// RoomServer: the room on the network. It turns each netcode connection into a session: runs the
// connect sequence (schema hashes, texts once per hash, a plan for another build), admits the
// session into the room with a RoomWelcome carrying the contract, routes every message (rewritten
// into our shapes) to the room or, addressed to another client, relays it unread; and from the
// room's completed seam hands each tick's records to the ReplicationServer and sends every admitted
// client the messages it builds (the rest table reliably, the snapshot or its fragments unreliably).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/replication/replication_server.h"
#include "tickwire/server/acknowledgement_hold.h"
#include "tickwire/server/durability_gate.h"
#include "tickwire/server/resume_desk.h"
#include "tickwire/server/game_outbox.h"
#include "tickwire/server/relay_gate.h"
#include "tickwire/server/room.h"
#include "tickwire/server/session_end.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/transport/reliable_server.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

struct RoomServerConfig {
  std::string build_name = "tickwire";
  uint8_t reliable_channel = kSessionReliableChannel;
  uint8_t unreliable_channel = kSessionUnreliableChannel;
  // Replication tuning that is not policy (the contract's budget, fragments, radius and lanes apply).
  ReplicationServerConfig replication;
};

// Why a game message for a client was not queued (Server::send; counted).
TW_REASONS(GameMessageRefusal,
  not_game_type,  // an engine message type (< kFirstGameMessageType)
  too_large,      // past the reliable channel's block cap (a game splits bigger downloads)
  no_client,      // no admitted client has that owner id
  outbox_full     // the client's outbox already holds kGameOutboxMaxBytes
)

// Why a session's message was not acted on (counted; the session goes on).
TW_REASONS(SessionDrop,
  undecodable,      // a message that did not decode as its shape
  unexpected,       // a message this side never takes (or one before admission)
  snapshot_unsent,  // the transport refused a snapshot or one of its fragments (queue full)
  admit_refused,   // the room had no room (owner taken or no entity slot): the client is dropped
  admissions_closed,  // the room's load ladder closed admissions: a new player is dropped (a resume is not)
  event_unsent,    // the transport refused a game's entity event (reliable queue full)
  event_no_client,  // a game's entity event for an owner with no admitted session
  hit_unsent,      // the transport refused a game's hit event (reliable queue full)
  edit_reply_unsent,   // the transport refused a scene edit refusal for its sender (reliable queue full)
  scene_state_unsent,  // the transport refused a sceneNodeState (reliable queue full): retried next update
  held_past_cap,       // an event or message waiting for durability past kMaxHeldAcknowledgements: never sent
  ticket_unsent        // the transport refused a ResumeTicket (reliable queue full): the client holds no token
)

// One connection's view, for tests, the report and diagnostics.
struct SessionStats {
  uint64_t inputs_received = 0;
  const ReplicationClientStats* replication = nullptr;  // its snapshots (null before admission)
};

class RoomServer : public TickObserver {
 public:
  // `transport`, `room` and `cache` must outlive the server; max clients must be <= 255.
  RoomServer(ReliableServer& transport, Room& room, SchemaCache& cache, const RoomServerConfig& config = {});

  // One loop iteration at `now`: receive, run the connect sequences and route messages, run the
  // room's due ticks (their snapshots go out from on_tick_completed), send. Returns the room's update.
  RoomUpdate update(MonoTime now, WallTime wall_now);

  void on_tick_completed(Tick tick) override;

  // A durable room (seed 003): every update's facts go to `gate`, and every acknowledgement (the
  // game's entity events and messages, the edit set's revisions) waits until the update that made
  // it is durable. Set before the first update; `gate` must outlive the server.
  void hold_acknowledgements(DurabilityGate& gate);
  // Acknowledgements waiting for durability now (events, messages, edit set revisions, tickets).
  std::size_t held_acknowledgements() const;

  // Resumption (seed 003): every admitted session is sent a ResumeTicket with a token from `desk`;
  // a session whose connect token presents one comes back into the pawn it names (a live session
  // still in that pawn, its player's old connection, is dropped: superseded), or is told why not
  // and seated fresh. A session that leaves unkicked departs (Room::depart: its pawn held for the
  // room's pawn_hold_ticks). Set before the first update; `desk` must outlive the server.
  void offer_resume(ResumeDesk& desk);
  uint64_t resumes() const { return resumes_; }
  const ReasonCounters<protocol::ResumeRefusal>& resume_refusals() const { return resume_refusals_; }
  uint64_t superseded() const { return superseded_; }  // old connections dropped for their player's new one

  // A game message (type >= kFirstGameMessageType) for one client, reliable and in order: queued in
  // its outbox and sent as the channel takes it, beside the snapshots (which the pacer sends first).
  bool send_game_message(OwnerId owner, MessageType type, std::span<const uint8_t> payload);
  const ReasonCounters<GameMessageRefusal>& game_message_refusals() const { return game_message_refusals_; }
  // Bytes waiting in a client's outbox (0: none, or no such client).
  std::size_t outbox_bytes(OwnerId owner) const;

  Room& room() { return room_; }
  const Room& room() const { return room_; }
  // The newest tick's records as the game wrote them (what its snapshots were cut from).
  const TickRecords& tick_records() const { return records_; }
  ReliableServer& transport() { return transport_; }
  const ReplicationServer& replication() const { return replication_; }
  // The room under load (seed 003, "Load ladders"): its snapshots at tighter limits (held within the
  // contract's), and whether new players are admitted (a player resuming its held pawn always is).
  void set_replication_limits(const ReplicationLimits& limits) { replication_.set_limits(limits); }
  // The snapshot inspector's switch: the client's records are logged bit by bit while on.
  void inspect_records(OwnerId owner, bool on) { replication_.inspect_records(owner, on); }
  // Closed, a newcomer's connection request is answered with a denied packet at the handshake
  // (netcode's request_denied_by_server) and one that got past it is dropped at admission
  // (session.drop.admissions_closed); a request carrying a resume token is let through.
  void set_admissions_open(bool open);
  bool admissions_open() const { return admissions_open_; }
  // The connection at a netcode slot; owner ids are slot + 1.
  static OwnerId owner_of_slot(uint32_t slot) { return static_cast<OwnerId>(slot + 1); }
  bool admitted(uint32_t slot) const;
  const PeerSchema* peer(uint32_t slot) const;
  std::optional<SessionStats> stats(uint32_t slot) const;
  NetChannel* channel(uint32_t slot);
  const ReasonCounters<SessionDrop>& drops() const { return drops_; }
  // Every admitted session's offences, by reason, and the sessions kicked for them.
  ReasonCounters<Offence> offences() const;
  const ReasonCounters<KickReason>& kicks() const { return kicks_; }
  // Every connection that ended, by why (each one also logged with its owner and client id).
  const ReasonCounters<SessionEnd>& session_ends() const { return session_ends_; }
  const wire::DecodeErrorCounters& decode_errors() const { return decode_errors_; }
  // Connect-sequence refusals over every session, closed and live.
  ReasonCounters<PeerRefusal> refusals() const;
  const RelayGate& relay() const { return relay_; }
  uint64_t snapshots_sent() const { return snapshots_sent_; }
  // Hit events sent, counted once per receiving session.
  uint64_t hits_sent() const { return hits_sent_; }
  uint64_t sessions_admitted() const { return sessions_admitted_; }
  // Scene edit states sent (once per receiving session and revision) and refusals told to senders.
  uint64_t scene_states_sent() const { return scene_states_sent_; }
  uint64_t edit_replies_sent() const { return edit_replies_sent_; }

 private:
  struct Connection {
    Connection(ReliableEndpoint& endpoint, OwnerId owner, SchemaCache& cache, const RoomServerConfig& config);
    OwnerId owner;
    NetChannel net;
    PeerSchema peer;
    bool admitted = false;
    uint64_t inputs_received = 0;
    GameOutbox outbox;  // the server's game messages waiting for the reliable channel
    std::optional<KickReason> kicked;  // set: dropped after this message, nothing more read from it
    std::optional<uint32_t> newest_input;  // the newest input sequence it sent
    TokenBucket input_sequences;           // how fast its sequences may advance (the tick rate's)
    uint32_t scene_revision = 0;           // the newest sceneNodeState revision it was sent
    uint64_t serial = 0;                   // which connection of its slot (a held ticket goes to its own)
    bool superseded = false;               // its player came back on a new connection: dropped, nothing more read
    uint64_t client_id = 0;                // the netcode client id its token named (the player)
    std::optional<SessionEnd> end;         // why it is being let go (the first reason found stands)
    std::string_view end_detail;           // the underlying reason's name, if there is one
    uint64_t hostile_seen = 0;             // malformed packets of its link already counted as offences
  };
  // A ResumeTicket for one connection, held until its pawn's joining is durable.
  struct TicketOut {
    uint32_t slot = 0;
    uint64_t serial = 0;
    protocol::ResumeTicket ticket;
  };

  void take_events();
  void send_entity_events();
  void send_hits();
  // Counts an offence of the connection's session; after the message, note_conduct kicks the
  // session whose offences ended it.
  void offend(Connection& c, Offence offence, uint64_t count = 1);
  void note_conduct(Connection& c);
  // Malformed packets that passed its link's encryption (so they are its own, not a spoofer's)
  // become offences of its session, and so can end it like any other misconduct.
  void note_malformed_packets(uint32_t slot);
  // The connection is to be let go at the end of this receive pass, for `end`.
  void end_session(uint32_t slot, SessionEnd end, std::string_view detail = {});
  // Paces the sequences a frame advances; false for a frame older than the newest one taken (the
  // unreliable channel delivers a late one): its held report is then older than one already taken.
  bool note_input_rate(Connection& c, uint32_t first_sequence, std::size_t count);
  void send_game_messages();
  // Scene edits (room_server_scene.cpp): a gesture to the room, the refusals to their senders, the
  // edit set to every session that has not been sent its revision (a late joiner included).
  void receive_edit(Connection& c, const protocol::SceneEdit& gesture);
  void send_edit_refusals();
  void tell_edit_refusal(Connection& c, const protocol::SceneEditRefused& refused);
  void send_scene_state();
  void receive_all(MonoTime now);
  void receive_channel(uint32_t slot, uint8_t channel, bool reliable, MonoTime now);
  void after_message(uint32_t slot);
  void admit(uint32_t slot);
  // Resumption (room_server_resume.cpp): the session's pawn, resumed or fresh, and its ticket.
  std::optional<EntityRef> seat(Connection& c, const AdmissionGrants& grants, std::string player);
  std::optional<protocol::ResumeRefusal> try_resume(Connection& c, const AdmissionGrants& grants);
  void supersede(OwnerId holder);
  void send_tickets();
  void dispatch(Connection& connection, const PeerMessage& message);
  void relay(Connection& from, uint8_t channel, const NetMessage& message, MonoTime now);
  void close(uint32_t slot);
  void drop_client(uint32_t slot, MonoTime now);
  std::optional<protocol::OwnerDetail> owner_detail(OwnerId owner) const;
  void send(Connection& c, const ClientMessages& messages);
  void follow_link(uint32_t slot, const Connection& c);
  Connection* admitted_connection(OwnerId owner) const;

  ReliableServer& transport_;
  Room& room_;
  SchemaCache& cache_;
  RoomServerConfig config_;
  ReplicationServer replication_;
  RelayGate relay_;
  std::vector<std::unique_ptr<Connection>> connections_;  // by netcode slot
  std::vector<uint32_t> to_drop_;                       // slots whose session failed this iteration
  std::vector<GameEvent> events_;                       // scratch: the game's entity events of one update
  std::vector<protocol::HitEvent> hits_;                // scratch: the game's hit events of one update
  std::vector<GameMessageOut> game_messages_;           // scratch: the game's messages of one update
  std::vector<EditRefusalOut> edit_refusals_;           // scratch: the game's edit refusals of one update
  TickRecords records_;                                 // the tick's records, reused
  bool admissions_open_ = true;
  MonoTime now_;                                        // the update's time (the budget logs' clock)
  ReasonCounters<SessionDrop> drops_;
  ReasonCounters<Offence> closed_offences_;  // of the sessions gone (the live ones' are in the room)
  ReasonCounters<KickReason> kicks_;
  ReasonCounters<SessionEnd> session_ends_;
  ReasonCounters<GameMessageRefusal> game_message_refusals_;
  ReasonCounters<PeerRefusal> closed_refusals_;
  wire::DecodeErrorCounters decode_errors_;
  uint64_t snapshots_sent_ = 0;
  uint64_t hits_sent_ = 0;
  uint64_t sessions_admitted_ = 0;
  uint64_t scene_states_sent_ = 0;
  uint64_t edit_replies_sent_ = 0;
  // Durability (null: none): the updates numbered, what waits for them.
  DurabilityGate* gate_ = nullptr;
  uint64_t update_number_ = 0;
  uint64_t durable_update_ = 0;  // the gate's durable_through() as this update found it
  HeldAcknowledgements<GameEvent> held_events_;
  HeldAcknowledgements<GameMessageOut> held_messages_;
  HeldSceneStates held_scene_;
  // Resumption (null: not offered).
  ResumeDesk* resume_ = nullptr;
  WallTime wall_now_;
  uint64_t next_serial_ = 1;
  std::vector<TicketOut> tickets_;  // this update's, then what the hold lets go
  HeldAcknowledgements<TicketOut> held_tickets_;
  uint64_t resumes_ = 0;
  uint64_t superseded_ = 0;
  ReasonCounters<protocol::ResumeRefusal> resume_refusals_;
};

}  // namespace tickwire
