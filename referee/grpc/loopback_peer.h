// Who is at the other end of a TCP connection from this machine: the kernel
// knows the user (uid) owning the client's socket, and tells it to anyone
// who names the connection exactly (NETLINK_SOCK_DIAG, as `ss -e` asks).
// Bots of one tournament all connect from 127.0.0.1; run as users of their
// own (cardref_tournament --bot_uids) they can still be told apart.
#ifndef CARDREF_REFEREE_GRPC_LOOPBACK_PEER_H_
#define CARDREF_REFEREE_GRPC_LOOPBACK_PEER_H_

#include <sys/socket.h>
#include <sys/types.h>

#include <optional>

namespace cardref::grpc_service {

// 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104.
bool IsLoopback(const sockaddr_storage& addr);

// The uid owning the client's end of the accepted TCP connection `fd`,
// when that end is on this machine (in this network namespace); nullopt
// if the kernel does not say (another machine, the socket already gone).
std::optional<uid_t> LocalPeerUid(int fd);

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_LOOPBACK_PEER_H_
