// The sandbox at the level of a match (docs/sandbox.md, "How it was
// tested"): cardref_tournament plays real matches whose hostile bot runs in
// the sandbox against an honest one, and the event's files and logs must
// show that the hostile bot reached nothing, slowed no one, and was blamed
// by name. As root (the sandbox needs it); skipped with a message
// otherwise. The small hostile programs are in sandbox/testing; the bot
// here is hostile_player.cc.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cardref/v1/log.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "referee/record/game_log.h"
#include "sandbox/sandbox.h"

namespace cardref::tournament {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kTools = CARDREF_TOOLS_DIR;
const std::string kHostilePlayer = CARDREF_HOSTILE_PLAYER;
// One match of Craits for two, its short game.
const std::vector<std::string> kOneMatch = {
    "--games=craits:2", "--matches=1", "--shard=0/2",
    "--params=game_length=SHORT"};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `argv` with its output (stdout and stderr) in *output; its exit
// status.
int RunCommand(const std::vector<std::string>& argv, std::string* output) {
  char path[] = "/tmp/cardref-sbt-out.XXXXXX";
  const int fd = mkstemp(path);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(fd);
  *output = ReadFile(path);
  unlink(path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Live processes running as a uid of [first, last]. Zombies are left out:
// a sandbox's pid-namespace init, which bwrap does not wait for, stays one
// until the machine's init reaps it (docs/sandbox.md).
std::vector<std::string> ProcessesOf(uid_t first, uid_t last) {
  std::vector<std::string> found;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string text = ReadFile(e.path() / "status");
    if (text.find("\nState:\tZ") != std::string::npos) continue;
    std::istringstream status(text);
    std::string line;
    while (std::getline(status, line)) {
      unsigned long uid = 0;
      if (std::sscanf(line.c_str(), "Uid: %lu", &uid) == 1) {
        if (uid >= first && uid <= last) {
          found.push_back(absl::StrCat(name, " (uid ", uid, ")"));
        }
        break;
      }
    }
  }
  return found;
}

class SandboxTournamentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) {
      GTEST_SKIP() << "the bot sandbox needs root (cgroups, a uid per bot); "
                      "CI runs this suite as root";
    }
    // The machine must offer what the sandbox needs (bwrap, cgroups).
    absl::StatusOr<std::unique_ptr<sandbox::SandboxHost>> host =
        sandbox::SandboxHost::Create(sandbox::HostOptions());
    if (!host.ok()) {
      GTEST_SKIP() << "no sandbox on this machine: " << host.status();
    }
    char dir[] = "/tmp/cardref-sbt.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    chmod(dir_.c_str(), 0711);  // bots pass through to their folders
  }
  void TearDown() override {
    if (referee_ > 0) {
      kill(referee_, SIGKILL);
      waitpid(referee_, nullptr, 0);
    }
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // A bot's folder, readable by any uid, holding copies of `programs` and
  // a file `secret.txt`.
  std::string BotFolder(const std::string& name,
                        const std::vector<std::string>& programs) {
    std::string folder = absl::StrCat(dir_, "/", name);
    fs::create_directory(folder);
    chmod(folder.c_str(), 0755);
    for (const std::string& program : programs) {
      const std::string copy = absl::StrCat(folder, "/", fs::path(program).filename().string());
      fs::copy_file(program, copy);
      chmod(copy.c_str(), 0755);
    }
    std::ofstream(absl::StrCat(folder, "/secret.txt")) << "an opening book\n";
    chmod(absl::StrCat(folder, "/secret.txt").c_str(), 0644);
    return folder;
  }

  // cardref_tournament of one match with `flags` (which may override the
  // match's), its event in dir_/event.
  int Tournament(const std::vector<std::string>& flags, std::string* output) {
    std::vector<std::string> argv = {kTools + "/cardref_tournament",
                                     absl::StrCat("--out=", event())};
    argv.insert(argv.end(), kOneMatch.begin(), kOneMatch.end());
    argv.insert(argv.end(), flags.begin(), flags.end());
    const int code = RunCommand(argv, output);
    std::printf("%s", output->c_str());
    return code;
  }

  std::string event() const { return dir_ + "/event"; }

  // The event's one match (matches/*.json).
  nlohmann::json TheMatch() {
    std::vector<nlohmann::json> matches;
    for (const fs::directory_entry& e :
         fs::directory_iterator(event() + "/matches")) {
      matches.push_back(nlohmann::json::parse(ReadFile(e.path())));
    }
    EXPECT_EQ(matches.size(), 1u);
    return matches.empty() ? nlohmann::json() : matches[0];
  }

  static const nlohmann::json& SeatOf(const nlohmann::json& match,
                                      const std::string& bot) {
    for (const nlohmann::json& seat : match["seats"]) {
      if (seat["bot"] == bot) return seat;
    }
    ADD_FAILURE() << "no seat of " << bot << " in " << match.dump();
    static const nlohmann::json none;
    return none;
  }

  std::string OutputOf(const nlohmann::json& match, const std::string& bot) {
    return ReadFile(absl::StrCat(event(), "/bots/",
                                 match["key"].get<std::string>(), ".seat",
                                 SeatOf(match, bot)["seat"].get<int>(),
                                 ".stderr"));
  }

  static std::vector<v1::LogRecord> Records(const std::string& path) {
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? log->records : std::vector<v1::LogRecord>();
  }

  void ExpectAudits(const std::string& log) {
    std::string output;
    EXPECT_EQ(RunCommand({kTools + "/cardref_analyze", "audit", log}, &output), 0)
        << output;
  }

  std::string dir_;
  pid_t referee_ = -1;
};

// A spy against an honest bot on a referee the test starts, without an
// organiser credential (where every other local caller is the organiser),
// with a metrics port: the spy can read nothing of the event, the referee
// or the other bot, connect to none of the referee's ports, and is not the
// organiser through its socket; the daemon it leaves dies with its match.
TEST_F(SandboxTournamentTest, ASpyReachesNothingAndLeavesNothing) {
  const std::string referee_dir = dir_ + "/referee";
  fs::create_directory(referee_dir);
  referee_ = fork();
  if (referee_ == 0) {
    const std::string log = referee_dir + "/referee.out";
    freopen(log.c_str(), "w", stdout);
    freopen(log.c_str(), "a", stderr);
    execl((kTools + "/cardref_referee").c_str(), "cardref_referee", "--port=0",
          ("--port_file=" + referee_dir + "/port").c_str(),
          ("--log_dir=" + referee_dir + "/logs").c_str(), "--metrics_port=0",
          ("--metrics_port_file=" + referee_dir + "/metrics.port").c_str(),
          nullptr);
    _exit(127);
  }
  std::string port, metrics_port;
  for (int i = 0; i < 200 && (port.empty() || metrics_port.empty()); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    port = ReadFile(referee_dir + "/port");
    metrics_port = ReadFile(referee_dir + "/metrics.port");
  }
  while (!port.empty() && port.back() == '\n') port.pop_back();
  while (!metrics_port.empty() && metrics_port.back() == '\n') {
    metrics_port.pop_back();
  }
  ASSERT_FALSE(port.empty() || metrics_port.empty())
      << ReadFile(referee_dir + "/referee.out");

  const std::string spy = BotFolder("spy", {kHostilePlayer});
  const std::string honest = BotFolder("honest", {kTools + "/cardref_bot"});
  // Made by the event, or by the referee, before the spy starts.
  const std::vector<std::string> forbidden = {
      honest + "/secret.txt",        event() + "/event.secret",
      event() + "/matches.tsv",      event() + "/bots",
      referee_dir + "/logs",         referee_dir + "/referee_ed25519.key",
      referee_dir + "/port",         "/etc/shadow",
      "/root",                       "/var/log"};
  std::vector<std::string> spy_command = {spy + "/tournament_hostile_player", "spy",
                                          "--read=" + spy + "/secret.txt"};
  for (const std::string& path : forbidden) spy_command.push_back("--read=" + path);
  spy_command.push_back("--connect=127.0.0.1:" + port);
  spy_command.push_back("--connect=127.0.0.1:" + metrics_port);
  spy_command.emplace_back("--daemon");
  std::string output;
  ASSERT_EQ(Tournament({"--server=127.0.0.1:" + port,
                        "--bot=spy=" + absl::StrJoin(spy_command, " "),
                        "--bot=honest=" + honest + "/cardref_bot --quiet",
                        "--bot_uids=1900200000-1900200019"},
                       &output),
            0);
  const nlohmann::json match = TheMatch();
  EXPECT_EQ(match["outcome"], "finished");
  EXPECT_EQ(SeatOf(match, "spy")["failed"], false);
  const std::string said = OutputOf(match, "spy");
  SCOPED_TRACE(said);
  EXPECT_THAT(said, HasSubstr("SERVER unix:/run/cardref/referee.sock"));
  // The control: its own folder it may read, so a denial means something.
  EXPECT_THAT(said, HasSubstr("READ " + spy + "/secret.txt\n"));
  for (const std::string& path : forbidden) {
    EXPECT_THAT(said, HasSubstr("DENIED " + path + ": ")) << path;
    EXPECT_THAT(said, ::testing::Not(HasSubstr("READ " + path + "\n")));
  }
  EXPECT_THAT(said, HasSubstr("REFUSED 127.0.0.1:" + port + ": "));
  EXPECT_THAT(said, HasSubstr("REFUSED 127.0.0.1:" + metrics_port + ": "));
  EXPECT_THAT(said, ::testing::Not(HasSubstr("CONNECTED")));
  EXPECT_THAT(said, HasSubstr("NOT ORGANISER: 7 "));  // PERMISSION_DENIED
  EXPECT_THAT(said, HasSubstr("DAEMON "));
  EXPECT_THAT(said, HasSubstr("END "));
  // Nothing of the bots' uids outlives the event.
  EXPECT_THAT(ProcessesOf(1900200000, 1900200019), ::testing::IsEmpty());
  ExpectAudits(match["log"]);
}

// What an honest bot's seat went through beside a busy bot.
struct BesideABusyBot {
  int timeouts = 0;
  std::vector<int64_t> working;  // its decisions with work, as timed
};

// A bot whose child spins 128 threads all match long beside an honest bot
// that does 15 ms of CPU work for each of its first 100 decisions, under a
// 500 ms limit: outside the sandbox the honest bot's thread gets about
// 1/65 of a core of two, some 1 s per decision; in the sandbox each bot
// has its CPU share on a core of its own (docs/sandbox.md, "Fair CPU"), and
// the limit leaves room for other load on the machine.
TEST_F(SandboxTournamentTest, ABusyBotCostsItsOpponentNoTimeout) {
  const std::string busy = BotFolder("busy", {kHostilePlayer});
  const std::string honest = BotFolder("honest", {kHostilePlayer});
  auto play = [&](bool sandboxed) {
    fs::remove_all(event());
    BesideABusyBot out;
    std::vector<std::string> flags = {
        "--bot=busy=" + busy + "/tournament_hostile_player busy",
        "--bot=honest=" + honest + "/tournament_hostile_player honest",
        "--decision_time_limit_ms=500", "--bot_uids=1900200020-1900200039",
        // A short match, though the referee plays a seat's passive moves
        // once the busy bot is absent: rounds end after 250 actions.
        "--params=game_length=SHORT,round_action_limit=250"};
    if (!sandboxed) flags.emplace_back("--trust_bots");
    std::string output;
    EXPECT_EQ(Tournament(flags, &output), 0);
    const nlohmann::json match = TheMatch();
    EXPECT_EQ(match["outcome"], "finished");
    const nlohmann::json& seat = SeatOf(match, "honest");
    out.timeouts = seat["faults"]["timeouts"].get<int>();
    for (const v1::LogRecord& r : Records(match["log"])) {
      if (r.has_action() && r.action().seat() == seat["seat"].get<int>() &&
          !r.action().by_referee() && out.working.size() < 100) {
        out.working.push_back(r.action().time_taken_micros());
      }
    }
    std::sort(out.working.begin(), out.working.end());
    if (out.working.empty()) {
      std::printf("%s: honest bot beside a busy one: %d timeouts, no answer "
                  "in time\n",
                  sandboxed ? "in the sandbox" : "outside it (--trust_bots)",
                  out.timeouts);
    } else {
      std::printf("%s: honest bot beside a busy one: %d timeouts; its first "
                  "%zu answers (15 ms of CPU each): median %.1f ms, max "
                  "%.1f ms (limit 500 ms)\n",
                  sandboxed ? "in the sandbox" : "outside it (--trust_bots)",
                  out.timeouts, out.working.size(),
                  out.working[out.working.size() / 2] / 1000.0,
                  out.working.back() / 1000.0);
    }
    ExpectAudits(match["log"]);
    return out;
  };
  // The control: without the sandbox the busy bot does make it time out,
  // so the test can tell.
  const BesideABusyBot outside = play(false);
  EXPECT_GT(outside.timeouts, 0) << "the busy bot slowed no one outside the "
                                    "sandbox: this test cannot tell";
  const BesideABusyBot inside = play(true);
  EXPECT_EQ(inside.timeouts, 0);
  ASSERT_EQ(inside.working.size(), 100u);
  EXPECT_LT(inside.working.back(), 500'000);
}

// A bot that allocates without end at its third decision is killed at its
// memory limit; the event's files say so by name, the log has the
// referee's BOT_ENDED fault with the cause, and the honest bot's match
// plays on to its end.
TEST_F(SandboxTournamentTest, AMemoryBombIsAttributedToItsMemoryLimit) {
  const std::string bomb = BotFolder("bomb", {kHostilePlayer});
  const std::string honest = BotFolder("honest", {kTools + "/cardref_bot"});
  std::string output;
  ASSERT_EQ(Tournament({"--bot=bomb=" + bomb + "/tournament_hostile_player bomb",
                        "--bot=honest=" + honest + "/cardref_bot --quiet",
                        "--max_bot_memory_mb=64",
                        "--bot_uids=1900200040-1900200059"},
                       &output),
            0);
  EXPECT_THAT(output, HasSubstr("(bomb): ended at its memory_limit"));
  const nlohmann::json match = TheMatch();
  EXPECT_EQ(match["outcome"], "finished");
  const nlohmann::json& seat = SeatOf(match, "bomb");
  EXPECT_EQ(seat["limit"], "memory_limit") << seat.dump();
  EXPECT_EQ(seat["end"], "memory_limit");
  EXPECT_EQ(seat["failed"], true);
  EXPECT_THAT(seat["exit"].get<std::string>(), HasSubstr("memory limit"));
  EXPECT_TRUE(seat["faults"]["absent"].get<bool>());
  EXPECT_EQ(seat["faults"]["timeouts"], 0);  // settled at once, not waited out
  EXPECT_EQ(SeatOf(match, "honest")["failed"], false);
  EXPECT_THAT(match["reason"].get<std::string>(), HasSubstr("memory limit"));
  int ended = 0;
  for (const v1::LogRecord& r : Records(match["log"])) {
    if (r.has_fault() && r.fault().kind() == v1::FAULT_KIND_BOT_ENDED) {
      ++ended;
      EXPECT_EQ(r.fault().seat(), seat["seat"].get<int>());
      EXPECT_EQ(r.fault().cause(), "memory_limit");
      EXPECT_THAT(r.fault().detail(), HasSubstr("memory limit"));
    }
  }
  EXPECT_EQ(ended, 1);
  ExpectAudits(match["log"]);
}

}  // namespace
}  // namespace cardref::tournament
