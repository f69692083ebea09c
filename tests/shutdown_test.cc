// SIGTERM to the real cardref_referee: every match ends with a logged
// reason, every log is whole, the process exits 0 (docs/operations.md,
// "Shutdown"). The structured lines on stderr say the same.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "referee/base/testing/fresh_test_dir.h"
#include "analyzer/audit.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "tests/ops_test_client.h"

namespace cardref {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ShutdownTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Starts the referee; its stderr goes to <dir>/stderr.
  void StartReferee(int64_t grace_ms) {
    dir_ = testing_util::FreshTestDir("shutdown_test_");
    const std::string port_file = (dir_ / "port").string();
    const std::vector<std::string> args = {
        CARDREF_REFEREE_BINARY,
        "--port=0",
        "--port_file=" + port_file,
        "--log_dir=" + (dir_ / "logs").string(),
        "--min_free_disk_mb=0",
        "--shutdown_grace_ms=" + std::to_string(grace_ms)};
    pid_ = ::fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      const int err = ::open((dir_ / "stderr").c_str(),
                             O_WRONLY | O_CREAT | O_TRUNC, 0600);
      const int out = ::open("/dev/null", O_WRONLY);
      ::dup2(err, 2);
      ::dup2(out, 1);
      std::vector<char*> argv;
      argv.reserve(args.size() + 1);
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    for (int i = 0; i < 1000; ++i) {
      const std::string port = ReadFile(port_file);
      if (!port.empty() && port.back() == '\n') {
        client_ = std::make_unique<testing_ops::OpsTestClient>(
            "localhost:" + port.substr(0, port.size() - 1));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "the referee did not write its port file";
  }

  // Waits up to `limit` for the referee to exit; its exit status, or -1.
  int WaitForExit(std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }

  std::string LogOf(const std::string& id) {
    return (dir_ / "logs" / (id + ".cardlog")).string();
  }

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  std::unique_ptr<testing_ops::OpsTestClient> client_;
};

TEST_F(ShutdownTest, SigtermAbortsUnfinishedMatchesWithTheCauseAndExitsZero) {
  StartReferee(/*grace_ms=*/200);
  ASSERT_NE(client_, nullptr);
  Rng rng(5);
  const testing_ops::TestMatch playing = client_->Start(21);
  ASSERT_FALSE(playing.id.empty());
  ASSERT_TRUE(client_->Play(playing, rng, 6).ok());
  std::string waiting;
  ASSERT_TRUE(client_->Create(22, &waiting).ok());

  ASSERT_EQ(::kill(pid_, SIGTERM), 0);
  EXPECT_EQ(WaitForExit(std::chrono::seconds(20)), 0);

  for (const std::string& id : {playing.id, waiting}) {
    SCOPED_TRACE(id);
    auto log = record::ReadGameLog(LogOf(id));
    ASSERT_TRUE(log.ok()) << log.status();
    EXPECT_EQ(log->end, record::FileEnd::kComplete);
    ASSERT_TRUE(log->has_header());
    ASSERT_TRUE(log->records.back().has_aborted());
    EXPECT_EQ(log->records.back().aborted().cause(),
              v1::ABORT_CAUSE_REFEREE_SHUTDOWN);
    const analyzer::AuditReport report =
        analyzer::AuditFile(LogOf(id), {}, AllGames());
    EXPECT_EQ(report.verdict, analyzer::Verdict::kAborted) << report.Line();
  }
  // The played moves are in the log before the abort notice.
  auto log = record::ReadGameLog(LogOf(playing.id));
  int actions = 0;
  for (const v1::LogRecord& r : log->records) actions += r.has_action();
  EXPECT_EQ(actions, 6);

  const std::string err = ReadFile(dir_ / "stderr");
  EXPECT_NE(err.find("event=match_start match=" + playing.id), std::string::npos)
      << err;
  EXPECT_NE(err.find("event=match_end match=" + playing.id +
                     " game=craits status=MATCH_STATUS_ABORTED started=true "
                     "cause=ABORT_CAUSE_REFEREE_SHUTDOWN"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("event=shutdown signal=15 finished_in_grace=0 aborted=2"),
            std::string::npos)
      << err;
}

TEST_F(ShutdownTest, AMatchInProgressMayFinishWithinTheGrace) {
  StartReferee(/*grace_ms=*/60'000);
  ASSERT_NE(client_, nullptr);
  Rng rng(6);
  const testing_ops::TestMatch playing = client_->Start(23);
  ASSERT_FALSE(playing.id.empty());
  ASSERT_TRUE(client_->Play(playing, rng, 4).ok());

  ASSERT_EQ(::kill(pid_, SIGTERM), 0);
  // Still serving the match, but nothing new.
  std::string id;
  grpc::Status refused;
  for (int i = 0; i < 200; ++i) {  // the signal takes a moment to land
    refused = client_->Create(24, &id);
    if (!refused.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::UNAVAILABLE)
      << refused.error_message();
  // The last move ends the game, and the referee stops serving at once:
  // the call after it may find no server (the log shows the end).
  for (int i = 0; i < 100'000; ++i) {
    bool over = false;
    if (!client_->Step(playing, rng, &over).ok() || over) break;
  }
  // It exits once the last game is over, long before the grace ends.
  EXPECT_EQ(WaitForExit(std::chrono::seconds(20)), 0);

  const analyzer::AuditReport report =
      analyzer::AuditFile(LogOf(playing.id), {}, AllGames());
  EXPECT_EQ(report.verdict, analyzer::Verdict::kOk) << report.Line();
  const std::string err = ReadFile(dir_ / "stderr");
  EXPECT_NE(err.find("event=match_end match=" + playing.id +
                     " game=craits status=MATCH_STATUS_FINISHED"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace cardref
