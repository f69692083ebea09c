// The bwrap command line: every namespace, what is shown and in which
// order (the root made read-only last), and never a secret of /etc.
#include "sandbox/bwrap_args.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::sandbox {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// Where `items` (consecutive) start in `args`, or -1.
int Find(const std::vector<std::string>& args, std::vector<std::string> items) {
  const auto it = std::search(args.begin(), args.end(), items.begin(), items.end());
  return it == args.end() ? -1 : static_cast<int>(it - args.begin());
}

BwrapPlan Plan() {
  BwrapPlan plan;
  plan.system = {{"/usr", ""}, {"/lib64", "usr/lib64"}};
  plan.etc_entries = {"/etc/ld.so.cache", "/etc/hosts"};
  plan.bot_folder = "/home/alice/bot";
  plan.extra_read_only = {"/opt/book"};
  plan.referee_socket = "/run/cardref-sandbox.x/1/referee.sock";
  plan.scratch_bytes = 8 << 20;
  plan.syscall_filter_fd = 7;
  plan.status_fd = 8;
  plan.passwd_fd = 9;
  plan.group_fd = 10;
  plan.argv = {"/home/alice/bot/run", "--fast"};
  return plan;
}

TEST(BwrapArgs, EveryNamespaceAndNoWayBack) {
  const std::vector<std::string> a = BwrapArgs(Plan());
  EXPECT_EQ(a[0], "/usr/bin/bwrap");
  for (const char* flag :
       {"--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
        "--unshare-uts", "--disable-userns", "--die-with-parent",
        "--new-session"}) {
    EXPECT_THAT(a, Contains(flag));
  }
  EXPECT_THAT(a, Not(Contains("--share-net")));
  EXPECT_THAT(a, Not(Contains("--bind")));  // nothing writable of the host's
  EXPECT_THAT(a, Not(Contains("--cap-add")));
}

TEST(BwrapArgs, WhatIsShown) {
  const std::vector<std::string> a = BwrapArgs(Plan());
  EXPECT_GE(Find(a, {"--ro-bind", "/usr", "/usr"}), 0);
  EXPECT_GE(Find(a, {"--symlink", "usr/lib64", "/lib64"}), 0);
  EXPECT_GE(Find(a, {"--ro-bind", "/etc/hosts", "/etc/hosts"}), 0);
  EXPECT_GE(Find(a, {"--ro-bind-data", "9", "/etc/passwd"}), 0);
  EXPECT_GE(Find(a, {"--ro-bind-data", "10", "/etc/group"}), 0);
  EXPECT_GE(Find(a, {"--ro-bind", "/home/alice/bot", "/home/alice/bot"}), 0);
  EXPECT_GE(Find(a, {"--ro-bind", "/opt/book", "/opt/book"}), 0);
  EXPECT_GE(Find(a, {"--ro-bind", "/run/cardref-sandbox.x/1/referee.sock",
                     kRefereeSocketInside}),
            0);
  const int scratch = Find(a, {"--size", "8388608", "--perms", "0700", "--tmpfs", "/tmp"});
  EXPECT_GE(scratch, 0);
  // Before the bot's folder: one under the host's /tmp is shown in it.
  EXPECT_LT(scratch, Find(a, {"--ro-bind", "/home/alice/bot", "/home/alice/bot"}));
  EXPECT_GE(Find(a, {"--seccomp", "7"}), 0);
  EXPECT_GE(Find(a, {"--json-status-fd", "8"}), 0);
  EXPECT_GE(Find(a, {"--chdir", "/home/alice/bot"}), 0);
}

TEST(BwrapArgs, RootReadOnlyAfterEveryMountAndTheCommandLast) {
  const std::vector<std::string> a = BwrapArgs(Plan());
  const int remount = Find(a, {"--remount-ro", "/"});
  ASSERT_GE(remount, 0);
  for (const char* mount : {"--ro-bind", "--tmpfs", "--symlink", "--proc", "--dev",
                            "--ro-bind-data"}) {
    int last = -1;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == mount) last = static_cast<int>(i);
    }
    EXPECT_LT(last, remount) << mount;
  }
  const int dashes = Find(a, {"--", "/home/alice/bot/run", "--fast"});
  ASSERT_GE(dashes, 0);
  EXPECT_EQ(static_cast<size_t>(dashes) + 3, a.size());
}

TEST(BwrapArgs, OptionalPartsLeftOut) {
  BwrapPlan plan = Plan();
  plan.referee_socket.reset();
  plan.syscall_filter_fd = -1;
  plan.extra_read_only.clear();
  const std::string line = absl::StrJoin(BwrapArgs(plan), " ");
  EXPECT_THAT(line, Not(HasSubstr("--seccomp")));
  EXPECT_THAT(line, Not(HasSubstr(kRefereeSocketInside)));
  EXPECT_THAT(line, Not(HasSubstr("/opt/book")));
}

TEST(ListEtcEntries, NoSecretOfTheMachine) {
  const std::vector<std::string> etc = ListEtcEntries();
  for (const std::string& path : etc) {
    for (const char* secret : {"shadow", "gshadow", "ssh", "private", "sudoers",
                               "passwd", "group", "machine-id"}) {
      EXPECT_THAT(path, Not(HasSubstr(secret)));
    }
  }
  EXPECT_THAT(etc, Contains("/etc/ld.so.cache"));  // every Debian has it
}

TEST(ListSystemEntries, UsrIsAFolder) {
  const std::vector<SystemEntry> entries = ListSystemEntries();
  ASSERT_FALSE(entries.empty());
  EXPECT_EQ(entries[0].path, "/usr");
  EXPECT_TRUE(entries[0].link_target.empty());
}

TEST(PasswdFor, TheBotOnly) {
  EXPECT_EQ(PasswdFor(200001, 200001),
            "bot:x:200001:200001:cardref bot:/tmp:/usr/sbin/nologin\n");
  EXPECT_EQ(GroupFor(200001), "bot:x:200001:\n");
}

}  // namespace
}  // namespace cardref::sandbox
