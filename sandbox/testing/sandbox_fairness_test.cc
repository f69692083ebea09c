// Fair CPU: an honest bot that thinks ~20 ms per step keeps its pace while
// a sandboxed neighbour busy-loops on every core. The one test of the
// project that asserts a timing ratio, because the sandbox promises it:
// the median step with a busy neighbour is within 1.5 times the median
// with an idle one (CTest runs it alone: RUN_SERIAL).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "sandbox/testing/sandbox_test_util.h"

namespace cardref::sandbox::testing {
namespace {

// Idle and busy neighbours take turns (idle, busy, idle, busy), so a
// change of the machine's speed during the test (a VM's host) weighs on
// both alike; each median is over kRounds * kSteps steps.
constexpr int kRounds = 2;
constexpr int kSteps = 30;
constexpr int kWorkMs = 20;
constexpr int kWaitMs = 20;  // its opponent's turn

// One step of the honest bot: microseconds of the clock and of its CPU.
struct Step {
  int64_t wall = 0;
  int64_t cpu = 0;
};

std::vector<Step> StepTimes(const std::string& output) {
  std::vector<Step> steps;
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    const std::vector<absl::string_view> f = absl::StrSplit(line, ' ');
    Step s;
    if (f.size() == 3 && f[0] == "step" && absl::SimpleAtoi(f[1], &s.wall) &&
        absl::SimpleAtoi(f[2], &s.cpu)) {
      steps.push_back(s);
    }
  }
  return steps;
}

int64_t Median(const std::vector<Step>& steps, int64_t Step::*field) {
  std::vector<int64_t> v;
  v.reserve(steps.size());
  for (const Step& s : steps) v.push_back(s.*field);
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

class FairnessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = WhyNotHere();
    if (!why.empty()) GTEST_SKIP() << why;
    fixture_ = std::make_unique<SandboxFixture>(/*bot_slots=*/2);
    ASSERT_FALSE(::testing::Test::HasFailure());
  }

  // The honest bot's steps beside a neighbour running `neighbour_mode`
  // ("idle" or "busy").
  std::vector<Step> StepsBeside(const std::string& neighbour_mode, int64_t rounds) {
    SandboxSpec neighbour =
        fixture_->Spec("mallory", 1, "hostile_cpu", {neighbour_mode});
    absl::StatusOr<std::unique_ptr<Sandbox>> other = fixture_->host().Start(neighbour);
    EXPECT_TRUE(other.ok()) << other.status();
    if (!other.ok()) return {};
    // Until it runs (its first line), and a little more to be at full spin.
    for (int i = 0; i < 300 && SandboxFixture::Output(neighbour).empty(); ++i) {
      absl::SleepFor(absl::Milliseconds(10));
    }
    absl::SleepFor(absl::Milliseconds(200));
    SandboxSpec honest = fixture_->Spec(
        "alice", 0, "hostile_cpu",
        {"steps", absl::StrCat(rounds), absl::StrCat(kSteps), absl::StrCat(kWaitMs)});
    const SandboxOutcome outcome = fixture_->Run(honest);
    EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
    throttled_ms_[neighbour_mode] +=
        outcome.usage.counters.cpu_throttled_ns.value_or(0) / 1000000;
    EXPECT_FALSE((*other)->Poll()) << "the neighbour ended early: "
                                   << (*other)->outcome()->Describe();
    (*other)->Stop();
    std::vector<Step> steps = StepTimes(SandboxFixture::Output(honest));
    EXPECT_EQ(steps.size(), static_cast<size_t>(kSteps));
    return steps;
  }

  std::unique_ptr<SandboxFixture> fixture_;
  // The honest bot's time waiting for its quota, beside each neighbour.
  std::map<std::string, int64_t> throttled_ms_;
};

TEST_F(FairnessTest, ABusyNeighbourDoesNotSlowAnHonestBot) {
  std::cout << "CPU plan: " << fixture_->host().cpu_plan().Describe() << "\n";
  // How much work is 20 ms here, measured in the sandbox, alone.
  SandboxSpec calibrate = fixture_->Spec("alice", 0, "hostile_cpu",
                                         {"calibrate", absl::StrCat(kWorkMs)});
  fixture_->Run(calibrate);
  int64_t rounds = 0;
  for (absl::string_view line : absl::StrSplit(SandboxFixture::Output(calibrate), '\n')) {
    if (absl::ConsumePrefix(&line, "rounds ")) (void)absl::SimpleAtoi(line, &rounds);
  }
  ASSERT_GT(rounds, 0) << SandboxFixture::Output(calibrate);

  std::vector<Step> idle_steps;
  std::vector<Step> busy_steps;
  for (int round = 0; round < kRounds; ++round) {
    for (const auto& [mode, steps] : {std::pair{"idle", &idle_steps},
                                      std::pair{"busy", &busy_steps}}) {
      const std::vector<Step> got = StepsBeside(mode, rounds);
      steps->insert(steps->end(), got.begin(), got.end());
    }
  }
  const int64_t idle = Median(idle_steps, &Step::wall);
  const int64_t busy = Median(busy_steps, &Step::wall);
  // Its own CPU time per step tells waiting for a core (load the sandbox
  // does not hold: processes outside it) from running slower (a shared
  // physical core, caches).
  std::cout << "median step of the honest bot over " << kRounds * kSteps
            << " steps each: " << idle / 1000.0 << " ms beside an idle neighbour, "
            << busy / 1000.0 << " ms beside one busy on every core (ratio "
            << static_cast<double>(busy) / std::max<int64_t>(idle, 1)
            << "); its CPU time per step: " << Median(idle_steps, &Step::cpu) / 1000.0
            << " ms and " << Median(busy_steps, &Step::cpu) / 1000.0
            << " ms; held by its quota " << throttled_ms_["idle"] << " ms and "
            << throttled_ms_["busy"] << " ms in all\n";
  ASSERT_GT(idle, 0);
  EXPECT_LE(busy, idle * 3 / 2);
}

}  // namespace
}  // namespace cardref::sandbox::testing
