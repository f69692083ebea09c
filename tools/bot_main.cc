// cardref_bot: an example bot that plays through the referee's gRPC API.
//
//   cardref_bot --server=localhost:50051 --game=craits --strategy=random
//
// It joins a match (--match_id, or any open match of --game), watches its
// observations and answers each decision. Strategies: "random" (uniform over
// the legal actions, seeded by --seed, else by $CARDREF_MATCH_SEED, which
// cardref_tournament sets per match and seat), "first" (always the first legal
// action) and "heuristic" (a simple rule set per game, bots/heuristic.h).
// The ticket of an invited seat comes from $CARDREF_JOIN_TICKET. A bot for
// another language needs only referee.proto: the observation lists the legal
// actions, each with its notation.
//
// With a bot credential ($CARDREF_BOT_CREDENTIAL, or --invitations) it runs
// as a service instead (docs/bots.md, "Invitations"): it keeps one
// WatchInvitations stream open, asks for --max_matches at once (else
// $CARDREF_MAX_MATCHES, else 1) of --games (else $CARDREF_GAMES, else all),
// and plays every seat it is invited to on a thread of its own, seeded by
// the invitation's match_seed, until the stream ends (or --matches seats
// were played, when given).
//
// It does what docs/bots.md asks of a bot on a network that fails: every
// unary call has a deadline; a join is resent with its retry_key and an
// answer with its sequence number (so the referee acts on each at most
// once); a stream that breaks is reopened from the last version seen.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"
#include "bots/heuristic.h"
#include "tools/cli_flags.h"
#include "tools/version.h"

ABSL_FLAG(std::string, server, "",
          "Referee address; empty = $CARDREF_SERVER, else localhost:50051");
ABSL_FLAG(std::string, game, "craits",
          "Game of the match to join when --match_id is empty");
ABSL_FLAG(std::string, match_id, "",
          "Match to join; empty = $CARDREF_MATCH_ID, else any open match");
ABSL_FLAG(int, seat, -1,
          "Seat to take; -1 = $CARDREF_SEAT, else the lowest free seat");
ABSL_FLAG(std::string, name, "",
          "Player name written into the log; empty = $CARDREF_PLAYER_NAME, "
          "else the strategy's name");
ABSL_FLAG(std::string, strategy, "random", "random | first | heuristic");
ABSL_FLAG(uint64_t, seed, 0,
          "Seed of the random strategy; 0 = $CARDREF_MATCH_SEED (set by "
          "cardref_tournament, its own per match and seat), else from the "
          "OS");
ABSL_FLAG(int, matches, 1,
          "Matches to play one after the other; with invitations, seats to "
          "play before leaving (0: until the invitation stream ends)");
ABSL_FLAG(bool, invitations, false,
          "Run as a service: take matches by invitation with the bot "
          "credential in $CARDREF_BOT_CREDENTIAL (implied when it is set "
          "and no match is named)");
ABSL_FLAG(int, max_matches, 0,
          "With invitations: matches played at once; 0 = $CARDREF_MAX_MATCHES, "
          "else 1");
ABSL_FLAG(std::vector<std::string>, games, {},
          "With invitations: the games to be invited to; empty = "
          "$CARDREF_GAMES (comma-separated), else every game");
ABSL_FLAG(int, join_timeout_s, 30,
          "How long to keep retrying to find an open match");
ABSL_FLAG(int, reconnect_timeout_s, 30,
          "How long to keep reopening a broken observation stream while the "
          "referee does not answer");
ABSL_FLAG(bool, quiet, false, "Print only errors");

namespace {

using cardref::v1::Observation;
using cardref::v1::Referee;

// Flags left empty fall back to the environment cardref_tournament sets
// (docs/tournament.md).
std::string FlagOrEnv(const std::string& flag, const char* name) {
  const char* env = std::getenv(name);
  return flag.empty() && env != nullptr ? std::string(env) : flag;
}

// --seed, else $CARDREF_MATCH_SEED, else the OS: never one fixed seed, or
// two matches of one position would replay each other move for move.
uint64_t StrategySeed(uint64_t flag) {
  if (flag != 0) return flag;
  uint64_t seed = 0;
  if (const char* env = std::getenv("CARDREF_MATCH_SEED");
      env != nullptr && absl::SimpleAtoi(env, &seed) && seed != 0) {
    return seed;
  }
  std::random_device os_random;
  return (static_cast<uint64_t>(os_random()) << 32) | os_random();
}

// The name to join under: --name, the tournament's $CARDREF_PLAYER_NAME, or
// the strategy (a heuristic bot must not join as "random").
std::string PlayerName() {
  const std::string name =
      FlagOrEnv(absl::GetFlag(FLAGS_name), "CARDREF_PLAYER_NAME");
  return name.empty() ? absl::GetFlag(FLAGS_strategy) : name;
}

// "FAILED_PRECONDITION: ..." (gRPC's codes are absl's numbers).
std::string StatusText(const grpc::Status& s) {
  return absl::StrCat(
      absl::StatusCodeToString(static_cast<absl::StatusCode>(s.error_code())),
      ": ", s.error_message());
}

// A unary call that takes longer has lost its referee (docs/bots.md).
constexpr std::chrono::seconds kCallTimeout{10};

// Failures worth the same request again after a pause: the connection
// failed, or a limit that frees itself (the broken stream the referee has
// not yet closed counts against the seat's streams; docs/limits.md).
bool IsTransient(const grpc::Status& s) {
  return s.error_code() == grpc::StatusCode::UNAVAILABLE ||
         s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
}

// Pauses between retries: 50 ms, doubling up to 1 s.
class Backoff {
 public:
  void Wait() {
    std::this_thread::sleep_for(pause_);
    pause_ = std::min(pause_ * 2, std::chrono::milliseconds(1000));
  }
  void Reset() { pause_ = std::chrono::milliseconds(50); }

 private:
  std::chrono::milliseconds pause_{50};
};

// The seat to join: from the flags and the environment, or an invitation.
struct SeatSpec {
  std::string match_id;
  std::string game;
  int seat = -1;
  std::string player_name;  // empty with a credential: the entrant's
  std::string shown_name;   // for the bot's own messages; the invitation's
  std::string ticket;
  std::string credential;
};

SeatSpec SeatFromFlags() {
  SeatSpec spec;
  spec.match_id =
      FlagOrEnv(absl::GetFlag(FLAGS_match_id), "CARDREF_MATCH_ID");
  spec.game = absl::GetFlag(FLAGS_game);
  spec.seat = absl::GetFlag(FLAGS_seat);
  if (const char* env = std::getenv("CARDREF_SEAT");
      spec.seat < 0 && env != nullptr && !absl::SimpleAtoi(env, &spec.seat)) {
    spec.seat = -1;
  }
  spec.player_name = PlayerName();
  // An invited seat's ticket: from the environment, where the tournament
  // runner puts it (a command line is visible to every user).
  if (const char* ticket = std::getenv("CARDREF_JOIN_TICKET");
      ticket != nullptr) {
    spec.ticket = ticket;
  }
  return spec;
}

class Bot {
 public:
  Bot(const std::shared_ptr<grpc::Channel>& channel, uint64_t seed)
      : stub_(Referee::NewStub(channel)), rng_(seed) {}

  // Plays one match to its end. Returns false on an error.
  bool PlayOne(const SeatSpec& spec) {
    cardref::v1::JoinMatchResponse joined;
    if (!Join(spec, &joined)) return false;
    const std::string who =
        absl::StrCat(joined.match_id(), " seat ", joined.seat());
    if (!absl::GetFlag(FLAGS_quiet)) {
      const std::string& name =
          spec.player_name.empty() ? spec.shown_name : spec.player_name;
      std::printf("%s: joined %s\n",
                  name.empty() ? "(entrant)" : name.c_str(), who.c_str());
      std::fflush(stdout);
    }
    cardref::v1::SeatRequest request;
    request.set_match_id(joined.match_id());
    request.set_seat(joined.seat());
    request.set_token(joined.token());
    const auto patience =
        std::chrono::seconds(absl::GetFlag(FLAGS_reconnect_timeout_s));
    Observation last;
    int decisions = 0;
    int reconnects = 0;
    Backoff backoff;
    auto give_up = std::chrono::steady_clock::now() + patience;
    for (;;) {
      // One stream plays the seat (PlaySeat): observations in, actions
      // out. Reopened from the last version seen: recent_actions then holds
      // exactly what this bot missed.
      request.set_since_version(last.version());
      grpc::ClientContext context;
      std::unique_ptr<grpc::ClientReaderWriter<cardref::v1::PlaySeatRequest,
                                               cardref::v1::PlaySeatResponse>>
          stream = stub_->PlaySeat(&context);
      cardref::v1::PlaySeatRequest first;
      *first.mutable_seat() = request;
      cardref::v1::PlaySeatResponse message;
      bool broke = !stream->Write(first);
      while (!broke && stream->Read(&message)) {
        give_up = std::chrono::steady_clock::now() + patience;
        backoff.Reset();
        if (message.has_refused()) {
          Refused(joined, message.refused());
          continue;
        }
        last = std::move(*message.mutable_observation());
        if (last.seat_to_act() != joined.seat() ||
            last.legal_actions().empty()) {
          continue;
        }
        ++decisions;
        // A broken stream: Finish says why, and a reopened one asks again
        // if the action was lost.
        broke = !stream->Write(Answer(last));
      }
      grpc::Status end = stream->Finish();
      if (end.ok()) break;
      if (IsTransient(end)) {
        // The stream is silent while other seats act, so one that broke
        // says nothing about whether the referee is there; a unary call
        // does (and shows a match that ended meanwhile).
        Observation now;
        grpc::Status probe = Probe(request, &now);
        if (probe.ok()) {
          give_up = std::chrono::steady_clock::now() + patience;
          if (IsOver(now)) {
            last = now;
            break;
          }
        } else if (!IsTransient(probe)) {
          end = probe;
        }
      }
      if (!IsTransient(end) || std::chrono::steady_clock::now() > give_up) {
        std::fprintf(stderr, "%s: stream ended: %s\n", who.c_str(),
                     StatusText(end).c_str());
        return false;
      }
      ++reconnects;
      std::fprintf(stderr, "%s: stream broke (%s); reopening from version %llu\n",
                   who.c_str(), StatusText(end).c_str(),
                   static_cast<unsigned long long>(last.version()));
      backoff.Wait();
    }
    if (!absl::GetFlag(FLAGS_quiet)) {
      std::printf("%s: match over after %d decisions, %d reconnects; "
                  "scores [%s], winners [%s]\n",
                  who.c_str(), decisions, reconnects,
                  absl::StrJoin(last.result().scores(), ", ").c_str(),
                  absl::StrJoin(last.result().winners(), ", ").c_str());
    }
    return last.status() == cardref::v1::MATCH_STATUS_FINISHED;
  }

 private:
  bool Join(const SeatSpec& spec, cardref::v1::JoinMatchResponse* joined) {
    cardref::v1::JoinMatchRequest request;
    request.set_match_id(spec.match_id);
    request.set_game(spec.game);
    if (spec.seat >= 0) request.set_seat(spec.seat);
    request.set_player_name(spec.player_name);
    request.set_ticket(spec.ticket);
    request.set_credential(spec.credential);
    request.set_player_version(absl::StrCat("cardref_bot ", cardref::kVersion,
                                            " ", absl::GetFlag(FLAGS_strategy)));
    // Makes the join safe to resend: a join the referee took whose answer
    // was lost is answered again (the same seat and token), never a second
    // seat. From the OS, not --seed: it must not be guessable.
    std::random_device os_random;
    request.set_retry_key(absl::StrFormat("%08x%08x%08x%08x", os_random(),
                                          os_random(), os_random(),
                                          os_random()));
    const auto give_up = std::chrono::steady_clock::now() +
                         std::chrono::seconds(absl::GetFlag(FLAGS_join_timeout_s));
    Backoff backoff;
    for (;;) {
      grpc::ClientContext context;
      // Waits for a connection rather than failing at once (the referee may
      // be starting).
      context.set_wait_for_ready(true);
      context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
      grpc::Status s = stub_->JoinMatch(&context, request, joined);
      if (s.ok()) return true;
      // Resent: the connection failed, or no open match yet (the organiser
      // may not have created it).
      const bool again =
          IsTransient(s) ||
          s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
          (s.error_code() == grpc::StatusCode::NOT_FOUND &&
           request.match_id().empty());
      if (!again || std::chrono::steady_clock::now() > give_up) {
        std::fprintf(stderr, "join failed: %s\n", StatusText(s).c_str());
        return false;
      }
      backoff.Wait();
    }
  }

  grpc::Status Probe(const cardref::v1::SeatRequest& request,
                     Observation* now) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
    return stub_->GetObservation(&context, request, now);
  }

  static bool IsOver(const Observation& obs) {
    return obs.status() == cardref::v1::MATCH_STATUS_FINISHED ||
           obs.status() == cardref::v1::MATCH_STATUS_ABORTED;
  }

  // The action for `obs`'s decision, as PlaySeat's next message.
  cardref::v1::PlaySeatRequest Answer(const Observation& obs) {
    const int n = obs.legal_actions_size();
    const int pick = strategy_ == "first"       ? 0
                     : strategy_ == "heuristic" ? cardref::bots::HeuristicChoice(obs)
                                                : static_cast<int>(rng_.Uniform(n));
    cardref::v1::PlaySeatRequest message;
    cardref::v1::SubmitActionRequest& submit = *message.mutable_action();
    *submit.mutable_action() = obs.legal_actions(pick);
    submit.set_decision_version(obs.version());
    // Makes a resend after a reconnect safe: the referee applies one
    // sequence number at most once.
    submit.set_sequence(++sequence_);
    return message;
  }

  static void Refused(const cardref::v1::JoinMatchResponse& joined,
                      const cardref::v1::ActionRefused& refused) {
    std::fprintf(stderr, "%s seat %d: action of decision %llu refused: %s\n",
                 joined.match_id().c_str(), joined.seat(),
                 static_cast<unsigned long long>(refused.decision_version()),
                 StatusText(grpc::Status(
                                static_cast<grpc::StatusCode>(refused.code()),
                                refused.message()))
                     .c_str());
  }

  std::unique_ptr<Referee::Stub> stub_;
  cardref::Rng rng_;
  const std::string strategy_ = absl::GetFlag(FLAGS_strategy);
  uint64_t sequence_ = 0;
};

// The invitation stream's settings: flags, else the environment the
// tournament runner sets, else defaults.
struct InvitationSettings {
  std::string credential;
  int max_matches = 1;
  std::vector<std::string> games;
  int seats_to_play = 0;  // 0: until the stream ends
};

InvitationSettings InvitationsFromFlags() {
  InvitationSettings settings;
  if (const char* env = std::getenv("CARDREF_BOT_CREDENTIAL")) {
    settings.credential = env;
  }
  settings.max_matches = absl::GetFlag(FLAGS_max_matches);
  if (const char* env = std::getenv("CARDREF_MAX_MATCHES");
      settings.max_matches <= 0 && env != nullptr) {
    int parsed = 0;
    if (absl::SimpleAtoi(env, &parsed)) settings.max_matches = parsed;
  }
  settings.max_matches = std::max(settings.max_matches, 1);
  settings.games = absl::GetFlag(FLAGS_games);
  if (const char* env = std::getenv("CARDREF_GAMES");
      settings.games.empty() && env != nullptr) {
    settings.games = absl::StrSplit(env, ',', absl::SkipEmpty());
  }
  // --matches counts seats here, and only when given.
  if (absl::GetFlag(FLAGS_matches) != 1 || absl::GetFlag(FLAGS_invitations)) {
    settings.seats_to_play = absl::GetFlag(FLAGS_matches);
  }
  return settings;
}

// Plays invitations until the stream ends for good (revoked, or the referee
// gone for --reconnect_timeout_s) or `seats_to_play` seats were played.
// Each seat on a thread of its own; returns once they are all over.
int RunInvitations(const std::shared_ptr<grpc::Channel>& channel,
                   const InvitationSettings& settings) {
  auto stub = Referee::NewStub(channel);
  cardref::v1::WatchInvitationsRequest request;
  request.set_credential(settings.credential);
  request.set_max_matches(settings.max_matches);
  for (const std::string& g : settings.games) request.add_games(g);
  struct SeatThread {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::vector<SeatThread> seats;
  std::set<std::string> taken;  // "match/seat" of every invitation played
  std::atomic<int> failures{0};
  int started = 0;
  const auto patience =
      std::chrono::seconds(absl::GetFlag(FLAGS_reconnect_timeout_s));
  auto give_up = std::chrono::steady_clock::now() + patience;
  Backoff backoff;
  grpc::Status end;
  std::optional<grpc::ClientContext> context;
  for (;;) {
    context.emplace();
    context->set_wait_for_ready(true);
    auto stream = stub->WatchInvitations(&*context, request);
    cardref::v1::InvitationEvent event;
    bool done = false;
    while (!done && stream->Read(&event)) {
      give_up = std::chrono::steady_clock::now() + patience;
      backoff.Reset();
      if (event.has_open()) {
        if (!absl::GetFlag(FLAGS_quiet)) {
          std::printf("%s: taking up to %d matches at once%s%s\n",
                      event.open().entrant().c_str(),
                      event.open().max_matches(),
                      event.open().note().empty() ? "" : ": ",
                      event.open().note().c_str());
          std::fflush(stdout);
        }
        continue;
      }
      const cardref::v1::Invitation& invitation = event.invitation();
      // A stream that broke gives back its seats not yet joined, and the
      // reopened one may bring one this bot is joining already.
      if (!taken.insert(absl::StrCat(invitation.match_id(), "/",
                                     invitation.seat()))
               .second) {
        continue;
      }
      SeatSpec spec;
      spec.match_id = invitation.match_id();
      spec.seat = invitation.seat();
      spec.ticket = invitation.ticket();
      spec.credential = settings.credential;
      spec.shown_name = invitation.player_name();
      const uint64_t seed = invitation.match_seed() != 0
                                ? invitation.match_seed()
                                : StrategySeed(absl::GetFlag(FLAGS_seed));
      // Seats over are joined as new ones come: a bot that plays for days
      // holds no finished thread.
      seats.erase(std::remove_if(seats.begin(), seats.end(),
                                 [](SeatThread& t) {
                                   if (!t.done->load()) return false;
                                   t.thread.join();
                                   return true;
                                 }),
                  seats.end());
      auto over = std::make_shared<std::atomic<bool>>(false);
      seats.push_back({std::thread([channel, spec, seed, over, &failures] {
                         Bot bot(channel, seed);
                         if (!bot.PlayOne(spec)) failures.fetch_add(1);
                         over->store(true);
                       }),
                       over});
      ++started;
      if (settings.seats_to_play > 0 && started >= settings.seats_to_play) {
        done = true;
      }
    }
    if (done) {
      context->TryCancel();
      stream->Finish().IgnoreError();
      break;
    }
    end = stream->Finish();
    if (!IsTransient(end) || std::chrono::steady_clock::now() > give_up) {
      break;
    }
    std::fprintf(stderr, "invitation stream broke (%s); reopening\n",
                 StatusText(end).c_str());
    backoff.Wait();
  }
  for (SeatThread& t : seats) t.thread.join();
  if (!end.ok()) {
    std::fprintf(stderr, "invitation stream ended: %s\n",
                 StatusText(end).c_str());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_bot",
      "An example cardref bot.\nUsage: cardref_bot --server=localhost:50051 "
      "--game=craits --strategy=random [--match_id=ID] [--seat=N]");
  const std::string strategy = absl::GetFlag(FLAGS_strategy);
  if (strategy != "random" && strategy != "first" && strategy != "heuristic") {
    std::fprintf(stderr, "unknown --strategy=%s (random | first | heuristic)\n",
                 strategy.c_str());
    return cardref::cli::kExitUsage;
  }
  if (absl::GetFlag(FLAGS_matches) < 0 ||
      absl::GetFlag(FLAGS_join_timeout_s) < 0 ||
      absl::GetFlag(FLAGS_reconnect_timeout_s) < 0) {
    std::fprintf(stderr,
                 "cardref_bot: --matches must be 0 or more, --join_timeout_s "
                 "and --reconnect_timeout_s 0 or more; got %d, %d and %d\n",
                 absl::GetFlag(FLAGS_matches),
                 absl::GetFlag(FLAGS_join_timeout_s),
                 absl::GetFlag(FLAGS_reconnect_timeout_s));
    return cardref::cli::kExitUsage;
  }
  std::string server = FlagOrEnv(absl::GetFlag(FLAGS_server), "CARDREF_SERVER");
  if (server.empty()) server = "localhost:50051";
  const std::shared_ptr<grpc::Channel> channel =
      grpc::CreateChannel(server, grpc::InsecureChannelCredentials());
  const InvitationSettings invited = InvitationsFromFlags();
  const bool match_named =
      !FlagOrEnv(absl::GetFlag(FLAGS_match_id), "CARDREF_MATCH_ID").empty();
  if (absl::GetFlag(FLAGS_invitations) ||
      (!invited.credential.empty() && !match_named)) {
    if (invited.credential.empty()) {
      std::fprintf(stderr,
                   "cardref_bot: --invitations needs the bot credential in "
                   "$CARDREF_BOT_CREDENTIAL (docs/bots.md, \"Invitations\")\n");
      return cardref::cli::kExitUsage;
    }
    return RunInvitations(channel, invited);
  }
  // Only a service may be told to play until its stream ends.
  if (absl::GetFlag(FLAGS_matches) < 1) {
    std::fprintf(stderr,
                 "cardref_bot: --matches must be 1 or more (0, until the "
                 "stream ends, is for --invitations); got %d\n",
                 absl::GetFlag(FLAGS_matches));
    return cardref::cli::kExitUsage;
  }
  Bot bot(channel, StrategySeed(absl::GetFlag(FLAGS_seed)));
  const SeatSpec spec = SeatFromFlags();
  int failures = 0;
  for (int i = 0; i < absl::GetFlag(FLAGS_matches); ++i) {
    if (!bot.PlayOne(spec)) ++failures;
  }
  return failures == 0 ? 0 : 1;
}
