// ServerInfo: what a server tells a joining client about itself (identity, region, features).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

enum class Region : uint32_t { local = 0, europe = 1, north_america = 2, asia = 3 };
inline constexpr wire::NamedValue kRegionMembers[] = {
    {"local", 0}, {"europe", 1}, {"northAmerica", 2}, {"asia", 3}};
inline constexpr wire::EnumDef kRegionDef{"Region", kRegionMembers};

enum ServerFeature : uint16_t { kFeatureRestTable = 1 << 0, kFeatureForgiveness = 1 << 1, kFeatureSpectators = 1 << 2 };
inline constexpr wire::NamedValue kServerFeatureBits[] = {{"restTable", 0}, {"forgiveness", 1}, {"spectators", 2}};
inline constexpr wire::FlagsDef kServerFeaturesDef{"ServerFeatures", kServerFeatureBits};

struct ServerInfo {
  static constexpr std::string_view wire_name = "ServerInfo";
  static constexpr std::string_view message_name = "serverInfo";
  static constexpr uint8_t wire_id = 11;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  wire::Guid server_id;
  std::string motd;
  Region region = Region::local;
  uint16_t features = 0;
  uint64_t uptime_ticks = 0;
  int16_t utc_offset_minutes = 0;
  int32_t time_skew_us = 0;
  int64_t epoch_offset_ns = 0;
  int8_t priority = 0;
  double tick_period_s = 1.0 / 60.0;
  uint16_t max_clients = 0;
  std::string build_label;  // added after the tail: an older server's packet ends before it

  template <class W>
  void fields(W& w) {
    w.guid("serverId", server_id);
    w.str16("motd", motd, 1024);
    w.enum32("region", region, kRegionDef);
    w.flags16("features", features, kServerFeaturesDef);
    w.varu64("uptimeTicks", uptime_ticks);
    w.i16("utcOffsetMinutes", utc_offset_minutes);
    w.i32("timeSkewUs", time_skew_us);
    w.i64("epochOffsetNs", epoch_offset_ns);
    w.i8("priority", priority);
    w.f64("tickPeriodS", tick_period_s);
    w.u16("maxClients", max_clients);
    w.tail();
    w.str8("buildLabel", build_label, 64);
  }
};

}  // namespace tickwire::protocol
