#include "tournament/sprt_stop.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "analyzer/inference/paired.h"

namespace cardref::tournament {

absl::StatusOr<inference::SprtOptions> ParseSprtSpec(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, ',');
  inference::SprtOptions options;
  double* fields[] = {&options.elo0, &options.elo1, &options.alpha,
                      &options.beta};
  if (parts.size() != 2 && parts.size() != 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sprt wants ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (e.g. 0,10 or "
        "0,10,0.05,0.05), got '",
        text, "'"));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!absl::SimpleAtod(parts[i], fields[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--sprt: '", parts[i], "' is not a number (in '", text, "')"));
    }
  }
  if (absl::Status s = inference::CheckSprtOptions(options); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--sprt: ", s.message()));
  }
  return options;
}

absl::Status CheckSprtEvent(const ScheduleConfig& config) {
  if (config.bots.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sprt compares two bots (the first against the second); this "
        "event has ",
        config.bots.size()));
  }
  return absl::OkStatus();
}

SprtStop::SprtStop(const ScheduleConfig& /*config*/,
                   const std::vector<ScheduledMatch>& schedule,
                   inference::SprtOptions options,
                   std::vector<std::vector<int>> teams_by_game)
    : options_(options),
      teams_by_game_(std::move(teams_by_game)),
      schedule_(schedule) {
  for (const ScheduledMatch& m : schedule_) by_key_[m.key] = &m;
  absl::MutexLock lock(&mu_);
  for (const ScheduledMatch& m : schedule_) {
    auto [it, added] = deal_set_of_.emplace(
        m.deal_set, static_cast<int>(deal_sets_.size()));
    if (added) deal_sets_.emplace_back();
    deal_sets_[it->second].keys.push_back(m.key);
  }
}

SprtState SprtStop::Done(const std::string& key, const std::vector<int>& ranks) {
  absl::MutexLock lock(&mu_);
  auto m = by_key_.find(key);
  if (m == by_key_.end() || seen_[key]) return state_;
  seen_[key] = true;
  const ScheduledMatch& match = *m->second;
  DealSet& deal_set = deal_sets_[deal_set_of_.at(match.deal_set)];
  ++deal_set.done;
  if (!ranks.empty() && ranks.size() == match.seats.size()) {
    inference::MatchResult result;
    const std::vector<int>* teams =
        match.game < static_cast<int>(teams_by_game_.size())
            ? &teams_by_game_[match.game]
            : nullptr;
    for (size_t s = 0; s < ranks.size(); ++s) {
      inference::SeatResult seat;
      seat.player = match.seats[s];
      seat.rank = ranks[s];
      seat.team = teams != nullptr && s < teams->size() ? (*teams)[s] : -1;
      result.seats.push_back(seat);
    }
    if (std::optional<double> outcome =
            inference::HeadToHead(result, 0, 1, nullptr)) {
      deal_set.outcomes.push_back(*outcome);
    }
  }
  AdvanceLocked();
  return state_;
}

void SprtStop::AdvanceLocked() {
  while (!state_.decision.has_value() && next_ < deal_sets_.size() &&
         deal_sets_[next_].done ==
             static_cast<int>(deal_sets_[next_].keys.size())) {
    const DealSet& deal_set = deal_sets_[next_++];
    if (deal_set.outcomes.empty()) continue;  // no result to test
    double sum = 0;
    for (double o : deal_set.outcomes) sum += o;
    units_.push_back(sum / static_cast<double>(deal_set.outcomes.size()));
    state_.deal_sets = static_cast<int>(units_.size());
    state_.games += static_cast<int>(deal_set.outcomes.size());
    state_.last = inference::Sprt(units_, options_);
    if (state_.last.decision == inference::SprtDecision::kH0Accepted ||
        state_.last.decision == inference::SprtDecision::kH1Accepted) {
      state_.decision = state_.last;
    }
  }
}

SprtState SprtStop::state() const {
  absl::MutexLock lock(&mu_);
  return state_;
}

bool SprtStop::decided() const {
  absl::MutexLock lock(&mu_);
  return state_.decision.has_value();
}

std::string DescribeSprt(const SprtState& state, const ScheduleConfig& config) {
  const inference::SprtResult& r = state.last;
  const std::string who =
      config.bots.size() == 2
          ? absl::StrCat(config.bots[0].name, " against ", config.bots[1].name)
          : "the first bot against the second";
  const std::string numbers = absl::StrFormat(
      "LLR %.3f (bounds %.3f, %.3f) after %d deal sets, %d games; %s: mean "
      "deal-set score %.3f",
      r.llr, r.lower, r.upper, state.deal_sets, state.games, who, r.mean);
  if (state.decision.has_value()) {
    return absl::StrCat("SPRT: ", r.verdict, ": ", numbers);
  }
  return absl::StrCat("SPRT: no decision (", r.verdict.empty() ? "no deal set yet" : r.verdict, "): ", numbers);
}

}  // namespace cardref::tournament
