// The one PostgreSQL server of a test binary (postgres_server.h): a gtest
// environment starts it before the first test and stops it after the last.
// Tests that need it skip with SharedPostgresSkipReason() when it is null.
#ifndef CARDREF_LADDER_STORE_TESTING_POSTGRES_TESTING_H_
#define CARDREF_LADDER_STORE_TESTING_POSTGRES_TESTING_H_

#include <string>

#include "ladder/store/testing/postgres_server.h"

namespace cardref::ladder::testing {

// The running server, or null when none could be started here.
PostgresServer* SharedPostgresServer();
// Why there is no server ("PostgreSQL tests skipped: ...").
std::string SharedPostgresSkipReason();

// Skips the current test when there is no server.
#define SKIP_WITHOUT_POSTGRES()                                           \
  if (::cardref::ladder::testing::SharedPostgresServer() == nullptr)      \
  GTEST_SKIP() << ::cardref::ladder::testing::SharedPostgresSkipReason()

}  // namespace cardref::ladder::testing

#endif  // CARDREF_LADDER_STORE_TESTING_POSTGRES_TESTING_H_
