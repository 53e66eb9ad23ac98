// The matchmaker's HTTP answers (match_routes.h). A request is read (fleet/match_request.h: refused
// 400 by name) before the desk's lock is taken; the matchmaker's answer is turned into its JSON
// under it, at the one `now` the matchmaker saw.
#include "match_routes.h"

#include <nlohmann/json.hpp>

#include "match_report.h"
#include "tickwire/core/hex.h"
#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::cli {
namespace {

using fleet::HttpQuery;
using fleet::HttpResponse;
using protocol::AdmissionStanding;

HttpResponse json_answer(unsigned status, const nlohmann::json& body) { return HttpResponse{status, kJsonContentType, body.dump()}; }

HttpResponse bad_request(MatchState& state, fleet::MatchRequestRefusal why) {
  state.request_refusals.add(why);
  return json_answer(400, {{"status", "bad_request"}, {"reason", reason_name(why)}});
}

nlohmann::json room_json(const char* status, const fleet::MatchedRoom& room) {
  return {{"status", status}, {"room", room.key.room}, {"process", room.key.process}, {"address", room.address.to_string()}};
}

HttpResponse offered(const fleet::MatchedRoom& room, const netcode::ConnectTokenBytes& token, MonoTime claim_by, MonoTime now) {
  nlohmann::json body = room_json("offered", room);
  body["token"] = to_hex(token);
  body["claimBySeconds"] = (claim_by - now).seconds_f();
  return json_answer(200, body);
}

HttpResponse match_answer(const fleet::MatchAnswer& answer, MonoTime now) {
  switch (answer.place.standing) {
    case AdmissionStanding::seat_offered:
      return offered(*answer.room, *answer.token, answer.place.claim_by, now);
    case AdmissionStanding::seated:
      return json_answer(200, room_json("seated", *answer.room));
    case AdmissionStanding::waiting: {
      nlohmann::json body = {{"status", "queued"}, {"position", answer.place.position}, {"length", answer.place.line_length}};
      body["etaSeconds"] = answer.place.estimated_wait ? nlohmann::json(answer.place.estimated_wait->seconds_f()) : nlohmann::json();
      return json_answer(200, body);
    }
    case AdmissionStanding::refused:
      break;
  }
  return json_answer(503, {{"status", "refused"}, {"reason", reason_name(answer.place.refusal)}});
}

HttpResponse answer_match(MatchDesk& desk, const HttpQuery& query) {
  const auto actor = fleet::read_actor(query);
  return desk.with([&actor](MatchState& state, MonoTime now) {
    if (const auto* why = std::get_if<fleet::MatchRequestRefusal>(&actor)) return bad_request(state, *why);
    return match_answer(state.matchmaker.match(std::get<fleet::ActorId>(actor), now), now);
  });
}

// A room not listed is 404: the player's room is being taken over (or gone), and it asks again.
HttpResponse answer_resume(MatchDesk& desk, const HttpQuery& query) {
  const auto request = fleet::read_resume(query);
  return desk.with([&request](MatchState& state, MonoTime now) {
    if (const auto* why = std::get_if<fleet::MatchRequestRefusal>(&request)) return bad_request(state, *why);
    const fleet::ResumeRequest& r = std::get<fleet::ResumeRequest>(request);
    const fleet::ResumeAnswer answer = state.matchmaker.resume(r.actor, r.room, now, r.grants);
    if (answer.refusal) {
      const unsigned status = *answer.refusal == fleet::ResumeSeatRefusal::room_not_listed ? 404 : 503;
      return json_answer(status, {{"status", "refused"}, {"reason", reason_name(*answer.refusal)}});
    }
    return offered(*answer.room, *answer.token, answer.claim_by, now);
  });
}

HttpResponse answer_leave(MatchDesk& desk, const HttpQuery& query) {
  const auto actor = fleet::read_actor(query);
  return desk.with([&actor](MatchState& state, MonoTime now) {
    if (const auto* why = std::get_if<fleet::MatchRequestRefusal>(&actor)) return bad_request(state, *why);
    if (state.matchmaker.left(std::get<fleet::ActorId>(actor), now)) return json_answer(200, {{"status", "left"}});
    return json_answer(404, {{"status", "not_held"}});
  });
}

nlohmann::json fleet_json(const durable::DirectoryListing& listing) {
  nlohmann::json processes = nlohmann::json::array();
  for (const durable::DirectoryProcess& p : listing.processes) {
    nlohmann::json rooms = nlohmann::json::array();
    for (const durable::DirectoryRoom& r : p.rooms) {
      rooms.push_back({{"room", r.room},
                       {"address", r.public_address},
                       {"seatsTotal", r.seats_total},
                       {"seatsTaken", r.seats_taken},
                       {"seated", r.seated}});
    }
    processes.push_back({{"process", p.process},
                         {"state", reason_name(p.state)},
                         {"ops", p.ops_address},
                         {"heartbeatAt", static_cast<double>(p.heartbeat_at.ns()) * 1e-9},
                         {"rooms", rooms}});
  }
  return {{"processes", processes}};
}

}  // namespace

std::vector<fleet::HttpRoute> match_routes(MatchDesk& desk, const fleet::LoopHeartbeat& loop, std::function<MonoTime()> clock) {
  return {
      fleet::HttpRoute{"/match", [&desk](const HttpQuery& q) { return answer_match(desk, q); }},
      fleet::HttpRoute{"/resume", [&desk](const HttpQuery& q) { return answer_resume(desk, q); }},
      fleet::HttpRoute{"/leave", [&desk](const HttpQuery& q) { return answer_leave(desk, q); }},
      fleet::HttpRoute{"/fleet",
                       [&desk](const HttpQuery&) {
                         return desk.with([](const MatchState& state, MonoTime) { return json_answer(200, fleet_json(state.listing)); });
                       }},
      fleet::HttpRoute{"/healthz",
                       [&loop, clock](const HttpQuery&) {
                         if (loop.alive(clock(), kMatchLivenessWindow)) return HttpResponse{200, fleet::kPlainTextContentType, "ok\n"};
                         return HttpResponse{503, fleet::kPlainTextContentType, "loop stalled\n"};
                       }},
      fleet::HttpRoute{"/metrics",
                       [&desk](const HttpQuery&) {
                         return desk.with([&desk](const MatchState& state, MonoTime) {
                           return HttpResponse{200, fleet::kPrometheusContentType, render_match_metrics(state, desk.endpoint())};
                         });
                       }},
  };
}

}  // namespace tickwire::cli
