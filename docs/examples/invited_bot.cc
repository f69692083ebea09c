// A minimal cardref bot as a service, in C++: connects once with its bot
// credential and plays the first legal action in every seat it is invited
// to, each on a thread of its own (docs/bots.md, "Invitations").
//
//   CARDREF_BOT_CREDENTIAL=$(cat alice.credential) invited_bot
//       --server=localhost:50051 --max_matches=4
//
// The credential is read from the environment only (a command line is
// visible to every user). It stops when its invitation stream ends (the
// credential was revoked, the referee stopped) or after --matches seats
// were played (0: never). Built like minimal_bot.cc: the stubs
// from proto/ and Debian's libgrpc++-dev; flags it does not know are
// ignored with a note.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace {

struct Flags {
  std::string server = "localhost:50051";
  int max_matches = 1;
  std::string games;  // comma-separated; empty: every game
  int matches = 0;  // seats to play, then leave; 0: never
};

constexpr char kUsage[] =
    "invited_bot: a minimal cardref bot that takes matches by invitation.\n"
    "Usage: CARDREF_BOT_CREDENTIAL=... invited_bot [--server=HOST:PORT]\n"
    "           [--max_matches=N] [--games=craits,kraken] [--matches=N]\n";

// Returns false after printing help or version (exit 0).
bool ParseFlags(int argc, char** argv, Flags* flags) {
  if (const char* env = std::getenv("CARDREF_SERVER")) flags->server = env;
  if (const char* env = std::getenv("CARDREF_MAX_MATCHES")) {
    flags->max_matches = std::atoi(env);
  }
  if (const char* env = std::getenv("CARDREF_GAMES")) flags->games = env;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value_of = [&arg](const char* name, std::string* out) {
      const std::string prefix = std::string("--") + name + "=";
      if (arg.compare(0, prefix.size(), prefix) != 0) return false;
      *out = arg.substr(prefix.size());
      return true;
    };
    std::string number;
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return false;
    } else if (arg == "--version") {
      std::printf("invited_bot 1.0.0\n");
      return false;
    } else if (value_of("server", &flags->server) ||
               value_of("games", &flags->games)) {
    } else if (value_of("max_matches", &number)) {
      flags->max_matches = std::atoi(number.c_str());
    } else if (value_of("matches", &number)) {
      flags->matches = std::atoi(number.c_str());
    } else {
      std::fprintf(stderr, "invited_bot: ignoring '%s'\n", arg.c_str());
    }
  }
  return true;
}

std::string Describe(const grpc::Status& s) {
  return std::to_string(s.error_code()) + ": " + s.error_message();
}

// Joins the invited seat (its ticket and the credential) and plays it to
// the end. True if the match finished.
bool Play(cardref::v1::Referee::Stub& stub, const std::string& credential,
          const cardref::v1::Invitation& invitation) {
  cardref::v1::JoinMatchRequest join;
  join.set_match_id(invitation.match_id());
  join.set_ticket(invitation.ticket());
  join.set_credential(credential);  // only the entrant's credential takes it
  join.set_player_version("invited_bot.cc 1");
  cardref::v1::JoinMatchResponse joined;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    grpc::Status s = stub.JoinMatch(&context, join, &joined);
    if (!s.ok()) {
      std::fprintf(stderr, "%s: join failed: %s\n",
                   invitation.match_id().c_str(), Describe(s).c_str());
      return false;
    }
  }
  cardref::v1::SeatRequest seat;
  seat.set_match_id(joined.match_id());
  seat.set_seat(joined.seat());
  seat.set_token(joined.token());
  grpc::ClientContext watch_context;
  auto stream = stub.WatchObservations(&watch_context, seat);
  cardref::v1::Observation obs, last;
  uint64_t sequence = 0;
  while (stream->Read(&obs)) {
    last = obs;
    if (obs.seat_to_act() != joined.seat() || obs.legal_actions().empty()) {
      continue;
    }
    cardref::v1::SubmitActionRequest submit;
    submit.set_match_id(joined.match_id());
    submit.set_seat(joined.seat());
    submit.set_token(joined.token());
    *submit.mutable_action() = obs.legal_actions(0);
    submit.set_decision_version(obs.version());
    submit.set_sequence(++sequence);
    submit.set_omit_observation(true);  // the stream brings the next one
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    cardref::v1::SubmitActionResponse response;
    grpc::Status s = stub.SubmitAction(&context, submit, &response);
    if (!s.ok()) {
      std::fprintf(stderr, "%s seat %d: refused: %s\n",
                   joined.match_id().c_str(), joined.seat(),
                   Describe(s).c_str());
    }
  }
  stream->Finish().ok();
  const bool finished = last.status() == cardref::v1::MATCH_STATUS_FINISHED;
  std::printf("%s seat %d: %s\n", joined.match_id().c_str(), joined.seat(),
              finished ? "finished" : "ended");
  std::fflush(stdout);
  return finished;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 0;
  const char* credential = std::getenv("CARDREF_BOT_CREDENTIAL");
  if (credential == nullptr || *credential == '\0') {
    std::fprintf(stderr, "invited_bot: set CARDREF_BOT_CREDENTIAL\n");
    return 2;
  }
  auto stub = cardref::v1::Referee::NewStub(
      grpc::CreateChannel(flags.server, grpc::InsecureChannelCredentials()));
  cardref::v1::WatchInvitationsRequest request;
  request.set_credential(credential);
  request.set_max_matches(flags.max_matches);
  for (size_t start = 0; start < flags.games.size();) {
    size_t comma = flags.games.find(',', start);
    if (comma == std::string::npos) comma = flags.games.size();
    if (comma > start) {
      request.add_games(flags.games.substr(start, comma - start));
    }
    start = comma + 1;
  }

  std::vector<std::thread> seats;
  std::set<std::string> taken;  // "match/seat" of every invitation played
  std::atomic<int> failed{0};
  bool done = false;
  grpc::Status end;
  const auto patience = std::chrono::seconds(30);
  auto give_up = std::chrono::steady_clock::now() + patience;
  while (!done) {
    grpc::ClientContext context;
    context.set_wait_for_ready(true);
    auto stream = stub->WatchInvitations(&context, request);
    cardref::v1::InvitationEvent event;
    while (!done && stream->Read(&event)) {
      give_up = std::chrono::steady_clock::now() + patience;
      if (event.has_open()) {
        std::printf("%s: up to %d matches at once\n",
                    event.open().entrant().c_str(),
                    event.open().max_matches());
        std::fflush(stdout);
        continue;
      }
      // A broken stream's seats come again on the next one.
      const std::string key = event.invitation().match_id() + "/" +
                              std::to_string(event.invitation().seat());
      if (!taken.insert(key).second) continue;
      seats.emplace_back([&stub, credential, invitation = event.invitation(),
                          &failed] {
        if (!Play(*stub, credential, invitation)) failed.fetch_add(1);
      });
      done = flags.matches > 0 &&
             static_cast<int>(seats.size()) >= flags.matches;
    }
    if (done) {
      context.TryCancel();
      stream->Finish().ok();
      break;
    }
    end = stream->Finish();
    // A broken connection: open the stream again for a while.
    if (end.error_code() != grpc::StatusCode::UNAVAILABLE ||
        std::chrono::steady_clock::now() > give_up) {
      std::fprintf(stderr, "invitation stream ended: %s\n",
                   Describe(end).c_str());
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  for (std::thread& t : seats) t.join();
  return done && failed == 0 ? 0 : 1;
}
