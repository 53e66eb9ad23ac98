// AdmissionPlace on the wire: each standing round-trips, a place past one varint byte stays exact,
// and hostile bytes (a standing or refusal no build names, a body cut short, bytes past its end) are
// refused by name. The golden packets (admissionPlace*.bin) pin the bytes themselves.
#include "tickwire/protocol/admission_place.h"

#include <gtest/gtest.h>

#include <vector>

#include "tickwire/wire/codec.h"

namespace tickwire::protocol {
namespace {

AdmissionPlace decoded(const std::vector<uint8_t>& bytes, Status* status = nullptr, wire::DecodeReport* report = nullptr) {
  AdmissionPlace place;
  const Status s = wire::decode(bytes, place, report);
  if (status) *status = s;
  return place;
}

TEST(AdmissionPlaceWire, EveryStandingRoundTrips) {
  const AdmissionPlace places[] = {
      {AdmissionStanding::seated, 0, 0, 0, 0, AdmissionRefusal::line_full},
      {AdmissionStanding::seat_offered, 0, 12, 0, 19'999, AdmissionRefusal::line_full},
      {AdmissionStanding::waiting, 65'536, 65'536, 4'000'000'000u, 0, AdmissionRefusal::line_full},
      {AdmissionStanding::refused, 0, 1024, 0, 0, AdmissionRefusal::no_seat},
  };
  for (const AdmissionPlace& place : places) {
    const std::vector<uint8_t> bytes = wire::encode_bytes(place);
    Status status;
    EXPECT_EQ(decoded(bytes, &status), place);
    EXPECT_TRUE(status.ok());
  }
  // A place in a short line takes a byte a field.
  EXPECT_EQ(wire::measure(AdmissionPlace{AdmissionStanding::waiting, 3, 9, 100, 0, AdmissionRefusal::line_full}), 6u);
}

TEST(AdmissionPlaceWire, HostileBytesAreRefusedByName) {
  std::vector<uint8_t> bytes = wire::encode_bytes(AdmissionPlace{AdmissionStanding::waiting, 3, 9, 100, 0, AdmissionRefusal::line_full});
  Status status;
  wire::DecodeReport report;

  std::vector<uint8_t> unknown_standing = bytes;
  unknown_standing[0] = 4;
  decoded(unknown_standing, &status, &report);
  EXPECT_EQ(status.error(), Error::unknown_enum_value);
  EXPECT_STREQ(report.field, "standing");

  std::vector<uint8_t> unknown_refusal = bytes;
  unknown_refusal.back() = 2;
  decoded(unknown_refusal, &status, &report);
  EXPECT_EQ(status.error(), Error::unknown_enum_value);
  EXPECT_STREQ(report.field, "refusal");

  decoded(std::vector<uint8_t>(bytes.begin(), bytes.end() - 1), &status, &report);
  EXPECT_EQ(status.error(), Error::truncated);

  bytes.push_back(0);
  decoded(bytes, &status);
  EXPECT_EQ(status.error(), Error::trailing_bytes);
}

}  // namespace
}  // namespace tickwire::protocol
