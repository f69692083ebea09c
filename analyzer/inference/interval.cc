#include "analyzer/inference/interval.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref::inference {

std::string UnitNoun(UnitKind kind, int64_t count) {
  if (kind == UnitKind::kDealSet) return count == 1 ? "deal set" : "deal sets";
  return count == 1 ? "match" : "matches";
}

std::string TooFewUnitsNote(UnitKind kind, int64_t units) {
  return absl::StrCat("fewer than ", kMinUnits, " ",
                      UnitNoun(kind, kMinUnits), " (", units, ")");
}

Interval NoInterval(std::string note, double level) {
  Interval out;
  out.level = level;
  out.note = std::move(note);
  return out;
}

std::string FormatInterval(const Interval& interval, int decimals) {
  if (interval.two_sided()) {
    return absl::StrFormat("%.*f..%.*f", decimals, *interval.low, decimals,
                           *interval.high);
  }
  if (interval.low) return absl::StrFormat(">= %.*f", decimals, *interval.low);
  if (interval.high) {
    return absl::StrFormat("<= %.*f", decimals, *interval.high);
  }
  return absl::StrCat("\u2014 (", interval.note, ")");
}

}  // namespace cardref::inference
