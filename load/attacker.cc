#include "load/attacker.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <utility>

#include "absl/strings/str_cat.h"
#include "load/players.h"

namespace cardref::load {

namespace {

// Held at once by the connection flood: well below the referee's default
// --max_connections (512), so the flood costs it work, not refusals only.
constexpr int kHeldConnections = 400;
// Never-read event streams, below --max_event_streams (256), over this
// many connections.
constexpr int kIdleStreams = 250;
constexpr int kStreamConnections = 25;
// Threads of the rejection flood, all on the attacker's one connection.
constexpr int kFloodThreads = 4;
// Calls in flight at once in the asynchronous flood: past the tarpit's
// quota each is held for its delay (docs/limits.md, "Refusals"), so this
// many in flight make this many calls per delay. Spread over connections:
// one holds at most --max_streams_per_connection (100) calls at once.
constexpr int kAsyncInFlight = 256;
constexpr int kAsyncConnections = 4;

template <typename CallFn>
grpc::Status Call(const std::string& token, CallFn call) {
  grpc::ClientContext context;
  if (!token.empty()) {
    context.AddMetadata("authorization", absl::StrCat("Bearer ", token));
  }
  SetAnswerDeadline(Clock::now(), &context);  // a hung server ends the attack
  return call(&context);
}

// A stub on a connection of its own (not gRPC's shared one).
std::unique_ptr<v1::Referee::Stub> OwnConnection(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetInt("grpc.use_local_subchannel_pool", 1);
  return v1::Referee::NewStub(grpc::CreateCustomChannel(
      address, grpc::InsecureChannelCredentials(), args));
}

absl::Status Failed(const std::string& what, const grpc::Status& s) {
  return absl::UnavailableError(
      absl::StrCat("the attacker's ", what, " failed: ", s.error_message()));
}

}  // namespace

absl::StatusOr<AttackKind> ParseAttackKind(const std::string& name) {
  if (name == "none") return AttackKind::kNone;
  if (name == "rejections") return AttackKind::kRejections;
  if (name == "async_rejections") return AttackKind::kAsyncRejections;
  if (name == "streams") return AttackKind::kStreams;
  if (name == "connections") return AttackKind::kConnections;
  return absl::InvalidArgumentError(absl::StrCat(
      "--attack must be none, rejections, async_rejections, streams or "
      "connections, got '",
      name, "'"));
}

struct Attacker::Idle {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::MatchEvent>> events;
};

Attacker::Attacker(AttackKind kind, std::string address, std::string token,
                   std::string game)
    : kind_(kind),
      address_(std::move(address)),
      token_(std::move(token)),
      game_(std::move(game)) {}

Attacker::~Attacker() { Stop(); }

const char* Attacker::unit() const {
  switch (kind_) {
    case AttackKind::kRejections:
    case AttackKind::kAsyncRejections:
      return "rejected submissions";
    case AttackKind::kStreams:
      return "never-read streams";
    case AttackKind::kConnections:
      return "connections";
    case AttackKind::kNone:
      break;
  }
  return "";
}

absl::Status Attacker::Start() {
  if (kind_ == AttackKind::kNone) return absl::OkStatus();
  if (kind_ == AttackKind::kConnections) {
    threads_.emplace_back([this] { FloodConnections(); });
    return absl::OkStatus();
  }
  channel_ = grpc::CreateChannel(address_, grpc::InsecureChannelCredentials());
  stub_ = v1::Referee::NewStub(channel_);
  v1::CreateMatchRequest create;
  create.set_game(game_);
  if (!token_.empty()) create.set_open(true);
  v1::CreateMatchResponse created;
  grpc::Status s = Call(token_, [&](grpc::ClientContext* c) {
    return stub_->CreateMatch(c, create, &created);
  });
  if (!s.ok()) return Failed("CreateMatch", s);
  match_id_ = created.match_id();
  if (kind_ == AttackKind::kStreams) {
    // The match waits for players; its streams stay open and idle, spread
    // over connections.
    for (int i = 0; i < kStreamConnections; ++i) {
      stream_stubs_.push_back(OwnConnection(address_));
    }
    v1::WatchMatchRequest watch;
    watch.set_match_id(match_id_);
    for (int i = 0; i < kIdleStreams; ++i) {
      auto idle = std::make_unique<Idle>();
      idle->events = stream_stubs_[i % kStreamConnections]->WatchMatch(
          &idle->context, watch);
      idle_.push_back(std::move(idle));
      ++count_;
    }
    return absl::OkStatus();
  }
  // Rejections: take both seats, then flood from seat 1 whether or not it
  // is to act (the referee plays seat 0's timeouts).
  for (int seat = 0; seat < 2; ++seat) {
    v1::JoinMatchRequest join;
    join.set_match_id(match_id_);
    join.set_seat(seat);
    join.set_player_name(absl::StrCat("attacker", seat));
    v1::JoinMatchResponse joined;
    s = Call("", [&](grpc::ClientContext* c) {
      return stub_->JoinMatch(c, join, &joined);
    });
    if (!s.ok()) return Failed("JoinMatch", s);
    if (seat == 1) seat_token_ = joined.token();
  }
  if (kind_ == AttackKind::kAsyncRejections) {
    threads_.emplace_back([this] { FloodRejectionsAsync(); });
    return absl::OkStatus();
  }
  for (int t = 0; t < kFloodThreads; ++t) {
    threads_.emplace_back([this] { FloodRejections(); });
  }
  return absl::OkStatus();
}

v1::SubmitActionRequest Attacker::RefusedSubmission() const {
  v1::SubmitActionRequest submit;
  submit.set_match_id(match_id_);
  submit.set_seat(1);
  submit.set_token(seat_token_);
  submit.mutable_action()->set_notation("juggle");
  return submit;
}

void Attacker::FloodRejections() {
  const v1::SubmitActionRequest submit = RefusedSubmission();
  while (!stop_.load()) {
    v1::SubmitActionResponse response;
    grpc::ClientContext context;
    SetAnswerDeadline(Clock::now(), &context);
    if (!stub_->SubmitAction(&context, submit, &response).ok()) ++count_;
  }
}

void Attacker::FloodRejectionsAsync() {
  const v1::SubmitActionRequest submit = RefusedSubmission();
  struct Call {
    grpc::ClientContext context;
    v1::SubmitActionResponse response;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<v1::SubmitActionResponse>>
        reader;
  };
  std::vector<std::unique_ptr<v1::Referee::Stub>> stubs;
  stubs.reserve(kAsyncConnections);
  for (int i = 0; i < kAsyncConnections; ++i) {
    stubs.push_back(OwnConnection(address_));
  }
  grpc::CompletionQueue cq;
  size_t issued = 0;
  auto issue = [&] {
    auto* call = new Call;
    SetAnswerDeadline(Clock::now(), &call->context);
    call->reader = stubs[issued++ % stubs.size()]->AsyncSubmitAction(
        &call->context, submit, &cq);
    call->reader->Finish(&call->response, &call->status, call);
  };
  for (int i = 0; i < kAsyncInFlight; ++i) issue();
  int in_flight = kAsyncInFlight;
  void* tag = nullptr;
  bool ok = false;
  while (in_flight > 0 && cq.Next(&tag, &ok)) {
    auto* call = static_cast<Call*>(tag);
    if (!call->status.ok()) ++count_;
    delete call;
    --in_flight;
    if (!stop_.load()) {
      issue();
      ++in_flight;
    }
  }
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) delete static_cast<Call*>(tag);
}

void Attacker::FloodConnections() {
  const size_t colon = address_.rfind(':');
  const std::string host = address_.substr(0, colon);
  const std::string port = address_.substr(colon + 1);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) return;
  std::deque<int> held;
  while (!stop_.load()) {
    const int fd =
        socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) break;
    if (connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
      close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    ++count_;
    held.push_back(fd);
    if (held.size() > static_cast<size_t>(kHeldConnections)) {
      close(held.front());
      held.pop_front();
    }
  }
  for (int fd : held) close(fd);
  freeaddrinfo(found);
}

void Attacker::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  for (auto& idle : idle_) idle->context.TryCancel();
  for (auto& idle : idle_) {
    if (idle->events != nullptr) idle->events->Finish().IgnoreError();
  }
  idle_.clear();
}

}  // namespace cardref::load
