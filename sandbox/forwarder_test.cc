// The Unix socket to TCP forwarder against an echo server on loopback:
// bytes pass both ways, in bulk too; it holds to its connection cap, says
// when the referee cannot be reached, and leaves nothing at its end.
#include "sandbox/forwarder.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::sandbox {
namespace {

using ::testing::HasSubstr;

// A TCP server on 127.0.0.1 that echoes every connection, a thread each.
class EchoServer {
 public:
  EchoServer() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(a);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    EXPECT_EQ(listen(fd_, 16), 0);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
    port_ = ntohs(a.sin_port);
    accept_thread_ = std::thread([this] {
      while (true) {
        sockaddr_in peer{};
        socklen_t peer_size = sizeof(peer);
        const int c = accept4(fd_, reinterpret_cast<sockaddr*>(&peer), &peer_size,
                              SOCK_CLOEXEC);
        if (c < 0) return;
        absl::MutexLock lock(&mu_);
        char text[INET_ADDRSTRLEN] = "";
        inet_ntop(AF_INET, &peer.sin_addr, text, sizeof(text));
        last_peer_ = text;
        clients_.push_back(c);
        echo_threads_.emplace_back([c] {
          char buffer[65536];
          ssize_t n;
          while ((n = read(c, buffer, sizeof(buffer))) > 0) {
            ssize_t done = 0;
            while (done < n) {
              const ssize_t w = write(c, buffer + done, static_cast<size_t>(n - done));
              if (w <= 0) return;
              done += w;
            }
          }
          shutdown(c, SHUT_WR);
        });
      }
    });
  }
  ~EchoServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    accept_thread_.join();
    absl::MutexLock lock(&mu_);
    for (int c : clients_) shutdown(c, SHUT_RDWR);
    for (std::thread& t : echo_threads_) t.join();
    for (int c : clients_) close(c);
  }
  int port() const { return port_; }
  std::string last_peer() {
    absl::MutexLock lock(&mu_);
    return last_peer_;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::thread accept_thread_;
  absl::Mutex mu_;
  std::vector<int> clients_ ABSL_GUARDED_BY(mu_);
  std::string last_peer_ ABSL_GUARDED_BY(mu_);
  std::vector<std::thread> echo_threads_ ABSL_GUARDED_BY(mu_);
};

int ConnectUnix(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof(a.sun_path) - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    close(fd);
    return -1;
  }
  timeval timeout = {10, 0};  // a hung forwarder fails the test, not CI
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  return fd;
}

// Reads until `n` bytes or the end of the stream.
std::string ReadN(int fd, size_t n) {
  std::string out;
  char buffer[65536];
  while (out.size() < n) {
    const ssize_t got = read(fd, buffer, std::min(sizeof(buffer), n - out.size()));
    if (got <= 0) break;
    out.append(buffer, static_cast<size_t>(got));
  }
  return out;
}

class ForwarderTest : public ::testing::Test {
 protected:
  ForwarderOptions Options(int port) {
    ForwarderOptions o;
    o.socket_path = (dir_ / "referee.sock").string();
    o.target_port = port;
    return o;
  }
  std::filesystem::path dir_ = testing_util::FreshTestDir("forwarder_");
};

TEST_F(ForwarderTest, EchoesBothWays) {
  EchoServer server;
  absl::StatusOr<std::unique_ptr<SocketForwarder>> f =
      SocketForwarder::Start(Options(server.port()));
  ASSERT_TRUE(f.ok()) << f.status();
  const int fd = ConnectUnix((*f)->socket_path());
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "ping", 4), 4);
  EXPECT_EQ(ReadN(fd, 4), "ping");
  close(fd);
  EXPECT_EQ((*f)->accepted(), 1);
}

TEST_F(ForwarderTest, ConnectionsComeFromTheSourceAddress) {
  EchoServer server;
  ForwarderOptions o = Options(server.port());
  o.source_address = "127.0.0.2";  // all of 127/8 is loopback on Linux
  absl::StatusOr<std::unique_ptr<SocketForwarder>> f = SocketForwarder::Start(o);
  ASSERT_TRUE(f.ok()) << f.status();
  const int fd = ConnectUnix((*f)->socket_path());
  ASSERT_EQ(write(fd, "a", 1), 1);
  ASSERT_EQ(ReadN(fd, 1), "a");
  close(fd);
  EXPECT_EQ(server.last_peer(), "127.0.0.2");
  o.source_address = "::1";  // not the referee's family
  EXPECT_EQ(SocketForwarder::Start(o).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(ForwarderTest, FourMegabytesThroughSmallBuffers) {
  EchoServer server;
  ForwarderOptions o = Options(server.port());
  o.buffer_bytes = 4096;  // many rounds of the poll loop, both directions full
  absl::StatusOr<std::unique_ptr<SocketForwarder>> f = SocketForwarder::Start(o);
  ASSERT_TRUE(f.ok());
  const int fd = ConnectUnix((*f)->socket_path());
  ASSERT_GE(fd, 0);
  std::string data(4 << 20, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 131 + i / 7);
  std::thread writer([&] {
    size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = write(fd, data.data() + done, data.size() - done);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
    shutdown(fd, SHUT_WR);
  });
  const std::string back = ReadN(fd, data.size() + 1);  // +1: then the end
  writer.join();
  close(fd);
  EXPECT_EQ(back.size(), data.size());
  EXPECT_TRUE(back == data);
}

TEST_F(ForwarderTest, HoldsToItsConnectionCap) {
  EchoServer server;
  ForwarderOptions o = Options(server.port());
  o.max_connections = 2;
  absl::StatusOr<std::unique_ptr<SocketForwarder>> f = SocketForwarder::Start(o);
  ASSERT_TRUE(f.ok());
  std::vector<int> open;
  for (int i = 0; i < 2; ++i) {
    open.push_back(ConnectUnix((*f)->socket_path()));
    ASSERT_EQ(write(open.back(), "x", 1), 1);
    ASSERT_EQ(ReadN(open.back(), 1), "x");
  }
  const int third = ConnectUnix((*f)->socket_path());
  ASSERT_GE(third, 0);
  char c;
  EXPECT_EQ(read(third, &c, 1), 0);  // accepted, then closed at once
  EXPECT_EQ((*f)->refused(), 1);
  EXPECT_EQ((*f)->open_connections(), 2);
  close(third);
  for (int fd : open) close(fd);
  // The freed places are taken again.
  for (int i = 0; i < 50 && (*f)->open_connections() > 0; ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  const int again = ConnectUnix((*f)->socket_path());
  ASSERT_EQ(write(again, "y", 1), 1);
  EXPECT_EQ(ReadN(again, 1), "y");
  close(again);
}

TEST_F(ForwarderTest, ARefereeThatIsNotThere) {
  int port = 0;
  {
    EchoServer gone;
    port = gone.port();
  }
  absl::StatusOr<std::unique_ptr<SocketForwarder>> f =
      SocketForwarder::Start(Options(port));
  ASSERT_TRUE(f.ok());
  const int fd = ConnectUnix((*f)->socket_path());
  ASSERT_GE(fd, 0);
  char c;
  EXPECT_LE(read(fd, &c, 1), 0);
  close(fd);
  EXPECT_EQ((*f)->failed(), 1);
}

TEST_F(ForwarderTest, TheSocketIsTheBotsAndGoesWithTheForwarder) {
  EchoServer server;
  ForwarderOptions o = Options(server.port());
  if (geteuid() == 0) {
    o.owner_uid = 12345;
    o.owner_gid = 12345;
  }
  absl::StatusOr<std::unique_ptr<SocketForwarder>> f = SocketForwarder::Start(o);
  ASSERT_TRUE(f.ok());
  struct stat st;
  ASSERT_EQ(lstat(o.socket_path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  if (geteuid() == 0) {
    EXPECT_EQ(st.st_uid, 12345u);
  }
  const int fd = ConnectUnix(o.socket_path);
  ASSERT_EQ(write(fd, "z", 1), 1);
  ASSERT_EQ(ReadN(fd, 1), "z");
  f->reset();
  EXPECT_NE(lstat(o.socket_path.c_str(), &st), 0);
  char c;
  EXPECT_EQ(read(fd, &c, 1), 0);  // its connections closed
  close(fd);
}

TEST_F(ForwarderTest, RefusesBadOptions) {
  std::ofstream(dir_ / "file") << "not a socket";
  ForwarderOptions o = Options(50051);
  o.socket_path = (dir_ / "file").string();
  EXPECT_EQ(SocketForwarder::Start(o).status().code(),
            absl::StatusCode::kAlreadyExists);
  o.socket_path = "/tmp/" + std::string(120, 'x');
  EXPECT_EQ(SocketForwarder::Start(o).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::Status port = SocketForwarder::Start(Options(0)).status();
  EXPECT_EQ(port.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(port.message()), HasSubstr("port"));
  o = Options(50051);
  o.target_host = "no-such-host.invalid";
  EXPECT_EQ(SocketForwarder::Start(o).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::sandbox
