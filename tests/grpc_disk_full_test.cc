// A full disk aborts only the match whose log write failed; a finished
// match stays finished, a match that was not writing plays on once there is
// room, and CreateMatch is refused with UNAVAILABLE below the reserve
// (--min_free_disk_mb). The disk is a 3 MiB tmpfs the test mounts, so it
// needs root; otherwise it is skipped with a message.
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/audit.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"
#include "referee/service/disk_reserve.h"
#include "tests/ops_test_client.h"

namespace cardref {
namespace {

// Writes `path` until the filesystem is full (the last write fails).
void FillDisk(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << std::strerror(errno);
  std::setvbuf(f, nullptr, _IONBF, 0);
  const std::string chunk(64 << 10, 'x');
  while (std::fwrite(chunk.data(), 1, chunk.size(), f) == chunk.size()) {
  }
  // Then the last partial pages, byte by byte in small pieces.
  while (std::fwrite(chunk.data(), 1, 512, f) == 512) {
  }
  while (std::fwrite(chunk.data(), 1, 1, f) == 1) {
  }
  std::fclose(f);
}

class GrpcDiskFullTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "needs root to mount a small tmpfs (run as root, as CI "
                      "does, to test a full disk)";
    }
    mount_ = std::filesystem::path(::testing::TempDir()) /
             ("disk_full_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(mount_);
    if (::mount("tmpfs", mount_.c_str(), "tmpfs", 0, "size=3m,mode=0700") !=
        0) {
      const int e = errno;
      std::filesystem::remove(mount_);
      mount_.clear();
      GTEST_SKIP() << "cannot mount a tmpfs even as root ("
                   << std::strerror(e) << "): no CAP_SYS_ADMIN here?";
    }
    mounted_ = true;
    grpc_service::ServerOptions options;
    options.manager.log_dir = (mount_ / "logs").string();
    options.manager.min_free_disk_mb = 1;
    // Every rejected submission is written, so B's floods reach the disk
    // (by default only the first few of a decision are: docs/limits.md).
    options.manager.limits.max_rejections_logged_per_decision = -1;
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    client_ = std::make_unique<testing_ops::OpsTestClient>(server_->address());
  }

  void TearDown() override {
    client_.reset();
    server_.reset();  // closes every log
    if (mounted_) {
      EXPECT_EQ(::umount2(mount_.c_str(), MNT_DETACH), 0)
          << std::strerror(errno);
    }
    if (!mount_.empty()) std::filesystem::remove_all(mount_);
  }

  v1::MatchStatus Status(const std::string& id, v1::MatchInfo* info_out =
                                                    nullptr) {
    v1::MatchInfo info;
    EXPECT_TRUE(client_->Info(id, &info).ok());
    if (info_out != nullptr) *info_out = info;
    return info.status();
  }

  analyzer::Verdict Audit(const std::string& id) {
    v1::MatchInfo info;
    EXPECT_TRUE(client_->Info(id, &info).ok());
    return analyzer::AuditFile(info.log_path(), {}, AllGames()).verdict;
  }

  std::filesystem::path mount_;
  bool mounted_ = false;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<testing_ops::OpsTestClient> client_;
};

TEST_F(GrpcDiskFullTest, OnlyTheMatchWhoseWriteFailedAborts) {
  Rng rng(3);
  // A is over before the disk fills; B and C are in progress.
  const testing_ops::TestMatch a = client_->Start(1);
  ASSERT_FALSE(a.id.empty());
  ASSERT_TRUE(client_->PlayToEnd(a, rng).ok());
  ASSERT_EQ(Status(a.id), v1::MATCH_STATUS_FINISHED);
  const testing_ops::TestMatch b = client_->Start(2);
  const testing_ops::TestMatch c = client_->Start(3);
  ASSERT_FALSE(b.id.empty());
  ASSERT_FALSE(c.id.empty());
  ASSERT_TRUE(client_->Play(b, rng, 3).ok());
  ASSERT_TRUE(client_->Play(c, rng, 3).ok());

  const std::filesystem::path filler = mount_ / "filler";
  FillDisk(filler);
  ASSERT_LT(*service::FreeDiskBytes(mount_.string()), 4096u);

  // Below the reserve: no new match, and the refusal says why.
  {
    std::string id;
    grpc::Status s = client_->Create(4, &id);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
    EXPECT_NE(s.error_message().find("--min_free_disk_mb"), std::string::npos)
        << s.error_message();
  }

  // B goes on writing (rejected submissions are logged) until a write
  // fails: then B, and only B, is aborted.
  v1::MatchInfo b_info;
  for (int i = 0; i < 2000 && Status(b.id, &b_info) ==
                                  v1::MATCH_STATUS_IN_PROGRESS;
       ++i) {
    client_->SubmitOutOfTurn(b).IgnoreError();
  }
  ASSERT_EQ(b_info.status(), v1::MATCH_STATUS_ABORTED);
  EXPECT_NE(b_info.end_reason().find("cannot write the match log"),
            std::string::npos)
      << b_info.end_reason();
  // The reason names no path of the referee's machine: it reaches the
  // seats and everyone who asks GetMatch.
  EXPECT_EQ(b_info.end_reason().find(mount_.string()), std::string::npos)
      << b_info.end_reason();
  EXPECT_EQ(b_info.end_reason().find(".cardlog"), std::string::npos)
      << b_info.end_reason();
  const grpc::Status late = client_->SubmitOutOfTurn(b);
  EXPECT_EQ(late.error_message().find(mount_.string()), std::string::npos)
      << late.error_message();
  EXPECT_EQ(Status(a.id), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(Status(c.id), v1::MATCH_STATUS_IN_PROGRESS);

  // B's log is a readable prefix that ends cleanly (the torn record is
  // dropped) with the seed and the abort notice, written into the space
  // every log keeps for its closing records: its cause is the failed write.
  auto b_log = record::ReadGameLog(b_info.log_path());
  ASSERT_TRUE(b_log.ok()) << b_log.status();
  EXPECT_EQ(b_log->end, record::FileEnd::kComplete) << record::DescribeEnd(*b_log);
  ASSERT_TRUE(b_log->has_header());
  ASSERT_TRUE(b_log->records.back().has_aborted());
  EXPECT_EQ(b_log->records.back().aborted().cause(),
            v1::ABORT_CAUSE_LOG_WRITE_FAILED);
  EXPECT_EQ(Audit(b.id), analyzer::Verdict::kAborted);

  // Room again: C, which was not writing, plays to its end; new matches
  // are accepted.
  std::filesystem::remove(filler);
  ASSERT_TRUE(client_->PlayToEnd(c, rng).ok());
  EXPECT_EQ(Status(c.id), v1::MATCH_STATUS_FINISHED);
  std::string id;
  EXPECT_TRUE(client_->Create(5, &id).ok());
  EXPECT_EQ(Audit(a.id), analyzer::Verdict::kOk);
  EXPECT_EQ(Audit(c.id), analyzer::Verdict::kOk);

  // A restart on the same folder finds B ended by the full disk, not
  // interrupted by a crash: recovery leaves its log alone.
  client_.reset();
  server_.reset();
  grpc_service::ServerOptions again;
  again.manager.log_dir = (mount_ / "logs").string();
  auto restarted = grpc_service::RefereeServer::Start(again);
  ASSERT_TRUE(restarted.ok()) << restarted.status();
  for (const service::RecoveredLog& r : (*restarted)->manager().recovered()) {
    EXPECT_NE(r.match_id, b.id) << r.description;
  }
  auto b_again = record::ReadGameLog(b_info.log_path());
  ASSERT_TRUE(b_again.ok());
  EXPECT_EQ(b_again->records.back().aborted().cause(),
            v1::ABORT_CAUSE_LOG_WRITE_FAILED);
}

}  // namespace
}  // namespace cardref
