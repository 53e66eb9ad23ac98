// Gathering the demo's series (demo_series.h): rates from the differences of cumulative counters,
// each client's figures and their spread per interval, the server's tick cost per interval.
#include "demo_series.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace tickwire::cli {
namespace {

std::optional<double> number_at(const nlohmann::json& row, std::optional<std::size_t> index) {
  if (!index || *index >= row.size() || !row[*index].is_number()) return std::nullopt;
  return row[*index].get<double>();
}

// A counter's increase since the previous line; a counter that went down started over (a new
// session), so all of it is new.
double increase(double now, double before) { return now >= before ? now - before : now; }

double median_of(std::vector<double>& values) {
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  if (values.size() % 2 == 1) return values[mid];
  const double upper = values[mid];
  return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

}  // namespace

bool CappedSeries::add(double t_s, double value) {
  if (!std::isfinite(t_s) || !std::isfinite(value)) {
    ++refused_;
    return false;
  }
  pending_.t_s += t_s;
  pending_.value += value;
  if (++pending_count_ < stride_) return true;
  const auto n = static_cast<double>(pending_count_);
  points_.push_back({pending_.t_s / n, pending_.value / n});
  pending_ = {};
  pending_count_ = 0;
  if (points_.size() >= kMaxPoints) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i + 1 < points_.size(); i += 2)
      points_[kept++] = {(points_[i].t_s + points_[i + 1].t_s) / 2, (points_[i].value + points_[i + 1].value) / 2};
    if (points_.size() % 2 == 1) points_[kept++] = points_.back();
    points_.resize(kept);
    stride_ *= 2;
  }
  return true;
}

void DemoSeries::take(const nlohmann::json& line) {
  if (!line.is_object()) return;
  const std::string type = line.value("type", std::string());
  if (type == "server") take_server(line);
  else if (type == "bots_series") take_bots(line);
}

void DemoSeries::take_server(const nlohmann::json& line) {
  const auto t = line.find("t");
  if (t == line.end() || !t->is_number()) return;
  const double t_s = t->get<double>();
  if (std::isfinite(t_s)) last_t_s_ = std::max(last_t_s_, t_s);
  if (const auto hz = line.find("hz"); hz != line.end() && hz->is_number()) server_tick_hz_.add(t_s, hz->get<double>());
  const auto cost = line.find("tick_cost_interval_us");  // this interval's ticks alone
  if (cost == line.end() || !cost->is_object()) return;
  if (const auto p50 = cost->find("p50"); p50 != cost->end() && p50->is_number()) tick_cost_p50_us_.add(t_s, p50->get<double>());
  if (const auto p99 = cost->find("p99"); p99 != cost->end() && p99->is_number()) tick_cost_p99_us_.add(t_s, p99->get<double>());
}

ClientTrack* DemoSeries::track(uint64_t id) {
  for (ClientTrack& c : clients_)
    if (c.id == id) return &c;
  if (clients_.size() >= kMaxClients) return nullptr;
  clients_.push_back(ClientTrack{});
  clients_.back().id = id;
  return &clients_.back();
}

// {"type":"bots_series","t":T,"fields":["id","bytes_up",...],"clients":[[...],...]}: the columns
// are found by name, so a line with more (or reordered) columns still reads.
void DemoSeries::take_bots(const nlohmann::json& line) {
  const auto t = line.find("t");
  const auto fields = line.find("fields");
  const auto rows = line.find("clients");
  if (t == line.end() || !t->is_number() || fields == line.end() || !fields->is_array() || rows == line.end() || !rows->is_array())
    return;
  const double t_s = t->get<double>();
  if (std::isfinite(t_s)) last_t_s_ = std::max(last_t_s_, t_s);
  const auto column = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < fields->size(); ++i)
      if ((*fields)[i].is_string() && (*fields)[i].get<std::string>() == name) return i;
    return std::nullopt;
  };
  const auto id_at = column("id"), up_at = column("bytes_up"), down_at = column("bytes_down"), rtt_at = column("rtt_ms"),
             depth_at = column("depth_ticks"), corrections_at = column("corrections"), held_at = column("held_frames");
  std::array<std::vector<double>, kClientFigures> across;  // this interval's value of each figure, per client
  for (const nlohmann::json& row : *rows) {
    const auto id = row.is_array() ? number_at(row, id_at) : std::nullopt;
    ClientTrack* c = id && *id >= 0 ? track(static_cast<uint64_t>(*id)) : nullptr;
    if (c == nullptr || t_s <= c->last_t_s) {
      ++refused_rows_;
      continue;
    }
    const double span_s = t_s - c->last_t_s;
    std::array<std::optional<double>, kClientFigures> v;
    if (const auto up = number_at(row, up_at)) {
      v[0] = increase(*up, c->bytes_up) * 8 / span_s / 1000;
      c->bytes_up = *up;
    }
    if (const auto down = number_at(row, down_at)) {
      v[1] = increase(*down, c->bytes_down) * 8 / span_s / 1000;
      c->bytes_down = *down;
    }
    v[2] = number_at(row, depth_at);
    v[3] = number_at(row, rtt_at);
    if (const auto n = number_at(row, corrections_at)) {
      v[4] = increase(*n, c->corrections) / span_s;
      c->corrections = *n;
    }
    if (const auto n = number_at(row, held_at)) {
      v[5] = increase(*n, c->held_frames) / span_s;
      c->held_frames = *n;
    }
    c->last_t_s = t_s;
    for (std::size_t f = 0; f < kClientFigures; ++f) {
      if (v[f] && c->figures[f].add(t_s, *v[f])) across[f].push_back(*v[f]);
    }
  }
  for (std::size_t f = 0; f < kClientFigures; ++f) {
    if (across[f].empty()) continue;
    const auto [low, high] = std::minmax_element(across[f].begin(), across[f].end());
    bands_[f].low.add(t_s, *low);
    bands_[f].high.add(t_s, *high);
    bands_[f].median.add(t_s, median_of(across[f]));
  }
}

}  // namespace tickwire::cli
