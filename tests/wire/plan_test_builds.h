// Two "builds" of a small protocol that differ the way two builds of a game would: fields added,
// removed, moved and widened; a sparse set rebitted and widened; an enum renumbered; flag bits
// renumbered; a union case added; a token table reordered with a token removed and one retyped;
// a field retyped across families; a message renumbered; a field added after a tail.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/wire/message_registry.h"
#include "tickwire/wire/types.h"

namespace tickwire::test {

// ---- shared by both builds ------------------------------------------------------------------
struct Hit {
  static constexpr std::string_view wire_name = "Hit";
  uint16_t damage = 0;
  template <class W>
  void fields(W& w) {
    w.u16("damage", damage);
  }
};

struct Heal {
  static constexpr std::string_view wire_name = "Heal";
  uint8_t amount = 0;
  template <class W>
  void fields(W& w) {
    w.u8("amount", amount);
  }
};

struct Motd {  // unchanged between builds: a plan copies it
  static constexpr std::string_view wire_name = "Motd";
  static constexpr std::string_view message_name = "motd";
  static constexpr uint8_t wire_id = 24;
  static constexpr wire::Direction wire_direction = wire::Direction::both;
  std::string text;
  template <class W>
  void fields(W& w) {
    w.str8("text", text, 100);
  }
};

// ---- build A (older) ------------------------------------------------------------------------
namespace build_a {

enum class Kind : uint8_t { idle = 0, walk = 1, run = 2 };
inline constexpr wire::NamedValue kKindMembers[] = {{"idle", 0}, {"walk", 1}, {"run", 2}};
inline constexpr wire::EnumDef kKind{"Kind", kKindMembers};
inline constexpr wire::NamedValue kStatusBits[] = {{"poisoned", 0}, {"burning", 1}, {"frozen", 2}};
inline constexpr wire::FlagsDef kStatus{"Status", kStatusBits};
inline constexpr wire::TokenRow kMatRows[] = {
    {"a.x", wire::TokenKind::f32}, {"b.y", wire::TokenKind::u32}, {"c.z", wire::TokenKind::boolean}, {"d.w", wire::TokenKind::i32}};
inline constexpr wire::TokenTableDef kMat{"Mat", kMatRows};
inline constexpr wire::UnionCase kEventCases[] = {{1, "hit"}, {2, "heal"}};
inline constexpr wire::UnionDef kEvent{"Event", kEventCases};
using Event = std::variant<Hit, Heal>;

struct Item {
  static constexpr std::string_view wire_name = "Item";
  uint8_t level = 0;
  std::string name;
  uint16_t legacy = 0;  // removed in build B
  template <class W>
  void fields(W& w) {
    w.u8("level", level);
    w.str8("name", name, 32);
    w.u16("legacy", legacy);
  }
};

struct Player {
  static constexpr std::string_view wire_name = "Player";
  static constexpr std::string_view message_name = "player";
  static constexpr uint8_t wire_id = 20;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint32_t id = 0;
  std::string name;
  uint8_t level = 0;
  Kind kind = Kind::idle;
  uint8_t status = 0;
  uint32_t note = 0;  // a string in build B
  uint8_t stats = 0;  // sparse mask: hp, armor, speed
  uint16_t hp = 0;
  uint8_t armor = 0;
  float speed = 0;
  std::vector<Item> items;
  std::vector<wire::TokenPair> mats;
  Event last_event;
  template <class W>
  void fields(W& w) {
    w.u32("id", id);
    w.str8("name", name, 32);
    w.u8("level", level);
    w.enum8("kind", kind, kKind);
    w.flags8("status", status, kStatus);
    w.u32("note", note);
    w.sparse("stats", stats, [&](auto& s) {
      s.u16("hp", hp);
      s.u8("armor", armor);
      s.f32("speed", speed);
    });
    w.list8("items", items, 0, 8);
    w.tokens("mats", mats, kMat, 16);
    w.variant("lastEvent", last_event, kEvent);
  }
};

struct Entry {
  static constexpr std::string_view wire_name = "Entry";
  uint32_t at = 0;
  Event event;
  template <class W>
  void fields(W& w) {
    w.u32("at", at);
    w.variant("event", event, kEvent);
  }
};

struct Log {
  static constexpr std::string_view wire_name = "Log";
  static constexpr std::string_view message_name = "log";
  static constexpr uint8_t wire_id = 22;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint16_t count = 0;
  std::vector<Entry> entries;
  template <class W>
  void fields(W& w) {
    w.u16("count", count);
    w.counted("entries", entries, "count", count, 64);
  }
};

struct OnlyA {  // build B dropped this message
  static constexpr std::string_view wire_name = "OnlyA";
  static constexpr std::string_view message_name = "onlyA";
  static constexpr uint8_t wire_id = 23;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint8_t x = 0;
  template <class W>
  void fields(W& w) {
    w.u8("x", x);
  }
};

inline const wire::WireMessages& messages() {
  static const wire::WireMessages m = wire::WireMessages::of<Player, Log, OnlyA, Motd>();
  return m;
}

}  // namespace build_a

// ---- build B (newer) ------------------------------------------------------------------------
namespace build_b {

enum class Kind : uint32_t { run = 0, idle = 5, walk = 7, swim = 9 };
inline constexpr wire::NamedValue kKindMembers[] = {{"run", 0}, {"idle", 5}, {"walk", 7}, {"swim", 9}};
inline constexpr wire::EnumDef kKind{"Kind", kKindMembers};
inline constexpr wire::NamedValue kStatusBits[] = {{"frozen", 0}, {"poisoned", 3}, {"wet", 9}};
inline constexpr wire::FlagsDef kStatus{"Status", kStatusBits};
inline constexpr wire::TokenRow kMatRows[] = {
    {"d.w", wire::TokenKind::i32}, {"c.z", wire::TokenKind::u32}, {"a.x", wire::TokenKind::f32}, {"e.v", wire::TokenKind::f32}};
inline constexpr wire::TokenTableDef kMat{"Mat", kMatRows};

struct Shield {
  static constexpr std::string_view wire_name = "Shield";
  uint8_t strength = 0;
  template <class W>
  void fields(W& w) {
    w.u8("strength", strength);
  }
};
inline constexpr wire::UnionCase kEventCases[] = {{1, "hit"}, {2, "heal"}, {3, "shield"}};
inline constexpr wire::UnionDef kEvent{"Event", kEventCases};
using Event = std::variant<Hit, Heal, Shield>;

struct Item {
  static constexpr std::string_view wire_name = "Item";
  uint16_t level = 0;  // widened
  std::string name;    // str8 -> str16
  uint32_t added = 0;  // new
  template <class W>
  void fields(W& w) {
    w.u16("level", level);
    w.str16("name", name, 64);
    w.u32("added", added);
  }
};

struct Player {
  static constexpr std::string_view wire_name = "Player";
  static constexpr std::string_view message_name = "player";
  static constexpr uint8_t wire_id = 21;  // renumbered
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  std::string name;  // moved before id
  uint32_t id = 0;
  uint16_t level = 0;
  Kind kind = Kind::run;
  uint16_t status = 0;
  std::string note;
  uint16_t stats = 0;  // sparse mask, wider and reordered: speed, hp, armor, stamina
  float speed = 0;
  uint16_t hp = 0;
  uint8_t armor = 0;
  uint8_t stamina = 0;
  std::vector<Item> items;
  std::vector<wire::TokenPair> mats;
  Event last_event;
  uint8_t extra = 42;  // after a tail: an older peer's packet ends before it
  template <class W>
  void fields(W& w) {
    w.str16("name", name, 64);
    w.u32("id", id);
    w.u16("level", level);
    w.enum32("kind", kind, kKind);
    w.flags16("status", status, kStatus);
    w.str8("note", note, 16);
    w.sparse("stats", stats, [&](auto& s) {
      s.f32("speed", speed);
      s.u16("hp", hp);
      s.u8("armor", armor);
      s.u8("stamina", stamina);
    });
    w.list16("items", items, 0, 300);
    w.tokens("mats", mats, kMat, 16);
    w.variant("lastEvent", last_event, kEvent);
    w.tail();
    w.u8("extra", extra);
  }
};

struct Entry {
  static constexpr std::string_view wire_name = "Entry";
  uint32_t at = 0;
  Event event;
  template <class W>
  void fields(W& w) {
    w.u32("at", at);
    w.variant("event", event, kEvent);
  }
};

struct Log {
  static constexpr std::string_view wire_name = "Log";
  static constexpr std::string_view message_name = "log";
  static constexpr uint8_t wire_id = 22;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;
  uint16_t count = 0;
  std::vector<Entry> entries;
  template <class W>
  void fields(W& w) {
    w.u16("count", count);
    w.counted("entries", entries, "count", count, 64);
  }
};

inline const wire::WireMessages& messages() {
  static const wire::WireMessages m = wire::WireMessages::of<Player, Log, Motd>();
  return m;
}

}  // namespace build_b
}  // namespace tickwire::test
