// A bot for the tournament's hostile suite (sandbox_tournament_test.cc):
// it plays as cardref_tournament starts a bot (its seat's environment,
// CARDREF_SERVER, CARDREF_JOIN_TICKET, ...), a random legal action seeded
// by CARDREF_MATCH_SEED, and first does one hostile thing, saying on its
// output what it reached:
//
//   hostile_player spy --read=PATH... --connect=HOST:PORT... --daemon
//       tries to read each PATH ("READ PATH" or "DENIED PATH: errno"), to
//       open a TCP connection to each address ("CONNECTED ..." or
//       "REFUSED ...: errno"), to act as the organiser through its
//       referee's socket ("ORGANISER" or "NOT ORGANISER: code"), and
//       leaves a double-forked daemon behind ("DAEMON pid");
//   hostile_player busy       a child spins 128 threads all match; it never
//                             answers (so it is soon made absent and the
//                             match is short), and leaves at the match's end
//   hostile_player bomb       at its 3rd decision, allocates until killed
//   hostile_player honest     15 ms of CPU work for each of its first 100
//                             decisions (then none, to keep the match short)
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"

namespace {

using cardref::v1::Observation;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

void Say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

std::string Flag(const std::string& arg, const char* name) {
  const std::string prefix = std::string("--") + name + "=";
  return arg.rfind(prefix, 0) == 0 ? arg.substr(prefix.size()) : "";
}

void TryRead(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    Say("DENIED " + path + ": " + std::strerror(errno));
    return;
  }
  char byte;
  const ssize_t n = read(fd, &byte, 1);
  const int error = errno;
  close(fd);
  // A folder opens but does not read: listing it is what counts.
  if (n < 0 && error != EISDIR) {
    Say("DENIED " + path + ": " + std::strerror(error));
  } else {
    Say("READ " + path);
  }
}

void TryConnect(const std::string& address) {
  const size_t colon = address.rfind(':');
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(
      std::atoi(address.substr(colon + 1).c_str())));
  inet_pton(AF_INET, address.substr(0, colon).c_str(), &to.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    Say("REFUSED " + address + ": " + std::strerror(errno));
    return;
  }
  if (connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)) == 0) {
    Say("CONNECTED " + address);
  } else {
    Say("REFUSED " + address + ": " + std::strerror(errno));
  }
  close(fd);
}

void TryOrganiser(cardref::v1::Referee::Stub& stub) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  cardref::v1::ListMatchesResponse listed;
  const grpc::Status s =
      stub.ListMatches(&context, cardref::v1::ListMatchesRequest(), &listed);
  Say(s.ok() ? "ORGANISER"
             : "NOT ORGANISER: " + std::to_string(s.error_code()) + " " +
                   s.error_message());
}

void LeaveDaemon() {
  const pid_t child = fork();
  if (child == 0) {
    setsid();
    if (fork() == 0) {
      Say("DAEMON " + std::to_string(getpid()));
      for (int fd = 0; fd < 3; ++fd) close(fd);
      sleep(600);
    }
    _exit(0);
  }
  waitpid(child, nullptr, 0);
}

// A child that keeps 128 threads busy until the bot ends it: outside the
// sandbox, a thread of another bot would get about 1/65 of a core of two.
pid_t SpinInAChild() {
  const pid_t child = fork();
  if (child != 0) return child;
  std::vector<std::thread> spinners;
  spinners.reserve(128);
  for (int i = 0; i < 128; ++i) {
    spinners.emplace_back([] {
      volatile uint64_t x = 0;
      for (;;) x = x + 1;
    });
  }
  for (std::thread& t : spinners) t.join();
  _exit(0);
}

void Bomb() {
  Say("BOMB");
  std::vector<std::unique_ptr<char[]>> held;
  for (;;) {
    held.emplace_back(new char[1 << 20]);
    std::memset(held.back().get(), 1, 1 << 20);  // resident, not just mapped
  }
}

double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

void Work(double seconds) {
  const double until = CpuSeconds() + seconds;
  volatile uint64_t x = 0;
  while (CpuSeconds() < until) x = x + 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: hostile_player spy|busy|bomb|honest ...\n");
    return 2;
  }
  const std::string mode = argv[1];
  const std::string server = Env("CARDREF_SERVER");
  Say("SERVER " + server);
  // Forks first: no gRPC state in a child.
  if (mode == "spy") {
    for (int i = 2; i < argc; ++i) {
      const std::string arg = argv[i];
      if (!Flag(arg, "read").empty()) TryRead(Flag(arg, "read"));
      if (!Flag(arg, "connect").empty()) TryConnect(Flag(arg, "connect"));
      if (arg == "--daemon") LeaveDaemon();
    }
  }
  const pid_t spinner = mode == "busy" ? SpinInAChild() : -1;
  auto stub = cardref::v1::Referee::NewStub(
      grpc::CreateChannel(server, grpc::InsecureChannelCredentials()));
  if (mode == "spy") TryOrganiser(*stub);

  cardref::v1::JoinMatchRequest join;
  join.set_match_id(Env("CARDREF_MATCH_ID"));
  join.set_seat(std::atoi(Env("CARDREF_SEAT").c_str()));
  join.set_player_name(Env("CARDREF_PLAYER_NAME"));
  join.set_ticket(Env("CARDREF_JOIN_TICKET"));
  cardref::v1::JoinMatchResponse joined;
  {
    grpc::ClientContext context;
    const grpc::Status s = stub->JoinMatch(&context, join, &joined);
    if (!s.ok()) {
      std::fprintf(stderr, "join: %s\n", s.error_message().c_str());
      return 1;
    }
  }
  cardref::v1::SeatRequest request;
  request.set_match_id(joined.match_id());
  request.set_seat(joined.seat());
  request.set_token(joined.token());
  grpc::ClientContext context;
  auto stream = stub->WatchObservations(&context, request);
  Observation obs;
  int decisions = 0;
  cardref::Rng rng(std::strtoull(Env("CARDREF_MATCH_SEED").c_str(), nullptr, 10) | 1);
  while (stream->Read(&obs)) {
    if (obs.seat_to_act() != joined.seat() || obs.legal_actions().empty()) {
      continue;
    }
    ++decisions;
    if (mode == "busy") continue;
    if (mode == "bomb" && decisions == 3) Bomb();
    if (mode == "honest" && decisions <= 100) Work(0.015);
    cardref::v1::SubmitActionRequest submit;
    submit.set_match_id(joined.match_id());
    submit.set_seat(joined.seat());
    submit.set_token(joined.token());
    *submit.mutable_action() = obs.legal_actions(static_cast<int>(
        rng.Uniform(static_cast<uint32_t>(obs.legal_actions_size()))));
    submit.set_decision_version(obs.version());
    submit.set_omit_observation(true);
    grpc::ClientContext submit_context;
    cardref::v1::SubmitActionResponse answer;
    (void)stub->SubmitAction(&submit_context, submit, &answer);
  }
  const grpc::Status end = stream->Finish();
  Say("END " + std::to_string(decisions) + " decisions: " +
      (end.ok() ? "OK" : end.error_message()));
  if (mode == "busy") {
    // Made absent, it spins on until the match is over, then leaves.
    for (;;) {
      grpc::ClientContext poll;
      Observation now;
      const grpc::Status s = stub->GetObservation(&poll, request, &now);
      if (!s.ok() || now.status() == cardref::v1::MATCH_STATUS_FINISHED ||
          now.status() == cardref::v1::MATCH_STATUS_ABORTED) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    kill(spinner, SIGKILL);
    return 0;
  }
  return end.ok() ? 0 : 1;
}
