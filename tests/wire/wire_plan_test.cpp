// WirePlan between two builds that differ the way builds do (plan_test_builds.h): each message is
// written by one build's typed codec, translated, and read by the other build's typed codec, both
// ways; a plan between identical schemas gives back the same bytes; bad input is refused by name.
#include "tickwire/wire/wire_plan.h"

#include <gtest/gtest.h>

#include "plan_test_builds.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/wire_messages.h"
#include "wire_samples.h"

namespace tickwire::test {
namespace {

using wire::Direction;
using wire::PlanEvent;
using wire::TokenPair;
using wire::WirePlan;

const std::string& text_a() { return build_a::messages().schema_text(); }
const std::string& text_b() { return build_b::messages().schema_text(); }

WirePlan make_plan(const std::string& peer, const std::string& ours, wire::PlanOptions options = {}) {
  wire::SchemaDiagnostic diag;
  auto plan = WirePlan::build(peer, ours, options, &diag);
  TW_ASSERT(plan.ok(), "the test builds' schemas make a plan");
  return std::move(*plan);
}

// Writes `value` with its build's codec, translates it, and decodes the result as `Out`.
template <class M>
std::vector<uint8_t> typed_bytes(const M& value) {
  std::vector<uint8_t> out(wire::measure(value));
  TW_ASSERT(wire::encode(value, out).ok(), "a test value encodes");
  return out;
}

template <class Out, class In>
Out carry(WirePlan& plan, const In& value, uint8_t expected_id) {
  std::vector<uint8_t> out;
  auto translated = plan.translate(In::wire_id, In::wire_direction, typed_bytes(value), out);
  EXPECT_TRUE(translated.ok()) << reason_name(translated.error());
  Out result{};
  if (!translated.ok()) return result;
  EXPECT_EQ(translated->id, expected_id);
  EXPECT_EQ(translated->body_bytes, out.size());
  wire::DecodeReport report;
  EXPECT_TRUE(wire::decode(out, result, &report).ok()) << reason_name(report.error) << " at " << report.field;
  return result;
}

build_a::Player player_a() {
  build_a::Player p;
  p.id = 77;
  p.name = "ada";
  p.level = 12;
  p.kind = build_a::Kind::walk;
  p.status = 0b011;  // poisoned, burning
  p.note = 5;
  p.stats = 0b101;  // hp, speed
  p.hp = 900;
  p.speed = 4.5f;
  p.items = {build_a::Item{3, "sword", 1}, build_a::Item{200, "shield", 2}};
  p.mats = {TokenPair{0, std::bit_cast<uint32_t>(1.5f)}, TokenPair{1, 7}, TokenPair{2, 1},
            TokenPair{3, static_cast<uint32_t>(-5)}};
  p.last_event = Heal{9};
  return p;
}

build_b::Player player_b() {
  build_b::Player p;
  p.name = "grace";
  p.id = 88;
  p.level = 300;  // does not fit build A's u8
  p.kind = build_b::Kind::swim;  // build A has no swim
  p.status = (1u << 3) | (1u << 9);  // poisoned, wet
  p.note = "hello";
  p.stats = 0b1001;  // speed, stamina
  p.speed = -2.0f;
  p.stamina = 9;
  p.items = {build_b::Item{7, "bow", 11}};
  p.mats = {TokenPair{0, static_cast<uint32_t>(-3)}, TokenPair{1, 4}, TokenPair{2, std::bit_cast<uint32_t>(0.25f)},
            TokenPair{3, std::bit_cast<uint32_t>(8.0f)}};
  p.last_event = build_b::Shield{5};
  p.extra = 3;
  return p;
}

TEST(WirePlan, OlderBuildReadByNewer) {
  WirePlan plan = make_plan(text_a(), text_b());
  const build_b::Player p = carry<build_b::Player>(plan, player_a(), build_b::Player::wire_id);
  EXPECT_EQ(p.id, 77u);                         // moved: read where the peer wrote it
  EXPECT_EQ(p.name, "ada");                     // str8 -> str16
  EXPECT_EQ(p.level, 12);                       // u8 -> u16
  EXPECT_EQ(p.kind, build_b::Kind::walk);       // renumbered member, paired by name
  EXPECT_EQ(p.status, 1u << 3);                 // poisoned renumbered; burning dropped
  EXPECT_EQ(p.note, "");                        // retyped across families: absent
  EXPECT_EQ(p.stats, 0b0011);                   // speed and hp, rebitted
  EXPECT_EQ(p.speed, 4.5f);
  EXPECT_EQ(p.hp, 900);
  EXPECT_EQ(p.stamina, 0);
  ASSERT_EQ(p.items.size(), 2u);                // list8 -> list16
  EXPECT_EQ(p.items[1].level, 200);
  EXPECT_EQ(p.items[1].name, "shield");
  EXPECT_EQ(p.items[1].added, 0u);              // only in B: zero
  ASSERT_EQ(p.mats.size(), 2u);                 // b.y missing and c.z retyped: pairs left out
  EXPECT_EQ(p.mats[0], (TokenPair{2, std::bit_cast<uint32_t>(1.5f)}));
  EXPECT_EQ(p.mats[1], (TokenPair{0, static_cast<uint32_t>(-5)}));
  ASSERT_EQ(p.last_event.index(), 1u);
  EXPECT_EQ(std::get<Heal>(p.last_event).amount, 9);
  EXPECT_EQ(p.extra, 42);  // after the tail: the bytes end there, B keeps its own default
  EXPECT_EQ(plan.counters()[PlanEvent::flag_bit_dropped], 1u);
  EXPECT_EQ(plan.counters()[PlanEvent::token_pair_dropped], 2u);
  EXPECT_EQ(plan.counters()[PlanEvent::retyped_absent], 1u);
  EXPECT_GE(plan.counters()[PlanEvent::peer_field_skipped], 2u);  // each item's legacy
}

TEST(WirePlan, NewerBuildReadByOlder) {
  WirePlan plan = make_plan(text_b(), text_a());
  const build_a::Player p = carry<build_a::Player>(plan, player_b(), build_a::Player::wire_id);
  EXPECT_EQ(p.id, 88u);
  EXPECT_EQ(p.name, "grace");
  EXPECT_EQ(p.level, 0);                  // 300 does not fit a u8: absent
  EXPECT_EQ(p.kind, build_a::Kind::idle); // swim missing: absent, the first member
  EXPECT_EQ(p.status, 0b001);             // poisoned; wet dropped
  EXPECT_EQ(p.note, 0u);
  EXPECT_EQ(p.stats, 0b100);              // speed; stamina stepped over
  EXPECT_EQ(p.speed, -2.0f);
  ASSERT_EQ(p.items.size(), 1u);
  EXPECT_EQ(p.items[0].level, 7);
  EXPECT_EQ(p.items[0].name, "bow");
  EXPECT_EQ(p.items[0].legacy, 0);
  ASSERT_EQ(p.mats.size(), 2u);  // d.w and a.x; c.z retyped (u32 vs bool), e.v missing
  EXPECT_EQ(p.mats[0], (TokenPair{3, static_cast<uint32_t>(-3)}));
  EXPECT_EQ(p.mats[1], (TokenPair{0, std::bit_cast<uint32_t>(0.25f)}));
  ASSERT_EQ(p.last_event.index(), 0u);  // shield missing outside a list: absent, the first case zeroed
  EXPECT_EQ(std::get<Hit>(p.last_event).damage, 0);
  EXPECT_EQ(plan.counters()[PlanEvent::value_did_not_fit], 1u);
  EXPECT_EQ(plan.counters()[PlanEvent::enum_member_missing], 1u);
  EXPECT_EQ(plan.counters()[PlanEvent::union_case_absent], 1u);
}

TEST(WirePlan, ValuesThatDoNotFitReadAbsent) {
  WirePlan plan = make_plan(text_b(), text_a());
  build_b::Player p = player_b();
  p.name = std::string(40, 'n');  // over A's str8(32)
  for (int i = 0; i < 9; ++i) p.items.push_back(build_b::Item{1, "x", 0});  // 10 > A's list8 max of 8
  const build_a::Player a = carry<build_a::Player>(plan, p, build_a::Player::wire_id);
  EXPECT_EQ(a.name, "");
  EXPECT_TRUE(a.items.empty());
  EXPECT_EQ(a.id, 88u);
}

TEST(WirePlan, UnionCaseMissingInAListDropsTheEntryAndRecounts) {
  build_b::Log log;
  log.entries = {build_b::Entry{1, Hit{10}}, build_b::Entry{2, build_b::Shield{3}}, build_b::Entry{3, Heal{4}},
                 build_b::Entry{4, build_b::Shield{1}}};
  log.count = 4;
  WirePlan plan = make_plan(text_b(), text_a());
  const build_a::Log a = carry<build_a::Log>(plan, log, build_a::Log::wire_id);
  EXPECT_EQ(a.count, 2);
  ASSERT_EQ(a.entries.size(), 2u);
  EXPECT_EQ(a.entries[0].at, 1u);
  EXPECT_EQ(std::get<Hit>(a.entries[0].event).damage, 10);
  EXPECT_EQ(a.entries[1].at, 3u);
  EXPECT_EQ(std::get<Heal>(a.entries[1].event).amount, 4);
  EXPECT_EQ(plan.counters()[PlanEvent::union_entry_dropped], 2u);

  // And the other way every entry is carried.
  build_a::Log older;
  older.entries = {build_a::Entry{5, Heal{1}}, build_a::Entry{6, Hit{2}}};
  older.count = 2;
  WirePlan back = make_plan(text_a(), text_b());
  const build_b::Log b = carry<build_b::Log>(back, older, build_b::Log::wire_id);
  ASSERT_EQ(b.entries.size(), 2u);
  EXPECT_EQ(std::get<Hit>(b.entries[1].event).damage, 2);
}

TEST(WirePlan, UnchangedMessagesAreCopied) {
  WirePlan plan = make_plan(text_a(), text_b());
  EXPECT_TRUE(plan.copies("motd"));
  EXPECT_FALSE(plan.copies("player"));
  const Motd m = carry<Motd>(plan, Motd{"hi"}, Motd::wire_id);
  EXPECT_EQ(m.text, "hi");
  EXPECT_EQ(plan.counters()[PlanEvent::message_copied], 1u);
}

TEST(WirePlan, UnknownAndMalformed) {
  WirePlan plan = make_plan(text_a(), text_b());
  std::vector<uint8_t> out{0xaa};
  EXPECT_EQ(plan.translate(build_a::OnlyA::wire_id, Direction::server_to_client, typed_bytes(build_a::OnlyA{}), out).error(),
            Error::unknown_message);  // a message we lack
  EXPECT_EQ(plan.translate(99, Direction::server_to_client, {}, out).error(), Error::unknown_message);
  EXPECT_EQ(plan.translate(build_a::Player::wire_id, Direction::client_to_server, {}, out).error(), Error::unknown_message);
  std::vector<uint8_t> bytes = typed_bytes(player_a());
  bytes.pop_back();
  EXPECT_EQ(plan.translate(build_a::Player::wire_id, Direction::server_to_client, bytes, out).error(), Error::truncated);
  EXPECT_EQ(out, std::vector<uint8_t>{0xaa});  // untouched on an error

  wire::SchemaDiagnostic diag;
  EXPECT_EQ(WirePlan::build("tickwire-schema 1;\nshape {", text_b(), {}, &diag).error(), Error::schema_malformed);
  EXPECT_EQ(diag.line, 2u);
  EXPECT_EQ(WirePlan::build(std::string(wire::kMaxSchemaTextBytes + 1, ' '), text_b()).error(), Error::schema_too_large);
}

TEST(WirePlan, IdenticalSchemasGiveBackTheSameBytes) {
  const std::string& ours = protocol::protocol_messages().schema_text();
  for (bool copy : {true, false}) {
    WirePlan plan = make_plan(ours, ours, wire::PlanOptions{copy, wire::kDefaultNodeBudget, {}});
    for (const auto& sample : wire_samples()) {
      SCOPED_TRACE(sample.file);
      const std::span<const uint8_t> body = std::span(sample.packet).subspan(1);
      const wire::SchemaMessage* m = plan.peer_schema().find_message(sample.message_name);
      ASSERT_NE(m, nullptr);
      const Direction travelling = m->direction == Direction::both ? Direction::client_to_server : m->direction;
      std::vector<uint8_t> out;
      auto translated = plan.translate(sample.message_id, travelling, body, out);
      ASSERT_TRUE(translated.ok()) << reason_name(translated.error());
      EXPECT_EQ(translated->id, sample.message_id);
      EXPECT_EQ(out, std::vector<uint8_t>(body.begin(), body.end())) << (copy ? " copied" : " rewritten");
    }
    EXPECT_EQ(plan.counters()[PlanEvent::message_copied], copy ? wire_samples().size() : 0u);
  }
  WirePlan ab = make_plan(text_a(), text_a(), wire::PlanOptions{false, wire::kDefaultNodeBudget, {}});
  std::vector<uint8_t> out;
  ASSERT_TRUE(ab.translate(build_a::Player::wire_id, Direction::server_to_client, typed_bytes(player_a()), out).ok());
  EXPECT_EQ(out, typed_bytes(player_a()));
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  TW_ASSERT(at != std::string::npos, "the test edits a line the schema has");
  return text.replace(at, from.size(), to);
}

TEST(WirePlan, NestedTailEndsTheBytesWhenNothingFollows) {
  // A peer whose Claim has no placementEpoch (nor the tail before it) and whose InputFrame has no
  // held report: its InputFrame ends with the claim's flags. Ours reads it up to our tail and keeps
  // our default for the rest.
  const std::string& ours = protocol::protocol_messages().schema_text();
  const std::string peer = replaced(replaced(ours, "  tail;\n  placementEpoch u8;\n", ""),
                                    "  tail;\n  held optional(SnapshotsHeld);\n", "");
  protocol::InputFrame frame;
  frame.inputs.resize(1);
  frame.claim = protocol::Claim{};
  frame.claim->values = protocol::PawnValues{{1.5f}};
  frame.claim->placement_epoch = 9;
  std::vector<uint8_t> peer_bytes = typed_bytes(frame);
  peer_bytes.pop_back();  // the peer never wrote the held report's presence byte
  peer_bytes.pop_back();  // nor placementEpoch
  WirePlan plan = make_plan(peer, ours);
  std::vector<uint8_t> out;
  ASSERT_TRUE(plan.translate(protocol::InputFrame::wire_id, Direction::client_to_server, peer_bytes, out).ok());
  EXPECT_EQ(out, peer_bytes);
  protocol::InputFrame read;
  read.claim = protocol::Claim{};
  read.claim->placement_epoch = 5;  // what our shape holds before the walk
  ASSERT_TRUE(wire::decode(out, read).ok());
  EXPECT_EQ(read.claim->values, protocol::PawnValues{{1.5f}});
  EXPECT_EQ(read.claim->placement_epoch, 5);
}

TEST(WirePlan, FieldsMoveIntoAndOutOfBlocks) {
  // A peer that kept restRevision at the top of RecordBatch instead of in the extensions section.
  const std::string& ours = protocol::protocol_messages().schema_text();
  const std::string peer = replaced(ours, "  extensions section {\n    restRevision varu32;\n  }\n", "  restRevision varu32;\n");
  protocol::RecordBatch batch;
  batch.tick = 5;
  batch.rest_revision = 300;
  std::vector<uint8_t> ours_bytes = typed_bytes(batch);
  std::vector<uint8_t> peer_bytes = ours_bytes;
  peer_bytes.erase(peer_bytes.begin() + 22, peer_bytes.begin() + 24);  // no section length
  WirePlan in = make_plan(peer, ours);
  std::vector<uint8_t> out;
  ASSERT_TRUE(in.translate(protocol::RecordBatch::wire_id, Direction::server_to_client, peer_bytes, out).ok());
  EXPECT_EQ(out, ours_bytes);
  WirePlan back = make_plan(ours, peer);
  out.clear();
  ASSERT_TRUE(back.translate(protocol::RecordBatch::wire_id, Direction::server_to_client, ours_bytes, out).ok());
  EXPECT_EQ(out, peer_bytes);
}

}  // namespace
}  // namespace tickwire::test
