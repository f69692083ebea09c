#include "analyzer/inference/bootstrap.h"

#include <cmath>
#include <limits>
#include <numeric>

#include "analyzer/inference/distributions.h"
#include "analyzer/inference/unit_estimators.h"
#include "gtest/gtest.h"

namespace cardref::inference {
namespace {

TEST(BootstrapTest, MultiplicityIsTheRngsDrawsInOrder) {
  Rng a(7), b(7);
  const std::vector<int> m = DrawMultiplicity(6, a);
  std::vector<int> expected(6, 0);
  for (int k = 0; k < 6; ++k) ++expected[b.Uniform(6)];
  EXPECT_EQ(m, expected);
  EXPECT_EQ(std::accumulate(m.begin(), m.end(), 0), 6);
}

TEST(BootstrapTest, ReproducibleForASeed) {
  auto statistic = [](const std::vector<int>& m) {
    return std::vector<double>{static_cast<double>(m[0])};
  };
  const auto first = ClusterBootstrap(9, {50, 3}, statistic);
  const auto again = ClusterBootstrap(9, {50, 3}, statistic);
  const auto other = ClusterBootstrap(9, {50, 4}, statistic);
  ASSERT_EQ(first.size(), 50u);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  EXPECT_TRUE(ClusterBootstrap(0, {50, 3}, statistic).empty());
}

TEST(BootstrapTest, PercentileInterpolates) {
  EXPECT_EQ(Percentile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_EQ(Percentile({4, 1, 3, 2}, 0), 1);
  EXPECT_EQ(Percentile({4, 1, 3, 2}, 1), 4);
  EXPECT_EQ(Percentile({}, 0.5), 0);
}

// The bootstrap of a mean over many units agrees with the t interval.
TEST(BootstrapTest, MeanIntervalAgreesWithTheTInterval) {
  std::vector<double> values;
  values.reserve(200);
  Rng rng(5);
  for (int i = 0; i < 200; ++i) values.push_back(rng.Uniform(1000) / 1000.0);
  const auto replicates = ClusterBootstrap(
      200, {2000, 1}, [&](const std::vector<int>& m) {
        double sum = 0;
        for (size_t i = 0; i < m.size(); ++i) sum += m[i] * values[i];
        return std::vector<double>{sum / 200};
      });
  std::vector<double> means;
  means.reserve(replicates.size());
  for (const auto& r : replicates) means.push_back(r[0]);
  const Interval boot = PercentileInterval(means, 200, {});
  const Estimate t = UnitMean(values, {});
  ASSERT_TRUE(boot.two_sided());
  const double width = *t.ci.high - *t.ci.low;
  EXPECT_NEAR(*boot.low, *t.ci.low, 0.05 * width);
  EXPECT_NEAR(*boot.high, *t.ci.high, 0.05 * width);
  EXPECT_EQ(boot.method,
            "expanded percentile bootstrap, 2000 resamples of 200 deal sets");
}

TEST(BootstrapTest, ExpandedTailMatchesHesterberg) {
  // 20 units: t(0.975, 19) = 2.093024, times sqrt(20 / 19).
  EXPECT_NEAR(ExpandedTail(0.95, 20),
              NormalCdf(-std::sqrt(20.0 / 19) * 2.093024054408263), 1e-12);
  EXPECT_NEAR(ExpandedTail(0.95, 20), 0.0159, 1e-4);
  EXPECT_NEAR(ExpandedTail(0.95, 100000), 0.025, 1e-4);
}

TEST(BootstrapTest, PercentileIntervalRefusesDegenerateReplicates) {
  EXPECT_EQ(PercentileInterval({1, 2, 3}, 4, {}).note,
            "fewer than 5 deal sets (4)");
  EXPECT_EQ(PercentileInterval({2, 2, 2}, 9, {}).note,
            "no variance: every resample gave 2");
  EXPECT_EQ(PercentileInterval({}, 9, {}).note, "no bootstrap resamples");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Interval some = PercentileInterval({1, nan, 2, 3, nan}, 9, {});
  EXPECT_TRUE(some.two_sided());
  EXPECT_EQ(some.note, "2 of 5 resamples have no value and are left out");
  // 199 of 200 resamples alike: the percentiles coincide, and a point is
  // not printed as an interval.
  std::vector<double> almost(200, 7.0);
  almost[0] = 8;
  const Interval flat = PercentileInterval(almost, 40, {});
  EXPECT_FALSE(flat.low.has_value() || flat.high.has_value());
  EXPECT_NE(flat.note.find("no variance: the central "), std::string::npos)
      << flat.note;
}

}  // namespace
}  // namespace cardref::inference
