#include "referee/grpc/loopback_peer.h"

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace cardref::grpc_service {
namespace {

// The port and address of `addr` into one side of an inet_diag socket id.
void Fill(const sockaddr_storage& addr, __be16* port, __be32 (&address)[4]) {
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    *port = in->sin_port;
    std::memcpy(address, &in->sin_addr, sizeof(in->sin_addr));
  } else {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    *port = in6->sin6_port;
    std::memcpy(address, &in6->sin6_addr, sizeof(in6->sin6_addr));
  }
}

}  // namespace

bool IsLoopback(const sockaddr_storage& addr) {
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (addr.ss_family == AF_INET6) {
    const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(&a) ||
           (IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127);
  }
  return false;
}

std::optional<uid_t> LocalPeerUid(int fd) {
  sockaddr_storage local{}, peer{};
  socklen_t local_len = sizeof(local), peer_len = sizeof(peer);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0 ||
      getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0 ||
      local.ss_family != peer.ss_family ||
      (peer.ss_family != AF_INET && peer.ss_family != AF_INET6)) {
    return std::nullopt;
  }
  struct {
    nlmsghdr header;
    inet_diag_req_v2 request;
  } ask{};
  ask.header.nlmsg_len = sizeof(ask);
  ask.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  ask.header.nlmsg_flags = NLM_F_REQUEST;
  ask.request.sdiag_family = peer.ss_family;
  ask.request.sdiag_protocol = IPPROTO_TCP;
  ask.request.idiag_states = ~0U;
  // The client's socket: from our peer, to us.
  Fill(peer, &ask.request.id.idiag_sport, ask.request.id.idiag_src);
  Fill(local, &ask.request.id.idiag_dport, ask.request.id.idiag_dst);
  ask.request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
  ask.request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

  const int diag = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
                          NETLINK_SOCK_DIAG);
  if (diag < 0) return std::nullopt;
  std::optional<uid_t> uid;
  alignas(nlmsghdr) char answer[8192];
  if (send(diag, &ask, sizeof(ask), 0) == static_cast<ssize_t>(sizeof(ask))) {
    const ssize_t n = recv(diag, answer, sizeof(answer), 0);
    const auto* reply = reinterpret_cast<const nlmsghdr*>(answer);
    if (n >= static_cast<ssize_t>(sizeof(nlmsghdr)) &&
        NLMSG_OK(reply, static_cast<size_t>(n)) &&
        reply->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
        reply->nlmsg_len >= NLMSG_LENGTH(sizeof(inet_diag_msg))) {
      const auto* found =
          static_cast<const inet_diag_msg*>(NLMSG_DATA(reply));
      uid = found->idiag_uid;
    }
  }
  close(diag);
  return uid;
}

}  // namespace cardref::grpc_service
