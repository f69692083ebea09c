// The syncer threads, and a match that leaves a round's sync to them: the
// round is shown to nobody, and nothing changes the match, until the sync
// has run; with no idle thread the submission syncs and answers at once.
#include "referee/service/log_syncer.h"

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/codec/logged_actions.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/service/match.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

// Hands the task over; the thread may not be waiting yet.
bool RunSoon(LogSyncThreads& syncer, std::function<void()>& task) {
  for (int i = 0; i < 2000; ++i) {
    if (syncer.TryRun(task)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// Atomics, not absl::Notification: ThreadSanitizer cannot follow Debian's
// uninstrumented Abseil through a Notification (docs/testing.md).
void WaitFor(const std::atomic<bool>& flag) {
  for (int i = 0; i < 10000 && !flag.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(flag.load()) << "waited 10 s";
}

TEST(LogSyncThreadsTest, RunsOnAnIdleThreadAndRefusesWhenAllAreBusy) {
  // Declared before the syncer, which runs its tasks until it is gone.
  std::atomic<bool> started{false}, release{false}, finished{false},
      third_ran{false};
  std::atomic<std::thread::id> ran_on;
  LogSyncThreads syncer(1);
  std::function<void()> task = [&] {
    ran_on = std::this_thread::get_id();
    started = true;
    WaitFor(release);
    finished = true;
  };
  ASSERT_TRUE(RunSoon(syncer, task));
  EXPECT_EQ(task, nullptr);  // taken
  WaitFor(started);
  EXPECT_NE(ran_on.load(), std::this_thread::get_id());
  // Its one thread is busy: refused, and the task is the caller's still.
  bool second_ran = false;
  std::function<void()> second = [&] { second_ran = true; };
  EXPECT_FALSE(syncer.TryRun(second));
  ASSERT_NE(second, nullptr);
  second();
  EXPECT_TRUE(second_ran);
  release = true;
  WaitFor(finished);
  // Idle again.
  std::function<void()> third = [&] { third_ran = true; };
  ASSERT_TRUE(RunSoon(syncer, third));
  WaitFor(third_ran);
}

TEST(LogSyncThreadsTest, TasksHandedOverRunBeforeTheThreadsStop) {
  std::atomic<int> ran{0};
  {
    LogSyncThreads syncer(3);
    for (int i = 0; i < 3; ++i) {
      std::function<void()> task = [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ++ran;
      };
      ASSERT_TRUE(RunSoon(syncer, task));
    }
  }
  EXPECT_EQ(ran.load(), 3);
}

// Keeps the task until the test runs it, or refuses every task.
class HeldSyncer : public LogSyncer {
 public:
  explicit HeldSyncer(bool refuse) : refuse_(refuse) {}
  bool TryRun(std::function<void()>& task) override {
    ++offered_;
    if (refuse_) return false;
    held_ = std::move(task);
    task = nullptr;
    return true;
  }
  bool holding() const { return held_ != nullptr; }
  void RunHeld() {
    std::function<void()> task = std::move(held_);
    held_ = nullptr;
    task();
  }
  int offered() const { return offered_; }

 private:
  const bool refuse_;
  std::function<void()> held_;
  int offered_ = 0;
};

// The match's log, whose Sync fails (an I/O error) once *fail is set.
class SyncFailingSink : public record::WritableSink {
 public:
  SyncFailingSink(std::unique_ptr<record::WritableSink> file, const bool* fail)
      : file_(std::move(file)), fail_(fail) {}
  absl::Status Append(absl::string_view data) override {
    return file_->Append(data);
  }
  absl::Status Flush() override { return file_->Flush(); }
  absl::Status Sync() override {
    if (*fail_) return absl::DataLossError("fdatasync: Input/output error");
    return file_->Sync();
  }
  absl::Status Seal() override {
    if (*fail_) return Sync();
    return file_->Seal();
  }
  absl::Status Close() override { return file_->Close(); }
  absl::Status Truncate(uint64_t size) override {
    return file_->Truncate(size);
  }

 private:
  std::unique_ptr<record::WritableSink> file_;
  const bool* fail_;
};

class DeferredSyncTest : public ::testing::Test {
 protected:
  void Start(LogSyncer* syncer, record::LogOpener open_log = nullptr) {
    dir_ = testing_util::FreshTestDir("log_syncer_test_");
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    options.log_sync = record::SyncPolicy::kRound;
    options.log_syncer = syncer;
    options.open_log = std::move(open_log);
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        3);
    (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
        "SHORT");
    create.set_dealing_seed(21);
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(create);
    ASSERT_TRUE(created.ok()) << created.status();
    for (int s = 0; s < 3; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(created->match_id());
      join.set_player_name("p" + std::to_string(s));
      absl::StatusOr<v1::JoinMatchResponse> joined = manager_->JoinMatch(join);
      ASSERT_TRUE(joined.ok()) << joined.status();
      tokens_.push_back(joined->token());
    }
    match_ = *manager_->Find(created->match_id());
    log_path_ = match_->Info().log_path();
  }

  // A random legal action of the seat to act.
  v1::SubmitActionRequest NextSubmission() {
    absl::StatusOr<v1::Observation> any = match_->Observe(0, tokens_[0]);
    EXPECT_TRUE(any.ok()) << any.status();
    const int seat = any->seat_to_act();
    absl::StatusOr<v1::Observation> obs = match_->Observe(seat, tokens_[seat]);
    EXPECT_TRUE(obs.ok()) << obs.status();
    v1::SubmitActionRequest r;
    r.set_match_id(match_->id());
    r.set_seat(seat);
    r.set_token(tokens_[seat]);
    *r.mutable_action() =
        obs->legal_actions(rng_.Uniform(obs->legal_actions_size()));
    return r;
  }

  int RoundResultsInTheFile() {
    absl::StatusOr<record::GameLog> log =
        codec::ReadGameLogWithActions(log_path_);
    EXPECT_TRUE(log.ok()) << log.status();
    int rounds = 0;
    for (const v1::LogRecord& r : log->records) rounds += r.has_round_result();
    return rounds;
  }

  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
  std::shared_ptr<Match> match_;
  std::string log_path_;  // read directly: Info waits out a sync
  std::vector<std::string> tokens_;
  Rng rng_{4};
};

TEST_F(DeferredSyncTest, ARoundIsShownToNobodyBeforeItsSyncHasRun) {
  HeldSyncer syncer(/*refuse=*/false);
  Start(&syncer);
  int deferred = 0;
  for (int guard = 0; guard < 10000 && deferred < 2; ++guard) {
    ASSERT_EQ(match_->status(), v1::MATCH_STATUS_IN_PROGRESS);
    const int rounds_before = RoundResultsInTheFile();
    const uint64_t version_before = match_->progress().version;
    const v1::SubmitActionRequest r = NextSubmission();
    std::optional<absl::StatusOr<v1::SubmitActionResponse>> answer;
    Match::SubmitThen(match_, r, [&](const auto& result) { answer = result; });
    if (!syncer.holding()) {
      ASSERT_TRUE(answer.has_value());  // no sync due: answered at once
      ASSERT_TRUE(answer->ok()) << answer->status();
      continue;
    }
    // A round ended: its records reached the file, but no one is told
    // until the sync has run.
    ++deferred;
    EXPECT_FALSE(answer.has_value());
    EXPECT_EQ(RoundResultsInTheFile(), rounds_before + 1);
    const int other = (r.seat() + 1) % 3;
    std::future<absl::StatusOr<v1::Observation>> look =
        std::async(std::launch::async,
                   [&] { return match_->Observe(other, tokens_[other]); });
    std::future<bool> timeout = std::async(std::launch::async, [&] {
      return match_->EnforceDeadline(absl::InfiniteFuture());
    });
    EXPECT_EQ(look.wait_for(std::chrono::milliseconds(200)),
              std::future_status::timeout)
        << "a seat saw the round before its sync";
    EXPECT_EQ(timeout.wait_for(std::chrono::milliseconds(1)),
              std::future_status::timeout)
        << "the match changed during its sync";
    syncer.RunHeld();
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok()) << answer->status();
    EXPECT_TRUE(answer->value().has_observation());
    absl::StatusOr<v1::Observation> seen = look.get();
    ASSERT_TRUE(seen.ok()) << seen.status();
    EXPECT_GT(seen->version(), version_before);
    timeout.get();  // no limit: nothing times out
  }
  EXPECT_EQ(deferred, 2);
}

// A sync that fails on the syncer thread ends the match as a failed write
// on the serving thread would: aborted (LOG_WRITE_FAILED), and whoever waited
// for the round is shown the aborted match, not a round that is not on disk.
TEST_F(DeferredSyncTest, AFailedDeferredSyncAbortsTheMatchBeforeAnyoneSeesTheRound) {
  HeldSyncer syncer(/*refuse=*/false);
  bool fail_sync = false;
  Start(&syncer, [&fail_sync](const std::string& path)
            -> absl::StatusOr<std::unique_ptr<record::WritableSink>> {
    absl::StatusOr<std::unique_ptr<record::WritableSink>> file =
        record::OpenAppendSink(path);
    if (!file.ok()) return file.status();
    return std::make_unique<SyncFailingSink>(*std::move(file), &fail_sync);
  });
  std::optional<absl::StatusOr<v1::SubmitActionResponse>> answer;
  int submitter = -1;
  for (int guard = 0; guard < 10000 && !syncer.holding(); ++guard) {
    ASSERT_EQ(match_->status(), v1::MATCH_STATUS_IN_PROGRESS);
    const v1::SubmitActionRequest r = NextSubmission();
    submitter = r.seat();
    answer.reset();
    Match::SubmitThen(match_, r, [&](const auto& result) { answer = result; });
  }
  ASSERT_TRUE(syncer.holding()) << "no round ended";
  ASSERT_FALSE(answer.has_value());
  const int other = (submitter + 1) % 3;
  std::future<absl::StatusOr<v1::Observation>> look = std::async(
      std::launch::async, [&] { return match_->Observe(other, tokens_[other]); });
  ASSERT_EQ(look.wait_for(std::chrono::milliseconds(100)),
            std::future_status::timeout);

  fail_sync = true;  // the task runs on this thread, after this
  syncer.RunHeld();

  ASSERT_TRUE(answer.has_value());
  ASSERT_TRUE(answer->ok()) << answer->status();  // the action was accepted
  EXPECT_EQ(answer->value().observation().status(), v1::MATCH_STATUS_ABORTED);
  absl::StatusOr<v1::Observation> seen = look.get();
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_EQ(seen->status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_EQ(match_->status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_THAT(match_->Info().end_reason(),
              ::testing::HasSubstr(
                  "cannot write the match log: fdatasync: Input/output error"));
  // The abort itself is still written after the failed sync (best effort),
  // with the cause an auditor needs.
  absl::StatusOr<record::GameLog> log =
      codec::ReadGameLogWithActions(log_path_);
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_FALSE(log->records.empty());
  ASSERT_TRUE(log->records.back().has_aborted());
  EXPECT_EQ(log->records.back().aborted().cause(),
            v1::ABORT_CAUSE_LOG_WRITE_FAILED);
}

TEST_F(DeferredSyncTest, WithNoIdleThreadTheSubmissionSyncsAndAnswersAtOnce) {
  HeldSyncer syncer(/*refuse=*/true);
  Start(&syncer);
  int answered = 0;
  for (int guard = 0; guard < 100000; ++guard) {
    if (match_->status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    bool done = false;
    Match::SubmitThen(match_, NextSubmission(), [&](const auto& result) {
      EXPECT_TRUE(result.ok()) << result.status();
      done = true;
    });
    ASSERT_TRUE(done);
    ++answered;
  }
  EXPECT_EQ(match_->status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(RoundResultsInTheFile(), 8);  // SHORT: every round logged
  // Offered every round's sync but the last, which the seal does.
  EXPECT_EQ(syncer.offered(), 7);
  EXPECT_GT(answered, 0);
}

}  // namespace
}  // namespace cardref::service
