// `tickwire server --store`: the durable side of the dedicated server (seed 003, "Durability and
// rejoin"). It takes the room's lease (waiting while another process holds it), recovers the room
// from the store into the fresh server, keeps it with a RoomKeeper (the server holding every
// acknowledgement until it is journaled), offers resumption with signed tokens, and says in every
// stats line how the keeper stands; when the keeper stops (the lease lost, the store gone) the room
// stops advancing and the line says why. A drain checkpoints, flushes and gives the lease up.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tickwire/durable/resume_token.h"
#include "tickwire/durable/room_keeper.h"
#include "tickwire/durable/store.h"
#include "tickwire/durable/store_resume_desk.h"
#include "tickwire/fleet/prometheus_text.h"
#include "tickwire/server.h"

namespace tickwire::cli {

struct DurableOptions {
  std::string store_url;  // empty: not durable
  std::string room = "room-1";
  std::string epoch = "kernel";  // legacy | canonical | kernel: advanced to (never back)
  uint32_t checkpoint_every_ticks = 600;
  double lease_term_s = 10;
  std::string resume_key_path;  // empty: the server's private key signs resume tokens too
  double token_life_s = 600;
  std::string owner;  // the lease holder's name (empty: HOST:PID)
};

// Whether a room is taken whenever its lease is free, or only once it has lived elsewhere.
enum class TakePolicy : uint8_t {
  any_free,      // the process's own room: taken when nobody holds it
  adopt_lived,   // another process's room: taken only once it has had a holder (its lease row exists)
};

// The key that signs resume tokens: the file's at `path`, or the server's private key when none is
// named; nullopt and `error` set when the file cannot be read.
std::optional<durable::ResumeKey> resume_key_for(const netcode::Key& private_key, const std::string& path, std::string& error);

class DurableServer {
 public:
  // Opens the store for the room, the lease not yet tried; null and `error` set when it cannot.
  // `resume_key` signs and checks resume tokens.
  static std::unique_ptr<DurableServer> open(const DurableOptions& options, const durable::ResumeKey& resume_key,
                                             std::string& error);
  // Opens the store and waits for the room's lease (while `keep_waiting()` holds); null and `error`
  // set when it cannot, or when waiting was called off.
  static std::unique_ptr<DurableServer> take(const DurableOptions& options, const durable::ResumeKey& resume_key,
                                             std::string& error, const std::function<bool()>& keep_waiting);
  // One try at the lease (and the epoch advanced under it): true once held. False with `error` empty
  // while another holds it (or, under adopt_lived, while the room has never had a holder); false with
  // `error` set when the store failed.
  bool try_take(TakePolicy policy, std::string& error);

  // The room brought back into `server` (before its first update), then kept: its acknowledgements
  // held for the keeper and resumption offered. False and `error` set when recovery failed.
  bool keep(Server& server, std::string& error);
  // Whether the room may advance (the keeper holds its lease and has not stopped).
  bool authority() const;
  // A drain's end: a checkpoint of the room as it stands, everything flushed, the lease given up.
  bool drain(Server& server);
  nlohmann::json stats_json() const;
  // The keeper's figures as Prometheus families (`tickwire server --ops`'s /metrics).
  void write_metrics(fleet::PrometheusText& out) const;
  nlohmann::json recovery_json() const;

 private:
  DurableServer() = default;

  DurableOptions options_;
  durable::ResumeKey resume_key_{};
  std::unique_ptr<durable::Store> keeper_store_;
  std::unique_ptr<durable::Store> desk_store_;
  std::unique_ptr<durable::LeaseSupervisor> supervisor_;
  durable::Recovery recovery_;
  std::unique_ptr<durable::RoomKeeper> keeper_;
  std::unique_ptr<durable::StoreResumeDesk> desk_;
};

}  // namespace tickwire::cli
