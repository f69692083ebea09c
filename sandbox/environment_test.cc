// cardref_envcheck's report of this machine, whatever the machine: the
// JSON carries every documented key, the text every section, the summary
// the plan, and nothing is both enforced and not.
#include "sandbox/environment.h"

#include <sched.h>
#include <unistd.h>

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace cardref::sandbox {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class EnvironmentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ProbeOptions options;
    options.bots = 2;
    report_ = new EnvReport(ProbeEnvironment(options));
  }
  static void TearDownTestSuite() { delete report_; }
  static EnvReport* report_;
};
EnvReport* EnvironmentTest::report_ = nullptr;

TEST_F(EnvironmentTest, JsonHasEveryDocumentedKey) {
  const nlohmann::json j = nlohmann::json::parse(FormatEnvironmentJson(*report_));
  for (const char* key : {"root", "cpu", "memory", "cgroup", "namespaces", "cpu_plan",
                          "timing_spoilers", "enforced", "not_enforced",
                          "never_enforced"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  for (const char* key : {"online", "allowed", "allowed_count", "model", "hypervisor",
                          "smt_active", "turbo", "governors"}) {
    EXPECT_TRUE(j["cpu"].contains(key)) << key;
  }
  for (const char* c : {"memory", "pids", "cpu", "cpuacct", "cpuset", "freezer"}) {
    EXPECT_TRUE(j["cgroup"]["controllers"].contains(c)) << c;
  }
  EXPECT_EQ(j["cpu_plan"]["bots"], 2);
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(j["cpu"]["allowed_count"], CPU_COUNT(&set));
  EXPECT_EQ(j["root"], geteuid() == 0);
}

TEST_F(EnvironmentTest, TextHasEverySection) {
  const std::string text = FormatEnvironmentText(*report_);
  for (const char* section : {"CPU\n", "Memory\n", "Cgroups\n", "Namespaces\n",
                              "What spoils fair timing here\n",
                              "The sandbox enforces here\n", "It does not enforce\n"}) {
    EXPECT_THAT(text, HasSubstr(section));
  }
}

TEST_F(EnvironmentTest, ConclusionsAgree) {
  for (const std::string& yes : report_->enforced) {
    for (const std::string& no : report_->not_enforced) EXPECT_NE(yes, no);
  }
  if (!report_->root) {
    EXPECT_TRUE(report_->enforced.empty()) << "without root the sandbox starts no bot";
  }
  if (report_->plan.has_value() && report_->plan->mode == CpuMode::kQuota) {
    ASSERT_FALSE(report_->timing_spoilers.empty());
    EXPECT_THAT(report_->timing_spoilers[0], HasSubstr("CPU quotas"));
  }
  EXPECT_FALSE(report_->never_enforced.empty());
}

TEST_F(EnvironmentTest, SummaryNamesThePlan) {
  const std::string summary = EnvironmentSummary(*report_);
  EXPECT_THAT(summary, StartsWith("sandbox: cgroup "));
  if (report_->plan.has_value()) {
    EXPECT_THAT(summary, HasSubstr(report_->plan->Describe()));
  }
}

}  // namespace
}  // namespace cardref::sandbox
