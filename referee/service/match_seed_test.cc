// Proof of the deal in the match: the seed's commitment is public from
// CreateMatch on, the seed stays secret until the match is over, every deck
// order is derived from it, and the log reveals it and is signed.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/codec/logged_actions.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/base/deal_stream.h"
#include "referee/base/ed25519.h"
#include "referee/base/rng.h"
#include "referee/base/sha256.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/service/match.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

class MatchSeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("match_seed_test_");
    absl::StatusOr<crypto::Ed25519PrivateKey> key =
        crypto::Ed25519PrivateKey::Generate();
    ASSERT_TRUE(key.ok());
    key_ = std::make_shared<const crypto::Ed25519PrivateKey>(*key);
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    options.signing_key = key_;
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  v1::CreateMatchRequest Craits2() {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        2);
    (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
        "SHORT");
    return create;
  }

  // Joins both seats; returns their tokens.
  std::vector<std::string> JoinAll(const std::string& id) {
    std::vector<std::string> tokens;
    for (int s = 0; s < 2; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(id);
      join.set_seat(s);
      auto joined = manager_->JoinMatch(join);
      EXPECT_TRUE(joined.ok()) << joined.status();
      tokens.push_back(joined.ok() ? joined->token() : "");
    }
    return tokens;
  }

  // Plays random legal actions: all of them (max_actions < 0) or that many.
  void Play(Match& match, const std::vector<std::string>& tokens,
            uint64_t seed, int max_actions = -1) {
    Rng rng(seed);
    for (int n = 0; n != max_actions; ++n) {
      if (match.status() != v1::MATCH_STATUS_IN_PROGRESS) return;
      const int seat = match.progress().seat_to_act;
      auto obs = match.Observe(seat, tokens[seat]);
      ASSERT_TRUE(obs.ok());
      v1::SubmitActionRequest r;
      r.set_match_id(match.id());
      r.set_seat(seat);
      r.set_token(tokens[seat]);
      *r.mutable_action() =
          obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
      ASSERT_TRUE(match.Submit(r).ok());
    }
  }

  v1::MatchInfo Info(const std::string& id) {
    absl::StatusOr<v1::MatchInfo> info = manager_->Info(id);
    EXPECT_TRUE(info.ok()) << info.status();
    return info.value_or(v1::MatchInfo());
  }

  std::filesystem::path dir_;
  std::shared_ptr<const crypto::Ed25519PrivateKey> key_;
  std::unique_ptr<MatchManager> manager_;
};

TEST_F(MatchSeedTest, SeedIsHiddenUntilTheEndThenRevealedEverywhere) {
  auto created = manager_->CreateMatch(Craits2());
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string commitment = created->seed_commitment();
  ASSERT_EQ(commitment.size(), 32u);
  const std::string id = created->match_id();
  EXPECT_EQ(Info(id).seed_commitment(), commitment);
  EXPECT_TRUE(Info(id).seed().empty());  // waiting for players

  std::vector<std::string> tokens = JoinAll(id);
  std::shared_ptr<Match> match = *manager_->Find(id);
  Play(*match, tokens, 3, 10);
  ASSERT_EQ(match->status(), v1::MATCH_STATUS_IN_PROGRESS);
  EXPECT_TRUE(Info(id).seed().empty());  // in play
  EXPECT_TRUE(match->Info().seed().empty());

  Play(*match, tokens, 3);
  ASSERT_EQ(match->status(), v1::MATCH_STATUS_FINISHED);
  const v1::MatchInfo over = Info(id);
  EXPECT_EQ(over.seed_commitment(), commitment);
  ASSERT_EQ(over.seed().size(), 32u);
  EXPECT_EQ(crypto::Sha256(over.seed()), commitment);

  // The log: commitment and algorithm in the header, the seed revealed
  // right before the final result, which is signed.
  absl::StatusOr<record::GameLog> log = codec::ReadGameLogWithActions(over.log_path());
  ASSERT_TRUE(log.ok());
  const auto& records = log->records;
  ASSERT_GE(records.size(), 3u);
  EXPECT_EQ(log->header().format_version(), record::kLogFormatVersion);
  EXPECT_EQ(log->header().seed_commitment(), commitment);
  EXPECT_EQ(log->header().deal_algorithm(), "cardref-deal-v1");
  EXPECT_EQ(log->header().referee_public_key(), key_->public_key());
  ASSERT_TRUE(records[records.size() - 2].has_seed_reveal());
  EXPECT_EQ(records[records.size() - 2].seed_reveal().seed(), over.seed());
  ASSERT_TRUE(records.back().has_final_result());
  EXPECT_EQ(records.back().signature().size(), 64u);
  int reveals = 0;
  for (const auto& r : records) reveals += r.has_seed_reveal();
  EXPECT_EQ(reveals, 1);

  // Every deck order is the one the seed derives (the first round's deal
  // here; analyzer/integrity_test.cc checks every order of many logs).
  ASSERT_TRUE(records[1].has_chance());
  std::vector<uint32_t> cards(records[1].chance().cards().begin(),
                              records[1].chance().cards().end());
  std::vector<uint32_t> derived = cards;
  DeriveDealOrder(over.seed(), {1, 0, 0}, absl::MakeSpan(derived));
  EXPECT_EQ(cards, derived);
}

TEST_F(MatchSeedTest, AnAbortedMatchRevealsItsSeedInTheLogAndInfo) {
  auto created = manager_->CreateMatch(Craits2());
  ASSERT_TRUE(created.ok());
  std::vector<std::string> tokens = JoinAll(created->match_id());
  std::shared_ptr<Match> match = *manager_->Find(created->match_id());
  Play(*match, tokens, 4, 5);
  const std::string path = match->Info().log_path();
  match.reset();
  manager_.reset();  // aborts the match in progress
  absl::StatusOr<record::GameLog> log = codec::ReadGameLogWithActions(path);
  ASSERT_TRUE(log.ok());
  const auto& records = log->records;
  ASSERT_TRUE(records.back().has_aborted());
  EXPECT_EQ(records.back().signature().size(), 64u);
  ASSERT_TRUE(records[records.size() - 2].has_seed_reveal());
  EXPECT_EQ(crypto::Sha256(records[records.size() - 2].seed_reveal().seed()),
            created->seed_commitment());
}

TEST_F(MatchSeedTest, SeedsComeFromTheOrganiserTheLegacyFieldOrTheOs) {
  v1::CreateMatchRequest given = Craits2();
  given.set_seed(std::string(32, '\x5a'));
  given.set_dealing_seed(9);  // ignored when `seed` is set
  auto a = manager_->CreateMatch(given);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->seed_commitment(), crypto::Sha256(std::string(32, '\x5a')));

  v1::CreateMatchRequest legacy = Craits2();
  legacy.set_dealing_seed(0x0102030405060708ull);
  auto b = manager_->CreateMatch(legacy);
  ASSERT_TRUE(b.ok());
  const std::string expected_seed =
      std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8) +
      std::string(24, '\0');
  EXPECT_EQ(LegacySeed(0x0102030405060708ull), expected_seed);
  EXPECT_EQ(b->seed_commitment(), crypto::Sha256(expected_seed));

  auto c = manager_->CreateMatch(Craits2());
  auto d = manager_->CreateMatch(Craits2());
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_NE(c->seed_commitment(), d->seed_commitment());
  EXPECT_NE(c->seed_commitment(), crypto::Sha256(LegacySeed(0)));

  v1::CreateMatchRequest short_seed = Craits2();
  short_seed.set_seed(std::string(31, '\x01'));
  auto e = manager_->CreateMatch(short_seed);
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(e.status().message()),
              ::testing::HasSubstr("seed must be 32 bytes"));
}

// Duplicate play: the same seed deals the same orders, so revealing it at
// the end of one match would show the other's cards while it is played.
TEST_F(MatchSeedTest, ASharedSeedIsWithheldUntilEveryTwinIsOver) {
  v1::CreateMatchRequest create = Craits2();
  create.set_seed(std::string(32, '\x11'));
  auto first = manager_->CreateMatch(create);
  auto second = manager_->CreateMatch(create);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->seed_commitment(), second->seed_commitment());
  std::vector<std::string> t1 = JoinAll(first->match_id());
  std::shared_ptr<Match> m1 = *manager_->Find(first->match_id());
  Play(*m1, t1, 1);
  ASSERT_EQ(m1->status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_TRUE(Info(first->match_id()).seed().empty());  // twin waiting

  std::vector<std::string> t2 = JoinAll(second->match_id());
  std::shared_ptr<Match> m2 = *manager_->Find(second->match_id());
  Play(*m2, t2, 2, 4);
  EXPECT_TRUE(Info(first->match_id()).seed().empty());  // twin in play
  Play(*m2, t2, 2);
  ASSERT_EQ(m2->status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(Info(first->match_id()).seed(), std::string(32, '\x11'));
  EXPECT_EQ(Info(second->match_id()).seed(), std::string(32, '\x11'));
}

}  // namespace
}  // namespace cardref::service
