#include "analyzer/interval_proto.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/render.h"

namespace cardref::analyzer {

v1::Interval ToIntervalProto(const inference::Estimate& estimate,
                             double scale) {
  v1::Interval out;
  if (estimate.ci.low) out.set_low(scale * *estimate.ci.low);
  if (estimate.ci.high) out.set_high(scale * *estimate.ci.high);
  out.set_note(estimate.ci.note);
  out.set_method(estimate.ci.method);
  out.set_units(estimate.units);
  return out;
}

std::string FormatInterval(const v1::Interval& interval, int decimals,
                           double scale) {
  if (interval.has_low() && interval.has_high()) {
    return absl::StrFormat("%.*f..%.*f", decimals, scale * interval.low(),
                           decimals, scale * interval.high());
  }
  if (interval.has_low()) {
    return absl::StrFormat(">= %.*f", decimals, scale * interval.low());
  }
  if (interval.has_high()) {
    return absl::StrFormat("<= %.*f", decimals, scale * interval.high());
  }
  return absl::StrCat("\u2014 (", Sanitize(interval.note()), ")");
}

std::string Fixed(double value, int decimals) {
  return absl::StrFormat("%.*f", decimals, value);
}

std::string CsvBound(bool has, double value, int decimals) {
  return has ? Fixed(value, decimals) : std::string();
}

}  // namespace cardref::analyzer
