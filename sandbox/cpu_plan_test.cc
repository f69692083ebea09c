// Who runs on which cores: cores of their own when there are enough,
// quotas spread over the cores otherwise, and always a share kept for the
// referee.
#include "sandbox/cpu_plan.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::sandbox {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

CpuPlanOptions Options(std::vector<int> cpus, int bots, double reserve = 0.5,
                       int cores_per_bot = 1) {
  CpuPlanOptions o;
  o.cpus = std::move(cpus);
  o.bots = bots;
  o.reserved_cores = reserve;
  o.cores_per_bot = cores_per_bot;
  return o;
}

TEST(PlanCpus, TwoCoresTwoBotsShareUnderQuotas) {
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({0, 1}, 2));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->mode, CpuMode::kQuota);
  ASSERT_EQ(plan->slots.size(), 2u);
  // (2 - 0.5) / 2 = 0.75 core each, one home core each.
  EXPECT_DOUBLE_EQ(plan->cores_per_slot, 0.75);
  EXPECT_EQ(plan->slots[0].quota_us, 75000);
  EXPECT_EQ(plan->slots[0].period_us, 100000);
  EXPECT_THAT(plan->slots[0].cpus, ElementsAre(0));
  EXPECT_THAT(plan->slots[1].cpus, ElementsAre(1));
  EXPECT_THAT(plan->Describe(), HasSubstr("0.75 core each"));
}

TEST(PlanCpus, MoreBotsThanCoresShareHomesRoundRobin) {
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({0, 1}, 3));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->mode, CpuMode::kQuota);
  EXPECT_EQ(plan->slots[0].quota_us, 50000);
  EXPECT_THAT(plan->slots[0].cpus, ElementsAre(0));
  EXPECT_THAT(plan->slots[1].cpus, ElementsAre(1));
  EXPECT_THAT(plan->slots[2].cpus, ElementsAre(0));
}

TEST(PlanCpus, EnoughCoresGiveCoresOfTheirOwnAndKeepOneForTheReferee) {
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({0, 1, 2, 3, 4, 5, 6, 7}, 3, 0.5, 2));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->mode, CpuMode::kOwnCores);
  EXPECT_THAT(plan->reserved_cpus, ElementsAre(0));
  EXPECT_THAT(plan->slots[0].cpus, ElementsAre(1, 2));
  EXPECT_THAT(plan->slots[1].cpus, ElementsAre(3, 4));
  EXPECT_THAT(plan->slots[2].cpus, ElementsAre(5, 6));
  for (const CpuSlot& s : plan->slots) EXPECT_EQ(s.quota_us, 0);
  EXPECT_THAT(plan->Describe(), HasSubstr("cores 0 kept for the referee"));
}

TEST(PlanCpus, OneBotOnTwoCoresGetsTheSecond) {
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({0, 1}, 1));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->mode, CpuMode::kOwnCores);
  EXPECT_THAT(plan->slots[0].cpus, ElementsAre(1));
}

TEST(PlanCpus, TheProcessesOwnCoresNotZeroToN) {
  // A runner kept to cores 4 and 9 plans on those.
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({4, 9}, 2));
  ASSERT_TRUE(plan.ok());
  EXPECT_THAT(plan->slots[0].cpus, ElementsAre(4));
  EXPECT_THAT(plan->slots[1].cpus, ElementsAre(9));
}

TEST(PlanCpus, QuotaAboveOneCoreGetsAHomeOfTwo) {
  // 4 cores, 2 bots of up to 2 cores, a whole core kept: quota 1.5.
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({0, 1, 2, 3}, 2, 1.0, 2));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->mode, CpuMode::kQuota);
  EXPECT_DOUBLE_EQ(plan->cores_per_slot, 1.5);
  EXPECT_THAT(plan->slots[0].cpus, ElementsAre(0, 1));
  EXPECT_THAT(plan->slots[1].cpus, ElementsAre(2, 3));
}

TEST(PlanCpus, RefusesTooManyBots) {
  absl::StatusOr<CpuPlan> plan = PlanCpus(Options({0, 1}, 20));
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(plan.status().message()), HasSubstr("run fewer at once"));
}

TEST(PlanCpus, RefusesNonsense) {
  EXPECT_FALSE(PlanCpus(Options({}, 1)).ok());
  EXPECT_FALSE(PlanCpus(Options({0}, 0)).ok());
  EXPECT_FALSE(PlanCpus(Options({0}, 1, -1)).ok());
  EXPECT_FALSE(PlanCpus(Options({0}, 1, 0.5, 0)).ok());
}

}  // namespace
}  // namespace cardref::sandbox
