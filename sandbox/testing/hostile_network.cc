// A hostile bot that looks for a way out: `tcp HOST PORT...` tries each TCP
// address (2 s at most) and prints "tcp HOST:PORT ok" or the errno's name;
// `unix PATH TEXT` sends TEXT through the Unix socket at PATH and prints
// "unix reply TEXT-IT-GOT"; `env NAME` prints "env NAME=VALUE".
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int TryTcp(const char* host, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host, &a.sin_addr) != 1) return EINVAL;
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return errno;
  int err = 0;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    err = errno;
    if (err == EINPROGRESS) {
      pollfd p = {fd, POLLOUT, 0};
      if (poll(&p, 1, 2000) == 0) {
        err = ETIMEDOUT;
      } else {
        socklen_t size = sizeof(err);
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &size);
      }
    }
  }
  close(fd);
  return err;
}

void Unix(const char* path, const std::string& text) {
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path, sizeof(a.sun_path) - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    std::printf("unix %s\n", strerrorname_np(errno));
    return;
  }
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    std::printf("unix write %s\n", strerrorname_np(errno));
    return;
  }
  std::string reply;
  char buffer[256];
  while (reply.size() < text.size()) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n <= 0) break;
    reply.append(buffer, static_cast<size_t>(n));
  }
  std::printf("unix reply %s\n", reply.c_str());
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s tcp HOST PORT... | unix PATH TEXT | env NAME\n",
                 argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  if (mode == "tcp") {
    for (int i = 2; i + 1 < argc; i += 2) {
      const int err = TryTcp(argv[i], std::atoi(argv[i + 1]));
      std::printf("tcp %s:%s %s\n", argv[i], argv[i + 1],
                  err == 0 ? "ok" : strerrorname_np(err));
    }
  } else if (mode == "unix" && argc >= 4) {
    Unix(argv[2], argv[3]);
  } else if (mode == "env") {
    const char* value = std::getenv(argv[2]);
    std::printf("env %s=%s\n", argv[2], value == nullptr ? "(unset)" : value);
  }
  return 0;
}
