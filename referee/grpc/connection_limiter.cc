#include "referee/grpc/connection_limiter.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "referee/grpc/loopback_peer.h"

namespace cardref::grpc_service {

namespace {

constexpr int kBacklog = 512;

std::string Errno(const char* what) {
  return absl::StrCat(what, ": ", std::strerror(errno));
}

// "ipv4:127.0.0.1" / "ipv6:[::1]": gRPC's name of the peer without its port
// (call_gate.h keys per-address call rates the same way).
std::string AddressKey(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
    return absl::StrCat("ipv4:", text);
  }
  if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
    return absl::StrCat("ipv6:[", text, "]");
  }
  return "unknown";
}

// gRPC's name of a peer: "ipv4:127.0.0.1:51234", "ipv6:[::1]:51234".
std::string PeerName(const sockaddr_storage& addr) {
  int port = 0;
  if (addr.ss_family == AF_INET) {
    port = ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    port = ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
  }
  return absl::StrCat(AddressKey(addr), ":", port);
}

// Whose connection it is, for --max_connections_per_address: its address,
// and on this machine also the user whose process made it, so that bots
// run as users of their own (cardref_tournament --bot_uids) are told apart
// though all connect from 127.0.0.1.
std::string ClientKey(int fd, const sockaddr_storage& addr) {
  std::string key = AddressKey(addr);
  if (IsLoopback(addr)) {
    if (std::optional<uid_t> uid = LocalPeerUid(fd)) {
      absl::StrAppend(&key, " uid ", *uid);
    }
  }
  return key;
}

// The inode of the socket descriptor `fd` names now, 0 if none. Read from
// /proc, not by fstat: the number may have been closed by gRPC and reused
// by another thread, and an fstat of it is a race as ThreadSanitizer sees
// descriptors (it was reported once), though the inode tells the sockets
// apart either way.
ino_t SocketInode(int fd) {
  char path[32];
  std::snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  char target[64];
  const ssize_t n = readlink(path, target, sizeof(target) - 1);
  if (n <= 0) return 0;
  absl::string_view name(target, static_cast<size_t>(n));
  uint64_t inode = 0;
  if (!absl::ConsumePrefix(&name, "socket:[") ||
      !absl::ConsumeSuffix(&name, "]") || !absl::SimpleAtoi(name, &inode)) {
    return 0;
  }
  return static_cast<ino_t>(inode);
}

int BoundPort(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  if (addr.ss_family == AF_INET) {
    return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  }
  return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
}

void SetPort(sockaddr* addr, int port) {
  if (addr->sa_family == AF_INET) {
    reinterpret_cast<sockaddr_in*>(addr)->sin_port = htons(port);
  } else if (addr->sa_family == AF_INET6) {
    reinterpret_cast<sockaddr_in6*>(addr)->sin6_port = htons(port);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<ConnectionLimiter>> ConnectionLimiter::Listen(
    const std::string& host, int port, int max_connections,
    int max_per_address, int max_idle_ms) {
  std::string name = host;
  if (absl::StartsWith(name, "[") && absl::EndsWith(name, "]")) {
    name = name.substr(1, name.size() - 2);
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(name.empty() ? nullptr : name.c_str(), "0", &hints,
                           &found);
      rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  std::unique_ptr<ConnectionLimiter> limiter(new ConnectionLimiter);
  limiter->max_connections_ = max_connections;
  limiter->max_per_address_ = max_per_address;
  limiter->max_idle_ms_ = max_idle_ms;
  limiter->port_ = port;
  std::string last_error = "no address";
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    const int fd = socket(ai->ai_family,
                          ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
      last_error = Errno("socket");
      continue;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ai->ai_family == AF_INET6) {
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    }
    SetPort(ai->ai_addr, limiter->port_);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
        listen(fd, kBacklog) != 0) {
      last_error = Errno("bind/listen");
      close(fd);
      continue;
    }
    if (limiter->port_ == 0) limiter->port_ = BoundPort(fd);
    limiter->listeners_.push_back(fd);
  }
  freeaddrinfo(found);
  if (limiter->listeners_.empty()) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", host, ":", port, ": ", last_error));
  }
  if (pipe2(limiter->wake_, O_CLOEXEC | O_NONBLOCK) != 0) {
    return absl::InternalError(Errno("pipe2"));
  }
  return limiter;
}

ConnectionLimiter::~ConnectionLimiter() {
  Stop();
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
}

void ConnectionLimiter::Start(
    grpc::experimental::ExternalConnectionAcceptor* acceptor) {
  acceptor_ = acceptor;
  thread_ = std::thread([this] { AcceptLoop(); });
}

void ConnectionLimiter::Stop() {
  if (stopped_.exchange(true)) return;
  if (wake_[1] >= 0) {
    const char byte = 1;
    (void)!write(wake_[1], &byte, 1);
  }
  if (thread_.joinable()) thread_.join();
  for (int fd : listeners_) close(fd);
  listeners_.clear();
}

void ConnectionLimiter::AcceptLoop() {
  std::vector<pollfd> polled;
  for (int fd : listeners_) polled.push_back({fd, POLLIN, 0});
  polled.push_back({wake_[0], POLLIN, 0});
  // Every second: the idle sweep (and the recount it starts with).
  constexpr int kSweepMs = 1000;
  auto next_sweep = std::chrono::steady_clock::now();
  while (!stopped_.load()) {
    const int rc = poll(polled.data(), polled.size(), kSweepMs);
    if (rc < 0 && errno != EINTR) return;
    if (stopped_.load()) return;
    if (rc > 0) {
      for (size_t i = 0; i + 1 < polled.size(); ++i) {
        if (polled[i].revents & POLLIN) AcceptOne(polled[i].fd);
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (max_idle_ms_ > 0 && now >= next_sweep) {
      next_sweep = now + std::chrono::milliseconds(kSweepMs);
      absl::MutexLock lock(&mu_);
      RecountLocked();
      CloseIdleLocked();
    }
  }
}

void ConnectionLimiter::AcceptOne(int listener) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  const int fd = accept4(listener, reinterpret_cast<sockaddr*>(&addr), &len,
                         SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) {
    // Out of descriptors after all (the cap is above what is left): wait a
    // little rather than spin; the connection stays queued.
    if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
        errno == ENOMEM) {
      usleep(50'000);
    }
    return;
  }
  // Asked of the kernel before the lock is taken.
  const ino_t inode = SocketInode(fd);
  std::string client = ClientKey(fd, addr);
  std::string peer = PeerName(addr);
  {
    absl::MutexLock lock(&mu_);
    RecountLocked();
    // Counted before the close, which the client may see at once.
    if (static_cast<int>(open_.size()) >= max_connections_) {
      refused_.fetch_add(1);
      close(fd);
      return;
    }
    int& held = per_address_[client];
    if (max_per_address_ > 0 && held >= max_per_address_) {
      refused_per_address_.fetch_add(1);
      close(fd);
      return;
    }
    ++held;
    client_of_peer_[peer] = client;
    open_[fd] = Connection{inode, std::move(client), std::move(peer)};
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  grpc::experimental::ExternalConnectionAcceptor::NewConnectionParameters
      handed;
  handed.listener_fd = listener;
  handed.fd = fd;
  acceptor_->HandleNewConnection(&handed);
}

void ConnectionLimiter::CloseIdleLocked() {
  const uint32_t idle_ms = static_cast<uint32_t>(max_idle_ms_);
  for (const auto& [fd, connection] : open_) {
    tcp_info info{};
    socklen_t len = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) continue;
    if (std::min(info.tcpi_last_data_recv, info.tcpi_last_data_sent) <
        idle_ms) {
      continue;
    }
    // The number is gRPC's: shut the socket down only if it is still the
    // one accepted (RecountLocked just dropped the closed ones; this
    // narrows the window in which gRPC could close and reuse it).
    if (SocketInode(fd) != connection.ino) continue;
    // Counted first: whoever sees the socket closed sees it counted.
    closed_idle_.fetch_add(1);
    shutdown(fd, SHUT_RDWR);
  }
}

std::string ConnectionLimiter::ClientOf(const std::string& peer) {
  absl::MutexLock lock(&mu_);
  auto it = client_of_peer_.find(peer);
  return it == client_of_peer_.end() ? "" : it->second;
}

void ConnectionLimiter::RecountLocked() {
  for (auto it = open_.begin(); it != open_.end();) {
    auto here = it++;
    if (SocketInode(here->first) != here->second.ino) {
      // gRPC closed it (its number may be reused).
      auto held = per_address_.find(here->second.client);
      if (held != per_address_.end() && --held->second == 0) {
        per_address_.erase(held);
      }
      client_of_peer_.erase(here->second.peer);
      open_.erase(here);
    }
  }
}

int ConnectionLimiter::open_connections() {
  absl::MutexLock lock(&mu_);
  RecountLocked();
  return static_cast<int>(open_.size());
}

}  // namespace cardref::grpc_service
