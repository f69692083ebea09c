// Bots as long-lived services over real gRPC (docs/bots.md, "Invitations";
// docs/auth.md, "Bot credentials"): the organiser issues, lists and
// revokes credentials, which survive a restart and bind a name; a bot's
// WatchInvitations stream gets at most the matches it was granted; a
// revoked credential's stream ends and the fault policy plays its seat; a
// bot that never joins is handled by the join deadline; a closed stream's
// seat goes to another stream of the entrant; a latency allowance is added
// to the seat's limit and logged. Every log audits OK.
#include <sys/stat.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/cli.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "games/all_games.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/base/hex.h"
#include "referee/base/rng.h"
#include "referee/base/sha256.h"
#include "referee/record/game_log.h"
#include "tests/metrics_scrape.h"
#include "tests/referee_fixture.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr char kInvitationsOrganiserToken[] =
    "organiser-token-0123456789abcdef";

// Reads one WatchInvitations stream on a thread of its own.
class InvitationReader {
 public:
  InvitationReader(v1::Referee::Stub& stub, const std::string& credential,
                   int max_matches, const std::vector<std::string>& games = {}) {
    v1::WatchInvitationsRequest request;
    request.set_credential(credential);
    request.set_max_matches(max_matches);
    for (const std::string& g : games) request.add_games(g);
    reader_ = stub.WatchInvitations(&context_, request);
    thread_ = std::thread([this] {
      v1::InvitationEvent event;
      while (reader_->Read(&event)) {
        std::lock_guard<std::mutex> lock(mu_);
        events_.push_back(event);
        changed_.notify_all();
      }
      grpc::Status status = reader_->Finish();
      std::lock_guard<std::mutex> lock(mu_);
      status_ = status;
      changed_.notify_all();
    });
  }
  ~InvitationReader() {
    context_.TryCancel();
    thread_.join();
  }

  // The next event, waiting up to `timeout`; nullopt if none came.
  std::optional<v1::InvitationEvent> Next(
      std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, timeout,
                      [&] { return !events_.empty() || status_.has_value(); });
    if (events_.empty()) return std::nullopt;
    v1::InvitationEvent event = events_.front();
    events_.pop_front();
    return event;
  }
  v1::Invitation NextInvitation() {
    std::optional<v1::InvitationEvent> event = Next();
    EXPECT_TRUE(event.has_value() && event->has_invitation());
    return event.has_value() ? event->invitation() : v1::Invitation();
  }
  // How the stream ended, waiting up to `timeout`.
  std::optional<grpc::Status> Ended(
      std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, timeout, [&] { return status_.has_value(); });
    return status_;
  }
  void Cancel() { context_.TryCancel(); }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReader<v1::InvitationEvent>> reader_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<v1::InvitationEvent> events_;
  std::optional<grpc::Status> status_;
  std::thread thread_;
};

class GrpcInvitationsTest : public RefereeFixture {
 protected:
  void SetUp() override {
    RefereeFixture::SetUp();
    options_.organiser_token = kInvitationsOrganiserToken;
    options_.manager.ops_log = &ops_;
  }

  void AsOrganiser(grpc::ClientContext* context) {
    context->AddMetadata("authorization",
                         std::string("Bearer ") + kInvitationsOrganiserToken);
  }

  std::string Issue(const std::string& entrant, int64_t allowance_ms = 0) {
    v1::IssueBotCredentialRequest request;
    request.set_entrant(entrant);
    request.set_latency_allowance_millis(allowance_ms);
    v1::IssueBotCredentialResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->IssueBotCredential(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response.credential();
  }

  grpc::Status Revoke(const std::string& entrant,
                      v1::RevokeBotCredentialResponse* response) {
    v1::RevokeBotCredentialRequest request;
    request.set_entrant(entrant);
    request.set_reason("test over");
    grpc::ClientContext context;
    AsOrganiser(&context);
    return stub_->RevokeBotCredential(&context, request, response);
  }

  v1::BotEntrant Listed(const std::string& entrant) {
    v1::ListBotCredentialsResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    EXPECT_TRUE(stub_
                    ->ListBotCredentials(&context,
                                         v1::ListBotCredentialsRequest(),
                                         &response)
                    .ok());
    for (const v1::BotEntrant& e : response.entrants()) {
      if (e.name() == entrant) return e;
    }
    return v1::BotEntrant();
  }

  // A short 2-seat Craits match invited as `names`; `invite` says which
  // seats are pushed to their entrant's streams.
  v1::CreateMatchResponse CreateInvited(
      const std::vector<std::string>& names, const std::vector<bool>& invite,
      int64_t decision_time_limit_ms = 5000,
      std::optional<v1::FaultPolicy> policy = std::nullopt) {
    v1::CreateMatchRequest request;
    request.set_game("craits");
    auto& values = *request.mutable_params()->mutable_values();
    values["num_players"].set_int_value(2);
    values["game_length"].set_enum_value("SHORT");
    request.set_decision_time_limit_millis(decision_time_limit_ms);
    if (policy.has_value()) *request.mutable_fault_policy() = *policy;
    for (size_t s = 0; s < names.size(); ++s) {
      v1::SeatAssignment* a = request.add_seat_assignments();
      a->set_player_name(names[s]);
      a->set_invite(invite[s]);
      a->set_match_seed(1000 + s);
    }
    v1::CreateMatchResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->CreateMatch(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }

  grpc::Status Join(const std::string& match_id, const std::string& ticket,
                    const std::string& credential,
                    v1::JoinMatchResponse* joined,
                    const std::string& player_name = "") {
    v1::JoinMatchRequest request;
    request.set_match_id(match_id);
    request.set_ticket(ticket);
    request.set_credential(credential);
    request.set_player_name(player_name);
    grpc::ClientContext context;
    return stub_->JoinMatch(&context, request, joined);
  }

  // Plays `seat` with random legal actions (answering after `delay` the
  // first `slow_decisions` times) until the match is over.
  v1::Observation PlaySeat(const std::string& match_id, int seat,
                           const std::string& token, uint64_t seed,
                           std::chrono::milliseconds delay = {},
                           int slow_decisions = 0) {
    Rng rng(seed);
    uint64_t sequence = 0;
    for (int guard = 0; guard < 100000; ++guard) {
      v1::SeatRequest request;
      request.set_match_id(match_id);
      request.set_seat(seat);
      request.set_token(token);
      v1::Observation obs;
      grpc::ClientContext context;
      grpc::Status s = stub_->GetObservation(&context, request, &obs);
      if (!s.ok()) {
        ADD_FAILURE() << s.error_message();
        return obs;
      }
      if (obs.status() == v1::MATCH_STATUS_FINISHED ||
          obs.status() == v1::MATCH_STATUS_ABORTED) {
        return obs;
      }
      if (obs.seat_to_act() != seat) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      if (slow_decisions > 0) {
        --slow_decisions;
        std::this_thread::sleep_for(delay);
      }
      v1::SubmitActionRequest submit;
      submit.set_match_id(match_id);
      submit.set_seat(seat);
      submit.set_token(token);
      *submit.mutable_action() =
          obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
      submit.set_decision_version(obs.version());
      submit.set_sequence(++sequence);
      v1::SubmitActionResponse response;
      grpc::ClientContext submit_context;
      stub_->SubmitAction(&submit_context, submit, &response).ok();
    }
    ADD_FAILURE() << "the match did not end";
    return v1::Observation();
  }

  v1::MatchInfo Info(const std::string& match_id) {
    v1::GetMatchRequest get;
    get.set_match_id(match_id);
    v1::MatchInfo info;
    grpc::ClientContext context;
    AsOrganiser(&context);
    EXPECT_TRUE(stub_->GetMatch(&context, get, &info).ok());
    return info;
  }

  void ExpectAuditOk(const std::string& log_path) {
    std::ostringstream out, err;
    EXPECT_EQ(analyzer::RunAudit({log_path}, false, AllGames(), out, err),
              analyzer::kExitOk)
        << out.str() << err.str();
  }

  // The server writes ops lines until it is down, and ops_ goes before
  // the base fixture's server: stop it first.
  void TearDown() override { server_.reset(); }

  // The referee's ops lines, kept for the tests that read them.
  class KeptOpsLog : public service::OpsLog {
   public:
    void Write(const std::string& line) override {
      std::lock_guard<std::mutex> lock(mu_);
      lines_ += line + "\n";
    }
    std::string lines() {
      std::lock_guard<std::mutex> lock(mu_);
      return lines_;
    }

   private:
    std::mutex mu_;
    std::string lines_;
  };
  KeptOpsLog ops_;
};

TEST_F(GrpcInvitationsTest, TheOrganiserIssuesListsReplacesAndRevokes) {
  StartServer();
  {  // Organiser only.
    v1::IssueBotCredentialRequest request;
    request.set_entrant("alice");
    v1::IssueBotCredentialResponse response;
    grpc::ClientContext context;
    EXPECT_EQ(stub_->IssueBotCredential(&context, request, &response)
                  .error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  const std::string credential = Issue("alice", 250);
  ASSERT_THAT(credential, SizeIs(64));
  v1::BotEntrant listed = Listed("alice");
  EXPECT_EQ(listed.latency_allowance_millis(), 250);
  EXPECT_EQ(listed.credential_id(),
            ToHex(crypto::Sha256(credential)).substr(0, 8));
  {  // A second credential for the name needs `replace`.
    v1::IssueBotCredentialRequest request;
    request.set_entrant("alice");
    v1::IssueBotCredentialResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    const grpc::Status s =
        stub_->IssueBotCredential(&context, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS);
    EXPECT_THAT(s.error_message(), HasSubstr(listed.credential_id()));
  }
  {  // A name a player may not have is refused as an entrant too.
    v1::IssueBotCredentialRequest request;
    request.set_entrant("p\xd0\xb0ypal");
    v1::IssueBotCredentialResponse response;
    grpc::ClientContext context;
    AsOrganiser(&context);
    EXPECT_EQ(stub_->IssueBotCredential(&context, request, &response)
                  .error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  // The file keeps the hash, never the credential, owner-only.
  const std::string file = log_dir_.string() + "/bot_credentials";
  struct stat st;
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr(ToHex(crypto::Sha256(credential))));
  EXPECT_THAT(text.str(), ::testing::Not(HasSubstr(credential)));

  // Replaced: the old credential no longer opens a stream.
  v1::IssueBotCredentialRequest replace;
  replace.set_entrant("alice");
  replace.set_replace(true);
  v1::IssueBotCredentialResponse replaced;
  {
    grpc::ClientContext context;
    AsOrganiser(&context);
    ASSERT_TRUE(stub_->IssueBotCredential(&context, replace, &replaced).ok());
  }
  {
    InvitationReader old(*stub_, credential, 1);
    const std::optional<grpc::Status> ended = old.Ended();
    ASSERT_TRUE(ended.has_value());
    EXPECT_EQ(ended->error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  v1::RevokeBotCredentialResponse revoked;
  ASSERT_TRUE(Revoke("alice", &revoked).ok());
  EXPECT_EQ(revoked.entrant().credential_id(),
            replaced.entrant().credential_id());
  EXPECT_EQ(Revoke("alice", &revoked).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(ops_.lines(), HasSubstr("event=credential_revoked entrant=alice"));
}

TEST_F(GrpcInvitationsTest, ACredentialSurvivesARestart) {
  StartServer();
  const std::string credential = Issue("alice", 120);
  server_.reset();
  StartServer();  // the same log folder
  InvitationReader reader(*stub_, credential, 2);
  std::optional<v1::InvitationEvent> open = reader.Next();
  ASSERT_TRUE(open.has_value());
  ASSERT_TRUE(open->has_open());
  EXPECT_EQ(open->open().entrant(), "alice");
  EXPECT_EQ(open->open().max_matches(), 2);
  EXPECT_EQ(Listed("alice").latency_allowance_millis(), 120);
}

TEST_F(GrpcInvitationsTest, AStreamGetsAtMostItsMatchesAtOnceAndPlaysThem) {
  StartServer();
  const std::string alice = Issue("alice");
  InvitationReader reader(*stub_, alice, 1, {"craits"});
  ASSERT_TRUE(reader.Next().has_value());  // InvitationsOpen
  const v1::CreateMatchResponse first =
      CreateInvited({"alice", "bob"}, {true, false});
  const v1::CreateMatchResponse second =
      CreateInvited({"alice", "bob"}, {true, false});
  const v1::Invitation invited = reader.NextInvitation();
  EXPECT_EQ(invited.match_id(), first.match_id());
  EXPECT_EQ(invited.seat(), 0);
  EXPECT_EQ(invited.ticket(), first.tickets(0).ticket());
  EXPECT_EQ(invited.player_name(), "alice");
  EXPECT_EQ(invited.match_seed(), 1000u);
  EXPECT_EQ(invited.game(), "craits");
  EXPECT_EQ(invited.num_seats(), 2);
  EXPECT_EQ(invited.decision_time_limit_millis(), 5000);
  // One match at a time: the second waits.
  EXPECT_FALSE(reader.Next(std::chrono::milliseconds(300)).has_value());
  EXPECT_EQ(Listed("alice").queued(), 1);

  v1::JoinMatchResponse a, b;
  ASSERT_TRUE(Join(invited.match_id(), invited.ticket(), alice, &a).ok());
  ASSERT_TRUE(Join(first.match_id(), first.tickets(1).ticket(), "", &b).ok());
  PlayOut(*stub_, {first.match_id(), {a.token(), b.token()}}, 7);
  // Free again: the second invitation comes.
  const v1::Invitation next = reader.NextInvitation();
  EXPECT_EQ(next.match_id(), second.match_id());
  const v1::MatchInfo info = Info(first.match_id());
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(info.seats(0).player_name(), "alice");
  ExpectAuditOk(info.log_path());
}

TEST_F(GrpcInvitationsTest, AStreamAskingForMoreThanItMayIsGrantedTheBound) {
  options_.manager.limits.max_invitations_per_credential = 3;
  options_.manager.limits.max_invitation_streams_per_credential = 2;
  StartServer();
  const std::string alice = Issue("alice");
  InvitationReader reader(*stub_, alice, 50);
  std::optional<v1::InvitationEvent> open = reader.Next();
  ASSERT_TRUE(open.has_value() && open->has_open());
  EXPECT_EQ(open->open().max_matches(), 3);
  EXPECT_THAT(open->open().note(),
              HasSubstr("--max_invitations_per_credential"));
  for (int i = 0; i < 5; ++i) CreateInvited({"alice", "bob"}, {true, false});
  for (int i = 0; i < 3; ++i) reader.NextInvitation();
  EXPECT_FALSE(reader.Next(std::chrono::milliseconds(300)).has_value());
  // Across its streams, too: a second stream gets nothing more.
  InvitationReader second(*stub_, alice, 2);
  ASSERT_TRUE(second.Next().has_value());
  EXPECT_FALSE(second.Next(std::chrono::milliseconds(300)).has_value());
  // Past the streams per credential.
  InvitationReader third(*stub_, alice, 1);
  const std::optional<grpc::Status> refused = third.Ended();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused->error_message(),
              HasSubstr("--max_invitation_streams_per_credential"));
  EXPECT_EQ(Listed("alice").invitations(), 3);
  EXPECT_EQ(Listed("alice").queued(), 2);
}

TEST_F(GrpcInvitationsTest, ACredentialTakesNoOtherEntrantsSeatOrName) {
  StartServer();
  const std::string alice = Issue("alice");
  const std::string bob = Issue("bob");
  const v1::CreateMatchResponse match =
      CreateInvited({"alice", "carol"}, {false, false});
  const std::string& alice_ticket = match.tickets(0).ticket();
  const std::string& carol_ticket = match.tickets(1).ticket();
  v1::JoinMatchResponse joined;
  // Alice's ticket alone: her name is bound to her credential.
  grpc::Status s = Join(match.match_id(), alice_ticket, "", &joined);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(s.error_message(), HasSubstr("entrant with a bot credential"));
  // Bob's credential takes neither Alice's seat nor Carol's.
  EXPECT_EQ(Join(match.match_id(), alice_ticket, bob, &joined).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  s = Join(match.match_id(), carol_ticket, bob, &joined, "carol");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(s.error_message(), HasSubstr("only under its entrant's name"));
  // A credential the referee does not hold.
  EXPECT_EQ(Join(match.match_id(), alice_ticket, std::string(64, 'a'), &joined)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // Alice's own credential does.
  ASSERT_TRUE(Join(match.match_id(), alice_ticket, alice, &joined).ok());
  EXPECT_EQ(joined.seat(), 0);

  // An open match: nobody else may take Alice's name there either.
  v1::CreateMatchRequest open;
  open.set_game("craits");
  (*open.mutable_params()->mutable_values())["num_players"].set_int_value(2);
  open.set_open(true);
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext context;
    AsOrganiser(&context);
    ASSERT_TRUE(stub_->CreateMatch(&context, open, &created).ok());
  }
  EXPECT_EQ(
      Join(created.match_id(), "", "", &joined, "alice").error_code(),
      grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(
      Join(created.match_id(), "", bob, &joined, "alice").error_code(),
      grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(Join(created.match_id(), "", alice, &joined).ok());
  EXPECT_EQ(Info(created.match_id()).seats(0).player_name(), "alice");
  // Inviting a name with no credential is refused.
  v1::CreateMatchRequest bad;
  bad.set_game("craits");
  (*bad.mutable_params()->mutable_values())["num_players"].set_int_value(2);
  for (const char* name : {"alice", "dave"}) {
    v1::SeatAssignment* a = bad.add_seat_assignments();
    a->set_player_name(name);
    a->set_invite(true);
  }
  grpc::ClientContext context;
  AsOrganiser(&context);
  s = stub_->CreateMatch(&context, bad, &created);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("'dave', who has no bot credential"));
}

TEST_F(GrpcInvitationsTest, ARevokedCredentialsStreamEndsAndItsSeatIsPlayedFor) {
  StartServer();
  const std::string alice = Issue("alice");
  InvitationReader reader(*stub_, alice, 1);
  ASSERT_TRUE(reader.Next().has_value());
  v1::FaultPolicy policy;
  policy.set_max_consecutive_timeouts(2);
  policy.set_action(v1::FAULT_ACTION_SUBSTITUTE);
  const v1::CreateMatchResponse match =
      CreateInvited({"alice", "bob"}, {true, false}, 150, policy);
  const v1::Invitation invited = reader.NextInvitation();
  v1::JoinMatchResponse a, b;
  ASSERT_TRUE(Join(invited.match_id(), invited.ticket(), alice, &a).ok());
  ASSERT_TRUE(Join(match.match_id(), match.tickets(1).ticket(), "", &b).ok());

  v1::RevokeBotCredentialResponse revoked;
  ASSERT_TRUE(Revoke("alice", &revoked).ok());
  EXPECT_EQ(revoked.streams_ended(), 1);
  EXPECT_EQ(revoked.seats_closed(), 1);
  const std::optional<grpc::Status> ended = reader.Ended();
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(ended->error_message(), HasSubstr("revoked by the organiser"));
  // Its seat's token no longer works.
  v1::SeatRequest seat;
  seat.set_match_id(a.match_id());
  seat.set_seat(0);
  seat.set_token(a.token());
  v1::Observation obs;
  grpc::ClientContext context;
  const grpc::Status refused = stub_->GetObservation(&context, seat, &obs);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(refused.error_message(), HasSubstr("revoked"));
  // Bob plays on; Alice's decisions time out until she is absent.
  PlaySeat(match.match_id(), 1, b.token(), 11);
  const v1::MatchInfo info = Info(match.match_id());
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_EQ(info.seat_faults_size(), 2);
  EXPECT_EQ(info.seat_faults(0).timeouts(), 2);
  EXPECT_TRUE(info.seat_faults(0).absent());
  EXPECT_EQ(info.seat_faults(1).timeouts(), 0);
  ExpectAuditOk(info.log_path());
}

TEST_F(GrpcInvitationsTest, ABotThatAcceptsAndNeverJoinsMeetsTheJoinDeadline) {
  StartServer();
  const std::string alice = Issue("alice");
  InvitationReader reader(*stub_, alice, 1);
  ASSERT_TRUE(reader.Next().has_value());
  v1::FaultPolicy policy;
  policy.set_join_deadline_millis(300);
  policy.set_max_consecutive_timeouts(3);
  const v1::CreateMatchResponse match =
      CreateInvited({"alice", "bob"}, {true, false}, 5000, policy);
  // Queued behind it (Alice takes one match at once), with no deadline.
  const v1::CreateMatchResponse next =
      CreateInvited({"alice", "bob"}, {true, false});
  const v1::Invitation invited = reader.NextInvitation();
  EXPECT_GT(invited.join_deadline_unix_millis(), 0);
  // Alice never joins; Bob does, and plays once the deadline starts it.
  v1::JoinMatchResponse b;
  ASSERT_TRUE(Join(match.match_id(), match.tickets(1).ticket(), "", &b).ok());
  PlaySeat(match.match_id(), 1, b.token(), 5);
  const v1::MatchInfo info = Info(match.match_id());
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_EQ(info.seat_faults_size(), 2);
  EXPECT_TRUE(info.seat_faults(0).absent());
  ExpectAuditOk(info.log_path());
  // The log says seat 0 never joined: no name in its header.
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(info.log_path());
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE(log->has_header());
  EXPECT_EQ(log->header().seats(0).player_name(), "");
  // The seat's match is over: Alice is free for the next.
  EXPECT_EQ(reader.NextInvitation().match_id(), next.match_id());
  EXPECT_THAT(ops_.lines(), HasSubstr("event=invitation_sent match=" +
                                      match.match_id()));
}

TEST_F(GrpcInvitationsTest, AClosedStreamsSeatGoesToAnotherStreamOfTheEntrant) {
  StartServer();
  const std::string alice = Issue("alice");
  auto first = std::make_unique<InvitationReader>(*stub_, alice, 1);
  ASSERT_TRUE(first->Next().has_value());
  InvitationReader second(*stub_, alice, 1);
  ASSERT_TRUE(second.Next().has_value());
  const v1::CreateMatchResponse match =
      CreateInvited({"alice", "bob"}, {true, false});
  // Both have room for one and were sent none: the first opened takes it
  // (invitation_board.h).
  const v1::Invitation invited = first->NextInvitation();
  EXPECT_FALSE(second.Next(std::chrono::milliseconds(200)).has_value());
  first.reset();  // its bot died before joining
  const v1::Invitation again = second.NextInvitation();
  EXPECT_EQ(again.match_id(), invited.match_id());
  EXPECT_EQ(again.ticket(), invited.ticket());
  v1::JoinMatchResponse joined;
  EXPECT_TRUE(Join(again.match_id(), again.ticket(), alice, &joined).ok());
  EXPECT_THAT(ops_.lines(), HasSubstr("requeued=1"));
}

TEST_F(GrpcInvitationsTest, ALatencyAllowanceIsAddedToTheSeatsLimitAndLogged) {
  StartServer();
  const std::string alice = Issue("alice", 400);
  InvitationReader reader(*stub_, alice, 1);
  ASSERT_TRUE(reader.Next().has_value());
  const v1::CreateMatchResponse match =
      CreateInvited({"alice", "bob"}, {true, false}, 150);
  const v1::Invitation invited = reader.NextInvitation();
  EXPECT_EQ(invited.decision_time_limit_millis(), 550);
  v1::JoinMatchResponse a, b;
  ASSERT_TRUE(Join(invited.match_id(), invited.ticket(), alice, &a).ok());
  ASSERT_TRUE(Join(match.match_id(), match.tickets(1).ticket(), "", &b).ok());
  // Alice answers her first two decisions after 300 ms: past the match's
  // limit, within hers.
  std::thread bob([&] { PlaySeat(match.match_id(), 1, b.token(), 3); });
  PlaySeat(match.match_id(), 0, a.token(), 4, std::chrono::milliseconds(300),
           2);
  bob.join();
  const v1::MatchInfo info = Info(match.match_id());
  EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(info.seat_faults(0).timeouts(), 0);
  EXPECT_THAT(info.clock().latency_allowance_millis(),
              ::testing::ElementsAre(400, 0));
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(info.log_path());
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_TRUE(log->has_header());
  EXPECT_THAT(log->header().clock().latency_allowance_millis(),
              ::testing::ElementsAre(400, 0));
  ExpectAuditOk(info.log_path());
}

TEST_F(GrpcInvitationsTest, MetricsCountBotsAndInvitations) {
  options_.metrics_port = 0;
  StartServer();
  const std::string alice = Issue("alice");
  InvitationReader reader(*stub_, alice, 1);
  ASSERT_TRUE(reader.Next().has_value());
  CreateInvited({"alice", "bob"}, {true, false});
  CreateInvited({"alice", "bob"}, {true, false});
  reader.NextInvitation();
  const std::string text = testing_ops::HttpGet(server_->metrics_port());
  EXPECT_EQ(testing_ops::MetricSum(text, "cardref_bots_connected"), 1);
  EXPECT_EQ(testing_ops::MetricSum(text, "cardref_invitations_streams"), 1);
  EXPECT_EQ(testing_ops::MetricSum(text, "cardref_invitations_total",
                                   {"what=\"sent\""}),
            1);
  EXPECT_EQ(testing_ops::MetricSum(text, "cardref_invitations_queued"), 1);
  EXPECT_EQ(testing_ops::MetricSum(text, "cardref_invitations_outstanding"), 1);
  EXPECT_EQ(testing_ops::MetricSum(text, "cardref_streams_open",
                                   {"kind=\"invitations\""}),
            1);
}

}  // namespace
}  // namespace cardref
