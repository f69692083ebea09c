// The user at the other end of a connection from this machine
// (referee/grpc/loopback_peer.h), as the connection cap per client counts
// it: this process's own user, and (as root) another user's process.
#include "referee/grpc/loopback_peer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>

#include "gtest/gtest.h"
#include "tests/raw_connect.h"

namespace cardref::grpc_service {
namespace {

constexpr uid_t kNobody = 65534;

// A listening socket on 127.0.0.1 and its port.
struct Listener {
  Listener() {
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
        listen(fd, 4) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port = ntohs(addr.sin_port);
    }
  }
  ~Listener() { close(fd); }
  int fd = -1;
  int port = 0;
};

TEST(LocalPeerUidTest, NamesThisProcesssUserForItsOwnConnection) {
  Listener listener;
  ASSERT_GT(listener.port, 0);
  const int client = testing_net::ConnectRaw(listener.port);
  ASSERT_GE(client, 0);
  const int accepted = accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
  ASSERT_GE(accepted, 0);
  EXPECT_EQ(LocalPeerUid(accepted), std::optional<uid_t>(geteuid()));
  // Asked from the client's end, it names the server's end: ours too.
  EXPECT_EQ(LocalPeerUid(client), std::optional<uid_t>(geteuid()));
  close(client);
  close(accepted);
}

TEST(LocalPeerUidTest, NamesAnotherUsersConnection) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "needs root: a child connects as nobody (uid 65534)";
  }
  Listener listener;
  ASSERT_GT(listener.port, 0);
  int done[2];
  ASSERT_EQ(pipe2(done, O_CLOEXEC), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only syscalls here: the child of a threaded test process.
    close(done[1]);
    if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(2);
    const int fd = testing_net::ConnectRaw(listener.port);
    char byte;
    (void)!read(done[0], &byte, 1);  // hold the connection until told
    _exit(fd >= 0 ? 0 : 3);
  }
  close(done[0]);
  const int accepted = accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
  EXPECT_GE(accepted, 0);
  if (accepted >= 0) {
    EXPECT_EQ(LocalPeerUid(accepted), std::optional<uid_t>(kNobody));
    close(accepted);
  }
  close(done[1]);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(IsLoopbackTest, KnowsLoopbackAddresses) {
  auto v4 = [](const char* text) {
    sockaddr_storage addr{};
    auto* in = reinterpret_cast<sockaddr_in*>(&addr);
    in->sin_family = AF_INET;
    inet_pton(AF_INET, text, &in->sin_addr);
    return addr;
  };
  auto v6 = [](const char* text) {
    sockaddr_storage addr{};
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
    in6->sin6_family = AF_INET6;
    inet_pton(AF_INET6, text, &in6->sin6_addr);
    return addr;
  };
  EXPECT_TRUE(IsLoopback(v4("127.0.0.1")));
  EXPECT_TRUE(IsLoopback(v4("127.9.8.7")));
  EXPECT_FALSE(IsLoopback(v4("10.0.0.1")));
  EXPECT_FALSE(IsLoopback(v4("128.0.0.1")));
  EXPECT_TRUE(IsLoopback(v6("::1")));
  EXPECT_TRUE(IsLoopback(v6("::ffff:127.0.0.1")));
  EXPECT_FALSE(IsLoopback(v6("::ffff:10.0.0.1")));
  EXPECT_FALSE(IsLoopback(v6("fe80::1")));
}

}  // namespace
}  // namespace cardref::grpc_service
