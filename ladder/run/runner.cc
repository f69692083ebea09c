#include "ladder/run/runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <iterator>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "games/api/game.h"
#include "grpcpp/grpcpp.h"
#include "ladder/matchmaking/matchmaker.h"
#include "ladder/matchmaking/schedule_round.h"
#include "ladder/rating/rate_result.h"
#include "ladder/run/play_match.h"
#include "ladder/run/refit.h"
#include "ladder/run/remote_seats.h"
#include "ladder/store/open_store.h"
#include "ladder/store/pg_db.h"
#include "ladder/tools/content_hash.h"
#include "ladder/tools/remote_entrant.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "referee/base/status_macros.h"
#include "tournament/bot_sandbox.h"
#include "tournament/local_referee.h"

namespace cardref::ladder::run {
namespace {

constexpr char kDefaultReferenceName[] = "reference";

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

absl::StatusOr<std::string> NewSeed() {
  ASSIGN_OR_RETURN(std::string bytes, crypto::RandomBytes(32));
  return ToHex(bytes);
}

// Progress lines from several threads, whole.
class Progress {
 public:
  explicit Progress(std::ostream& out) : out_(out) {}
  void Line(const std::string& line) {
    std::lock_guard<std::mutex> lock(mu_);
    out_ << line << "\n" << std::flush;
  }

 private:
  std::mutex mu_;
  std::ostream& out_;
};

std::string Ordinal(int n) {
  if (n % 100 >= 11 && n % 100 <= 13) return absl::StrCat(n, "th");
  switch (n % 10) {
    case 1: return absl::StrCat(n, "st");
    case 2: return absl::StrCat(n, "nd");
    case 3: return absl::StrCat(n, "rd");
    default: return absl::StrCat(n, "th");
  }
}

std::string GameLabel(const LadderGame& game) {
  return absl::StrCat(game.game, ":", game.players);
}

class Runner {
 public:
  Runner(const RunOptions& options, const std::atomic<bool>& stop,
         std::ostream& out)
      : options_(options), stop_(stop), progress_(out) {}

  absl::Status Run();

 private:
  // Sets the reference version up: the organiser's entrant's, or this
  // build's random bot. Returns its version id.
  absl::StatusOr<int64_t> EnsureReference(LadderStore& store);
  // Schedules validation matches and matchmaking rounds as needed; true if
  // anything was scheduled.
  absl::StatusOr<bool> Schedule(LadderStore& store);
  absl::StatusOr<bool> ScheduleInTurn(LadderStore& store);
  void Worker(int n);
  // Plays a claimed match to an end; true if it counts towards --matches.
  bool PlayClaimed(LadderStore& store, const Match& match,
                   const std::string& owner);
  // A referee-side fault: the deal again, as a new match, unless replayed
  // too often. The caller holds schedule_mu_ (see JudgeValidation).
  void Replay(LadderStore& store, const Match& match);
  // After a validation match: ranks its version, or rejects it with
  // `fault` (non-empty). The caller holds schedule_mu_ from before the
  // match's result or void is written, so that Schedule never sees the
  // version without a pending validation match in between and schedules it
  // another.
  void JudgeValidation(LadderStore& store, const Match& match,
                       const std::string& fault);
  void MaybeRefit(LadderStore& store);
  // Starts the referee (again) and points the table at it.
  absl::Status StartReferee();
  // The table for one match, and the stub it uses.
  std::pair<Table, std::shared_ptr<cardref::v1::Referee::Stub>> CurrentTable();
  // After a referee-side fault: a referee that exited is started again.
  void RestartRefereeIfDead();
  // The candidate of a validation match: its version that is not the
  // reference (0 if none).
  int64_t Candidate(const Match& match) const;
  // Takes one match off the --matches budget; false when it is spent.
  bool Reserve();
  void GiveBack();
  bool Stopping() const {
    return stop_.load() || spent_.load() || failed_.load();
  }
  // Ends the run with `status` (every worker stops).
  void Fail(const absl::Status& status);
  // With --matches, the error when nothing can ever be scheduled: no game
  // has enough ranked versions and none validates. OK otherwise.
  absl::Status TooFewToPlay(LadderStore& store, const std::string& needs);
  // Before a match with remote entrants' seats: their credentials, and
  // their bots connected (waits up to remote_wait_s). Empty if ready, else
  // why not.
  std::string RemoteSeatsReady(const Match& match,
                               const std::vector<Version>& seats);

  const RunOptions& options_;
  const std::atomic<bool>& stop_;
  Progress progress_;
  LadderConfig config_;
  std::map<int64_t, LadderGame> games_;
  std::map<int64_t, cardref::v1::GameInfo> infos_;
  // The local referee; restarted (same folder, same key) when it dies.
  // Workers take a copy of the table per match (CurrentTable), which keeps
  // the stub it names alive.
  std::mutex referee_mu_;
  std::mutex restart_mu_;  // one restart at a time
  std::optional<tournament::LocalReferee> referee_;
  std::string referee_binary_, referee_dir_;
  std::shared_ptr<cardref::v1::Referee::Stub> stub_;
  Table table_;
  int64_t reference_ = 0;
  std::string owner_base_;
  int ahead_ = 2;

  std::atomic<int64_t> remaining_{0};  // unused when options_.matches == 0
  std::atomic<bool> spent_{false};
  std::mutex schedule_mu_;  // one scheduler at a time in this process
  std::map<int64_t, std::unique_ptr<Matchmaker>> matchmakers_;
  bool said_waiting_ = false;
  std::mutex refit_mu_;
  std::atomic<int64_t> rated_recorded_{0};
  std::atomic<int64_t> recorded_{0}, voided_{0}, replayed_{0};
  std::atomic<int> failed_workers_{0};
  // The bots' sandbox (options_.sandbox); the table points at it.
  std::unique_ptr<tournament::BotLauncher> launcher_;
  int referee_port_ = 0;  // kept when the referee is started again
  std::optional<RemoteSeats> remote_;
  std::atomic<bool> failed_{false};
  std::mutex fatal_mu_;
  absl::Status fatal_;
};

void Runner::Fail(const absl::Status& status) {
  std::lock_guard<std::mutex> lock(fatal_mu_);
  if (fatal_.ok()) fatal_ = status;
  failed_ = true;
}

absl::Status Runner::TooFewToPlay(LadderStore& store,
                                  const std::string& needs) {
  ASSIGN_OR_RETURN(std::vector<Version> ranked,
                   store.ListVersions(VersionStatus::kRanked));
  return absl::FailedPreconditionError(absl::StrCat(
      "--matches=", options_.matches, " cannot be played: ", needs,
      "; the ladder has ", ranked.size(),
      " ranked version(s) and none validating. Add entrants with "
      "cardref_ladder add, or run without --matches to wait for them"));
}

std::string Runner::RemoteSeatsReady(const Match& match,
                                     const std::vector<Version>& seats) {
  const auto [table, stub] = CurrentTable();
  std::set<std::string> waiting;
  for (const Version& v : seats) {
    if (!IsRemoteCommand(v.command)) continue;
    const std::string player = PlayerName(v);
    absl::StatusOr<std::string> said =
        remote_->EnsureCredential(*stub, table.match.organiser_token, player);
    if (!said.ok()) {
      return absl::StrCat("remote entrant ", player, ": ",
                          said.status().ToString());
    }
    if (!said->empty()) progress_.Line(*said);
    waiting.insert(player);
  }
  const auto give_up =
      std::chrono::steady_clock::now() +
      std::chrono::milliseconds(
          static_cast<int64_t>(options_.remote_wait_s * 1000));
  bool said_waiting = false;
  while (!waiting.empty()) {
    for (auto it = waiting.begin(); it != waiting.end();) {
      absl::StatusOr<int> streams = RemoteSeats::OpenStreams(
          *stub, table.match.organiser_token, *it);
      it = streams.ok() && *streams > 0 ? waiting.erase(it) : std::next(it);
    }
    if (waiting.empty()) break;
    if (std::chrono::steady_clock::now() >= give_up || Stopping()) {
      return absl::StrCat("remote entrant(s) ", absl::StrJoin(waiting, ", "),
                          " not connected (no invitation stream open within ",
                          options_.remote_wait_s, " s)");
    }
    if (!said_waiting) {
      said_waiting = true;
      progress_.Line(absl::StrCat(
          "match ", match.id, ": waiting up to ", options_.remote_wait_s,
          " s for remote entrant(s) ", absl::StrJoin(waiting, ", "),
          " to connect to ", table.match.server));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return "";
}

bool Runner::Reserve() {
  if (options_.matches <= 0) return true;
  int64_t left = remaining_.load();
  while (left > 0) {
    if (remaining_.compare_exchange_weak(left, left - 1)) return true;
  }
  return false;
}

void Runner::GiveBack() {
  if (options_.matches > 0) remaining_.fetch_add(1);
}

int64_t Runner::Candidate(const Match& match) const {
  for (int64_t v : match.seat_versions) {
    if (v != reference_) return v;
  }
  return 0;
}

absl::StatusOr<int64_t> Runner::EnsureReference(LadderStore& store) {
  const int64_t now = NowMicros();
  const bool builtin = config_.reference_entrant.empty();
  const std::string name =
      builtin ? kDefaultReferenceName : config_.reference_entrant;
  if (builtin) {
    const std::string command = options_.reference_command.empty()
                                    ? DefaultReferenceCommand()
                                    : options_.reference_command;
    absl::StatusOr<Entrant> entrant = store.AddEntrant(name, now);
    if (!entrant.ok() && !absl::IsAlreadyExists(entrant.status())) {
      return entrant.status();
    }
    ASSIGN_OR_RETURN(std::string hash,
                     ContentHash(command.substr(0, command.find(' '))));
    absl::StatusOr<Version> added = store.AddVersion(name, command, hash, now);
    if (!added.ok() && !absl::IsAlreadyExists(added.status()) &&
        !absl::IsFailedPrecondition(added.status())) {  // frozen
      return added.status();
    }
  }
  ASSIGN_OR_RETURN(std::vector<Version> all, store.ListVersions(std::nullopt));
  const Version* ranked = nullptr;
  const Version* validating = nullptr;
  for (const Version& v : all) {
    if (v.entrant_name != name) continue;
    if (v.status == VersionStatus::kRanked) ranked = &v;
    if (v.status == VersionStatus::kValidating) validating = &v;
  }
  // The reference is what validates the others: it is ranked unvalidated.
  if (validating != nullptr) {
    RETURN_IF_ERROR(store.SetVersionStatus(
        validating->id, VersionStatus::kRanked,
        "the ladder's reference bot: ranked without validation", now));
    progress_.Line(absl::StrCat("reference bot: ", PlayerName(*validating),
                                " (", validating->command, ")"));
    return validating->id;
  }
  if (ranked == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the ladder's reference entrant '", name,
        "' has no version to play validation matches with; add one with "
        "cardref_ladder add --entrant=",
        name, " --command=..."));
  }
  return ranked->id;
}

absl::StatusOr<bool> Runner::Schedule(LadderStore& store) {
  std::lock_guard<std::mutex> lock(schedule_mu_);
  // One scheduler at a time among every runner on the store (several
  // machines on PostgreSQL): no round or deal set is given twice.
  absl::StatusOr<bool> scheduled = false;
  RETURN_IF_ERROR(store.RunExclusively([&] {
    scheduled = ScheduleInTurn(store);
    return scheduled.status();
  }));
  return scheduled;
}

absl::StatusOr<bool> Runner::ScheduleInTurn(LadderStore& store) {
  const int64_t now = NowMicros();
  bool scheduled = false;
  ASSIGN_OR_RETURN(std::vector<Match> waiting,
                   store.ListMatches(MatchState::kScheduled));
  ASSIGN_OR_RETURN(std::vector<Match> claimed,
                   store.ListMatches(MatchState::kClaimed));
  waiting.insert(waiting.end(), claimed.begin(), claimed.end());

  // New versions: their validation matches, the candidate in one seat and
  // the reference in the others, the seat moving from match to match.
  ASSIGN_OR_RETURN(std::vector<Version> validating,
                   store.ListVersions(VersionStatus::kValidating));
  for (const Version& v : validating) {
    const bool pending =
        std::any_of(waiting.begin(), waiting.end(), [&](const Match& m) {
          return m.kind == MatchKind::kValidation && Candidate(m) == v.id;
        });
    if (pending) continue;
    std::vector<NewMatch> matches;
    for (const auto& [id, game] : games_) {
      for (int k = 0; k < options_.validation_matches; ++k) {
        NewMatch m;
        m.game_id = id;
        m.kind = MatchKind::kValidation;
        m.deal_set = absl::StrCat("validation-v", v.id, "-", game.game,
                                  game.players, "-", k);
        ASSIGN_OR_RETURN(m.seed, NewSeed());
        m.seat_versions.assign(game.players, reference_);
        m.seat_versions[k % game.players] = v.id;
        matches.push_back(std::move(m));
      }
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                     store.ScheduleMatches(matches, now));
    progress_.Line(absl::StrCat("version ", PlayerName(v), ": ", ids.size(),
                                " validation match(es) scheduled against ",
                                "the reference bot"));
    scheduled = true;
  }

  // Rated rounds: keep `ahead` matches of each game waiting.
  bool any_game = false;
  for (const auto& [id, game] : games_) {
    int64_t count = std::count_if(
        waiting.begin(), waiting.end(), [id = id](const Match& m) {
          return m.game_id == id && m.kind == MatchKind::kRated &&
                 m.state == MatchState::kScheduled;
        });
    auto& matchmaker = matchmakers_[id];
    if (matchmaker == nullptr) {
      MatchmakingOptions mm;
      mm.seats = game.players;
      mm.duplicate = config_.duplicate;
      ASSIGN_OR_RETURN(std::string seed, crypto::RandomBytes(8));
      uint64_t value = 0;
      for (unsigned char c : seed) value = value << 8 | c;
      matchmaker = std::make_unique<Matchmaker>(mm, value);
    }
    while (count < ahead_) {
      absl::StatusOr<ScheduledRound> round =
          ScheduleNextRound(store, *matchmaker, id, now, NewSeed);
      if (absl::IsFailedPrecondition(round.status())) break;  // too few
      if (!round.ok()) return round.status();
      count += static_cast<int64_t>(round->match_ids.size());
      scheduled = true;
      any_game = true;
    }
    if (count > 0) any_game = true;
  }
  if (!any_game && validating.empty()) {
    std::vector<std::string> needs;
    for (const auto& [id, game] : games_) {
      needs.push_back(absl::StrCat(GameLabel(game), " needs ", game.players,
                                   " ranked versions to seat a match"));
    }
    if (options_.matches > 0 && waiting.empty()) {
      // Nothing is in play or waiting, and nothing new can be: a run with
      // a number of matches would wait for ever.
      Fail(TooFewToPlay(store, absl::StrJoin(needs, ", ")));
      return false;
    }
    if (!said_waiting_) {
      said_waiting_ = true;
      progress_.Line(absl::StrCat(
          "waiting for entrants: ", absl::StrJoin(needs, ", "),
          " (add entrants with cardref_ladder add; new versions play their "
          "validation matches first)"));
    }
  }
  if (any_game) said_waiting_ = false;
  return scheduled;
}

void Runner::JudgeValidation(LadderStore& store, const Match& match,
                             const std::string& fault) {
  const int64_t candidate = Candidate(match);
  absl::StatusOr<Version> version = store.GetVersion(candidate);
  if (!version.ok() || version->status != VersionStatus::kValidating) return;
  const int64_t now = NowMicros();
  if (!fault.empty()) {
    const std::string reason =
        absl::StrCat("validation match ", match.id, " (",
                     GameLabel(games_[match.game_id]), "): ", fault);
    absl::Status s = store.SetVersionStatus(
        candidate, VersionStatus::kRejected, reason, now);
    progress_.Line(absl::StrCat("version ", PlayerName(*version),
                                s.ok() ? " rejected: " : " not rejected (",
                                s.ok() ? reason : s.ToString(),
                                s.ok() ? "" : ")"));
    return;
  }
  // Ranked once none of its validation matches waits any more (a failed
  // one has rejected it already).
  for (MatchState state : {MatchState::kScheduled, MatchState::kClaimed}) {
    absl::StatusOr<std::vector<Match>> pending = store.ListMatches(state);
    if (!pending.ok()) return;
    for (const Match& m : *pending) {
      if (m.id != match.id && m.kind == MatchKind::kValidation &&
          Candidate(m) == candidate) {
        return;
      }
    }
  }
  absl::Status s =
      store.SetVersionStatus(candidate, VersionStatus::kRanked, "", now);
  progress_.Line(absl::StrCat("version ", PlayerName(*version),
                              s.ok() ? " passed validation: ranked"
                                     : " not ranked: " + s.ToString()));
}

void Runner::Replay(LadderStore& store, const Match& match) {
  absl::StatusOr<std::vector<Match>> voided =
      store.ListMatches(MatchState::kVoided);
  if (!voided.ok()) return;
  const auto plays = std::count_if(
      voided->begin(), voided->end(), [&](const Match& m) {
        return m.deal_set == match.deal_set && m.seed == match.seed &&
               m.seat_versions == match.seat_versions;
      });
  if (plays >= options_.max_replays) {
    progress_.Line(absl::StrCat("match ", match.id, ": not replayed, its deal ",
                                "was voided ", plays, " times"));
    return;
  }
  NewMatch again;
  again.game_id = match.game_id;
  again.kind = match.kind;
  again.round = match.round;
  again.deal_set = match.deal_set;
  again.seed = match.seed;
  again.seat_versions = match.seat_versions;
  absl::StatusOr<int64_t> id = store.ScheduleMatch(again, NowMicros());
  if (id.ok()) {
    ++replayed_;
    progress_.Line(absl::StrCat("match ", match.id, ": its deal is replayed ",
                                "as match ", *id));
  } else {
    progress_.Line(absl::StrCat("match ", match.id, ": not replayed: ",
                                id.status().message()));
  }
}

void Runner::MaybeRefit(LadderStore& store) {
  if (options_.refit_every <= 0) return;
  const int64_t n = ++rated_recorded_;
  if (n % options_.refit_every != 0) return;
  std::lock_guard<std::mutex> lock(refit_mu_);
  for (const auto& [id, game] : games_) {
    RefitOptions refit;
    refit.seed = static_cast<uint64_t>(n);
    absl::StatusOr<RefitComparison> compared = RefitGame(store, game, refit);
    progress_.Line(absl::StrCat(
        "refit ", GameLabel(game), " after ", n, " rated results: ",
        compared.ok() ? compared->summary : compared.status().ToString()));
  }
}

bool Runner::PlayClaimed(LadderStore& store, const Match& match,
                         const std::string& owner) {
  const LadderGame& game = games_[match.game_id];
  std::vector<Version> seats;
  for (int64_t id : match.seat_versions) {
    absl::StatusOr<Version> v = store.GetVersion(id);
    if (!v.ok()) {
      progress_.Line(absl::StrCat("match ", match.id, ": ",
                                  v.status().ToString(), "; released"));
      (void)store.ReleaseClaim(match.id, owner);
      return false;
    }
    seats.push_back(*std::move(v));
  }
  // The lease is renewed while the match plays.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  const int64_t lease = static_cast<int64_t>(options_.lease_s * 1e6);
  std::thread renew([&] {
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, std::chrono::microseconds(lease / 4),
                        [&] { return done; })) {
      absl::Status s = store.RenewLease(match.id, owner, NowMicros(), lease);
      if (absl::IsAborted(s)) {
        progress_.Line(absl::StrCat("match ", match.id, ": the claim was ",
                                    "lost (its lease ended); playing on"));
        return;
      }
    }
  });
  PlayedMatch played;
  const std::string not_ready = RemoteSeatsReady(match, seats);
  if (not_ready.empty()) {
    const auto [table, stub] = CurrentTable();
    played = PlayLadderMatch(table, config_, game, infos_[match.game_id],
                             match, seats, owner);
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_all();
  renew.join();

  const std::string label =
      absl::StrCat("match ", match.id, " ", GameLabel(game), " ",
                   MatchKindName(match.kind));
  const int64_t now = NowMicros();
  if (!not_ready.empty() && Stopping()) {
    // Stopped while it waited for a remote bot: handed back unplayed.
    (void)store.ReleaseClaim(match.id, owner);
    return false;
  }
  if (!not_ready.empty()) {
    // Not played: a remote bot that is away is not scored against, nor is
    // its new version rejected; its validation deal is played again.
    std::lock_guard<std::mutex> judging(schedule_mu_);
    absl::Status s = store.VoidMatch(match.id, not_ready, now);
    ++voided_;
    progress_.Line(absl::StrCat(label, ": voided, ", not_ready,
                                s.ok() ? "" : " (" + s.ToString() + ")"));
    if (s.ok() && match.kind == MatchKind::kValidation) Replay(store, match);
    return true;
  }
  switch (played.outcome) {
    case Outcome::kScored: {
      std::unique_lock<std::mutex> judging(schedule_mu_, std::defer_lock);
      if (match.kind == MatchKind::kValidation) judging.lock();
      absl::StatusOr<RecordOutcome> recorded =
          store.RecordResult(played.result, now, RatePlackettLuce);
      if (!recorded.ok()) {
        progress_.Line(absl::StrCat(label, ": not recorded: ",
                                    recorded.status().ToString()));
        if (!absl::IsFailedPrecondition(recorded.status())) {
          // The store failed, not the match: the next claim plays it again.
          (void)store.ReleaseClaim(match.id, owner);
          return false;
        }
        return true;
      }
      std::vector<std::string> places;
      for (const SeatResult& s : played.result.seats) {
        places.push_back(
            absl::StrCat(PlayerName(seats[s.seat]), " ", Ordinal(s.rank)));
      }
      ++recorded_;
      progress_.Line(absl::StrCat(
          label, ": ", absl::StrJoin(places, ", "),
          *recorded == RecordOutcome::kDuplicate ? " (already recorded)" : "",
          played.reason.empty() ? "" : " - ", played.reason));
      if (match.kind == MatchKind::kValidation) {
        std::vector<std::string> faults;
        const int64_t candidate = Candidate(match);
        for (size_t seat = 0; seat < seats.size(); ++seat) {
          if (match.seat_versions[seat] == candidate &&
              !played.seat_faults[seat].empty()) {
            faults.push_back(absl::StrCat("seat ", seat, ": ",
                                          played.seat_faults[seat]));
          }
        }
        JudgeValidation(store, match, absl::StrJoin(faults, "; "));
      } else if (*recorded == RecordOutcome::kRecorded) {
        MaybeRefit(store);
      }
      return true;
    }
    case Outcome::kBotFault: {
      std::lock_guard<std::mutex> judging(schedule_mu_);
      absl::Status s = store.VoidMatch(match.id, played.reason, now);
      ++voided_;
      progress_.Line(absl::StrCat(label, ": voided, ", played.reason,
                                  s.ok() ? "" : " (" + s.ToString() + ")"));
      if (match.kind == MatchKind::kValidation) {
        const int64_t candidate = Candidate(match);
        std::vector<std::string> faults;
        for (size_t seat = 0; seat < seats.size(); ++seat) {
          if (!played.seat_faults[seat].empty() &&
              match.seat_versions[seat] == candidate) {
            faults.push_back(absl::StrCat("seat ", seat, ": ",
                                          played.seat_faults[seat]));
          }
        }
        if (faults.empty()) {
          Replay(store, match);  // the reference failed, not the candidate
        } else {
          JudgeValidation(store, match, absl::StrJoin(faults, "; "));
        }
      }
      return true;
    }
    case Outcome::kRefereeFault: {
      std::lock_guard<std::mutex> replaying(schedule_mu_);
      absl::Status s = store.VoidMatch(
          match.id, absl::StrCat("referee-side fault: ", played.reason), now);
      ++voided_;
      progress_.Line(absl::StrCat(label, ": voided (referee-side fault, no ",
                                  "bot is scored): ", played.reason,
                                  s.ok() ? "" : " (" + s.ToString() + ")"));
      RestartRefereeIfDead();
      if (s.ok()) Replay(store, match);
      return false;
    }
  }
  return false;
}

absl::Status Runner::StartReferee() {
  std::lock_guard<std::mutex> lock(referee_mu_);
  if (referee_.has_value()) referee_->process.Kill();
  referee_.reset();
  // Each seat's bot and the runner's own channel, with room for bots that
  // reconnect before their old connection is gone (as the tournament sizes
  // it).
  // Remote entrants connect to the referee's host and port, and the
  // bots' sandbox forwards to it: a restarted referee keeps the port.
  std::vector<std::string> extra = {
      absl::StrCat("--host=", options_.referee_host)};
  if (referee_port_ > 0) extra.push_back(absl::StrCat("--port=", referee_port_));
  ASSIGN_OR_RETURN(tournament::LocalReferee started,
                   tournament::StartLocalReferee(
                       referee_binary_, referee_dir_,
                       4 * options_.workers * kMaxSeats + 16, extra));
  referee_ = std::move(started);
  if (referee_port_ == 0) {
    const std::string& address = referee_->address;
    (void)absl::SimpleAtoi(address.substr(address.rfind(':') + 1),
                           &referee_port_);
  }
  // A referee on one interface's address is not on localhost: the runner
  // (and the bots' forwarders) reach it where it listens.
  const std::string& host = options_.referee_host;
  if (host != "localhost" && host != "0.0.0.0" && host != "::" &&
      host != "[::]") {
    referee_->address =
        host.find(':') != std::string::npos && host.front() != '['
            ? absl::StrCat("[", host, "]:", referee_port_)
            : absl::StrCat(host, ":", referee_port_);
  }
  auto stub = std::shared_ptr<cardref::v1::Referee::Stub>(
      cardref::v1::Referee::NewStub(grpc::CreateChannel(
          referee_->address, grpc::InsecureChannelCredentials())));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  cardref::v1::RefereeKey key;
  grpc::Status s =
      stub->GetRefereeKey(&context, cardref::v1::GetRefereeKeyRequest(), &key);
  if (!s.ok()) {
    referee_->process.Kill();
    return absl::UnavailableError(absl::StrCat(
        "the ladder's referee does not give its key: ", s.error_message()));
  }
  // The key is kept in the referee's folder: a restarted referee signs
  // with the same one, or its logs would not count.
  if (!table_.referee_public_key.empty() &&
      key.public_key() != table_.referee_public_key) {
    referee_->process.Kill();
    return absl::FailedPreconditionError(absl::StrCat(
        "the restarted referee signs with another key than the ladder's (",
        referee_dir_, "/referee_ed25519.key changed)"));
  }
  table_.referee_public_key = key.public_key();
  table_.match.server = referee_->address;
  table_.match.organiser_token = referee_->token;
  stub_ = std::move(stub);
  table_.stub = stub_.get();
  return absl::OkStatus();
}

std::pair<Table, std::shared_ptr<cardref::v1::Referee::Stub>>
Runner::CurrentTable() {
  std::lock_guard<std::mutex> lock(referee_mu_);
  return {table_, stub_};
}

void Runner::RestartRefereeIfDead() {
  std::lock_guard<std::mutex> restarting(restart_mu_);
  {
    std::lock_guard<std::mutex> lock(referee_mu_);
    if (!referee_.has_value() || !referee_->process.Poll()) return;
    progress_.Line(absl::StrCat("the referee exited (",
                                referee_->process.Describe(),
                                "); starting it again"));
  }
  absl::Status s = StartReferee();
  progress_.Line(s.ok() ? absl::StrCat("the referee serves again at ",
                                       CurrentTable().first.match.server)
                        : absl::StrCat("the referee did not start again: ",
                                       s.ToString()));
}

void Runner::Worker(int n) {
  const std::string owner = absl::StrCat(owner_base_, ":", n);
  OpenStoreOptions store_options;
  store_options.create = false;
  absl::StatusOr<std::unique_ptr<LadderStore>> store =
      OpenStore(options_.db, store_options);
  if (!store.ok()) {
    progress_.Line(absl::StrCat("worker ", owner, ": ",
                                store.status().ToString()));
    ++failed_workers_;
    return;
  }
  int errors = 0;
  while (!Stopping()) {
    if (!Reserve()) {
      spent_ = true;
      break;
    }
    ClaimRequest request;
    request.owner = owner;
    request.now_micros = NowMicros();
    request.lease_micros = static_cast<int64_t>(options_.lease_s * 1e6);
    request.max_attempts = options_.max_attempts;
    absl::StatusOr<std::optional<Match>> claim = (*store)->ClaimNext(request);
    if (!claim.ok() || !claim->has_value()) {
      GiveBack();
      absl::StatusOr<bool> scheduled =
          claim.ok() ? Schedule(**store) : claim.status();
      if (!scheduled.ok()) {
        progress_.Line(absl::StrCat("worker ", owner, ": ",
                                    scheduled.status().ToString()));
        if (++errors >= 10) {
          ++failed_workers_;
          return;
        }
      }
      if (!scheduled.ok() || !*scheduled) {
        for (int i = 0; i < 10 && !Stopping(); ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
      }
      continue;
    }
    errors = 0;
    const Match match = **std::move(claim);
    if (Stopping()) {
      GiveBack();
      (void)(*store)->ReleaseClaim(match.id, owner);
      break;
    }
    if (!PlayClaimed(**store, match, owner)) GiveBack();
  }
}

absl::Status Runner::Run() {
  if (options_.workers < 1 || options_.workers > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("--workers must be 1 to 64, got ", options_.workers));
  }
  if (options_.matches < 0) {
    return absl::InvalidArgumentError("--matches must be 0 (until stopped) "
                                      "or more");
  }
  if (!(options_.lease_s >= 1)) {
    return absl::InvalidArgumentError("--lease_s must be at least 1");
  }
  if (!(options_.remote_wait_s >= 0 && options_.remote_wait_s <= 86400)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--remote_wait_s must be 0 to 86400, got ",
                     options_.remote_wait_s));
  }
  if (options_.validation_matches < 1) {
    return absl::InvalidArgumentError("--validation_matches must be 1 or more");
  }
  remaining_ = options_.matches;
  ahead_ = options_.ahead > 0 ? options_.ahead : 2 * options_.workers;
  OpenStoreOptions store_options;
  store_options.create = false;
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenStore(options_.db, store_options));
  ASSIGN_OR_RETURN(config_, store->GetConfig());
  for (const LadderGame& g : config_.games) games_[g.id] = g;
  // Runners starting at once on one store add the reference once.
  RETURN_IF_ERROR(store->RunExclusively([&]() -> absl::Status {
    ASSIGN_OR_RETURN(reference_, EnsureReference(*store));
    return absl::OkStatus();
  }));

  ASSIGN_OR_RETURN(const LadderPaths paths,
                   LadderFolder(options_.db, options_.dir));
  RETURN_IF_ERROR(MakeLadderDirs(paths));
  referee_binary_ = options_.referee_binary.empty()
                        ? tournament::DefaultRefereeBinary()
                        : options_.referee_binary;
  referee_dir_ = paths.referee;
  table_.logs_dir = paths.logs;
  table_.match.bot_output_dir = paths.bots;
  table_.match.run_as = options_.run_as;
  table_.match.uid_pool = options_.uid_pool;
  table_.match.max_bot_cpu_s = options_.max_bot_cpu_s;
  table_.match.max_bot_memory_mb = options_.max_bot_memory_mb;
  remote_.emplace(paths.root);
  if (options_.referee_port < 0 || options_.referee_port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--referee_port must be 0 (a free one) to 65535, got ",
        options_.referee_port));
  }
  referee_port_ = options_.referee_port;
  if (options_.referee_host.empty()) {
    return absl::InvalidArgumentError(
        "--referee_host must name where the referee listens (localhost, "
        "0.0.0.0 for every interface, or one of this machine's addresses)");
  }
  RETURN_IF_ERROR(StartReferee());
  if (options_.sandbox) {
    if (options_.uid_pool == nullptr) {
      referee_->process.Kill();
      return absl::InvalidArgumentError(
          "sandboxed bots need a uid of their own each (--bot_uids)");
    }
    // A slot (a CPU share) for every bot that may run at once.
    int max_seats = 1;
    for (const auto& [id, game] : games_) {
      max_seats = std::max(max_seats, game.players);
    }
    absl::StatusOr<std::unique_ptr<tournament::BotLauncher>> sandbox =
        tournament::StartBotSandbox(table_.match.server,
                                    options_.workers * max_seats, {});
    if (!sandbox.ok()) {
      referee_->process.Kill();
      return sandbox.status();
    }
    launcher_ = *std::move(sandbox);
    {
      std::lock_guard<std::mutex> lock(referee_mu_);
      table_.match.launcher = launcher_.get();
    }
    progress_.Line(
        "bots run in the sandbox (docs/sandbox.md), each as a uid of its "
        "own, reaching the referee only through its socket");
    for (const std::string& lack : launcher_->host()->unenforced()) {
      progress_.Line(absl::StrCat("sandbox: not enforced here: ", lack));
    }
  } else {
    progress_.Line(
        "bots run outside the sandbox (--trust_bots): none of it is "
        "enforced");
  }
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    cardref::v1::ListGamesResponse listed;
    grpc::Status s =
        stub_->ListGames(&context, cardref::v1::ListGamesRequest(), &listed);
    for (const auto& [id, game] : games_) {
      for (const cardref::v1::GameInfo& info : listed.games()) {
        if (info.id() == game.game) infos_[id] = info;
      }
      if (!s.ok() || infos_.count(id) == 0) {
        referee_->process.Kill();
        return absl::UnavailableError(absl::StrCat(
            "the ladder's referee does not serve ", game.game,
            s.ok() ? "" : ": " + s.error_message()));
      }
    }
  }
  // Remote entrants' credentials, before any match: the organiser hands
  // them over while the runner waits.
  ASSIGN_OR_RETURN(std::vector<Version> versions,
                   store->ListVersions(std::nullopt));
  for (const Version& v : versions) {
    if (!IsRemoteCommand(v.command) ||
        (v.status != VersionStatus::kRanked &&
         v.status != VersionStatus::kValidating)) {
      continue;
    }
    absl::StatusOr<std::string> said = remote_->EnsureCredential(
        *stub_, table_.match.organiser_token, PlayerName(v));
    if (!said.ok()) {
      referee_->process.Kill();
      return said.status();
    }
    progress_.Line(absl::StrCat(*said, "; its bot connects to ",
                                options_.referee_host, ":", referee_port_));
    if (IsPostgresUrl(options_.db)) {
      progress_.Line(
          "warning: remote entrants are for a ladder of one runner: another "
          "runner's referee would issue its own credential over this one's "
          "file (docs/ladder.md, \"Remote entrants\")");
    }
  }
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  owner_base_ = options_.worker_name.empty()
                    ? absl::StrCat(host, ":", getpid())
                    : options_.worker_name;
  progress_.Line(absl::StrCat(
      "ladder '", config_.name, "' (", RedactPostgresUrl(options_.db), "): ",
      options_.workers, " worker(s) on the referee at ", table_.match.server,
      ", key ",
      ToHex(table_.referee_public_key).substr(0, 16), "...; ",
      options_.matches > 0 ? absl::StrCat(options_.matches, " match(es)")
                           : std::string("until stopped"),
      config_.frozen ? "; frozen: finals, no rating drift" : ""));

  std::vector<std::thread> workers;
  workers.reserve(options_.workers);
  for (int n = 0; n < options_.workers; ++n) {
    workers.emplace_back([this, n] { Worker(n); });
  }
  for (std::thread& t : workers) t.join();
  {
    std::lock_guard<std::mutex> lock(referee_mu_);
    if (referee_.has_value()) referee_->process.Kill();
  }
  progress_.Line(absl::StrCat("stopped: ", recorded_.load(),
                              " result(s) recorded, ", voided_.load(),
                              " match(es) voided, ", replayed_.load(),
                              " deal(s) replayed"));
  {
    std::lock_guard<std::mutex> lock(fatal_mu_);
    if (!fatal_.ok()) return fatal_;
  }
  if (failed_workers_ == options_.workers) {
    return absl::InternalError("every worker failed (see above)");
  }
  return absl::OkStatus();
}

}  // namespace

std::string DefaultReferenceCommand() {
  std::error_code error;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  const std::string bot =
      error ? "cardref_bot" : (self.parent_path() / "cardref_bot").string();
  return absl::StrCat(bot, " --strategy=random --quiet");
}

absl::Status RunLadder(const RunOptions& options,
                       const std::atomic<bool>& stop, std::ostream& progress) {
  Runner runner(options, stop, progress);
  return runner.Run();
}

}  // namespace cardref::ladder::run
