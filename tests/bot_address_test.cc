// A sandboxed bot reaches the referee through its forwarder
// (sandbox/forwarder.h), which connects from a bot address (127.0.0.2):
// such a caller is never the organiser, on a referee without a credential
// (where every other local caller is) or with one (even sending the
// organiser's token). Over real gRPC, through the sandbox's own forwarder.
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/organiser_auth.h"
#include "referee/grpc/server.h"
#include "sandbox/forwarder.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

constexpr char kToken[] = "bot-address-test-organiser-0123456789";

TEST(PeerAddressTest, ReadsGrpcPeersAsTheirAddress) {
  const std::string bot = *grpc_service::ParseBotAddress("f", "127.0.0.2");
  EXPECT_EQ(grpc_service::PeerAddress("ipv4:127.0.0.2:40000"), bot);
  EXPECT_EQ(grpc_service::PeerAddress("ipv6:[::ffff:127.0.0.2]:1"), bot);
  EXPECT_EQ(grpc_service::PeerAddress("ipv6:%5B::ffff:127.0.0.2%5D:1"), bot);
  EXPECT_NE(grpc_service::PeerAddress("ipv4:127.0.0.1:40000"), bot);
  EXPECT_EQ(grpc_service::PeerAddress("ipv6:[::1]:5"),
            *grpc_service::ParseBotAddress("f", "::1"));
  EXPECT_EQ(grpc_service::PeerAddress("unix:/run/x.sock"), std::nullopt);
  EXPECT_EQ(grpc_service::PeerAddress("ipv4:nonsense:1"), std::nullopt);
  const absl::Status name = grpc_service::ParseBotAddress(
                                "--bot_addresses", "localhost")
                                .status();
  EXPECT_EQ(name.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(name.message(), HasSubstr("--bot_addresses"));
}

TEST(PeerAddressTest, ARefereeRefusesABotAddressThatIsNoAddress) {
  grpc_service::ServerOptions options;
  options.bot_addresses = {"bots.example"};
  EXPECT_EQ(grpc_service::CheckServerOptions(options).code(),
            absl::StatusCode::kInvalidArgument);
}

class BotAddressTest : public ::testing::Test {
 protected:
  void Start(bool with_credential, bool with_bot_addresses = true) {
    dir_ = absl::StrCat(::testing::TempDir(), "bot_address_test_", getpid(),
                        "_", counter_++);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    testing_util::RemoveWhenTheTestPasses(dir_);
    grpc_service::ServerOptions options;
    options.host = "127.0.0.1";
    options.manager.log_dir = dir_ + "/logs";
    if (with_credential) options.organiser_token = kToken;
    if (!with_bot_addresses) options.bot_addresses.clear();
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    sandbox::ForwarderOptions forward;
    forward.socket_path = dir_ + "/referee.sock";
    forward.target_host = "127.0.0.1";
    forward.target_port = server_->port();
    forward.source_address = grpc_service::kDefaultBotAddress;
    auto forwarder = sandbox::SocketForwarder::Start(forward);
    ASSERT_TRUE(forwarder.ok()) << forwarder.status();
    forwarder_ = *std::move(forwarder);
    bot_ = v1::Referee::NewStub(grpc::CreateChannel(
        "unix:" + forward.socket_path, grpc::InsecureChannelCredentials()));
    direct_ = v1::Referee::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", server_->port()),
        grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    forwarder_.reset();
    server_.reset();
    std::filesystem::remove_all(dir_);
  }

  static grpc::Status List(v1::Referee::Stub& stub, bool with_token) {
    grpc::ClientContext context;
    if (with_token) {
      context.AddMetadata("authorization", absl::StrCat("Bearer ", kToken));
    }
    v1::ListMatchesResponse listed;
    return stub.ListMatches(&context, v1::ListMatchesRequest(), &listed);
  }

  // A two-seat Craits match by invitation, made by the direct caller.
  v1::CreateMatchResponse Create(bool with_token) {
    grpc::ClientContext context;
    if (with_token) {
      context.AddMetadata("authorization", absl::StrCat("Bearer ", kToken));
    }
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        2);
    create.add_seat_assignments()->set_player_name("a");
    create.add_seat_assignments()->set_player_name("b");
    v1::CreateMatchResponse created;
    EXPECT_TRUE(direct_->CreateMatch(&context, create, &created).ok());
    return created;
  }

  std::string dir_;
  static inline int counter_ = 0;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<sandbox::SocketForwarder> forwarder_;
  std::unique_ptr<v1::Referee::Stub> bot_;
  std::unique_ptr<v1::Referee::Stub> direct_;
};

TEST_F(BotAddressTest, WithoutACredentialABotIsNeverTheOrganiser) {
  Start(/*with_credential=*/false);
  EXPECT_TRUE(List(*direct_, false).ok()) << "the control: a local caller";
  const grpc::Status listed = List(*bot_, false);
  EXPECT_EQ(listed.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(listed.error_message(), HasSubstr("bot address"));
  EXPECT_EQ(forwarder_->accepted(), 1);  // it came through the forwarder

  const v1::CreateMatchResponse created = Create(false);
  for (const char* what : {"cancel", "watch", "report", "get"}) {
    SCOPED_TRACE(what);
    grpc::ClientContext context;
    v1::MatchInfo info;
    grpc::Status s;
    if (std::string(what) == "cancel") {
      v1::EndMatchRequest end;
      end.set_match_id(created.match_id());
      s = bot_->CancelMatch(&context, end, &info);
    } else if (std::string(what) == "watch") {
      v1::WatchMatchRequest watch;
      watch.set_match_id(created.match_id());
      auto reader = bot_->WatchMatchFull(&context, watch);
      v1::MatchEvent event;
      EXPECT_FALSE(reader->Read(&event));
      s = reader->Finish();
    } else if (std::string(what) == "report") {
      v1::ReportBotEndedRequest report;
      report.set_match_id(created.match_id());
      report.set_cause("memory_limit");
      s = bot_->ReportBotEnded(&context, report, &info);
    } else {
      v1::GetMatchRequest get;
      get.set_match_id(created.match_id());
      ASSERT_TRUE(bot_->GetMatch(&context, get, &info).ok());
      EXPECT_EQ(info.log_path(), "") << "the log's place is the organiser's";
      continue;
    }
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
        << s.error_message();
  }
  // What anyone may do still works through the forwarder.
  grpc::ClientContext context;
  v1::ListGamesResponse games;
  EXPECT_TRUE(
      bot_->ListGames(&context, v1::ListGamesRequest(), &games).ok());
}

TEST_F(BotAddressTest, WithACredentialNotEvenTheTokenMakesABotTheOrganiser) {
  Start(/*with_credential=*/true);
  EXPECT_TRUE(List(*direct_, true).ok());
  EXPECT_EQ(List(*direct_, false).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(List(*bot_, true).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(BotAddressTest, WithoutBotAddressesTheForwardedCallerIsLocal) {
  // The rule, not the forwarder, refuses: without it a forwarded caller is
  // a local one like any other.
  Start(/*with_credential=*/false, /*with_bot_addresses=*/false);
  EXPECT_TRUE(List(*bot_, false).ok());
}

TEST_F(BotAddressTest, ReportBotEndedIsTheOrganisersAndChecksItsCause) {
  Start(/*with_credential=*/true);
  const v1::CreateMatchResponse created = Create(true);
  v1::ReportBotEndedRequest report;
  report.set_match_id(created.match_id());
  report.set_seat(0);
  report.set_cause("memory_limit");
  {
    grpc::ClientContext context;
    v1::MatchInfo info;
    EXPECT_EQ(direct_->ReportBotEnded(&context, report, &info).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  for (const auto& [cause, code] :
       std::vector<std::pair<std::string, grpc::StatusCode>>{
           {"Memory limit", grpc::StatusCode::INVALID_ARGUMENT},
           {"", grpc::StatusCode::INVALID_ARGUMENT},
           // Well-formed, but the match waits for its players.
           {"memory_limit", grpc::StatusCode::FAILED_PRECONDITION}}) {
    SCOPED_TRACE(cause);
    report.set_cause(cause);
    grpc::ClientContext context;
    context.AddMetadata("authorization", absl::StrCat("Bearer ", kToken));
    v1::MatchInfo info;
    const grpc::Status s = direct_->ReportBotEnded(&context, report, &info);
    EXPECT_EQ(s.error_code(), code) << s.error_message();
  }
}

}  // namespace
}  // namespace cardref
