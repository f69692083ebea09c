#include "web/match_feed.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/render.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "referee/codec/logged_actions.h"
#include "referee/record/game_log.h"
#include "referee/service/match_events.h"

namespace cardref::web {
namespace {

using nlohmann::json;

// Records read from a live match per call to EventsAfter.
constexpr size_t kReadBatch = 512;

std::string StatusWord(v1::MatchStatus status) {
  switch (status) {
    case v1::MATCH_STATUS_FINISHED:
      return "finished";
    case v1::MATCH_STATUS_ABORTED:
      return "aborted";
    case v1::MATCH_STATUS_CANCELLED:
      return "cancelled";
    default:
      return "incomplete";
  }
}

// One event as text/event-stream: `data` is one line (JSON without raw
// line breaks), ASCII only.
std::string SseEvent(const char* kind, const json& data, uint64_t id) {
  std::string text =
      data.dump(-1, ' ', /*ensure_ascii=*/true, json::error_handler_t::replace);
  return absl::StrCat(id > 0 ? absl::StrCat("id: ", id, "\n") : "",
                      "event: ", kind, "\ndata: ", text, "\n\n");
}

// The spectators' event in protobuf's JSON mapping, as tools read the
// gRPC stream.
json EventJson(const v1::MatchEvent& event) {
  std::string text;
  if (!google::protobuf::util::MessageToJsonString(event, &text).ok()) {
    return json::object();
  }
  return json::parse(text, nullptr, /*allow_exceptions=*/false);
}

json MatchJson(const log_tools::PlaybackBuilder& b) {
  json seats = json::array();
  for (const v1::SeatInfo& seat : b.header().seats()) {
    seats.push_back(
        {{"seat", seat.seat()},
         {"name", log_tools::DisplayName(seat.player_name())},
         {"version", analyzer::Sanitize(seat.player_version())}});
  }
  return {{"matchId", b.header().match_id()},
          {"game", b.header().game()},
          {"gameName", b.game_name()},
          {"viewer", -1},
          {"seats", seats},
          {"names", b.seat_names()},
          {"scoreColumns", b.score_columns()}};
}

}  // namespace

MatchFeed::MatchFeed(const GameRegistry* registry, Scheduler* scheduler,
                     absl::Duration refresh_interval)
    : registry_(registry),
      scheduler_(scheduler),
      refresh_interval_(refresh_interval) {}

std::shared_ptr<MatchFeed> MatchFeed::Follow(
    std::shared_ptr<service::Match> match, const GameRegistry* registry,
    Scheduler* scheduler, absl::Duration refresh_interval) {
  std::shared_ptr<MatchFeed> feed(
      new MatchFeed(registry, scheduler, refresh_interval));
  feed->self_ = feed;
  feed->match_ = std::move(match);
  MatchFeed* raw = feed.get();
  // Runs on the match's threads: a flag and at most one post.
  feed->watcher_id_ = feed->match_->AddWatcher([raw] { raw->RequestRefresh(); });
  feed->Refresh();
  return feed;
}

absl::StatusOr<std::shared_ptr<MatchFeed>> MatchFeed::FromLog(
    const std::string& log_path, const GameRegistry& registry) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(log_path);
  if (!log.ok()) return log.status();
  codec::DeriveTypedActions(&*log, registry);  // format 3: the notation
  std::shared_ptr<MatchFeed> feed(
      new MatchFeed(&registry, nullptr, absl::ZeroDuration()));
  feed->self_ = feed;
  Built built;
  std::string status = "incomplete";
  {
    absl::MutexLock lock(&feed->build_mu_);
    for (size_t i = 0; i < log->records.size(); ++i) {
      const v1::LogRecord& record = log->records[i];
      if (record.has_final_result()) status = "finished";
      if (record.has_aborted()) status = "aborted";
      feed->AddRecord(i + 1, record, &built);
    }
    feed->Finish(&built);
    feed->Publish(std::move(built), /*over=*/true, status);
  }
  return feed;
}

std::shared_ptr<MatchFeed> MatchFeed::Empty(const std::string& status) {
  std::shared_ptr<MatchFeed> feed(
      new MatchFeed(nullptr, nullptr, absl::ZeroDuration()));
  feed->self_ = feed;
  absl::MutexLock lock(&feed->build_mu_);
  feed->Publish(Built{}, /*over=*/true, status);
  return feed;
}

MatchFeed::~MatchFeed() {
  // Waits for a call of the watcher in progress.
  if (match_ != nullptr) match_->RemoveWatcher(watcher_id_);
}

void MatchFeed::RequestRefresh() {
  if (refresh_pending_.exchange(true)) return;  // one is on its way
  const absl::Duration wait =
      std::max(absl::ZeroDuration(),
               absl::FromUnixNanos(next_refresh_ns_.load()) - absl::Now());
  std::weak_ptr<MatchFeed> weak = self_;
  scheduler_->PostAfter(wait, [weak] {
    if (std::shared_ptr<MatchFeed> feed = weak.lock()) feed->Refresh();
  });
}

void MatchFeed::Refresh() {
  if (match_ == nullptr) return;
  // Built and published under build_mu_: two refreshes publish in the order
  // they read.
  absl::MutexLock lock(&build_mu_);
  // Cleared first: a change from now on asks for another refresh.
  refresh_pending_.store(false);
  next_refresh_ns_.store(absl::ToUnixNanos(absl::Now() + refresh_interval_));
  Built built;
  bool over = false;
  std::string status;
  for (;;) {
    service::EventBatch batch = match_->EventsAfter(
        read_, service::Audience::kOrganiser, 0, kReadBatch);
    for (const v1::MatchEvent& event : batch.events) {
      AddRecord(event.index(), event.record(), &built);
      read_ = event.index();
    }
    if (batch.complete) {
      over = true;
      status = StatusWord(match_->status());
      Finish(&built);
      break;
    }
    if (batch.events.size() < kReadBatch) break;
  }
  if (!built.events.empty() || over) {
    Publish(std::move(built), over, status);
  }
}

void MatchFeed::AddRecord(uint64_t index, const v1::LogRecord& record,
                          Built* built) {
  if (record.has_action()) ++actions_;
  built->actions = actions_;
  json step;
  json data;
  if (record.has_header()) {
    absl::StatusOr<std::unique_ptr<log_tools::PlaybackBuilder>> b =
        log_tools::PlaybackBuilder::Create(record.header(), *registry_,
                                           log_tools::kPublicViewer);
    if (b.ok()) {
      builder_ = *std::move(b);
      last_table_ = builder_->initial_table();
      data["match"] = MatchJson(*builder_);
      step = {{"record", 0},
              {"kind", "header"},
              {"round", 0},
              {"seat", -1},
              {"text", absl::StrCat("players: ",
                                    absl::StrJoin(builder_->seat_names(), ", "))},
              {"effects", json::array()},
              {"details", json::array()},
              {"rounds", 0},
              {"table", log_tools::TableJson(last_table_)}};
    } else {
      problem_ = std::string(b.status().message());
    }
  } else if (builder_ != nullptr) {
    absl::StatusOr<log_tools::Step> s =
        builder_->Add(record, static_cast<int64_t>(index) - 1, 0);
    if (s.ok()) {
      if (s->kind == "round_result") ++rounds_;
      if (s->kind == "final_result") final_text_ = s->text;
      if (record.has_aborted()) end_reason_ = s->text;
      last_table_ = s->table;
      step = log_tools::StepJson(*s, rounds_);
      if (s->kind == "round_result") step["scoreRow"] = s->score_row;
    } else {
      problem_ = std::string(s.status().message());
      builder_.reset();  // it does not follow the log any more
    }
  }
  std::optional<v1::MatchEvent> event =
      service::MakeMatchEvent(index, record, service::Audience::kSpectator);
  if (!event.has_value()) return;  // not public
  if (step.is_null()) {
    // The replay cannot draw this event (problem_ says why): its kind and
    // the last table drawn.
    step = {{"record", index - 1},
            {"kind", analyzer::RecordKind(record)},
            {"round", 0},
            {"seat", -1},
            {"text", absl::StrCat(analyzer::RecordKind(record),
                                  " (not drawn: ", problem_, ")")},
            {"effects", json::array()},
            {"details", json::array()},
            {"rounds", rounds_},
            {"table", log_tools::TableJson(last_table_)}};
  }
  data["index"] = index;
  data["step"] = std::move(step);
  data["event"] = EventJson(*event);
  built->events.push_back(
      PublicEvent{index, actions_, SseEvent("step", data, index)});
}

void MatchFeed::Finish(Built* built) {
  built->final_text = final_text_;
  built->end_reason = end_reason_;
  built->problem = problem_;
}

void MatchFeed::Publish(Built built, bool over, const std::string& end_status) {
  {
    absl::MutexLock lock(&mu_);
    for (PublicEvent& e : built.events) events_.push_back(std::move(e));
    actions_total_ = std::max(actions_total_, built.actions);
    if (over && !over_) {
      over_ = true;
      const json end = {{"status", end_status},
                        {"finalText", built.final_text},
                        {"endReason", built.end_reason},
                        {"problem", built.problem}};
      end_text_ = SseEvent("end", end, 0);
    }
  }
  absl::MutexLock lock(&notify_mu_);
  ++version_;
  for (auto& [id, wake] : waiting_) wake();
  waiting_.clear();
}

MatchFeed::Slice MatchFeed::After(uint64_t after_index,
                                  uint32_t delay_decisions,
                                  size_t max_bytes) const {
  absl::ReaderMutexLock lock(&mu_);
  Slice slice;
  slice.last_index = after_index;
  auto it = std::upper_bound(
      events_.begin(), events_.end(), after_index,
      [](uint64_t index, const PublicEvent& e) { return index < e.index; });
  for (; it != events_.end(); ++it) {
    if (!over_ && actions_total_ - it->actions_through < delay_decisions) {
      break;  // not yet: too few decisions since
    }
    if (!slice.text.empty() && slice.text.size() + it->text.size() > max_bytes) {
      return slice;
    }
    slice.text += it->text;
    slice.last_index = it->index;
  }
  if (over_ && it == events_.end()) {
    slice.text += end_text_;
    slice.complete = true;
  }
  return slice;
}

uint64_t MatchFeed::version() const {
  absl::MutexLock lock(&notify_mu_);
  return version_;
}

void MatchFeed::WatchSince(uint64_t seen, int id, std::function<void()> wake) {
  absl::MutexLock lock(&notify_mu_);
  if (version_ > seen) {
    wake();
    waiting_.erase(id);
    return;
  }
  waiting_[id] = std::move(wake);
}

void MatchFeed::Unwatch(int id) {
  absl::MutexLock lock(&notify_mu_);
  waiting_.erase(id);
}

}  // namespace cardref::web
