// Organiser authority over real gRPC on loopback (issue: "Organiser
// authority and fair play"): the organiser credential, seat invitations,
// text limits, owner-only logs, cancel/abort/list, the spectators' and the
// organiser's streams, loopback-only without a credential, and TLS.
#include <sys/stat.h>

#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"
#include "tests/test_certificates.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

constexpr char kOrganiserToken[] = "organiser-secret-0123456789abcdef";

std::string FreshDir(const std::string& tag) {
  std::string dir =
      absl::StrCat(::testing::TempDir(), "organiser_test_", ::getpid(), "_",
                   ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                   tag);
  std::filesystem::remove_all(dir);
  testing_util::RemoveWhenTheTestPasses(dir);
  return dir;
}

class OrganiserTest : public ::testing::Test {
 protected:
  // Starts a referee with the organiser credential (or without, on
  // loopback) and connects a client.
  void StartServer(bool with_credential,
                   grpc_service::TlsOptions tls = {},
                   const std::shared_ptr<grpc::ChannelCredentials>& client = nullptr) {
    log_dir_ = FreshDir("_logs");
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_;
    if (with_credential) options.organiser_token = kOrganiserToken;
    options.tls = std::move(tls);
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    grpc::ChannelArguments args;
    channel_ = grpc::CreateCustomChannel(
        server_->address(),
        client != nullptr ? client : grpc::InsecureChannelCredentials(), args);
    stub_ = v1::Referee::NewStub(channel_);
  }

  static void AsOrganiser(grpc::ClientContext* context) {
    context->AddMetadata("authorization",
                         absl::StrCat("Bearer ", kOrganiserToken));
  }

  // An invited Craits match (names per seat), created by the organiser.
  v1::CreateMatchResponse CreateInvited(const std::vector<std::string>& names,
                                        int64_t limit_ms = 0) {
    v1::CreateMatchRequest request;
    request.set_game("craits");
    auto& values = *request.mutable_params()->mutable_values();
    values["num_players"].set_int_value(static_cast<int>(names.size()));
    values["game_length"].set_enum_value("SHORT");
    request.set_dealing_seed(42);
    request.set_decision_time_limit_millis(limit_ms);
    for (const std::string& n : names) {
      request.add_seat_assignments()->set_player_name(n);
    }
    v1::CreateMatchResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->CreateMatch(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(response.tickets_size(), static_cast<int>(names.size()));
    return response;
  }

  grpc::Status Join(const std::string& match_id, const std::string& ticket,
                    std::optional<int> seat, const std::string& name,
                    v1::JoinMatchResponse* joined) {
    v1::JoinMatchRequest request;
    request.set_match_id(match_id);
    request.set_ticket(ticket);
    if (seat.has_value()) request.set_seat(*seat);
    request.set_player_name(name);
    grpc::ClientContext context;
    return stub_->JoinMatch(&context, request, joined);
  }

  // Joins every seat with its ticket.
  std::vector<v1::JoinMatchResponse> JoinAll(
      const v1::CreateMatchResponse& created) {
    std::vector<v1::JoinMatchResponse> seats;
    for (const v1::SeatTicket& t : created.tickets()) {
      v1::JoinMatchResponse joined;
      grpc::Status s =
          Join(created.match_id(), t.ticket(), t.seat(), "", &joined);
      EXPECT_TRUE(s.ok()) << s.error_message();
      seats.push_back(joined);
    }
    return seats;
  }

  // A bot: answers each decision with a random legal action until the end;
  // `pause` slows it so other calls happen mid-match.
  static void PlayAsBot(v1::Referee::Stub* stub, const v1::JoinMatchResponse& me,
                        uint64_t seed, absl::Duration pause) {
    Rng rng(seed);
    v1::SeatRequest request;
    request.set_match_id(me.match_id());
    request.set_seat(me.seat());
    request.set_token(me.token());
    grpc::ClientContext context;
    auto stream = stub->WatchObservations(&context, request);
    v1::Observation obs;
    while (stream->Read(&obs)) {
      if (obs.seat_to_act() != me.seat()) continue;
      absl::SleepFor(pause);
      v1::SubmitActionRequest submit;
      submit.set_match_id(me.match_id());
      submit.set_seat(me.seat());
      submit.set_token(me.token());
      *submit.mutable_action() =
          obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
      submit.set_decision_version(obs.version());
      v1::SubmitActionResponse response;
      grpc::ClientContext submit_context;
      grpc::Status s = stub->SubmitAction(&submit_context, submit, &response);
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
    grpc::Status end = stream->Finish();
    EXPECT_TRUE(end.ok()) << end.error_message();
  }

  std::vector<std::thread> StartBots(
      const std::vector<v1::JoinMatchResponse>& seats,
      absl::Duration pause = absl::ZeroDuration()) {
    std::vector<std::thread> bots;
    bots.reserve(seats.size());
    for (const v1::JoinMatchResponse& me : seats) {
      bots.emplace_back(PlayAsBot, stub_.get(), me, 100 + me.seat(), pause);
    }
    return bots;
  }

  v1::MatchInfo GetMatch(const std::string& id, bool as_organiser) {
    v1::GetMatchRequest request;
    request.set_match_id(id);
    v1::MatchInfo info;
    grpc::ClientContext context;
    if (as_organiser) AsOrganiser(&context);
    grpc::Status s = stub_->GetMatch(&context, request, &info);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return info;
  }

  std::string log_dir_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

// Each way of not being the organiser, as metadata on a call.
struct Impostor {
  const char* what;
  std::string authorization;  // empty: no metadata at all
  grpc::StatusCode code;
};

TEST_F(OrganiserTest, OrganiserCallsAreRefusedWithoutTheCredential) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchResponse created = CreateInvited({"alice", "bob"});
  std::vector<v1::JoinMatchResponse> seats = JoinAll(created);
  // Slow bots: the match is in progress while the impostors try.
  std::vector<std::thread> bots = StartBots(seats, absl::Milliseconds(2));
  const std::vector<Impostor> impostors = {
      {"no credential", "", grpc::StatusCode::UNAUTHENTICATED},
      {"not a bearer token", "Basic b3JnYW5pc2Vy",
       grpc::StatusCode::UNAUTHENTICATED},
      {"a wrong token", "Bearer organiser-secret-0123456789abcdeX",
       grpc::StatusCode::PERMISSION_DENIED},
      {"a seat token", absl::StrCat("Bearer ", seats[0].token()),
       grpc::StatusCode::PERMISSION_DENIED},
  };
  for (const Impostor& who : impostors) {
    SCOPED_TRACE(who.what);
    auto context = [&who] {
      auto c = std::make_unique<grpc::ClientContext>();
      if (!who.authorization.empty()) {
        c->AddMetadata("authorization", who.authorization);
      }
      return c;
    };
    v1::CreateMatchRequest create;
    create.set_game("craits");
    create.set_open(true);
    v1::CreateMatchResponse create_response;
    EXPECT_EQ(stub_->CreateMatch(context().get(), create, &create_response)
                  .error_code(),
              who.code);
    v1::ListMatchesResponse list;
    EXPECT_EQ(stub_->ListMatches(context().get(), {}, &list).error_code(),
              who.code);
    v1::EndMatchRequest end;
    end.set_match_id(created.match_id());
    v1::MatchInfo ended;
    EXPECT_EQ(stub_->AbortMatch(context().get(), end, &ended).error_code(),
              who.code);
    EXPECT_EQ(stub_->CancelMatch(context().get(), end, &ended).error_code(),
              who.code);
    v1::WatchMatchRequest watch;
    watch.set_match_id(created.match_id());
    auto c = context();
    auto stream = stub_->WatchMatchFull(c.get(), watch);
    v1::MatchEvent event;
    EXPECT_FALSE(stream->Read(&event));
    grpc::Status st = stream->Finish();
    EXPECT_EQ(st.error_code(), who.code);
    EXPECT_THAT(st.error_message(), HasSubstr("WatchMatchFull"));
    // GetMatch is public, but the log's location is the organiser's.
    v1::GetMatchRequest get;
    get.set_match_id(created.match_id());
    v1::MatchInfo info;
    ASSERT_TRUE(stub_->GetMatch(context().get(), get, &info).ok());
    EXPECT_EQ(info.log_path(), "");
  }
  for (std::thread& b : bots) b.join();
  // The match was unharmed: it finished, with the invited names.
  v1::MatchInfo info = GetMatch(created.match_id(), /*as_organiser=*/true);
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_EQ(info.seats_size(), 2);
  EXPECT_EQ(info.seats(0).player_name(), "alice");
  EXPECT_EQ(info.seats(1).player_name(), "bob");
  EXPECT_FALSE(info.log_path().empty());
  auto log = record::ReadGameLog(info.log_path());
  ASSERT_TRUE(log.ok());
  EXPECT_TRUE(log->finished());
  // Nothing any impostor tried is in the log.
  for (const v1::LogRecord& r : log->records) EXPECT_FALSE(r.has_aborted());
}

TEST_F(OrganiserTest, ATicketTakesOnlyItsSeatOnceUnderItsName) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchResponse created = CreateInvited({"alice", "bob", "carol"});
  v1::CreateMatchResponse other = CreateInvited({"dave", "erin"});
  const std::string& alice = created.tickets(0).ticket();
  const std::string& bob = created.tickets(1).ticket();
  v1::JoinMatchResponse joined;
  struct Attempt {
    const char* what;
    std::string ticket;
    std::optional<int> seat;
    std::string name;
    const char* message;
  };
  const std::vector<Attempt> refused = {
      {"no ticket", "", 0, "alice", "by invitation"},
      {"another seat's ticket", bob, 0, "", "for seat 1, not seat 0"},
      {"another match's ticket", other.tickets(0).ticket(), std::nullopt, "",
       "not a ticket of match"},
      {"a forged name", alice, std::nullopt, "mallory", "invited as 'alice'"},
      {"a made-up ticket", "0123456789abcdef0123456789abcdef", 0, "",
       "not a ticket of match"},
  };
  for (const Attempt& a : refused) {
    SCOPED_TRACE(a.what);
    grpc::Status s = Join(created.match_id(), a.ticket, a.seat, a.name, &joined);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_THAT(s.error_message(), HasSubstr(a.message));
  }
  // Joining "any open match of the game" never lands in an invited one.
  {
    v1::JoinMatchRequest request;
    request.set_game("craits");
    grpc::ClientContext context;
    EXPECT_EQ(stub_->JoinMatch(&context, request, &joined).error_code(),
              grpc::StatusCode::NOT_FOUND);
  }
  // The right ticket takes its seat under the organiser's name, once.
  ASSERT_TRUE(Join(created.match_id(), alice, std::nullopt, "", &joined).ok());
  EXPECT_EQ(joined.seat(), 0);
  grpc::Status again =
      Join(created.match_id(), alice, std::nullopt, "", &joined);
  EXPECT_EQ(again.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(again.error_message(), HasSubstr("already used"));
  ASSERT_TRUE(Join(created.match_id(), bob, 1, "bob", &joined).ok());
  v1::MatchInfo info = GetMatch(created.match_id(), false);
  ASSERT_EQ(info.seats_size(), 2);
  EXPECT_EQ(info.seats(0).player_name(), "alice");
  EXPECT_EQ(info.seats(1).player_name(), "bob");
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_WAITING_FOR_PLAYERS);
}

// CreateMatchRequest.retry_key over gRPC: the organiser's resend of a
// creation whose answer was lost gets the same match and tickets, and the
// referee holds one match.
TEST_F(OrganiserTest, ACreationResentWithItsRetryKeyMakesNoSecondMatch) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchRequest request;
  request.set_game("craits");
  (*request.mutable_params()->mutable_values())["num_players"].set_int_value(
      2);
  request.add_seat_assignments()->set_player_name("alice");
  request.add_seat_assignments()->set_player_name("bob");
  request.set_retry_key("organiser-retry-key-0123");
  v1::CreateMatchResponse first, again;
  for (v1::CreateMatchResponse* response : {&first, &again}) {
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->CreateMatch(&context, request, response);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_EQ(again.match_id(), first.match_id());
  ASSERT_EQ(again.tickets_size(), 2);
  EXPECT_EQ(again.tickets(1).ticket(), first.tickets(1).ticket());
  {
    v1::ListMatchesRequest list;
    v1::ListMatchesResponse listed;
    grpc::ClientContext context;
    AsOrganiser(&context);
    ASSERT_TRUE(stub_->ListMatches(&context, list, &listed).ok());
    EXPECT_EQ(listed.matches_size(), 1);
  }
  // The key with another request: refused, naming the match it made.
  request.set_decision_time_limit_millis(3000);
  grpc::ClientContext context;
  AsOrganiser(&context);
  grpc::Status s = stub_->CreateMatch(&context, request, &again);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(),
              HasSubstr("created match " + first.match_id() +
                        " from a different request"));
}

TEST_F(OrganiserTest, WithACredentialMatchesAreInvitedUnlessCreatedOpen) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchRequest request;
  request.set_game("krass_kariert");
  v1::CreateMatchResponse response;
  {
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->CreateMatch(&context, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), HasSubstr("seat_assignments"));
  }
  request.add_seat_assignments()->set_player_name("only one");
  {
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->CreateMatch(&context, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), HasSubstr("one player name per seat"));
  }
  request.clear_seat_assignments();
  request.set_open(true);
  {
    grpc::ClientContext context;
    AsOrganiser(&context);
    ASSERT_TRUE(stub_->CreateMatch(&context, request, &response).ok());
    EXPECT_EQ(response.tickets_size(), 0);
  }
  // Open: anyone joins, under a name of their choice, without a ticket.
  v1::JoinMatchRequest join;
  join.set_game("krass_kariert");
  join.set_player_name("walk-in");
  v1::JoinMatchResponse joined;
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->JoinMatch(&context, join, &joined).ok());
  EXPECT_EQ(joined.match_id(), response.match_id());
}

TEST_F(OrganiserTest, NamesAndOtherTextHaveLimitsAndACharacterSet) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/false));
  v1::CreateMatchRequest create;
  create.set_game("craits");
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->CreateMatch(&context, create, &created).ok());
  }
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"player_name", "bot\n| alice | 99 |"},
      {"player_name", "red\x1b[31m"},
      {"player_name", std::string(65, 'n')},
      // Under the 64 KiB request limit (docs/limits.md), over the field's.
      {"player_version", std::string(1 << 14, 'v')},
      {"player_version", "v1\x7f"},
      // Text that spoofs: a right-to-left override, an invisible space, a
      // Cyrillic look-alike in a Latin name (docs/bots.md, "Names").
      {"player_name", "bob\xe2\x80\xae" "fdp.exe"},
      {"player_name", "ali\xe2\x80\x8b" "ce"},
      {"player_name", "p\xd0\xb0ypal"},
      {"player_version", "1.0\xe2\x80\x8f"},
  };
  for (const auto& [field, value] : bad) {
    SCOPED_TRACE(field);
    v1::JoinMatchRequest join;
    join.set_match_id(created.match_id());
    if (field == "player_name") join.set_player_name(value);
    if (field == "player_version") join.set_player_version(value);
    v1::JoinMatchResponse joined;
    grpc::ClientContext context;
    grpc::Status s = stub_->JoinMatch(&context, join, &joined);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), HasSubstr(field));
    EXPECT_LT(s.error_message().size(), 300u);
  }
  // Nothing was taken.
  EXPECT_EQ(GetMatch(created.match_id(), true).seats_size(), 0);
  v1::CreateMatchRequest named = create;
  (*named.mutable_params()->mutable_values())["num_players"].set_int_value(2);
  named.add_seat_assignments()->set_player_name("ok");
  named.add_seat_assignments()->set_player_name("tab\there");
  grpc::ClientContext context;
  grpc::Status s = stub_->CreateMatch(&context, named, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("seat_assignments[1].player_name"));
  named.mutable_seat_assignments(1)->set_player_name("\xd0\xb0lice");
  grpc::ClientContext again;
  s = stub_->CreateMatch(&again, named, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(),
              HasSubstr("'seat_assignments[1].player_name' mixes scripts: "
                        "U+006C (Latin) at byte 2 after U+0430 (Cyrillic) at "
                        "byte 0"));
}

TEST_F(OrganiserTest, WithoutACredentialOnlyLoopbackIsServed) {
  grpc_service::ServerOptions options;
  options.manager.log_dir = FreshDir("_logs");
  options.host = "0.0.0.0";
  auto refused = grpc_service::RefereeServer::Start(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(), HasSubstr("organiser credential"));
  EXPECT_TRUE(grpc_service::IsLoopbackHost("localhost"));
  EXPECT_TRUE(grpc_service::IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(grpc_service::IsLoopbackHost("[::1]"));
  EXPECT_FALSE(grpc_service::IsLoopbackHost("0.0.0.0"));
  EXPECT_FALSE(grpc_service::IsLoopbackHost("::"));
  EXPECT_FALSE(grpc_service::IsLoopbackHost("example.org"));
}

TEST_F(OrganiserTest, LogsAndTheirDirectoryAreOwnerOnlyWhateverTheUmask) {
  const mode_t old_umask = ::umask(0);  // the most permissive
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchResponse created = CreateInvited({"a", "b"});
  for (std::thread& b : StartBots(JoinAll(created))) b.join();
  ::umask(old_umask);
  const std::string path = GetMatch(created.match_id(), true).log_path();
  ASSERT_FALSE(path.empty());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0400u);  // finished, so sealed read-only
  ASSERT_EQ(::stat(log_dir_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST_F(OrganiserTest, AnExistingLogDirectoryIsNarrowedToOwnerOnly) {
  const std::string dir = FreshDir("_existing");
  std::filesystem::create_directories(dir);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  grpc_service::ServerOptions options;
  options.manager.log_dir = dir;
  auto server = grpc_service::RefereeServer::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();
  struct stat st;
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST_F(OrganiserTest, CancelAbortAndListMatches) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchResponse waiting = CreateInvited({"a", "b"});
  v1::CreateMatchResponse playing = CreateInvited({"c", "d"});
  std::vector<v1::JoinMatchResponse> seats = JoinAll(playing);
  const std::string playing_log = GetMatch(playing.match_id(), true).log_path();
  const std::string waiting_log = GetMatch(waiting.match_id(), true).log_path();
  EXPECT_TRUE(std::filesystem::exists(waiting_log));
  auto end = [&](auto call, const std::string& id, v1::MatchInfo* info) {
    v1::EndMatchRequest request;
    request.set_match_id(id);
    request.set_reason("test over");
    grpc::ClientContext context;
    AsOrganiser(&context);
    return ((*stub_).*call)(&context, request, info);
  };
  v1::MatchInfo info;
  // The wrong call for each status is refused and changes nothing.
  grpc::Status s = end(&v1::Referee::Stub::AbortMatch, waiting.match_id(), &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("use CancelMatch"));
  s = end(&v1::Referee::Stub::CancelMatch, playing.match_id(), &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("use AbortMatch"));

  ASSERT_TRUE(
      end(&v1::Referee::Stub::CancelMatch, waiting.match_id(), &info).ok());
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_CANCELLED);
  EXPECT_THAT(info.end_reason(), HasSubstr("test over"));
  EXPECT_FALSE(std::filesystem::exists(waiting_log));  // nothing was played
  v1::JoinMatchResponse joined;
  s = Join(waiting.match_id(), waiting.tickets(0).ticket(), 0, "", &joined);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("cancelled"));

  ASSERT_TRUE(
      end(&v1::Referee::Stub::AbortMatch, playing.match_id(), &info).ok());
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_ABORTED);
  auto log = record::ReadGameLog(playing_log);
  ASSERT_TRUE(log.ok());
  ASSERT_TRUE(log->records.back().has_aborted());
  EXPECT_EQ(log->records.back().aborted().reason(),
            "aborted by the organiser: test over");
  // The seats learn it: their next call is refused with the reason.
  v1::SubmitActionRequest submit;
  submit.set_match_id(playing.match_id());
  submit.set_seat(0);
  submit.set_token(seats[0].token());
  submit.mutable_action()->set_notation("draw");
  v1::SubmitActionResponse response;
  grpc::ClientContext submit_context;
  s = stub_->SubmitAction(&submit_context, submit, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("aborted by the organiser"));

  // ListMatches: all, by status, in pages.
  v1::CreateMatchResponse third = CreateInvited({"e", "f"});
  auto list = [&](v1::MatchStatus status, int page_size,
                  const std::string& token) {
    v1::ListMatchesRequest request;
    request.set_status(status);
    request.set_page_size(page_size);
    request.set_page_token(token);
    v1::ListMatchesResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    EXPECT_TRUE(stub_->ListMatches(&context, request, &response).ok());
    return response;
  };
  v1::ListMatchesResponse all = list(v1::MATCH_STATUS_UNSPECIFIED, 0, "");
  ASSERT_EQ(all.matches_size(), 3);
  EXPECT_EQ(all.matches(0).match_id(), waiting.match_id());
  EXPECT_EQ(all.matches(2).match_id(), third.match_id());
  EXPECT_EQ(all.matches(0).log_path(), "");
  EXPECT_EQ(all.next_page_token(), "");
  v1::ListMatchesResponse aborted = list(v1::MATCH_STATUS_ABORTED, 0, "");
  ASSERT_EQ(aborted.matches_size(), 1);
  EXPECT_EQ(aborted.matches(0).match_id(), playing.match_id());
  v1::ListMatchesResponse page1 = list(v1::MATCH_STATUS_UNSPECIFIED, 2, "");
  ASSERT_EQ(page1.matches_size(), 2);
  ASSERT_FALSE(page1.next_page_token().empty());
  v1::ListMatchesResponse page2 =
      list(v1::MATCH_STATUS_UNSPECIFIED, 2, page1.next_page_token());
  ASSERT_EQ(page2.matches_size(), 1);
  EXPECT_EQ(page2.matches(0).match_id(), third.match_id());
  EXPECT_EQ(page2.next_page_token(), "");
}

// Reads a match event stream until `stop_after` events (0: to the end);
// returns the events and whether the stream ended by itself with OK.
std::vector<v1::MatchEvent> ReadEvents(v1::Referee::Stub* stub, bool full,
                                       const std::string& match_id,
                                       uint64_t after_index, size_t stop_after,
                                       bool* ended_ok) {
  v1::WatchMatchRequest request;
  request.set_match_id(match_id);
  request.set_after_index(after_index);
  grpc::ClientContext context;
  if (full) {
    context.AddMetadata("authorization",
                        absl::StrCat("Bearer ", kOrganiserToken));
  }
  auto stream = full ? stub->WatchMatchFull(&context, request)
                     : stub->WatchMatch(&context, request);
  std::vector<v1::MatchEvent> events;
  v1::MatchEvent event;
  while ((stop_after == 0 || events.size() < stop_after) &&
         stream->Read(&event)) {
    events.push_back(event);
  }
  if (stop_after != 0 && events.size() == stop_after) {
    context.TryCancel();  // a disconnect mid-match
    while (stream->Read(&event)) {
    }
  }
  grpc::Status status = stream->Finish();
  *ended_ok = status.ok();
  return events;
}

TEST_F(OrganiserTest, StreamsResumeAfterADisconnectWithoutGapsOrRepeats) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true));
  v1::CreateMatchResponse created = CreateInvited({"a", "b", "c"});
  std::vector<v1::JoinMatchResponse> seats = JoinAll(created);
  std::vector<std::thread> bots = StartBots(seats, absl::Milliseconds(1));
  // A spectator and the organiser read at the same time, while the match is
  // played, each disconnecting three times and resuming from the last index
  // it received.
  auto read_with_disconnects = [&](bool full, bool* ended_ok) {
    std::vector<v1::MatchEvent> got;
    for (int part = 0; part < 4 && !*ended_ok; ++part) {
      const uint64_t after = got.empty() ? 0 : got.back().index();
      std::vector<v1::MatchEvent> more =
          ReadEvents(stub_.get(), full, created.match_id(), after,
                     part < 3 ? 5 : 0, ended_ok);
      got.insert(got.end(), more.begin(), more.end());
    }
    return got;
  };
  bool spectator_ok = false, organiser_ok = false;
  auto spectator = std::async(std::launch::async, read_with_disconnects,
                              false, &spectator_ok);
  auto organiser = std::async(std::launch::async, read_with_disconnects,
                              true, &organiser_ok);
  std::vector<v1::MatchEvent> resumed[2] = {spectator.get(), organiser.get()};
  for (std::thread& b : bots) b.join();
  EXPECT_TRUE(spectator_ok);
  EXPECT_TRUE(organiser_ok);
  for (bool full : {false, true}) {
    SCOPED_TRACE(full ? "organiser" : "spectator");
    const std::vector<v1::MatchEvent>& got = resumed[full];
    // The same as one uninterrupted read once the match is over.
    bool whole_ok = false;
    std::vector<v1::MatchEvent> whole =
        ReadEvents(stub_.get(), full, created.match_id(), 0, 0, &whole_ok);
    EXPECT_TRUE(whole_ok);
    ASSERT_EQ(got.size(), whole.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].index(), whole[i].index());
      if (i > 0) {
        EXPECT_GT(got[i].index(), got[i - 1].index());
      }
    }
    EXPECT_TRUE(whole.front().record().has_header());
    EXPECT_TRUE(whole.back().record().has_final_result());
    for (const v1::MatchEvent& e : whole) {
      if (e.record().has_chance()) {
        EXPECT_EQ(e.record().chance().cards_size() > 0, full);
      }
    }
  }
}

// A full match over TLS with a self-signed certificate made here; a
// plaintext client is refused; with --tls_client_ca a client needs its
// certificate.
TEST_F(OrganiserTest, AFullMatchOverTls) {
  const std::string dir = FreshDir("_tls");
  std::filesystem::create_directories(dir);
  testing_tls::KeyAndCertificate server_cert =
      testing_tls::MakeSelfSigned("localhost");
  testing_tls::KeyAndCertificate client_cert =
      testing_tls::MakeSelfSigned("cardref-test-client");
  ASSERT_FALSE(server_cert.certificate_pem.empty());
  auto write = [&](const std::string& name, const std::string& text) {
    std::string path = dir + "/" + name;
    FILE* f = std::fopen(path.c_str(), "w");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    // The server refuses a private key others may read (docs/auth.md).
    ::chmod(path.c_str(), 0600);
    return path;
  };
  grpc_service::TlsOptions tls;
  tls.cert_file = write("server.crt", server_cert.certificate_pem);
  tls.key_file = write("server.key", server_cert.private_key_pem);
  tls.client_ca_file = write("client-ca.crt", client_cert.certificate_pem);
  grpc::SslCredentialsOptions with_cert;
  with_cert.pem_root_certs = server_cert.certificate_pem;
  with_cert.pem_private_key = client_cert.private_key_pem;
  with_cert.pem_cert_chain = client_cert.certificate_pem;
  ASSERT_NO_FATAL_FAILURE(StartServer(/*with_credential=*/true, tls,
                                      grpc::SslCredentials(with_cert)));
  v1::CreateMatchResponse created = CreateInvited({"tls-a", "tls-b"});
  for (std::thread& b : StartBots(JoinAll(created))) b.join();
  v1::MatchInfo info = GetMatch(created.match_id(), true);
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_GT(info.result().scores_size(), 0);

  auto refused = [&](const std::shared_ptr<grpc::ChannelCredentials>& creds) {
    auto channel = grpc::CreateChannel(server_->address(), creds);
    auto stub = v1::Referee::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    v1::ListGamesResponse games;
    return !stub->ListGames(&context, {}, &games).ok();
  };
  EXPECT_TRUE(refused(grpc::InsecureChannelCredentials()));
  grpc::SslCredentialsOptions without_cert;
  without_cert.pem_root_certs = server_cert.certificate_pem;
  EXPECT_TRUE(refused(grpc::SslCredentials(without_cert)));
  EXPECT_FALSE(refused(grpc::SslCredentials(with_cert)));
}

}  // namespace
}  // namespace cardref
