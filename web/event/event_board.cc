#include "web/event/event_board.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace cardref::web {

using nlohmann::json;

void EventBoard::Start(const tournament::EventStart& start) {
  absl::MutexLock lock(&mu_);
  started_ = true;
  // The folder's name only: where it lies is the organiser's.
  std::string dir = start.event_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  event_ = dir.substr(dir.find_last_of('/') + 1);
  referee_web_ = start.referee_web;
  referee_key_ = start.referee_key;
  games_.clear();
  bots_.clear();
  entries_.clear();
  by_key_.clear();
  for (const tournament::GameSpec& g : start.config->games) {
    games_.push_back(absl::StrCat(g.id, ":", g.players));
  }
  for (const tournament::BotSpec& b : start.config->bots) {
    bots_.push_back(b.name);
    faults_[b.name];  // every bot has a row
  }
  for (const tournament::ScheduledMatch& m : *start.schedule) {
    Entry e;
    e.match = m;
    if (auto it = start.records->find(m.key); it != start.records->end() &&
                                              it->second.outcome != "started") {
      e.status = it->second.outcome;
      e.match_id = it->second.match_id;
      e.log_path = it->second.log_path;
      e.reason = it->second.reason;
    }
    by_key_[m.key] = entries_.size();
    deal_set_sizes_[m.deal_set] = m.deal_set_size;
    entries_.push_back(std::move(e));
  }
}

void EventBoard::Started(const tournament::MatchRecord& record) {
  absl::MutexLock lock(&mu_);
  auto it = by_key_.find(record.key);
  if (it == by_key_.end()) return;
  Entry& e = entries_[it->second];
  e.status = "in_progress";
  e.match_id = record.match_id;
}

bool EventBoard::DealSetOverLocked(const std::string& deal_set) const {
  int over = 0;
  for (const Entry& e : entries_) {
    if (e.match.deal_set != deal_set) continue;
    if (!e.over()) return false;
    ++over;
  }
  auto size = deal_set_sizes_.find(deal_set);
  return size != deal_set_sizes_.end() && over >= size->second;
}

void EventBoard::CountFaultsLocked(const std::string& deal_set) {
  auto held = held_faults_.find(deal_set);
  if (held == held_faults_.end()) return;
  for (const auto& [bot, f] : held->second) {
    BotFaults& total = faults_[bot];
    total.matches += f.matches;
    total.timeouts += f.timeouts;
    total.rejections += f.rejections;
    total.absent += f.absent;
    total.played_for += f.played_for;
    for (const auto& [limit, n] : f.limits) total.limits[limit] += n;
  }
  held_faults_.erase(held);
}

bool EventBoard::Done(const tournament::ScheduledMatch& match,
                      const tournament::MatchOutcome& outcome) {
  absl::MutexLock lock(&mu_);
  auto it = by_key_.find(match.key);
  if (it == by_key_.end()) return false;
  Entry& e = entries_[it->second];
  if (!outcome.played) {
    e.status = "not_played";
    e.reason = outcome.record.reason;
    return false;
  }
  e.status = outcome.record.outcome;
  e.match_id = outcome.record.match_id;
  e.log_path = outcome.record.log_path;
  e.reason = outcome.record.reason;
  e.scores.assign(outcome.info.result().scores().begin(),
                  outcome.info.result().scores().end());
  e.ranks.assign(outcome.info.result().ranks().begin(),
                 outcome.info.result().ranks().end());
  e.seat_faults.assign(match.seats.size(), "");
  std::map<std::string, BotFaults>& held = held_faults_[match.deal_set];
  for (const tournament::SeatOutcome& seat : outcome.seats) {
    std::string described = tournament::DescribeFaults(seat.faults);
    if (!seat.limit.empty()) {
      described = absl::StrCat("ended at its ", seat.limit,
                               described.empty() ? "" : ", ", described);
    }
    if (seat.seat >= 0 && seat.seat < static_cast<int>(e.seat_faults.size())) {
      e.seat_faults[seat.seat] = described;
    }
    if (described.empty()) continue;
    BotFaults& f = held[seat.bot];
    ++f.matches;
    f.timeouts += seat.faults.timeouts() + seat.faults.disconnections();
    f.rejections += seat.faults.rejections();
    f.absent += seat.faults.absent() ? 1 : 0;
    f.played_for += seat.faults.played_for();
    if (!seat.limit.empty()) ++f.limits[seat.limit];
  }
  if (!DealSetOverLocked(match.deal_set)) return false;
  CountFaultsLocked(match.deal_set);
  return true;
}

void EventBoard::End() {
  absl::MutexLock lock(&mu_);
  ended_ = true;
}

std::string EventBoard::referee_key() const {
  absl::MutexLock lock(&mu_);
  return referee_key_;
}

std::string EventBoard::ReplayLog(const std::string& key) const {
  absl::MutexLock lock(&mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return "";
  const Entry& e = entries_[it->second];
  if (e.status != "finished" || !DealSetOverLocked(e.match.deal_set)) return "";
  return e.log_path;
}

std::vector<std::string> EventBoard::StandingsLogs() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> logs;
  for (const Entry& e : entries_) {
    if (e.status == "finished" && !e.log_path.empty() &&
        DealSetOverLocked(e.match.deal_set)) {
      logs.push_back(e.log_path);
    }
  }
  return logs;
}

json EventBoard::EventJson() const {
  absl::MutexLock lock(&mu_);
  json matches = json::array();
  std::map<std::string, int> counts;
  for (const Entry& e : entries_) {
    ++counts[e.status];
    const bool set_over = DealSetOverLocked(e.match.deal_set);
    json bots = json::array();
    for (int b : e.match.seats) {
      bots.push_back(b >= 0 && b < static_cast<int>(bots_.size()) ? bots_[b]
                                                                   : "");
    }
    json m = {{"key", e.match.key},
              {"game", e.match.game < static_cast<int>(games_.size())
                           ? games_[e.match.game]
                           : ""},
              {"deal_set", e.match.deal_set},
              {"deal_set_size", e.match.deal_set_size},
              {"deal_set_over", set_over},
              {"status", e.status},
              {"bots", bots}};
    if (!e.match_id.empty()) {
      m["match_id"] = e.match_id;
      if (!referee_web_.empty()) {
        m["links"] = {{"page", absl::StrCat(referee_web_, "/matches/",
                                            e.match_id)}};
      }
    }
    if (set_over) {
      if (e.status == "finished" && !e.log_path.empty()) {
        m["replay"] = absl::StrCat("/matches/", e.match.key);
      }
      if (!e.scores.empty()) m["scores"] = e.scores;
      if (!e.ranks.empty()) m["ranks"] = e.ranks;
      if (!e.reason.empty()) m["reason"] = e.reason;
      if (!e.seat_faults.empty()) m["faults"] = e.seat_faults;
    }
    matches.push_back(std::move(m));
  }
  json faults = json::array();
  for (const auto& [bot, f] : faults_) {
    faults.push_back({{"bot", bot},
                      {"matches", f.matches},
                      {"timeouts", f.timeouts},
                      {"rejections", f.rejections},
                      {"absent", f.absent},
                      {"played_for", f.played_for},
                      {"limits", f.limits}});
  }
  return json{{"event", event_},
              {"started", started_},
              {"over", ended_},
              {"games", games_},
              {"bots", bots_},
              {"counts", counts},
              {"matches", matches},
              {"faults", faults}};
}

void EventBoard::SetStandings(int logs, const std::string& ratings_json,
                              const std::string& error) {
  json ratings = ratings_json.empty()
                     ? json(nullptr)
                     : json::parse(ratings_json, nullptr, false);
  absl::MutexLock lock(&mu_);
  standings_logs_ = logs;
  standings_error_ = error;
  if (error.empty()) ratings_ = ratings.is_discarded() ? json(nullptr) : ratings;
  standings_micros_ = absl::ToUnixMicros(absl::Now());
}

json EventBoard::StandingsJson() const {
  absl::MutexLock lock(&mu_);
  int finished = 0;
  for (const Entry& e : entries_) finished += e.status == "finished" ? 1 : 0;
  json out = {{"logs", standings_logs_},
              {"pending_logs", std::max(0, finished - standings_logs_)},
              {"updated_micros", standings_micros_},
              {"ratings", ratings_}};
  if (!standings_error_.empty()) out["error"] = standings_error_;
  return out;
}

}  // namespace cardref::web
