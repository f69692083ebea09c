// Test support: a raw TCP connection to a port on 127.0.0.1, as a client
// that says nothing, from another loopback address if asked (all of 127/8
// is this machine's, so each is another client to the referee).
#ifndef CARDREF_TESTS_RAW_CONNECT_H_
#define CARDREF_TESTS_RAW_CONNECT_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cardref::testing_net {

// The connected descriptor, or -1.
inline int ConnectRaw(int port, const char* from = nullptr) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  if (from != nullptr) {
    inet_pton(AF_INET, from, &addr.sin_addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      close(fd);
      return -1;
    }
  }
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace cardref::testing_net

#endif  // CARDREF_TESTS_RAW_CONNECT_H_
