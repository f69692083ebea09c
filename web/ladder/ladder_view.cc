#include "web/ladder/ladder_view.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cardref/v1/log.pb.h"
#include "referee/base/status_macros.h"
#include "referee/record/game_log.h"

namespace cardref::web {
namespace {

using nlohmann::json;

std::string EntrantPage(const std::string& name) {
  // Entrant names are letters, digits and `_ - .` (the store's rule); a
  // store of an older build may hold others: the page link escapes them.
  std::string out = "/entrants/";
  for (unsigned char c : name) {
    if (absl::ascii_isalnum(c) || c == '_' || c == '-' || c == '.') {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppend(&out, absl::StrFormat("%%%02X", static_cast<int>(c)));
    }
  }
  return out;
}

// A fault's kind as the pages name it.
std::string FaultKindName(v1::FaultKind kind) {
  std::string name = v1::FaultKind_Name(kind);
  absl::string_view view = name;
  constexpr absl::string_view kPrefix = "FAULT_KIND_";
  if (view.substr(0, kPrefix.size()) == kPrefix) view.remove_prefix(kPrefix.size());
  return absl::AsciiStrToLower(view);
}

// Twins are the matches dealt from one seed: a duplicate ladder's seatings
// of a round, or a voided match and its replay. (Without duplicate deals a
// round's matches share a deal set's name but not a seed.)
std::string TwinKey(const ladder::Match& m) {
  return absl::StrCat(m.deal_set, "/", m.seed);
}

}  // namespace

absl::StatusOr<LadderSnapshot> LadderSnapshot::Read(
    ladder::LadderStore& store) {
  LadderSnapshot s;
  ASSIGN_OR_RETURN(s.config_, store.GetConfig());
  ASSIGN_OR_RETURN(s.entrants_, store.ListEntrants());
  ASSIGN_OR_RETURN(s.versions_, store.ListVersions(std::nullopt));
  ASSIGN_OR_RETURN(s.matches_, store.ListMatches(std::nullopt));
  std::sort(s.matches_.begin(), s.matches_.end(),
            [](const ladder::Match& a, const ladder::Match& b) {
              return a.id > b.id;
            });
  for (size_t i = 0; i < s.versions_.size(); ++i) {
    s.version_index_[s.versions_[i].id] = i;
  }
  for (size_t i = 0; i < s.matches_.size(); ++i) {
    const ladder::Match& m = s.matches_[i];
    s.match_index_[m.id] = i;
    if (m.state != ladder::MatchState::kFinished &&
        m.state != ladder::MatchState::kVoided) {
      s.open_deal_sets_.insert(TwinKey(m));
    }
  }
  return s;
}

const ladder::Entrant* LadderSnapshot::FindEntrant(
    const std::string& name) const {
  for (const ladder::Entrant& e : entrants_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const ladder::Version* LadderSnapshot::FindVersion(int64_t id) const {
  auto it = version_index_.find(id);
  return it == version_index_.end() ? nullptr : &versions_[it->second];
}

const ladder::Match* LadderSnapshot::FindMatch(int64_t id) const {
  auto it = match_index_.find(id);
  return it == match_index_.end() ? nullptr : &matches_[it->second];
}

const ladder::LadderGame* LadderSnapshot::FindGame(int64_t id) const {
  for (const ladder::LadderGame& g : config_.games) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

bool LadderSnapshot::DealSetOver(const ladder::Match& match) const {
  const bool over = match.state == ladder::MatchState::kFinished ||
                    match.state == ladder::MatchState::kVoided;
  if (!over) return false;
  return open_deal_sets_.count(TwinKey(match)) == 0;
}

std::string LadderSnapshot::EntrantOfSeat(const ladder::Match& match,
                                          size_t seat) const {
  if (seat >= match.seat_versions.size()) return "";
  const ladder::Version* v = FindVersion(match.seat_versions[seat]);
  return v == nullptr ? "" : v->entrant_name;
}

std::string GameLabel(const ladder::LadderGame& game) {
  std::string label = absl::StrCat(game.game, ":", game.players);
  if (!game.params.empty()) absl::StrAppend(&label, "/", game.params);
  return label;
}

std::string LogPathOf(const LadderFiles& files, const std::string& log_hash) {
  return absl::StrCat(files.logs, "/", log_hash, ".cardlog");
}

absl::StatusOr<json> StandingsJson(ladder::LadderStore& store,
                                   const LadderSnapshot& snapshot) {
  // The last finished match of each version in each game.
  std::map<std::pair<int64_t, int64_t>, int64_t> last_game;
  for (const ladder::Match& m : snapshot.matches()) {
    if (m.state != ladder::MatchState::kFinished) continue;
    for (int64_t v : m.seat_versions) {
      int64_t& last = last_game[{m.game_id, v}];
      last = std::max(last, m.finished_micros);
    }
  }
  json games = json::array();
  for (const ladder::LadderGame& game : snapshot.config().games) {
    ASSIGN_OR_RETURN(std::vector<ladder::Rating> ratings,
                     store.Ratings(game.id));
    std::vector<std::pair<double, const ladder::Rating*>> ranked;
    for (const ladder::Rating& r : ratings) {
      const ladder::Version* v = snapshot.FindVersion(r.version_id);
      if (v == nullptr || v->status != ladder::VersionStatus::kRanked) continue;
      ranked.emplace_back(r.mu - 3 * r.sigma, &r);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    json standings = json::array();
    int rank = 0;
    for (const auto& [conservative, r] : ranked) {
      const ladder::Version* v = snapshot.FindVersion(r->version_id);
      auto last = last_game.find({game.id, r->version_id});
      standings.push_back(
          {{"rank", ++rank},
           {"entrant", v->entrant_name},
           {"version_id", r->version_id},
           {"conservative", conservative},
           {"mu", r->mu},
           {"sigma", r->sigma},
           {"interval", {r->mu - 3 * r->sigma, r->mu + 3 * r->sigma}},
           {"games", r->games},
           {"last_game_micros",
            last == last_game.end() ? json(nullptr) : json(last->second)},
           {"links", {{"page", EntrantPage(v->entrant_name)}}}});
    }
    games.push_back({{"id", game.id},
                     {"game", game.game},
                     {"label", GameLabel(game)},
                     {"players", game.players},
                     {"params", game.params},
                     {"standings", standings}});
  }
  return json{{"ladder", snapshot.config().name}, {"games", games}};
}

json EntrantsJson(const LadderSnapshot& snapshot) {
  json out = json::array();
  for (const ladder::Entrant& e : snapshot.entrants()) {
    int versions = 0;
    json active = nullptr;
    for (const ladder::Version& v : snapshot.versions()) {
      if (v.entrant_id != e.id) continue;
      ++versions;
      if (v.status == ladder::VersionStatus::kRanked) active = v.id;
    }
    const std::string page = EntrantPage(e.name);
    out.push_back({{"name", e.name},
                   {"created_micros", e.created_micros},
                   {"versions", versions},
                   {"active_version", active},
                   {"links", {{"page", page}, {"api", "/api" + page}}}});
  }
  return json{{"entrants", out}};
}

absl::StatusOr<json> LadderMatchJson(ladder::LadderStore& store,
                                     const LadderSnapshot& snapshot,
                                     const ladder::Match& match) {
  const ladder::LadderGame* game = snapshot.FindGame(match.game_id);
  const bool over = snapshot.DealSetOver(match);
  const std::string page = absl::StrCat("/matches/", match.id);
  json out = {{"id", match.id},
              {"game", game == nullptr ? "" : GameLabel(*game)},
              {"kind", std::string(ladder::MatchKindName(match.kind))},
              {"state", std::string(ladder::MatchStateName(match.state))},
              {"deal_set_over", over},
              {"scheduled_micros", match.scheduled_micros},
              {"links", {{"page", page}, {"api", "/api" + page}}}};
  if (!over) return out;
  out["finished_micros"] = match.finished_micros;
  if (match.state == ladder::MatchState::kVoided) out["reason"] = match.reason;
  std::optional<ladder::MatchResult> result;
  if (match.state == ladder::MatchState::kFinished) {
    ASSIGN_OR_RETURN(result, store.ResultOfMatch(match.id));
  }
  json seats = json::array();
  for (size_t s = 0; s < match.seat_versions.size(); ++s) {
    const std::string entrant = snapshot.EntrantOfSeat(match, s);
    json seat = {{"seat", s},
                 {"entrant", entrant},
                 {"version_id", match.seat_versions[s]},
                 {"links", {{"page", EntrantPage(entrant)}}}};
    if (result.has_value()) {
      for (const ladder::SeatResult& r : result->seats) {
        if (r.seat != static_cast<int>(s)) continue;
        seat["rank"] = r.rank;
        seat["score"] = r.score;
      }
    }
    seats.push_back(std::move(seat));
  }
  out["seats"] = std::move(seats);
  return out;
}

absl::StatusOr<json> RecentMatchesJson(ladder::LadderStore& store,
                                       const LadderSnapshot& snapshot,
                                       int limit) {
  json out = json::array();
  for (const ladder::Match& m : snapshot.matches()) {
    if (static_cast<int>(out.size()) >= limit) break;
    ASSIGN_OR_RETURN(json one, LadderMatchJson(store, snapshot, m));
    out.push_back(std::move(one));
  }
  return json{{"matches", out}};
}

absl::StatusOr<json> EntrantJson(ladder::LadderStore& store,
                                 const LadderSnapshot& snapshot,
                                 const LadderFiles& files,
                                 const std::string& name, int recent,
                                 int fault_window) {
  const ladder::Entrant* entrant = snapshot.FindEntrant(name);
  if (entrant == nullptr) {
    return absl::NotFoundError("no such entrant");
  }
  json versions = json::array();
  std::set<int64_t> own;
  for (const ladder::Version& v : snapshot.versions()) {
    if (v.entrant_id != entrant->id) continue;
    own.insert(v.id);
    versions.push_back(
        {{"id", v.id},
         {"status", std::string(ladder::VersionStatusName(v.status))},
         {"reason", v.reason},
         {"content_hash", v.content_hash},
         {"created_micros", v.created_micros},
         {"status_micros", v.status_micros}});
  }
  json ratings = json::array();
  for (int64_t version : own) {
    for (const ladder::LadderGame& game : snapshot.config().games) {
      ASSIGN_OR_RETURN(std::vector<ladder::RatingChange> history,
                       store.RatingHistory(version, game.id));
      if (history.empty()) continue;
      json points = json::array();
      points.push_back({{"mu", history.front().mu_before},
                        {"sigma", history.front().sigma_before},
                        {"conservative", history.front().mu_before -
                                             3 * history.front().sigma_before}});
      for (const ladder::RatingChange& c : history) {
        points.push_back({{"mu", c.mu_after},
                          {"sigma", c.sigma_after},
                          {"conservative", c.mu_after - 3 * c.sigma_after}});
      }
      ratings.push_back({{"game_id", game.id},
                         {"game", GameLabel(game)},
                         {"version_id", version},
                         {"history", points}});
    }
  }
  json matches = json::array();
  std::map<std::string, int64_t> faults;
  int counted = 0;
  for (const ladder::Match& m : snapshot.matches()) {
    std::vector<int> seats;
    for (size_t s = 0; s < m.seat_versions.size(); ++s) {
      if (own.count(m.seat_versions[s]) > 0) seats.push_back(static_cast<int>(s));
    }
    if (seats.empty()) continue;
    if (static_cast<int>(matches.size()) < recent) {
      ASSIGN_OR_RETURN(json one, LadderMatchJson(store, snapshot, m));
      matches.push_back(std::move(one));
    }
    if (m.state == ladder::MatchState::kVoided) {
      ++faults["voided_match"];
      continue;
    }
    if (m.state != ladder::MatchState::kFinished || !snapshot.DealSetOver(m) ||
        counted >= fault_window) {
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<ladder::MatchResult> result,
                     store.ResultOfMatch(m.id));
    if (!result.has_value()) continue;
    absl::StatusOr<record::GameLog> log =
        record::ReadGameLog(LogPathOf(files, result->log_hash));
    if (!log.ok()) continue;  // a log moved away: not counted
    ++counted;
    auto mine = [&](int seat) {
      return std::find(seats.begin(), seats.end(), seat) != seats.end();
    };
    for (const v1::LogRecord& r : log->records) {
      if (r.has_fault() && mine(r.fault().seat())) {
        ++faults[FaultKindName(r.fault().kind())];
      } else if (r.has_rejected() && mine(r.rejected().seat())) {
        ++faults["rejected_submission"];
      } else if (r.has_forfeit() && mine(r.forfeit().seat())) {
        ++faults["forfeit"];
      }
    }
  }
  return json{{"name", entrant->name},
              {"created_micros", entrant->created_micros},
              {"versions", versions},
              {"ratings", ratings},
              {"recent_matches", matches},
              {"faults", {{"counted_matches", counted}, {"by_kind", faults}}}};
}

}  // namespace cardref::web
