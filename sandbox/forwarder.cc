#include "sandbox/forwarder.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cardref::sandbox {
namespace {

// Bytes read from one side and not yet written to the other.
class Buffer {
 public:
  explicit Buffer(size_t capacity) : data_(capacity) {}
  bool empty() const { return begin_ == end_; }
  bool full() const { return end_ - begin_ == data_.size(); }

  // Reads what fits from `fd`: false on end of stream or an error (`eof`
  // says which).
  bool ReadFrom(int fd, bool& eof) {
    if (begin_ > 0 && end_ == data_.size()) Compact();
    const ssize_t n = recv(fd, data_.data() + end_, data_.size() - end_, 0);
    if (n > 0) {
      end_ += static_cast<size_t>(n);
      return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    eof = n == 0;
    return false;
  }
  // Writes what `fd` takes: false on an error.
  bool WriteTo(int fd) {
    const ssize_t n = send(fd, data_.data() + begin_, end_ - begin_, MSG_NOSIGNAL);
    if (n < 0) return errno == EAGAIN || errno == EINTR;
    begin_ += static_cast<size_t>(n);
    if (begin_ == end_) begin_ = end_ = 0;
    return true;
  }

 private:
  void Compact() {
    std::memmove(data_.data(), data_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  std::vector<char> data_;
  size_t begin_ = 0;
  size_t end_ = 0;
};

struct Connection {
  Connection(int client_fd, int upstream_fd, size_t buffer_bytes)
      : client(client_fd), upstream(upstream_fd), up(buffer_bytes),
        down(buffer_bytes) {}
  int client;
  int upstream;
  bool connecting = true;
  Buffer up;    // client -> upstream
  Buffer down;  // upstream -> client
  bool client_eof = false;
  bool upstream_eof = false;
  bool upstream_shut = false;
  bool client_shut = false;
  bool dead = false;

  bool Done() const {
    return dead || (client_eof && upstream_eof && up.empty() && down.empty());
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<SocketForwarder>> SocketForwarder::Start(
    const ForwarderOptions& options) {
  if (options.target_port <= 0 || options.target_port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("the referee's port must be 1..65535, got ",
                     options.target_port));
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (options.socket_path.empty() ||
      options.socket_path.size() >= sizeof(address.sun_path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a Unix socket's path must have 1 to ", sizeof(address.sun_path) - 1,
        " bytes, got '", options.socket_path, "'"));
  }
  if (options.max_connections < 1 || options.buffer_bytes < 1024) {
    return absl::InvalidArgumentError(
        "a forwarder needs max_connections >= 1 and buffer_bytes >= 1024");
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int gai = getaddrinfo(options.target_host.c_str(),
                              std::to_string(options.target_port).c_str(),
                              &hints, &found);
  if (gai != 0 || found == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve the referee's host '", options.target_host,
                     "': ", gai_strerror(gai)));
  }
  auto forwarder = std::unique_ptr<SocketForwarder>(new SocketForwarder(options));
  std::memcpy(&forwarder->target_, found->ai_addr, found->ai_addrlen);
  forwarder->target_size_ = found->ai_addrlen;
  const int family = found->ai_family;
  freeaddrinfo(found);
  if (!options.source_address.empty()) {
    addrinfo source_hints{};
    source_hints.ai_family = family;
    source_hints.ai_socktype = SOCK_STREAM;
    source_hints.ai_flags = AI_NUMERICHOST;
    addrinfo* source = nullptr;
    if (getaddrinfo(options.source_address.c_str(), "0", &source_hints, &source) != 0 ||
        source == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the forwarder's source address '", options.source_address,
          "' is not a numeric address of the referee's family"));
    }
    std::memcpy(&forwarder->source_, source->ai_addr, source->ai_addrlen);
    forwarder->source_size_ = source->ai_addrlen;
    freeaddrinfo(source);
  }

  struct stat st;
  if (lstat(options.socket_path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return absl::AlreadyExistsError(absl::StrCat(
          options.socket_path, " exists and is not a socket: not replaced"));
    }
    unlink(options.socket_path.c_str());
  }
  std::memcpy(address.sun_path, options.socket_path.c_str(),
              options.socket_path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  }
  forwarder->listen_fd_ = fd;  // closed by the destructor from here on
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(fd, 16) != 0) {
    return absl::InternalError(absl::StrCat(
        "cannot listen on ", options.socket_path, ": ", std::strerror(errno)));
  }
  if (chmod(options.socket_path.c_str(), options.mode) != 0 ||
      ((options.owner_uid.has_value() || options.owner_gid.has_value()) &&
       chown(options.socket_path.c_str(),
             options.owner_uid.value_or(static_cast<uid_t>(-1)),
             options.owner_gid.value_or(static_cast<gid_t>(-1))) != 0)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot give ", options.socket_path, " its owner and mode: ",
        std::strerror(errno)));
  }
  forwarder->wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (forwarder->wake_fd_ < 0) {
    return absl::InternalError(absl::StrCat("eventfd: ", std::strerror(errno)));
  }
  SocketForwarder* self = forwarder.get();
  forwarder->thread_ = std::thread([self] { self->Run(); });
  return forwarder;
}

SocketForwarder::~SocketForwarder() {
  if (thread_.joinable()) {
    const uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof(one));
    thread_.join();
  }
  if (listen_fd_ >= 0) {
    close(listen_fd_);
    unlink(options_.socket_path.c_str());
  }
  if (wake_fd_ >= 0) close(wake_fd_);
}

void SocketForwarder::Run() {
  std::vector<std::unique_ptr<Connection>> connections;
  std::vector<pollfd> fds;
  const auto* target = reinterpret_cast<const sockaddr*>(&target_);
  while (true) {
    fds.clear();
    fds.push_back({wake_fd_, POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    for (const auto& c : connections) {
      short client_events = 0;
      short upstream_events = 0;
      if (c->connecting) {
        upstream_events = POLLOUT;
      } else {
        if (!c->client_eof && !c->up.full()) client_events |= POLLIN;
        if (!c->down.empty()) client_events |= POLLOUT;
        if (!c->upstream_eof && !c->down.full()) upstream_events |= POLLIN;
        if (!c->up.empty()) upstream_events |= POLLOUT;
      }
      fds.push_back({c->client, client_events, 0});
      fds.push_back({c->upstream, upstream_events, 0});
    }
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents != 0) break;  // Stop
    for (size_t i = 0; i < connections.size(); ++i) {
      Connection& c = *connections[i];
      const short client_revents = fds[2 + 2 * i].revents;
      const short upstream_revents = fds[3 + 2 * i].revents;
      if (c.connecting) {
        if (upstream_revents == 0) continue;
        int error = 0;
        socklen_t size = sizeof(error);
        getsockopt(c.upstream, SOL_SOCKET, SO_ERROR, &error, &size);
        if (error != 0) {
          failed_.fetch_add(1);
          c.dead = true;
          continue;
        }
        c.connecting = false;
        continue;
      }
      bool eof = false;
      if ((client_revents & (POLLIN | POLLHUP | POLLERR)) != 0 && !c.client_eof &&
          !c.up.full() && !c.up.ReadFrom(c.client, eof)) {
        c.client_eof = true;
        c.dead = c.dead || !eof;
      }
      eof = false;
      if ((upstream_revents & (POLLIN | POLLHUP | POLLERR)) != 0 &&
          !c.upstream_eof && !c.down.full() && !c.down.ReadFrom(c.upstream, eof)) {
        c.upstream_eof = true;
        c.dead = c.dead || !eof;
      }
      if (!c.up.empty() && !c.up.WriteTo(c.upstream)) c.dead = true;
      if (!c.down.empty() && !c.down.WriteTo(c.client)) c.dead = true;
      // A side that hung up entirely takes nothing more: once what it sent
      // is passed on, the connection is over (and poll() would report the
      // hang-up at every turn).
      if (c.client_eof && (client_revents & POLLHUP) != 0 && c.up.empty()) {
        c.dead = true;
      }
      if (c.upstream_eof && (upstream_revents & POLLHUP) != 0 && c.down.empty()) {
        c.dead = true;
      }
      // An end of stream is passed on once what came before it is.
      if (c.client_eof && c.up.empty() && !c.upstream_shut) {
        shutdown(c.upstream, SHUT_WR);
        c.upstream_shut = true;
      }
      if (c.upstream_eof && c.down.empty() && !c.client_shut) {
        shutdown(c.client, SHUT_WR);
        c.client_shut = true;
      }
    }
    for (size_t i = 0; i < connections.size();) {
      if (connections[i]->Done()) {
        close(connections[i]->client);
        close(connections[i]->upstream);
        connections.erase(connections.begin() + static_cast<std::ptrdiff_t>(i));
        open_.fetch_sub(1);
      } else {
        ++i;
      }
    }
    if ((fds[1].revents & POLLIN) != 0) {
      const int client = accept4(listen_fd_, nullptr, nullptr,
                                 SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (client < 0) continue;
      if (static_cast<int>(connections.size()) >= options_.max_connections) {
        refused_.fetch_add(1);
        close(client);
        continue;
      }
      accepted_.fetch_add(1);
      const int upstream = socket(target->sa_family,
                                  SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      const bool bound =
          upstream >= 0 &&
          (source_size_ == 0 ||
           bind(upstream, reinterpret_cast<const sockaddr*>(&source_), source_size_) == 0);
      if (!bound ||
          (connect(upstream, target, target_size_) != 0 && errno != EINPROGRESS)) {
        failed_.fetch_add(1);
        if (upstream >= 0) close(upstream);
        close(client);
        continue;
      }
      connections.push_back(std::make_unique<Connection>(client, upstream,
                                                         options_.buffer_bytes));
      open_.fetch_add(1);
    }
  }
  for (const auto& c : connections) {
    close(c->client);
    close(c->upstream);
  }
  open_.store(0);
}

}  // namespace cardref::sandbox
