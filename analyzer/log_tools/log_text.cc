#include "analyzer/log_tools/log_text.h"

#include <algorithm>
#include <map>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "analyzer/render.h"

namespace cardref::log_tools {
namespace {

std::string ParamValueText(const v1::ParamValue& v) {
  switch (v.value_case()) {
    case v1::ParamValue::kBoolValue:
      return v.bool_value() ? "true" : "false";
    case v1::ParamValue::kIntValue:
      return absl::StrCat(v.int_value());
    case v1::ParamValue::kEnumValue:
      return analyzer::Sanitize(v.enum_value());
    case v1::ParamValue::VALUE_NOT_SET:
      break;
  }
  return "(unset)";
}

std::string TimeText(int64_t unix_micros) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%E6S UTC",
                          absl::FromUnixMicros(unix_micros),
                          absl::UTCTimeZone());
}

// The header's clock and fault policy, fields by their log.proto names.
std::string PolicyText(const v1::LogHeader& h) {
  if (!h.has_clock() && !h.has_fault_policy()) {
    // What such a header means (log.proto, LogHeader.clock).
    return "fault policy: not recorded (a referee before fault policies: no "
           "time bank, every timeout substituted)";
  }
  const v1::FaultPolicy& p = h.fault_policy();
  std::string action(
      absl::StripPrefix(v1::FaultAction_Name(p.action()), "FAULT_ACTION_"));
  if (p.action() == v1::FAULT_ACTION_UNSPECIFIED) action = "SUBSTITUTE";
  std::string allowances;
  if (h.clock().latency_allowance_millis_size() > 0) {
    std::vector<std::string> per_seat;
    per_seat.reserve(h.clock().latency_allowance_millis_size());
    for (int s = 0; s < h.clock().latency_allowance_millis_size(); ++s) {
      per_seat.push_back(absl::StrCat("seat ", s, " ",
                                      h.clock().latency_allowance_millis(s),
                                      " ms"));
    }
    allowances = absl::StrCat("latency allowance: ",
                              absl::StrJoin(per_seat, ", "), "\n");
  }
  return absl::StrCat(
      "time bank: ", h.clock().bank_millis(), " ms\n", allowances,
      "fault policy: action=", action,
      ", disconnect_grace_millis=", p.disconnect_grace_millis(),
      ", disconnect_is_timeout=", p.disconnect_is_timeout() ? "true" : "false",
      ", join_deadline_millis=", p.join_deadline_millis(),
      ", max_consecutive_timeouts=", p.max_consecutive_timeouts(),
      ", max_rejections_per_decision=", p.max_rejections_per_decision());
}

}  // namespace

std::string ParamsText(const v1::GameParams& params) {
  const std::map<std::string, v1::ParamValue> sorted(params.values().begin(),
                                                     params.values().end());
  std::vector<std::string> parts;
  parts.reserve(sorted.size());
  for (const auto& [name, value] : sorted) {
    parts.push_back(
        absl::StrCat(analyzer::Sanitize(name), "=", ParamValueText(value)));
  }
  return absl::StrCat("parameters: ", absl::StrJoin(parts, ", "));
}


std::string HeaderText(const v1::LogHeader& h) {
  // Every string of the log escaped (analyzer::Sanitize): a log may be
  // hostile or older than today's rules on text.
  using analyzer::Sanitize;
  std::string out = absl::StrCat(
      "game: ", Sanitize(h.game()), " (rules_version ", h.rules_version(),
      ", format_version ", h.format_version(), ")\n",
      "match: ", Sanitize(h.match_id()),
      h.deal_set_id().empty()
          ? ""
          : absl::StrCat(", deal set ", Sanitize(h.deal_set_id())),
      "\n", "created: ", TimeText(h.created_unix_micros()), " by referee ",
      h.referee_version().empty() ? "(unknown)" : Sanitize(h.referee_version()),
      "\n");
  absl::StrAppend(&out, "decision time limit: ",
                  h.decision_time_limit_millis() == 0
                      ? std::string("none")
                      : absl::StrCat(h.decision_time_limit_millis(), " ms"),
                  "\n");
  absl::StrAppend(&out, PolicyText(h), "\n");
  absl::StrAppend(&out, "seats:\n");
  for (const v1::SeatInfo& seat : h.seats()) {
    absl::StrAppend(
        &out, "  ", seat.seat(), " ", DisplayName(seat.player_name()),
        seat.player_version().empty()
            ? ""
            : absl::StrCat(" (version ", Sanitize(seat.player_version()), ")"),
        "\n");
  }
  absl::StrAppend(&out, ParamsText(h.params()), "\n");
  if (!h.seed_commitment().empty()) {
    absl::StrAppend(
        &out, "seed commitment: ", absl::BytesToHexString(h.seed_commitment()),
        " (", Sanitize(h.deal_algorithm()), ")\n");
  }
  if (!h.referee_public_key().empty()) {
    absl::StrAppend(&out, "referee public key: ",
                    absl::BytesToHexString(h.referee_public_key()), "\n");
  }
  return out;
}

std::string RenderText(const Playback& t) {
  std::string out =
      absl::StrCat(t.game_name, " game log\n", HeaderText(t.header));
  absl::StrAppend(&out, "view: ",
                  t.viewer < 0
                      ? std::string("every seat's cards (the whole log)")
                      : absl::StrCat("what seat ", t.viewer, " (",
                                     t.seat_names[t.viewer], ") saw"),
                  "\n");
  int round_shown = 0;
  for (const Step& step : t.steps) {
    if (step.kind == "chance" && step.round != round_shown &&
        step.text.rfind("deal", 0) == 0) {
      round_shown = step.round;
      absl::StrAppend(&out, "\n== round ", step.round, " ==\n");
    }
    absl::StrAppend(&out, absl::StrFormat("%5d  ", step.record_index),
                    step.text, "\n");
    for (const std::string& line : step.details) {
      absl::StrAppend(&out, "         ", line, "\n");
    }
    if (step.kind == "chance" && step.text.rfind("deal", 0) == 0) {
      absl::StrAppend(&out, "         table: ", step.table.status, "\n");
    }
    for (const std::string& line : step.effects) {
      absl::StrAppend(&out, "         -> ", line, "\n");
    }
  }
  absl::StrAppend(&out, "\n");
  if (!t.problem.empty()) {
    absl::StrAppend(&out, "replay stopped: ", t.problem, "\n");
  }
  absl::StrAppend(&out, "end of log: ", t.end_text, "\n");
  return out;
}

}  // namespace cardref::log_tools
