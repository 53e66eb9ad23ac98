// The demo's figures over time, for its HTML report's plots: gathered from the lines its children
// already print each stats interval (the server's `server` lines, the bots' `bots_series` lines),
// one point per interval per series, each series capped (past the cap, neighbours are averaged).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tickwire::cli {

struct SeriesPoint {
  double t_s = 0;
  double value = 0;
};

// At most kMaxPoints points: when full, each two neighbours become their mean and from then on each
// point is the mean of twice as many samples, so a long run keeps its whole span at a coarser step.
// A NaN or infinite sample is refused and counted.
class CappedSeries {
 public:
  static constexpr std::size_t kMaxPoints = 600;

  bool add(double t_s, double value);
  const std::vector<SeriesPoint>& points() const { return points_; }
  std::size_t samples_per_point() const { return stride_; }
  uint64_t refused() const { return refused_; }

 private:
  std::vector<SeriesPoint> points_;
  SeriesPoint pending_{};  // sums of the samples of the point being built
  std::size_t pending_count_ = 0;
  std::size_t stride_ = 1;
  uint64_t refused_ = 0;
};

// What each client's series shows, one plot each.
enum class ClientFigure : std::size_t { up_kbps, down_kbps, depth_ticks, rtt_ms, corrections_per_s, held_frames_per_s };
inline constexpr std::size_t kClientFigures = 6;

struct ClientTrack {
  uint64_t id = 0;
  std::array<CappedSeries, kClientFigures> figures;
  // The previous line's cumulative counters (rates are their differences over the interval).
  double last_t_s = 0;
  double bytes_up = 0, bytes_down = 0, corrections = 0, held_frames = 0;
  const CappedSeries& figure(ClientFigure f) const { return figures[static_cast<std::size_t>(f)]; }
};

// One figure's spread across the clients at each interval.
struct FigureBand {
  CappedSeries low, median, high;
};

class DemoSeries {
 public:
  static constexpr std::size_t kMaxClients = 256;  // rows for clients past it are ignored

  // Takes one parsed line of a child's stdout; lines of other types are ignored.
  void take(const nlohmann::json& line);

  const std::vector<ClientTrack>& clients() const { return clients_; }
  const FigureBand& band(ClientFigure f) const { return bands_[static_cast<std::size_t>(f)]; }
  const CappedSeries& tick_cost_p50_us() const { return tick_cost_p50_us_; }
  const CappedSeries& tick_cost_p99_us() const { return tick_cost_p99_us_; }
  const CappedSeries& server_tick_hz() const { return server_tick_hz_; }
  uint64_t refused_rows() const { return refused_rows_; }
  // The latest time any line taken carried (the span the plots share).
  double last_t_s() const { return last_t_s_; }

 private:
  void take_server(const nlohmann::json& line);
  void take_bots(const nlohmann::json& line);
  ClientTrack* track(uint64_t id);

  std::vector<ClientTrack> clients_;
  std::array<FigureBand, kClientFigures> bands_;
  CappedSeries tick_cost_p50_us_, tick_cost_p99_us_, server_tick_hz_;
  uint64_t refused_rows_ = 0;  // malformed rows, or clients past the cap
  double last_t_s_ = 0;
};

}  // namespace tickwire::cli
