// The Prometheus text exposition writer (fleet/prometheus_text.h).
#include "tickwire/fleet/prometheus_text.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tickwire::fleet {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The largest magnitude below which every integer is a double exactly (2^53).
constexpr double kExactIntegerLimit = 9007199254740992.0;

}  // namespace

bool valid_metric_name(std::string_view name) {
  if (name.empty() || is_digit(name.front())) return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return is_letter(c) || is_digit(c) || c == '_' || c == ':'; });
}

bool valid_label_name(std::string_view name) {
  if (name.empty() || is_digit(name.front()) || name.starts_with("__")) return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return is_letter(c) || is_digit(c) || c == '_'; });
}

namespace {

// The format's two escapings: backslash and newline always, double quotes inside a label value.
std::string escaped(std::string_view text, bool quotes) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quotes) out += "\\\"";
    else out += c;
  }
  return out;
}

}  // namespace

std::string escape_label_value(std::string_view value) { return escaped(value, true); }
std::string escape_help(std::string_view help) { return escaped(help, false); }

std::string format_metric_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::trunc(value) && std::fabs(value) <= kExactIntegerLimit) {
    return fmt::format("{}", static_cast<int64_t>(value));
  }
  return fmt::format("{}", value);  // the shortest text that reads back to the same double
}

bool PrometheusText::family(std::string_view name, MetricType type, std::string_view help) {
  open_family_.clear();
  const bool seen = std::find(written_families_.begin(), written_families_.end(), name) != written_families_.end();
  if (!valid_metric_name(name) || seen || written_families_.size() >= kMaxMetricFamilies) {
    ++refused_;
    return false;
  }
  written_families_.emplace_back(name);
  open_family_ = name;
  open_type_ = type;
  const char* type_name = type == MetricType::counter ? "counter" : type == MetricType::gauge ? "gauge" : "histogram";
  text_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, escape_help(help), name, type_name);
  return true;
}

bool PrometheusText::labelled_sample(const MetricLabel* labels, std::size_t count, std::string_view value,
                                     std::string_view suffix) {
  bool ok = !open_family_.empty() && (open_type_ == MetricType::histogram) == !suffix.empty();
  for (std::size_t i = 0; ok && i < count; ++i) {
    ok = valid_label_name(labels[i].name);
    for (std::size_t j = 0; ok && j < i; ++j) ok = labels[j].name != labels[i].name;
  }
  if (!ok) {
    ++refused_;
    return false;
  }
  text_ += open_family_;
  text_ += suffix;
  for (std::size_t i = 0; i < count; ++i) {
    text_ += fmt::format("{}{}=\"{}\"", i == 0 ? "{" : ",", labels[i].name, escape_label_value(labels[i].value));
  }
  text_ += fmt::format("{} {}\n", count > 0 ? "}" : "", value);
  return true;
}

bool PrometheusText::histogram(const DurationHistogram& h) {
  if (open_family_.empty() || open_type_ != MetricType::histogram) {
    ++refused_;
    return false;
  }
  for (std::size_t k = 0; k < DurationHistogram::kUpperBoundsSeconds.size(); ++k) {
    const std::string le = format_metric_value(DurationHistogram::kUpperBoundsSeconds[k]);
    const MetricLabel label{"le", le};
    labelled_sample(&label, 1, fmt::format("{}", h.at_most(k)), "_bucket");
  }
  const MetricLabel inf{"le", "+Inf"};
  labelled_sample(&inf, 1, fmt::format("{}", h.count()), "_bucket");
  labelled_sample(nullptr, 0, format_metric_value(h.sum_seconds()), "_sum");
  labelled_sample(nullptr, 0, fmt::format("{}", h.count()), "_count");
  return true;
}

bool PrometheusText::sample(std::initializer_list<MetricLabel> labels, double value) {
  return labelled_sample(labels.begin(), labels.size(), format_metric_value(value));
}
bool PrometheusText::sample(std::initializer_list<MetricLabel> labels, uint64_t value) {
  return labelled_sample(labels.begin(), labels.size(), fmt::format("{}", value));
}
bool PrometheusText::sample(const std::vector<MetricLabel>& labels, double value) {
  return labelled_sample(labels.data(), labels.size(), format_metric_value(value));
}
bool PrometheusText::sample(const std::vector<MetricLabel>& labels, uint64_t value) {
  return labelled_sample(labels.data(), labels.size(), fmt::format("{}", value));
}

}  // namespace tickwire::fleet
