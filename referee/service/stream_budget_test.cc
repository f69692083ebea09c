#include "referee/service/stream_budget.h"

#include <utility>

#include "gtest/gtest.h"

namespace cardref::service {
namespace {

TEST(StreamBudgetTest, RefusesPastTheCapAndFreesASlotWhenItIsDestroyed) {
  StreamBudget budget(2);
  absl::StatusOr<StreamSlot> a = budget.Acquire("seat 0", "m/0");
  absl::StatusOr<StreamSlot> b = budget.Acquire("seat 0", "m/0");
  ASSERT_TRUE(a.ok() && b.ok());
  absl::StatusOr<StreamSlot> c = budget.Acquire("seat 0", "m/0");
  EXPECT_EQ(c.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(c.status().message().find("seat 0 has 2 streams open"),
            absl::string_view::npos)
      << c.status().message();
  EXPECT_TRUE(budget.Acquire("seat 1", "m/1").ok());  // another key
  { StreamSlot gone = *std::move(a); }
  EXPECT_EQ(budget.open("m/0"), 1);
  EXPECT_TRUE(budget.Acquire("seat 0", "m/0").ok());
}

TEST(StreamBudgetTest, AMovedSlotIsReleasedOnce) {
  StreamBudget budget(1);
  {
    absl::StatusOr<StreamSlot> a = budget.Acquire("all", "k");
    ASSERT_TRUE(a.ok());
    StreamSlot moved = *std::move(a);
    StreamSlot again = std::move(moved);
    EXPECT_EQ(budget.open("k"), 1);
  }
  EXPECT_EQ(budget.open("k"), 0);
}

TEST(StreamBudgetTest, ZeroIsNoCap) {
  StreamBudget budget(0);
  std::vector<StreamSlot> slots;
  for (int i = 0; i < 100; ++i) {
    absl::StatusOr<StreamSlot> s = budget.Acquire("all", "k");
    ASSERT_TRUE(s.ok());
    slots.push_back(*std::move(s));
  }
  EXPECT_EQ(budget.open("k"), 100);
}

}  // namespace
}  // namespace cardref::service
