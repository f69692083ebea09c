// Test support: a fresh, empty folder for the running test case, removed
// when the test passes and kept for a look when it fails.
#ifndef CARDREF_REFEREE_BASE_TESTING_FRESH_TEST_DIR_H_
#define CARDREF_REFEREE_BASE_TESTING_FRESH_TEST_DIR_H_

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"

namespace cardref::testing_util {

// Removes the folders handed to it when the running test ends without a
// failure. A CI machine runs the suites many times a day: left behind,
// their folders filled /tmp by the ten thousand.
class RemoveFoldersOfPassedTests : public ::testing::EmptyTestEventListener {
 public:
  void Add(std::filesystem::path dir) {
    absl::MutexLock lock(&mu_);
    dirs_.push_back(std::move(dir));
  }

  void OnTestEnd(const ::testing::TestInfo& test) override {
    absl::MutexLock lock(&mu_);
    if (!test.result()->Failed()) {
      for (const std::filesystem::path& dir : dirs_) {
        std::error_code ignored;  // a folder already gone is no failure
        std::filesystem::remove_all(dir, ignored);
      }
    }
    dirs_.clear();
  }

 private:
  absl::Mutex mu_;
  std::vector<std::filesystem::path> dirs_ ABSL_GUARDED_BY(mu_);
};

// Removes `dir` once the running test passes.
inline void RemoveWhenTheTestPasses(std::filesystem::path dir) {
  static RemoveFoldersOfPassedTests* const remover = [] {
    auto* listener = new RemoveFoldersOfPassedTests;
    // GoogleTest owns (and deletes) the listeners appended to it.
    ::testing::UnitTest::GetInstance()->listeners().Append(listener);
    return listener;
  }();
  remover->Add(std::move(dir));
}

// TempDir()/<prefix><pid>_<test name>, emptied and created: the pid and the
// test's name keep parallel CTest runs of one binary apart. A parameterised
// test's "Name/param" becomes "Name_param": one folder, removed whole.
inline std::filesystem::path FreshTestDir(const std::string& prefix) {
  std::string name =
      ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (prefix + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  RemoveWhenTheTestPasses(dir);
  return dir;
}

}  // namespace cardref::testing_util

#endif  // CARDREF_REFEREE_BASE_TESTING_FRESH_TEST_DIR_H_
