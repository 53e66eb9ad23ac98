// What the hard gates enforce, in one place to review: the module order, its one named exception,
// the prediction path's roots and what it may not reach, and the fan-out corridor's producers with
// the files allowed to name them. Changing an entry here is changing the architecture.
#pragma once

#include <string_view>

namespace tickwire::arch {

// ---- Rules 1 and 2: the engine never includes the game; a module includes only modules at or below it.

// Bottom-up (DESIGN.md "The shape of the system"): a module may include itself and the modules
// before it. "facade" is include/tickwire/{server,client,stats,tickwire_c}.h and src/facade;
// dashboard/ draws what the facade reports (over the fleet's HTTP); world/ is the reference game,
// an ordinary user of the facade and the seams; apps/ assembles everything.
// A folder that is not here (a new module) fails the layering gate until it is given its place.
inline constexpr std::string_view kModuleOrder[] = {
    "core", "clock", "transport", "wire", "protocol", "replication", "logic", "client", "server", "lockstep", "durable", "fleet",
    "facade", "dashboard", "world", "apps",
};
inline constexpr std::string_view kGameModule = "world";  // the engine (every module below it but apps) never includes it
inline constexpr std::string_view kAppModule = "apps";    // the app may include the game

// Edges the tree has today against the order, each named with why and how it goes away. An entry
// whose edge is gone fails the gate too (remove it), so the list only shrinks.
struct LayerException {
  std::string_view from;  // the including file (root-relative)
  std::string_view to;    // the file it includes
  std::string_view why;
};
inline constexpr LayerException kLayerExceptions[] = {
    // wire/ sits below protocol/, but NetChannel's typed face (wire::send_message) sizes its stack
    // buffer by protocol::MaxPacketBytes. Its callers are protocol/, client/ and server/: the file
    // belongs in protocol/ (or takes the cap as a parameter). Left for the owner of wire/ to move.
    {"include/tickwire/wire/typed_channel.h", "include/tickwire/protocol/constants.h",
     "wire::send_message sizes its stack buffer by protocol::MaxPacketBytes (typed_channel.h belongs in protocol/)"},
};

// ---- Rule 3: the client prediction path imports no dynamic-physics engine and never reaches the logic runtime.

// The prediction sources: the engine's predictor and seam, and the reference game's model.
inline constexpr std::string_view kPredictionRoots[] = {
    "src/client/predictor.cpp",
    "include/tickwire/client/predictor.h",
    "include/tickwire/client/prediction_model.h",
    "src/world/mover_prediction_model.cpp",
    "include/tickwire/world/mover_prediction_model.h",
};
// Bullet, however it is spelled: its umbrella headers, or a path under one of its folders (the
// Debian package installs them under bullet/, and a build may put that folder on the include path).
inline constexpr std::string_view kBulletHeaders[] = {"btBulletDynamicsCommon.h", "btBulletCollisionCommon.h"};
inline constexpr std::string_view kBulletFolders[] = {"bullet", "BulletDynamics", "BulletCollision", "LinearMath", "BulletSoftBody"};
// The logic runtime executes a map's wiring and scripts; prediction must never run it.
inline constexpr std::string_view kExecutorModule = "logic";

// ---- Rule 4: the fan-out corridor (seed 003): the producer side is closed.

// What builds a client's frame. The members that produce (ReplicationServer::build,
// ClientSnapshotBuilder::compose/build/encode) are reachable only through an object whose type must
// be named, and RoomServer::replication() hands out a const view (build() is not const), so naming
// the type is the gate.
struct Producer {
  std::string_view symbol;
  std::string_view what;
};
inline constexpr Producer kSnapshotProducers[] = {
    {"ReplicationServer", "the room's snapshot service (build: a client's encoded messages)"},
    {"ClientSnapshotBuilder", "one client's frame: interest, budget, delta (compose, build, encode)"},
    {"encode_snapshot_delta", "codes a client's frame against the frames it holds"},
};

// The files allowed to name a producer. Tests, bench and fuzz are outside the scan.
struct AuthorizedFile {
  std::string_view path;
  std::string_view why;
};
inline constexpr AuthorizedFile kProducerCallers[] = {
    {"include/tickwire/replication/replication_server.h", "declares the service, which owns the one builder"},
    {"src/replication/replication_server.cpp", "the service: per tick and client, the one place frames are built"},
    {"include/tickwire/replication/builder/client_snapshot_builder.h", "declares the builder"},
    {"src/replication/builder/client_snapshot_builder.cpp", "the builder: the encoder's one caller"},
    {"include/tickwire/replication/delta/snapshot_delta_codec.h", "declares the encoder"},
    {"src/replication/delta/snapshot_delta_encoder.cpp", "defines the encoder"},
    {"include/tickwire/server/room_server.h", "the room server owns its room's one service"},
    {"src/server/room_server.cpp", "the room server drives the service once per tick for every admitted client"},
};

}  // namespace tickwire::arch
