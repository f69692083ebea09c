#include "ladder/store/testing/postgres_testing.h"

#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace cardref::ladder::testing {
namespace {

std::unique_ptr<PostgresServer>& Server() {
  static auto* const server = new std::unique_ptr<PostgresServer>;
  return *server;
}

std::string& SkipReason() {
  static auto* const reason =
      new std::string("PostgreSQL tests skipped: the server was not started");
  return *reason;
}

class PostgresEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<PostgresServer>> server =
        PostgresServer::Start();
    if (!server.ok()) {
      SkipReason() =
          absl::StrCat("PostgreSQL tests skipped: ", server.status().message());
      // The line CTest looks for (SKIP_REGULAR_EXPRESSION).
      std::cout << SkipReason() << std::endl;
      return;
    }
    Server() = *std::move(server);
  }
  void TearDown() override { Server().reset(); }
};

// Registered before main: gtest_main runs the environment once around all
// the binary's tests.
[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new PostgresEnvironment);

}  // namespace

PostgresServer* SharedPostgresServer() { return Server().get(); }

std::string SharedPostgresSkipReason() { return SkipReason(); }

}  // namespace cardref::ladder::testing
