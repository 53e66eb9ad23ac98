// AdmissionPlace (seed 003, "Load ladders": admission is elastic): what a player asking for a seat in
// a full deployment is told, once per request or refresh: seated, a seat offered to claim before it
// passes on, a place in line (its position, the line's length, an estimated wait), or refused by name.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

// Where a player stands.
enum class AdmissionStanding : uint8_t {
  seated = 0,        // it holds a seat it has claimed
  seat_offered = 1,  // a seat is held for it until it claims it (connects), or the seat passes on
  waiting = 2,       // in line: `position` says where
  refused = 3,       // not even in line: `refusal` says why
};
inline constexpr wire::NamedValue kAdmissionStandingMembers[] = {
    {"seated", 0}, {"seatOffered", 1}, {"waiting", 2}, {"refused", 3}};
inline constexpr wire::EnumDef kAdmissionStandingDef{"AdmissionStanding", kAdmissionStandingMembers};

// Why a request (or a claim) for a seat was refused.
TW_REASONS(AdmissionRefusal,
           line_full,  // every seat is taken and the line is at its cap
           no_seat)    // a claim by an actor no seat is held for (its offer lapsed, or it never had one)
inline constexpr wire::NamedValue kAdmissionRefusalMembers[] = {{"lineFull", 0}, {"noSeat", 1}};
inline constexpr wire::EnumDef kAdmissionRefusalDef{"AdmissionRefusal", kAdmissionRefusalMembers};

struct AdmissionPlace {
  static constexpr std::string_view wire_name = "AdmissionPlace";
  static constexpr std::string_view message_name = "admissionPlace";
  static constexpr uint8_t wire_id = 29;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  AdmissionStanding standing = AdmissionStanding::waiting;
  uint32_t position = 0;           // waiting: 1 + the waiters still ahead of it; 0 otherwise
  uint32_t line_length = 0;        // the waiters in line
  uint32_t estimated_wait_ms = 0;  // waiting: from the measured rate seats free at; 0 while there is none
  uint32_t claim_within_ms = 0;    // seat_offered: how long the seat stays held for it
  AdmissionRefusal refusal = AdmissionRefusal::line_full;  // refused: why

  template <class W>
  void fields(W& w) {
    w.enum8("standing", standing, kAdmissionStandingDef);
    w.varu32("position", position);
    w.varu32("lineLength", line_length);
    w.varu32("estimatedWaitMs", estimated_wait_ms);
    w.varu32("claimWithinMs", claim_within_ms);
    w.enum8("refusal", refusal, kAdmissionRefusalDef);
  }
  friend bool operator==(const AdmissionPlace&, const AdmissionPlace&) = default;
};

}  // namespace tickwire::protocol
