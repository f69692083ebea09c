// A minimal cardref bot in C++: takes one seat and plays the first legal
// action until the match ends. The guide is docs/bots.md.
//
//   minimal_bot --server=localhost:50051 --match_id=ID --seat=0
//
// Without --match_id it joins the oldest open match of --game. An invited
// seat's ticket is read from the environment variable CARDREF_JOIN_TICKET
// (a command line is visible to every user of the machine).
//
// It needs only the stubs generated from proto/ and Debian's libgrpc++-dev
// (docs/bots.md shows the protoc and compiler commands); this project
// builds it as docs/examples/minimal_bot with its own stubs. It parses its
// few flags itself so that it can be copied out of the project; flags it
// does not know are ignored with a note (a runner's newer flags are no
// reason to forfeit a match).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace {

struct Flags {
  std::string server = "localhost:50051";
  std::string match_id;
  std::string game = "craits";
  std::string name = "minimal_cc";
  int seat = -1;
};

constexpr char kUsage[] =
    "minimal_bot: a minimal cardref bot (plays the first legal action).\n"
    "Usage: minimal_bot [--server=HOST:PORT] [--match_id=ID] [--seat=N]\n"
    "                   [--game=GAME] [--name=NAME]\n"
    "A ticket for an invited seat is read from $CARDREF_JOIN_TICKET.\n";

// Returns false after printing help or version (exit 0).
bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value_of = [&arg](const char* name, std::string* out) {
      const std::string prefix = std::string("--") + name + "=";
      if (arg.compare(0, prefix.size(), prefix) != 0) return false;
      *out = arg.substr(prefix.size());
      return true;
    };
    std::string seat;
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return false;
    } else if (arg == "--version") {
      std::printf("minimal_bot 1.0.0\n");
      return false;
    } else if (value_of("server", &flags->server) ||
               value_of("match_id", &flags->match_id) ||
               value_of("game", &flags->game) ||
               value_of("name", &flags->name)) {
    } else if (value_of("seat", &seat)) {
      flags->seat = std::atoi(seat.c_str());
    } else {
      std::fprintf(stderr, "minimal_bot: ignoring '%s'\n", arg.c_str());
    }
  }
  return true;
}

std::string Describe(const grpc::Status& s) {
  return std::to_string(s.error_code()) + ": " + s.error_message();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 0;
  std::unique_ptr<cardref::v1::Referee::Stub> stub =
      cardref::v1::Referee::NewStub(grpc::CreateChannel(
          flags.server, grpc::InsecureChannelCredentials()));

  cardref::v1::JoinMatchRequest join;
  join.set_match_id(flags.match_id);
  join.set_game(flags.game);
  if (flags.seat >= 0) join.set_seat(flags.seat);
  join.set_player_version("minimal_bot.cc 1");
  if (const char* ticket = std::getenv("CARDREF_JOIN_TICKET");
      ticket != nullptr && *ticket != '\0') {
    join.set_ticket(ticket);  // an invited seat keeps the organiser's name
  } else {
    join.set_player_name(flags.name);
  }
  cardref::v1::JoinMatchResponse joined;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    grpc::Status s = stub->JoinMatch(&context, join, &joined);
    if (!s.ok()) {
      std::fprintf(stderr, "join failed: %s\n", Describe(s).c_str());
      return 1;
    }
  }

  cardref::v1::SeatRequest seat;
  seat.set_match_id(joined.match_id());
  seat.set_seat(joined.seat());
  seat.set_token(joined.token());
  grpc::ClientContext watch_context;
  auto stream = stub->WatchObservations(&watch_context, seat);
  cardref::v1::Observation obs;
  cardref::v1::Observation last;
  uint64_t sequence = 0;
  // One message each time this seat must act, and one at the end.
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
    submit.set_decision_version(obs.version());  // never a later decision
    submit.set_sequence(++sequence);  // a resend is answered, not re-applied
    for (int attempt = 0;; ++attempt) {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(10));
      cardref::v1::SubmitActionResponse response;
      grpc::Status s = stub->SubmitAction(&context, submit, &response);
      if (s.ok()) break;
      if (s.error_code() != grpc::StatusCode::UNAVAILABLE || attempt == 2) {
        // The message names the rule broken or what was expected.
        std::fprintf(stderr, "seat %d: '%s' refused: %s\n", joined.seat(),
                     submit.action().notation().c_str(), Describe(s).c_str());
        break;
      }
    }
  }
  grpc::Status end = stream->Finish();
  if (!end.ok()) {
    std::fprintf(stderr, "stream ended: %s\n", Describe(end).c_str());
    return 1;
  }
  const bool finished = last.status() == cardref::v1::MATCH_STATUS_FINISHED;
  std::printf("%s seat %d: %s\n", joined.match_id().c_str(), joined.seat(),
              finished ? "finished" : "ended");
  return finished ? 0 : 1;
}
