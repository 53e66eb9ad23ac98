// Metrics in the Prometheus text exposition format (version 0.0.4), written by hand because the
// format is small and no client library is packaged: each family once, its # HELP and # TYPE lines
// first, then its samples; names checked against the format's grammar, label values and help text
// escaped, values spelled so integers print exactly and non-finite values as NaN, +Inf, -Inf.
// A family or sample the grammar refuses is left out and counted, never written half.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/fleet/duration_histogram.h"

namespace tickwire::fleet {

inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";
inline constexpr std::size_t kMaxMetricFamilies = 256;  // one exposition's families

enum class MetricType : uint8_t { counter, gauge, histogram };

struct MetricLabel {
  std::string_view name;
  std::string_view value;
};

// [a-zA-Z_:][a-zA-Z0-9_:]*
bool valid_metric_name(std::string_view name);
// [a-zA-Z_][a-zA-Z0-9_]*, and not starting with "__" (reserved for the scraper's own labels).
bool valid_label_name(std::string_view name);
// A label value inside its quotes: \ -> \\, " -> \", newline -> \n.
std::string escape_label_value(std::string_view value);
// Help text: \ -> \\, newline -> \n (quotes stay).
std::string escape_help(std::string_view help);
// A sample value: integers exactly ("42", "-3", up to 2^53), others the shortest text that reads
// back to the same double ("0.25", "1e+300"), and "NaN", "+Inf", "-Inf".
std::string format_metric_value(double value);

class PrometheusText {
 public:
  // Starts a family: its # HELP and # TYPE lines. False (and the family's samples dropped) when the
  // name is not a metric name, the family was written already or kMaxMetricFamilies are.
  bool family(std::string_view name, MetricType type, std::string_view help);
  // A sample of the family last started, named as it is. False (nothing written) when no family is
  // open or a label name is invalid or given twice.
  bool sample(std::initializer_list<MetricLabel> labels, double value);
  bool sample(std::initializer_list<MetricLabel> labels, uint64_t value);
  bool sample(const std::vector<MetricLabel>& labels, double value);
  bool sample(const std::vector<MetricLabel>& labels, uint64_t value);

  // The samples of the histogram family last started: name_bucket{le=...} for each bound and +Inf,
  // name_sum and name_count. False (nothing written) when the open family is not a histogram.
  bool histogram(const DurationHistogram& h);

  const std::string& text() const { return text_; }
  std::string take() { return std::move(text_); }
  uint64_t refused() const { return refused_; }  // families and samples left out

 private:
  bool labelled_sample(const MetricLabel* labels, std::size_t count, std::string_view value, std::string_view suffix = {});

  std::string text_;
  std::string open_family_;  // empty: none open (or the last one was refused)
  MetricType open_type_ = MetricType::gauge;
  std::vector<std::string> written_families_;
  uint64_t refused_ = 0;
};

}  // namespace tickwire::fleet
