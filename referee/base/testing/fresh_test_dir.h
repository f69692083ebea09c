// Test support: a fresh, empty folder for the running test case.
#ifndef CARDREF_REFEREE_BASE_TESTING_FRESH_TEST_DIR_H_
#define CARDREF_REFEREE_BASE_TESTING_FRESH_TEST_DIR_H_

#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace cardref::testing_util {

// TempDir()/<prefix><pid>_<test name>, emptied and created: the pid and the
// test's name keep parallel CTest runs of one binary apart.
inline std::filesystem::path FreshTestDir(const std::string& prefix) {
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (prefix + std::to_string(::getpid()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace cardref::testing_util

#endif  // CARDREF_REFEREE_BASE_TESTING_FRESH_TEST_DIR_H_
