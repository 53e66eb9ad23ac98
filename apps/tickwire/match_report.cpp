// The matchmaker's figures (match_report.h). Every counter by reason is walked from its ReasonCounters,
// zeros included, so a scrape or a stats line always has every name the code can count.
#include "match_report.h"

#include <vector>

#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::cli {
namespace {

using fleet::MetricType;
using fleet::PrometheusText;

template <class Reason>
nlohmann::json by_reason(const ReasonCounters<Reason>& counters) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < ReasonCounters<Reason>::size(); ++i) {
    const auto reason = static_cast<Reason>(i);
    out[std::string(reason_name(reason))] = counters[reason];
  }
  return out;
}

template <class Reason>
void reason_samples(PrometheusText& out, const ReasonCounters<Reason>& counters) {
  for (std::size_t i = 0; i < ReasonCounters<Reason>::size(); ++i) {
    const auto reason = static_cast<Reason>(i);
    out.sample({{"reason", reason_name(reason)}}, counters[reason]);
  }
}

template <class Reason>
void reason_family(PrometheusText& out, const char* name, MetricType type, const char* help,
                   const ReasonCounters<Reason>& counters) {
  out.family(name, type, help);
  reason_samples(out, counters);
}

void write_seats(PrometheusText& out, const MatchState& state) {
  const fleet::Matchmaker& m = state.matchmaker;
  const fleet::SeatTotals seats = m.seat_totals();
  out.family("tickwire_match_rooms", MetricType::gauge, "Rooms of the last listing taking players.");
  out.sample({}, uint64_t{m.rooms()});
  out.family("tickwire_match_capacity", MetricType::gauge, "Seats the queue gives out over every room.");
  out.sample({}, uint64_t{m.queue().capacity()});
  out.family("tickwire_match_queue_length", MetricType::gauge, "Players waiting in line.");
  out.sample({}, uint64_t{m.queue().line_length()});
  out.family("tickwire_match_offers", MetricType::gauge, "Seats offered and not yet claimed, by kind.");
  out.sample({{"kind", "queue"}}, uint64_t{seats.offered});
  out.sample({{"kind", "resume"}}, uint64_t{seats.resume_offered});
  out.family("tickwire_match_seated", MetricType::gauge, "Sessions seated by the directory's reports, by kind.");
  out.sample({{"kind", "queue"}}, uint64_t{seats.seated});
  out.sample({{"kind", "resume"}}, uint64_t{seats.resume_seated});
  out.family("tickwire_match_promotions_total", MetricType::counter, "Seats given to players waiting in line.");
  out.sample({}, m.queue().promoted());
  out.family("tickwire_match_resumes_total", MetricType::counter, "Resumptions' seats: offered, claimed, unclaimed.");
  out.sample({{"outcome", "offered"}}, m.resumes().offered);
  out.sample({{"outcome", "claimed"}}, m.resumes().claimed);
  out.sample({{"outcome", "unclaimed"}}, m.resumes().unclaimed);
}

void write_reasons(PrometheusText& out, const MatchState& state) {
  const fleet::Matchmaker& m = state.matchmaker;
  reason_family(out, "tickwire_match_refusals_total", MetricType::counter, "Requests for a seat refused, by reason.",
                m.queue().refusals());
  reason_family(out, "tickwire_match_resume_refusals_total", MetricType::counter, "Resumptions refused, by reason.",
                m.resume_refusals());
  reason_family(out, "tickwire_match_seat_report_refusals_total", MetricType::counter,
                "Seated sessions the directory named that held no seat there, by reason.", m.report_refusals());
  reason_family(out, "tickwire_match_seats_lost_total", MetricType::counter,
                "Seats lost because their room left the listing, by reason.", m.seats_lost());
  reason_family(out, "tickwire_match_places_lost_total", MetricType::counter,
                "Places in line or offers lost without a seat taken, by reason.", m.queue().places_lost());
  reason_family(out, "tickwire_match_rooms_skipped", MetricType::gauge, "Rooms the last listing left out, by reason.",
                state.view.skipped);
}

void write_store(PrometheusText& out, const MatchState& state) {
  out.family("tickwire_match_listings_total", MetricType::counter, "Directory listings taken.");
  out.sample({}, state.listings);
  out.family("tickwire_match_listing_failures_total", MetricType::counter,
             "Directory listings the store failed (the last good one stays).");
  out.sample({}, state.listing_failures);
  out.family("tickwire_match_sweep_failures_total", MetricType::counter, "Directory sweeps the store failed.");
  out.sample({}, state.sweep_failures);
  out.family("tickwire_match_unreadable_rooms", MetricType::gauge, "Room rows of the last listing not believed.");
  out.sample({}, uint64_t{state.listing.unreadable_rooms});
}

void write_http(PrometheusText& out, const MatchState& state, const fleet::HttpEndpoint* endpoint) {
  out.family("tickwire_match_http_answered_total", MetricType::counter, "Requests a route answered.");
  out.sample({}, endpoint == nullptr ? uint64_t{0} : endpoint->answered());
  out.family("tickwire_match_http_refusals_total", MetricType::counter,
             "Requests refused: by the endpoint (no route, method, body, query caps) or answered 400, by reason.");
  for (std::size_t i = 0; i < static_cast<std::size_t>(fleet::HttpRefusal::count_); ++i) {
    const auto reason = static_cast<fleet::HttpRefusal>(i);
    out.sample({{"reason", reason_name(reason)}}, endpoint == nullptr ? uint64_t{0} : endpoint->refused(reason));
  }
  reason_samples(out, state.request_refusals);
}

}  // namespace

nlohmann::json match_stats_json(const MatchState& state) {
  const fleet::Matchmaker& m = state.matchmaker;
  const fleet::SeatTotals seats = m.seat_totals();
  return {{"rooms", m.rooms()},
          {"capacity", m.queue().capacity()},
          {"queued", m.queue().line_length()},
          {"offered", seats.offered + seats.resume_offered},
          {"seated", seats.seated + seats.resume_seated},
          {"promoted", m.queue().promoted()},
          {"refusals",
           {{"match", by_reason(m.queue().refusals())},
            {"resume", by_reason(m.resume_refusals())},
            {"seatReports", by_reason(m.report_refusals())},
            {"requests", by_reason(state.request_refusals)}}},
          {"seatsLost", by_reason(m.seats_lost())},
          {"resumes", {{"offered", m.resumes().offered}, {"claimed", m.resumes().claimed}, {"unclaimed", m.resumes().unclaimed}}},
          {"listings", state.listings},
          {"listingFailures", state.listing_failures},
          {"sweepFailures", state.sweep_failures}};
}

std::string render_match_metrics(const MatchState& state, const fleet::HttpEndpoint* endpoint) {
  PrometheusText out;
  write_seats(out, state);
  write_reasons(out, state);
  write_store(out, state);
  write_http(out, state, endpoint);
  out.family("tickwire_match_metrics_refused", MetricType::gauge, "Families and samples this exposition left out (a bug if not 0).");
  out.sample({}, out.refused());
  return out.take();
}

}  // namespace tickwire::cli
