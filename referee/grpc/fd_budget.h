// The process's file-descriptor budget. Every connection, log file and
// gRPC's own pipes take one; when accept() fails with EMFILE gRPC 1.51
// stops accepting for good (grpc/grpc#20418), so the referee raises its soft
// limit at start and caps connections well below it (connection_limiter.h).
#ifndef CARDREF_REFEREE_GRPC_FD_BUDGET_H_
#define CARDREF_REFEREE_GRPC_FD_BUDGET_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace cardref::grpc_service {

// Raises the soft RLIMIT_NOFILE to the hard limit; returns the soft limit
// in force afterwards.
absl::StatusOr<uint64_t> RaiseOpenFileLimit();

// The soft RLIMIT_NOFILE now (0 if unknown).
uint64_t OpenFileLimit();

// Descriptors open in this process now (from /proc/self/fd; -1 if unknown).
int OpenFileCount();

// The connection cap that fits in `fd_limit`: `wanted`, but never more than
// half the budget (the rest is for logs, streams' pipes and gRPC itself).
int FitConnectionCap(int wanted, uint64_t fd_limit);

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_FD_BUDGET_H_
