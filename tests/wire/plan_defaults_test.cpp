// A field only this build has keeps the value its shape held before the walk when another build's
// bytes are read through a plan (seed 000, "Reading another build"): a default of 1.0 reads as
// 1.0, not as the type's zero; so do a nested shape's defaults, a list element's, an enum's and a
// string's. A sparse member only we have keeps its mask bit clear (and so its value).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tickwire/wire/codec.h"
#include "tickwire/wire/message_registry.h"
#include "tickwire/wire/wire_plan.h"

namespace tickwire::test {
namespace {

enum class Mode : uint8_t { slow = 0, fast = 1 };
inline constexpr wire::NamedValue kModeMembers[] = {{"slow", 0}, {"fast", 1}};
inline constexpr wire::EnumDef kMode{"Mode", kModeMembers};

namespace older {

struct Part {
  static constexpr std::string_view wire_name = "Part";
  uint16_t id = 0;
  template <class W>
  void fields(W& w) {
    w.u16("id", id);
  }
};

struct Gauge {
  static constexpr std::string_view wire_name = "Gauge";
  static constexpr std::string_view message_name = "gauge";
  static constexpr uint8_t wire_id = 30;
  static constexpr wire::Direction wire_direction = wire::Direction::both;
  uint32_t id = 0;
  uint8_t extras = 0;  // sparse mask: hits
  uint16_t hits = 0;
  std::vector<Part> parts;
  template <class W>
  void fields(W& w) {
    w.u32("id", id);
    w.sparse("extras", extras, [&](auto& s) { s.u16("hits", hits); });
    w.list8("parts", parts, 0, 8);
  }
};

const wire::WireMessages& messages() {
  static const wire::WireMessages m = wire::WireMessages::of<Gauge>();
  return m;
}

}  // namespace older

namespace newer {

struct Tuning {  // a nested shape only this build has
  static constexpr std::string_view wire_name = "Tuning";
  double gain = 1.5;
  std::string label = "stock";
  Mode mode = Mode::fast;  // not the enum's first member
  template <class W>
  void fields(W& w) {
    w.f64("gain", gain);
    w.str8("label", label, 16);
    w.enum8("mode", mode, kMode);
  }
};

struct Part {
  static constexpr std::string_view wire_name = "Part";
  uint16_t id = 0;
  float weight = 2.0f;  // only this build's parts weigh
  template <class W>
  void fields(W& w) {
    w.u16("id", id);
    w.f32("weight", weight);
  }
};

struct Gauge {
  static constexpr std::string_view wire_name = "Gauge";
  static constexpr std::string_view message_name = "gauge";
  static constexpr uint8_t wire_id = 30;
  static constexpr wire::Direction wire_direction = wire::Direction::both;
  uint32_t id = 0;
  float scale = 1.0f;  // only this build has it
  int16_t offset = -3;
  bool enabled = true;
  Tuning tuning;
  uint8_t extras = 0;  // sparse mask: hits, boost (only ours)
  uint16_t hits = 0;
  uint8_t boost = 7;
  std::vector<Part> parts;
  template <class W>
  void fields(W& w) {
    w.u32("id", id);
    w.f32("scale", scale);
    w.i16("offset", offset);
    w.boolean("enabled", enabled);
    w.shape("tuning", tuning);
    w.sparse("extras", extras, [&](auto& s) {
      s.u16("hits", hits);
      s.u8("boost", boost);
    });
    w.list8("parts", parts, 0, 8);
  }
};

const wire::WireMessages& messages() {
  static const wire::WireMessages m = wire::WireMessages::of<Gauge>();
  return m;
}

}  // namespace newer

std::vector<uint8_t> older_bytes() {
  older::Gauge g;
  g.id = 77;
  g.extras = 0b1;
  g.hits = 12;
  g.parts = {older::Part{4}, older::Part{9}};
  std::vector<uint8_t> out(wire::measure(g));
  EXPECT_TRUE(wire::encode(g, out).ok());
  return out;
}

struct PlanRead {
  wire::WirePlan plan;
  newer::Gauge gauge;
};

// Reads the older build's gauge through a plan into a newer gauge, as a session would.
PlanRead read_through_plan(const wire::ShapeDefaults* our_defaults) {
  wire::PlanOptions options;
  options.our_defaults = our_defaults;
  auto built = wire::WirePlan::build(older::messages().schema_text(), newer::messages().schema_text(), options);
  EXPECT_TRUE(built.ok());
  PlanRead read{std::move(built).value(), {}};
  std::vector<uint8_t> out;
  const auto translated = read.plan.translate(older::Gauge::wire_id, wire::Direction::both, older_bytes(), out);
  EXPECT_TRUE(translated.ok()) << reason_name(translated.error());
  EXPECT_TRUE(wire::decode(out, read.gauge).ok());
  return read;
}

TEST(PlanDefaults, AFieldOnlyWeHaveKeepsItsShapesDefault) {
  const PlanRead read = read_through_plan(&newer::messages().shape_defaults());
  const newer::Gauge& g = read.gauge;
  EXPECT_EQ(g.id, 77u) << "a field the peer sent is the peer's";
  EXPECT_EQ(g.scale, 1.0f);
  EXPECT_EQ(g.offset, -3);
  EXPECT_TRUE(g.enabled);
  EXPECT_EQ(g.tuning.gain, 1.5);
  EXPECT_EQ(g.tuning.label, "stock");
  EXPECT_EQ(g.tuning.mode, Mode::fast);
  ASSERT_EQ(g.parts.size(), 2u);
  EXPECT_EQ(g.parts[1].id, 9u);
  EXPECT_EQ(g.parts[0].weight, 2.0f) << "a list element's new field takes its element shape's default";
  EXPECT_EQ(g.parts[1].weight, 2.0f);
  EXPECT_EQ(g.extras, 0b01) << "a sparse member only we have keeps its bit clear";
  EXPECT_EQ(g.hits, 12u);
  EXPECT_EQ(g.boost, 7u) << "and so the value it had";
  EXPECT_GE(read.plan.counters()[wire::PlanEvent::field_defaulted], 5u);
}

// Built from the texts alone (no registry at hand), a plan can only write the type's zero.
TEST(PlanDefaults, WithoutOurDefaultsAFieldOnlyWeHaveReadsAsItsZero) {
  const newer::Gauge g = read_through_plan(nullptr).gauge;
  EXPECT_EQ(g.id, 77u);
  EXPECT_EQ(g.scale, 0.0f);
  EXPECT_EQ(g.tuning.gain, 0.0);
  EXPECT_EQ(g.tuning.mode, Mode::slow);
  EXPECT_EQ(g.parts[0].weight, 0.0f);
}

TEST(PlanDefaults, TheDescribeWalkRecordsNonZeroDefaultsByShape) {
  const wire::ShapeDefaults& d = newer::messages().shape_defaults();
  std::vector<std::string> gauge;
  for (const auto& f : d.of("Gauge")) gauge.push_back(f.field);
  EXPECT_EQ(gauge, (std::vector<std::string>{"scale", "offset", "enabled", "boost"})) << "zeros are not recorded";
  EXPECT_EQ(d.of("Tuning").size(), 3u);
  EXPECT_EQ(d.of("Part").size(), 1u);
  EXPECT_TRUE(d.of("Nothing").empty());
  EXPECT_EQ(newer::messages().schema_text().find("1.5"), std::string::npos) << "defaults are not in the schema text";
}

}  // namespace
}  // namespace tickwire::test
