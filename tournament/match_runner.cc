#include "tournament/match_runner.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "referee/grpc/organiser_token.h"
#include "tournament/event_state.h"

namespace cardref::tournament {
namespace {

using Clock = std::chrono::steady_clock;
using cardref::v1::MatchInfo;
using cardref::v1::MatchStatus;

// How long the referee may fail to answer GetMatch about a match in play
// before the match is given up as lost.
constexpr std::chrono::seconds kRefereeLostAfter{5};

void AddCredential(const MatchOptions& options, grpc::ClientContext* context) {
  grpc_service::AddOrganiserCredential(options.organiser_token, context);
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
}

Clock::time_point After(double seconds) {
  return Clock::now() +
         std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

bool Over(MatchStatus s) {
  return s == cardref::v1::MATCH_STATUS_FINISHED ||
         s == cardref::v1::MATCH_STATUS_ABORTED ||
         s == cardref::v1::MATCH_STATUS_CANCELLED;
}

std::string OutcomeName(MatchStatus s) {
  switch (s) {
    case cardref::v1::MATCH_STATUS_FINISHED:
      return "finished";
    case cardref::v1::MATCH_STATUS_ABORTED:
      return "aborted";
    case cardref::v1::MATCH_STATUS_CANCELLED:
      return "cancelled";
    default:
      return "failed";
  }
}

// CreateMatch, made safe to resend with a retry key and tried again:
// - RESOURCE_EXHAUSTED is the referee's caps on matches or its rate
//   limits, which other matches (of this event or another on a shared
//   referee) free as they end: waited out, 0.1 s doubling to 5 s between
//   tries, for up to the match's budget (it used to fail the match);
// - UNAVAILABLE or the call's deadline: the network or the referee failed,
//   perhaps after the referee made the match and only its answer was lost.
//   Resent with the same key, which gets that answer again and never makes
//   a second match, for a second: long enough for a connection to be made
//   again, short enough that a referee that is gone costs an event little
//   (its match is "not played", for the next run).
constexpr std::chrono::seconds kCreateResendWindow{1};

grpc::Status CreateWhenRoom(cardref::v1::Referee::Stub& stub,
                            const MatchOptions& options,
                            cardref::v1::CreateMatchRequest& create,
                            cardref::v1::CreateMatchResponse* created) {
  // From the OS, not the event's secret: a key gives back the tickets.
  absl::StatusOr<std::string> key = crypto::RandomBytes(16);
  if (key.ok()) create.set_retry_key(ToHex(*key));
  const Clock::time_point give_up = After(options.match_budget_s);
  // Since when the calls fail with `lost` errors; max() while they do not.
  Clock::time_point failing_since = Clock::time_point::max();
  auto pause = std::chrono::milliseconds(100);
  for (;;) {
    grpc::ClientContext context;
    AddCredential(options, &context);
    grpc::Status s = stub.CreateMatch(&context, create, created);
    const bool busy = s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
    const bool lost = key.ok() &&
                      (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
                       s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED);
    if (!lost) {
      failing_since = Clock::time_point::max();
    } else if (failing_since == Clock::time_point::max()) {
      failing_since = Clock::now();
    }
    if ((!busy && !lost) || Clock::now() + pause >= give_up ||
        (lost && Clock::now() + pause >= failing_since + kCreateResendWindow)) {
      return s;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(2 * pause, std::chrono::milliseconds(5000));
  }
}

// The lines of a by-hand seat's environment file.
std::string HandEnvironment(
    const std::vector<std::pair<std::string, std::string>>& env) {
  std::string text;
  for (const auto& [name, value] : env) {
    absl::StrAppend(&text, name, "=", value, "\n");
  }
  return text;
}

}  // namespace

std::string DescribeFaults(const cardref::v1::SeatFaults& faults) {
  std::vector<std::string> parts;
  auto count = [&parts](int n, const char* one, const char* many) {
    if (n > 0) parts.push_back(absl::StrCat(n, " ", n == 1 ? one : many));
  };
  count(faults.timeouts(), "timeout", "timeouts");
  count(faults.disconnections(), "disconnection", "disconnections");
  count(faults.rejections(), "rejected submission", "rejected submissions");
  if (faults.absent()) parts.emplace_back("made absent");
  if (faults.forfeited()) parts.emplace_back("forfeited");
  count(faults.played_for(), "decision played by the referee",
        "decisions played by the referee");
  return absl::StrJoin(parts, ", ");
}

std::optional<MatchInfo> EndOnReferee(cardref::v1::Referee::Stub& stub,
                                      const MatchOptions& options,
                                      const std::string& match_id,
                                      const std::string& reason) {
  cardref::v1::EndMatchRequest end;
  end.set_match_id(match_id);
  end.set_reason(reason);
  for (const bool cancel : {true, false}) {
    grpc::ClientContext context;
    AddCredential(options, &context);
    MatchInfo ended;
    const grpc::Status s = cancel ? stub.CancelMatch(&context, end, &ended)
                                  : stub.AbortMatch(&context, end, &ended);
    if (s.ok()) return ended;
  }
  return std::nullopt;
}

SettledCreations SettleLostCreations(
    cardref::v1::Referee::Stub& stub,
    const std::vector<cardref::v1::CreateMatchRequest>& creations,
    const MatchOptions& options) {
  SettledCreations settled;
  for (const cardref::v1::CreateMatchRequest& create : creations) {
    grpc::ClientContext context;
    AddCredential(options, &context);
    cardref::v1::CreateMatchResponse created;
    if (!stub.CreateMatch(&context, create, &created).ok()) {
      ++settled.unchecked;
      continue;
    }
    if (EndOnReferee(stub, options, created.match_id(),
                     "the tournament gave this match up: the answers to "
                     "its creation were lost, so no bot will join it")
            .has_value()) {
      ++settled.ended;
    }
  }
  return settled;
}

absl::Status AddParams(const cardref::v1::GameInfo& info,
                       const std::string& params,
                       cardref::v1::CreateMatchRequest* request) {
  if (params.empty()) return absl::OkStatus();
  for (absl::string_view item : absl::StrSplit(params, ',')) {
    std::vector<std::string> kv = absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (kv.size() != 2 || kv[0].empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--params wants name=value,... (e.g. game_length=SHORT), got '", item,
          "'"));
    }
    for (const cardref::v1::ParamInfo& p : info.params()) {
      if (p.name() != kv[0]) continue;
      auto& v = (*request->mutable_params()->mutable_values())[kv[0]];
      if (p.type() == "bool") {
        if (kv[1] != "true" && kv[1] != "false") {
          return absl::InvalidArgumentError(absl::StrCat(
              "--params ", kv[0], " wants true or false, got '", kv[1], "'"));
        }
        v.set_bool_value(kv[1] == "true");
      } else if (p.type() == "integer") {
        int64_t n;
        if (!absl::SimpleAtoi(kv[1], &n)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "--params ", kv[0], " wants an integer, got '", kv[1], "'"));
        }
        v.set_int_value(n);
      } else {
        v.set_enum_value(kv[1]);
      }
    }
  }
  return absl::OkStatus();
}

MatchOutcome RunMatch(cardref::v1::Referee::Stub& stub,
                      const cardref::v1::GameInfo& game_info,
                      const ScheduleConfig& config, const ScheduledMatch& match,
                      const std::string& secret, const MatchOptions& options) {
  MatchOutcome outcome;
  outcome.record.key = match.key;
  outcome.record.outcome = "failed";
  const GameSpec& game = config.games[match.game];

  cardref::v1::CreateMatchRequest create;
  create.set_game(game.id);
  if (game_info.min_seats() != game_info.max_seats()) {
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        game.players);
  }
  if (absl::Status s = AddParams(game_info, options.params, &create); !s.ok()) {
    outcome.record.reason = std::string(s.message());
    return outcome;
  }
  create.set_seed(DealSeed(secret, match.deal_set));
  if (config.duplicate) {
    // The referee keeps the twins secret from the bots until all are over.
    create.set_deal_set_id(RefereeDealSetId(secret, match.deal_set));
    create.set_deal_set_size(static_cast<uint32_t>(match.deal_set_size));
  }
  create.set_decision_time_limit_millis(options.decision_time_limit_ms);
  for (int bot : match.seats) {
    create.add_seat_assignments()->set_player_name(config.bots[bot].name);
  }
  cardref::v1::CreateMatchResponse created;
  {
    grpc::Status s = CreateWhenRoom(stub, options, create, &created);
    if (!s.ok()) {
      outcome.record.reason =
          absl::StrCat("CreateMatch refused: ", s.error_message());
      outcome.played = s.error_code() != grpc::StatusCode::UNAVAILABLE &&
                       s.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED &&
                       s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED;
      if (!outcome.played) {
        if (s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED &&
            !create.retry_key().empty()) {
          outcome.lost_creation = create;
        }
        outcome.record.outcome = "not played";
        outcome.record.reason = absl::StrCat(
            s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED
                ? "the referee stayed busy for the match's budget ("
                : "the referee is unreachable (",
            s.error_message(), "); run the event again to play it");
      }
      return outcome;
    }
  }
  outcome.record.match_id = created.match_id();
  if (options.on_started) {
    MatchRecord started = outcome.record;
    started.outcome = "started";
    cardref::v1::GetMatchRequest get;
    get.set_match_id(created.match_id());
    grpc::ClientContext context;
    AddCredential(options, &context);
    MatchInfo info;
    if (stub.GetMatch(&context, get, &info).ok()) {
      started.log_path = info.log_path();
    }
    if (absl::Status s = options.on_started(started); !s.ok()) {
      EndOnReferee(stub, options, created.match_id(),
                   "the tournament cannot record its state");
      outcome.record.outcome = "cancelled";
      outcome.record.reason = std::string(s.message());
      return outcome;
    }
  }

  // One process per seat; the seat's ticket only in its environment. The
  // lease outlives the bots: its end kills whatever still runs as them.
  const UidLease lease(options.uid_pool, static_cast<int>(match.seats.size()));
  std::vector<std::optional<ChildProcess>> bots(match.seats.size());
  // Seats whose bot is started by hand: no process of ours.
  std::vector<bool> by_hand(match.seats.size(), false);
  for (const cardref::v1::SeatTicket& ticket : created.tickets()) {
    const int seat = ticket.seat();
    if (seat < 0 || seat >= static_cast<int>(bots.size())) continue;
    const BotSpec& bot = config.bots[match.seats[seat]];
    ChildSpec spec;
    spec.argv = bot.command;
    spec.argv.push_back(absl::StrCat("--server=", options.server));
    spec.argv.push_back(absl::StrCat("--match_id=", created.match_id()));
    spec.argv.push_back(absl::StrCat("--seat=", seat));
    spec.argv.push_back(absl::StrCat("--name=", bot.name));
    spec.env = {{"CARDREF_SERVER", options.server},
                {"CARDREF_MATCH_ID", created.match_id()},
                {"CARDREF_SEAT", absl::StrCat(seat)},
                {"CARDREF_PLAYER_NAME", bot.name},
                {"CARDREF_JOIN_TICKET", ticket.ticket()},
                {"CARDREF_MATCH_SEED",
                 absl::StrCat(BotSeed(secret, match.key, seat))}};
    if (!options.by_hand.empty() && bot.name == options.by_hand) {
      // The ticket goes to an owner-only file, never to the terminal.
      by_hand[seat] = true;
      if (absl::Status s = WriteFileAtomically(options.by_hand_env,
                                               HandEnvironment(spec.env), 0600);
          !s.ok()) {
        std::fprintf(options.by_hand_out, "by hand: %s\n",
                     std::string(s.message()).c_str());
      }
      std::fprintf(options.by_hand_out,
                   "by hand: %s waits for %s in seat %d of match %s; start "
                   "it (under a debugger, say) with its environment:\n"
                   "  env $(cat %s) %s\n"
                   "waiting up to %.0f s for it to join\n",
                   match.key.c_str(), bot.name.c_str(), seat,
                   created.match_id().c_str(), options.by_hand_env.c_str(),
                   absl::StrJoin(spec.argv, " ").c_str(),
                   std::max(options.join_timeout_s, kByHandJoinTimeoutS));
      std::fflush(options.by_hand_out);
      continue;
    }
    spec.stderr_path = absl::StrCat(options.bot_output_dir, "/", match.key,
                                    ".seat", seat, ".stderr");
    spec.user = options.run_as;
    if (options.uid_pool != nullptr) {
      spec.user = {true, lease.uids()[seat], lease.uids()[seat]};
    }
    spec.max_output_bytes = static_cast<uint64_t>(options.max_bot_output_mb)
                            << 20;
    spec.max_memory_bytes = static_cast<uint64_t>(options.max_bot_memory_mb)
                            << 20;
    spec.max_tasks = options.max_bot_threads;
    bots[seat] = ChildProcess::Start(spec);
  }

  // Watch the bots and the match until the match is over.
  const bool any_by_hand =
      std::find(by_hand.begin(), by_hand.end(), true) != by_hand.end();
  const Clock::time_point join_deadline =
      After(any_by_hand ? std::max(options.join_timeout_s, kByHandJoinTimeoutS)
                        : options.join_timeout_s);
  const Clock::time_point budget_deadline = After(options.match_budget_s);
  std::string end_reason;
  bool join_timed_out = false;
  bool referee_lost = false;
  MatchInfo info;
  Clock::time_point next_check = Clock::now();
  // When the referee stopped answering about the match (max: it answers).
  Clock::time_point unanswered_since = Clock::time_point::max();
  for (;;) {
    bool any_failed = false;
    bool all_exited = true;
    for (size_t seat = 0; seat < bots.size(); ++seat) {
      std::optional<ChildProcess>& bot = bots[seat];
      if (by_hand[seat]) continue;  // the referee's info tells about it
      // A bot that never started, or one that exited with a failure.
      if (!bot.has_value() || (bot->Poll() && !bot->succeeded())) {
        any_failed = true;
      }
      if (bot.has_value() && !bot->exited()) all_exited = false;
    }
    if (Clock::now() >= next_check) {
      next_check = After(0.2);
      const Clock::time_point asked = Clock::now();
      cardref::v1::GetMatchRequest get;
      get.set_match_id(created.match_id());
      grpc::ClientContext context;
      AddCredential(options, &context);
      if (stub.GetMatch(&context, get, &info).ok()) {
        unanswered_since = Clock::time_point::max();
        if (Over(info.status())) break;
        const bool waiting =
            info.status() == cardref::v1::MATCH_STATUS_WAITING_FOR_PLAYERS;
        if (waiting && (any_failed || Clock::now() >= join_deadline)) {
          join_timed_out = !any_failed;
          end_reason = any_failed ? "a bot failed before every seat was taken"
                                  : "not every seat was taken in time";
        } else if (Clock::now() >= budget_deadline) {
          end_reason = "the match ran past its wall-clock budget";
        }
      } else {
        unanswered_since = std::min(unanswered_since, asked);
      }
      if (unanswered_since != Clock::time_point::max() &&
          (Clock::now() >= budget_deadline || all_exited ||
           Clock::now() - unanswered_since >= kRefereeLostAfter)) {
        // Without a referee the match cannot go on (a restarted one aborts
        // it), and bots may wait for it long (cardref_bot keeps reopening
        // its stream for 30 s). It is not recorded, so running the event
        // again plays it.
        referee_lost = true;
        end_reason = "the referee does not answer about the match";
      }
      if (!end_reason.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  // Who failed while the match was on (before it is ended here: bots
  // that fail because it was cancelled are not at fault): a bot that exited
  // unsuccessfully, or, when seats were not all taken, a bot that never joined.
  std::vector<std::string> fault(bots.size());
  std::vector<bool> joined(bots.size(), false);
  for (const cardref::v1::SeatInfo& seat : info.seats()) {
    if (seat.seat() >= 0 && seat.seat() < static_cast<int>(bots.size())) {
      joined[seat.seat()] = true;
    }
  }
  for (size_t seat = 0; seat < bots.size(); ++seat) {
    if (by_hand[seat]) {
      if (!joined[seat] && join_timed_out) {
        fault[seat] = "started by hand but never joined";
      }
    } else if (!bots[seat].has_value()) {
      fault[seat] = "could not be started (fork or its stderr file failed)";
    } else if (bots[seat]->exited() && !bots[seat]->succeeded()) {
      fault[seat] = bots[seat]->Describe();
    } else if (!bots[seat]->exited() && !joined[seat] && join_timed_out) {
      fault[seat] = "running but never joined; killed";
    }
  }

  if (!end_reason.empty()) {
    // Never leave it open for a later bot to join.
    if (std::optional<MatchInfo> ended =
            EndOnReferee(stub, options, created.match_id(), end_reason)) {
      info = *std::move(ended);
    }
    grpc::ClientContext context;
    AddCredential(options, &context);
    cardref::v1::GetMatchRequest get;
    get.set_match_id(created.match_id());
    MatchInfo latest;
    if (stub.GetMatch(&context, get, &latest).ok()) info = latest;
  }

  // Bots get a moment to see the end and exit; then they are killed. After
  // a match the tournament ended itself, a short moment.
  const Clock::time_point grace =
      After(end_reason.empty() ? options.exit_grace_s
                               : std::min(1.0, options.exit_grace_s));
  for (;;) {
    bool all_exited = true;
    for (std::optional<ChildProcess>& bot : bots) {
      if (bot.has_value() && !bot->Poll()) all_exited = false;
    }
    if (all_exited || Clock::now() >= grace) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::vector<std::string> faults;
  for (size_t seat = 0; seat < bots.size(); ++seat) {
    SeatOutcome seat_outcome;
    seat_outcome.seat = static_cast<int>(seat);
    seat_outcome.bot = config.bots[match.seats[seat]].name;
    for (const cardref::v1::SeatFaults& f : info.seat_faults()) {
      if (f.seat() == static_cast<int>(seat)) seat_outcome.faults = f;
    }
    if (by_hand[seat]) seat_outcome.exit = "started by hand";
    if (bots[seat].has_value()) {
      const bool running = !bots[seat]->exited();
      bots[seat]->Kill();
      seat_outcome.exit = bots[seat]->Describe();
      if (bots[seat]->killed_for_a_limit()) {
        // A fault even after the tournament ended the match for another
        // bot's: no cancellation makes a bot hold 2 GiB.
        if (fault[seat].empty()) fault[seat] = seat_outcome.exit;
      } else if (running) {
        seat_outcome.exit = "still running after the match ended; killed";
        // A bot that does not leave a match that ended normally is at
        // fault; one in a match the tournament ended is merely stopped.
        if (fault[seat].empty() && end_reason.empty()) {
          fault[seat] = seat_outcome.exit;
        }
      } else if (fault[seat].empty() && end_reason.empty() &&
                 !bots[seat]->succeeded()) {
        fault[seat] = seat_outcome.exit;
      }
    }
    if (!fault[seat].empty()) {
      seat_outcome.failed = true;
      if (!bots[seat].has_value() && !by_hand[seat]) {
        seat_outcome.exit = fault[seat];
      }
      if (bots[seat].has_value()) {
        seat_outcome.stderr_tail = bots[seat]->StderrTail();
      }
      faults.push_back(absl::StrCat("seat ", seat, " (", seat_outcome.bot,
                                    "): ", fault[seat]));
    }
    outcome.seats.push_back(std::move(seat_outcome));
  }
  outcome.info = info;
  outcome.record.outcome = OutcomeName(info.status());
  if (referee_lost && !Over(info.status())) {
    outcome.played = false;
    outcome.record.outcome = "not played";
  }
  outcome.record.log_path = info.log_path();
  std::vector<std::string> reasons;
  if (!end_reason.empty()) reasons.push_back(end_reason);
  if (!info.end_reason().empty() &&
      (end_reason.empty() ||
       info.end_reason().find(end_reason) == std::string::npos)) {
    reasons.push_back(info.end_reason());
  }
  if (!faults.empty()) reasons.push_back(absl::StrJoin(faults, "; "));
  outcome.record.reason = absl::StrJoin(reasons, "; ");
  return outcome;
}

}  // namespace cardref::tournament
