// Proof of the deal and the referee key over real gRPC on loopback: the
// commitment is in CreateMatch's answer and GetMatch from the start, the
// seed only once the match is over; GetRefereeKey serves the key that signs
// the logs, and the finished log audits as signed by it.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "referee/base/testing/fresh_test_dir.h"
#include "analyzer/audit.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gtest/gtest.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/ed25519.h"
#include "referee/base/hex.h"
#include "referee/base/rng.h"
#include "referee/base/sha256.h"
#include "games/all_games.h"
#include "referee/grpc/server.h"

namespace cardref {
namespace {

class GrpcDealProofTest : public ::testing::Test {
 protected:
  void Start(bool signed_logs) {
    log_dir_ = testing_util::FreshTestDir("grpc_deal_proof_");
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_.string();
    if (signed_logs) {
      auto key = crypto::Ed25519PrivateKey::Generate();
      ASSERT_TRUE(key.ok());
      key_ = std::make_shared<const crypto::Ed25519PrivateKey>(*key);
      options.manager.signing_key = key_;
    }
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    stub_ = v1::Referee::NewStub(grpc::CreateChannel(
        server_->address(), grpc::InsecureChannelCredentials()));
  }

  v1::MatchInfo GetMatch(const std::string& id) {
    v1::GetMatchRequest request;
    request.set_match_id(id);
    v1::MatchInfo info;
    grpc::ClientContext context;
    EXPECT_TRUE(stub_->GetMatch(&context, request, &info).ok());
    return info;
  }

  std::filesystem::path log_dir_;
  std::shared_ptr<const crypto::Ed25519PrivateKey> key_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

TEST_F(GrpcDealProofTest, SeedIsRevealedByGetMatchOnlyOnceTheMatchIsOver) {
  ASSERT_NO_FATAL_FAILURE(Start(true));
  v1::CreateMatchRequest create;
  create.set_game("craits");
  (*create.mutable_params()->mutable_values())["num_players"].set_int_value(2);
  (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
      "SHORT");
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->CreateMatch(&context, create, &created).ok());
  }
  ASSERT_EQ(created.seed_commitment().size(), 32u);
  const std::string id = created.match_id();
  EXPECT_EQ(GetMatch(id).seed_commitment(), created.seed_commitment());
  EXPECT_TRUE(GetMatch(id).seed().empty());

  std::vector<v1::JoinMatchResponse> seats(2);
  for (int s = 0; s < 2; ++s) {
    v1::JoinMatchRequest join;
    join.set_match_id(id);
    join.set_seat(s);
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->JoinMatch(&context, join, &seats[s]).ok());
  }
  Rng rng(3);
  for (int steps = 0;; ++steps) {
    ASSERT_LT(steps, 20000);
    v1::SeatRequest any;
    any.set_match_id(id);
    any.set_seat(0);
    any.set_token(seats[0].token());
    v1::Observation obs;
    {
      grpc::ClientContext context;
      ASSERT_TRUE(stub_->GetObservation(&context, any, &obs).ok());
    }
    if (obs.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    // Never before the end, whoever asks and whenever.
    ASSERT_TRUE(GetMatch(id).seed().empty()) << "at step " << steps;
    const v1::JoinMatchResponse& actor = seats[obs.seat_to_act()];
    any.set_seat(actor.seat());
    any.set_token(actor.token());
    {
      grpc::ClientContext context;
      ASSERT_TRUE(stub_->GetObservation(&context, any, &obs).ok());
    }
    v1::SubmitActionRequest submit;
    submit.set_match_id(id);
    submit.set_seat(actor.seat());
    submit.set_token(actor.token());
    *submit.mutable_action() =
        obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
    v1::SubmitActionResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->SubmitAction(&context, submit, &response).ok());
  }
  const v1::MatchInfo over = GetMatch(id);
  EXPECT_EQ(over.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_EQ(over.seed().size(), 32u);
  EXPECT_EQ(crypto::Sha256(over.seed()), created.seed_commitment());

  // The key that signed it, as GetRefereeKey serves it, verifies the log.
  v1::RefereeKey key;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(
        stub_->GetRefereeKey(&context, v1::GetRefereeKeyRequest(), &key).ok());
  }
  EXPECT_EQ(key.algorithm(), "ed25519");
  EXPECT_EQ(key.public_key(), key_->public_key());
  EXPECT_EQ(key.public_key_hex(), ToHex(key_->public_key()));
  analyzer::AuditOptions audit;
  audit.referee_public_key = key.public_key();
  const analyzer::AuditReport report =
      analyzer::AuditFile(over.log_path(), audit, AllGames());
  EXPECT_EQ(report.verdict, analyzer::Verdict::kOk) << report.Line();
  EXPECT_EQ(report.integrity, "signed by the trusted key");
}

TEST_F(GrpcDealProofTest, ARefereeWithoutAKeySaysSo) {
  ASSERT_NO_FATAL_FAILURE(Start(false));
  v1::RefereeKey key;
  grpc::ClientContext context;
  const grpc::Status s =
      stub_->GetRefereeKey(&context, v1::GetRefereeKeyRequest(), &key);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(s.error_message(), "this referee does not sign its logs");
}

}  // namespace
}  // namespace cardref
