// The store backends a test binary runs the store's contract tests on
// (store_contract_test.cc, claim_test.cc, migrate_contract_test.cc): each
// test is a TEST_P over LinkedBackends(). A binary links one definition of
// LinkedBackends: sqlite_backends.cc (SQLite files) or postgres_backends.cc
// (databases on a PostgreSQL server the binary starts once).
#ifndef CARDREF_LADDER_STORE_TESTING_STORE_BACKENDS_H_
#define CARDREF_LADDER_STORE_TESTING_STORE_BACKENDS_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "ladder/store/open_store.h"
#include "ladder/store/store.h"

namespace cardref::ladder::testing {

class StoreBackend {
 public:
  virtual ~StoreBackend() = default;
  // "sqlite" or "postgres": the suffix of each test's name.
  virtual std::string name() const = 0;
  // Why the backend cannot run here (its tests skip with this), or "".
  virtual std::string Unavailable() const = 0;
  // A new, empty database: what OpenStore takes (a path or a URL).
  virtual absl::StatusOr<std::string> NewDatabase() = 0;
  // The schema version recorded in `db` (0: none), read without a store.
  virtual absl::StatusOr<int> SchemaVersionOf(const std::string& db) = 0;
  // Runs statements without parameters on `db`, outside any store (to
  // write rows as an older binary would have).
  virtual absl::Status Exec(const std::string& db, const std::string& sql) = 0;
  // The number of rows in `table` of `db`.
  virtual absl::StatusOr<int64_t> CountRows(const std::string& db,
                                            const std::string& table) = 0;
  // Whether `table` of `db` has `column` ("" : whether the table exists).
  virtual absl::StatusOr<bool> HasColumn(const std::string& db,
                                         const std::string& table,
                                         const std::string& column) = 0;
};

// The backends of this test binary.
std::vector<StoreBackend*> LinkedBackends();

// How GoogleTest prints a backend parameter (and CTest names its tests):
// by name, not by its address, which changed from one discovery to the next.
inline void PrintTo(StoreBackend* backend, std::ostream* os) {
  *os << backend->name();
}

// The test name suffix of a backend parameter.
inline std::string BackendName(
    const ::testing::TestParamInfo<StoreBackend*>& info) {
  return info.param->name();
}

// Fast commits for tests: claims and results are atomic either way.
inline OpenStoreOptions FastOptions() {
  OpenStoreOptions options;
  options.sync_every_commit = false;
  return options;
}

// A fixture for tests over every backend: skips when the backend cannot
// run here, and opens stores on fresh databases.
class BackendTest : public ::testing::TestWithParam<StoreBackend*> {
 protected:
  void SetUp() override {
    if (std::string why = GetParam()->Unavailable(); !why.empty()) {
      GTEST_SKIP() << why;
    }
  }

  StoreBackend& backend() { return *GetParam(); }

  // A new database's locator (fails the test if it cannot be made).
  std::string NewDatabase() {
    absl::StatusOr<std::string> db = backend().NewDatabase();
    EXPECT_TRUE(db.ok()) << db.status();
    return db.value_or("");
  }

  // A store on `db` (a new database if empty), opened with `options`.
  std::unique_ptr<LadderStore> Open(std::string db = "",
                                    const OpenStoreOptions& options = {}) {
    if (db.empty()) db = NewDatabase();
    absl::StatusOr<std::unique_ptr<LadderStore>> store =
        OpenStore(db, options);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }
};

}  // namespace cardref::ladder::testing

#endif  // CARDREF_LADDER_STORE_TESTING_STORE_BACKENDS_H_
