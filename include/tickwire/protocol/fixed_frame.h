// The protocol's fixed frame: the messages whose shapes alone move kProtocolVersion, because a peer
// must read them before it can know anything about the other side's schema. The envelope (one
// message id byte before the body) and the schema text's own spelling belong to it too.
#pragma once

#include <string>
#include <string_view>

#include "tickwire/protocol/constants.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

// First message of a session: who we are and which schema our bytes follow.
struct ConnectRequest {
  static constexpr std::string_view wire_name = "ConnectRequest";
  static constexpr std::string_view message_name = "connectRequest";
  static constexpr uint8_t wire_id = 1;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint16_t protocol_version = kProtocolVersion;
  wire::Hash16 schema_hash;
  std::string build_name;

  template <class W>
  void fields(W& w) {
    w.u16("protocolVersion", protocol_version);
    w.hash16("schemaHash", schema_hash);
    w.str8("buildName", build_name, MaxBuildNameBytes);
  }
};

// "Send me the text of this hash": sent only by a side that has never seen the hash.
struct SchemaRequest {
  static constexpr std::string_view wire_name = "SchemaRequest";
  static constexpr std::string_view message_name = "schemaRequest";
  static constexpr uint8_t wire_id = 2;
  static constexpr wire::Direction wire_direction = wire::Direction::both;

  wire::Hash16 schema_hash;

  template <class W>
  void fields(W& w) {
    w.hash16("schemaHash", schema_hash);
  }
};

// A schema text and the hash it must hash to (the receiver checks before caching it).
struct SchemaText {
  static constexpr std::string_view wire_name = "SchemaText";
  static constexpr std::string_view message_name = "schemaText";
  static constexpr uint8_t wire_id = 3;
  static constexpr wire::Direction wire_direction = wire::Direction::both;

  wire::Hash16 schema_hash;
  std::string text;

  template <class W>
  void fields(W& w) {
    w.hash16("schemaHash", schema_hash);
    w.str16("text", text, MaxSchemaTextBytes);
  }
};

}  // namespace tickwire::protocol
