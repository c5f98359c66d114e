// The vector path of footprint placement (simd/footprint_batch.hpp) on every instruction set this
// build has code for and this CPU runs: each footprint's axis, centre and box bit for bit those of
// the scalar make_ego (what `simd: off` places), and its axis within two units in the last place
// of the long-double cos and sin. Headings are seeded random ones, the quadrant boundaries the
// reduction is most fragile at, signed zeros and the edge of the fast reduction's range;
// positions near the origin and UTM-sized; batches of every length up to past a few vectors, so
// every tail is taken; boxes with and without a lateral offset.
#include "simd/footprint_batch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "checker/ego_pose.hpp"
#include "collision/simd.hpp"
#include "geometry/heading_axis.hpp"
#include "simd/vector_targets.hpp"

namespace collision::detail {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxError = 2 * std::numeric_limits<double>::epsilon();

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::vector<double> random_headings(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> small(-10.0, 10.0);
  std::uniform_int_distribution<int> multiple(-40, 40);
  std::uniform_int_distribution<int> ulps(-3, 3);
  std::uniform_int_distribution<int> kind(0, 9);
  std::vector<double> headings(n);
  for (double& h : headings) {
    switch (kind(rng)) {
      case 0: {  // a few steps from a multiple of pi/4
        h = multiple(rng) * (kPi / 4);
        for (int k = ulps(rng); k != 0; k += k > 0 ? -1 : 1) {
          h = std::nextafter(h, k > 0 ? 10.0 * kPi : -10.0 * kPi);
        }
        break;
      }
      case 1:
        h = kind(rng) < 5 ? 0.0 : -0.0;
        break;
      case 2:  // the fast reduction's edge, inside it
        h = std::uniform_real_distribution<double>(-kFastReductionLimit, kFastReductionLimit)(rng);
        break;
      default:
        h = small(rng);
    }
  }
  return headings;
}

// The footprints of `poses` through the dispatched kernel, against make_ego one by one.
void expect_as_make_ego(VectorTarget target, const EgoShape& shape, const std::vector<Pose2>& poses,
                        const std::string& where) {
  const std::size_t n = poses.size();
  std::vector<TrajectoryPoint> points(n);
  for (std::size_t k = 0; k < n; ++k) points[k] = {0.1 * static_cast<double>(k), poses[k]};
  std::vector<double> columns(8 * n + 1);  // + 1: never a null pointer at n = 0
  double* o = columns.data();
  const FootprintColumns out{o,         o + n,     o + 2 * n, o + 3 * n, o + 4 * n,
                             o + 5 * n, o + 6 * n, o + 7 * n, 1};
  place_footprints_on(
      target, {shape.half_length, shape.half_width, shape.axle_to_center, shape.lateral_offset},
      points.data(), n, out);
  for (std::size_t k = 0; k < n; ++k) {
    const EgoPose ego = make_ego(shape, poses[k], 0.0);
    const double expected[8] = {ego.axis.x(),       ego.axis.y(),       ego.center.x(),
                                ego.center.y(),     ego.aabb.min().x(), ego.aabb.min().y(),
                                ego.aabb.max().x(), ego.aabb.max().y()};
    const char* names[8] = {"cos",   "sin",   "center x", "center y",
                            "min x", "min y", "max x",    "max y"};
    for (int column = 0; column < 8; ++column) {
      const double got = columns[static_cast<std::size_t>(column) * n + k];
      ASSERT_TRUE(same_bits(got, expected[column]))
          << where << ", pose " << k << " of " << n << " (" << poses[k].x << ", " << poses[k].y
          << ", heading " << poses[k].heading << "): " << names[column] << " " << got
          << ", make_ego " << expected[column];
    }
    const long double h = poses[k].heading;
    EXPECT_LE(std::abs(out.cos[k] - std::cos(h)), kMaxError) << where << ", heading " << h;
    EXPECT_LE(std::abs(out.sin[k] - std::sin(h)), kMaxError) << where << ", heading " << h;
  }
}

EgoShape box_shape(double lateral_offset) {
  EgoShape shape;
  shape.half_length = 2.4;
  shape.half_width = 0.95;
  shape.axle_to_center = 1.4;
  shape.lateral_offset = lateral_offset;
  return shape;
}

// Every target this build compiled and this CPU runs, one after another.
template <class Fn>
void for_each_target(Fn fn) {
  ASSERT_FALSE(runnable_targets().empty());
  for (const VectorTarget target : runnable_targets()) fn(target, std::string(target_name(target)));
}

TEST(FootprintBatch, BitForBitMakeEgoOnEveryTarget) {
  for_each_target([](VectorTarget target, const std::string& name) {
    std::mt19937_64 rng(0xf007);
    std::uniform_real_distribution<double> near(-50.0, 50.0);
    std::uniform_real_distribution<double> utm_x(6.9e5 - 500, 6.9e5 + 500);
    std::uniform_real_distribution<double> utm_y(5.33e6 - 500, 5.33e6 + 500);
    for (const double lateral : {0.0, 0.3, -1.7}) {
      const EgoShape shape = box_shape(lateral);
      for (std::size_t n = 0; n <= 41; ++n) {
        for (int utm = 0; utm < 2; ++utm) {
          const std::vector<double> headings = random_headings(rng, n);
          std::vector<Pose2> poses(n);
          for (std::size_t k = 0; k < n; ++k) {
            poses[k] = utm ? Pose2{utm_x(rng), utm_y(rng), headings[k]}
                           : Pose2{near(rng), near(rng), headings[k]};
          }
          expect_as_make_ego(target, shape, poses, name + ", lateral " + std::to_string(lateral));
          if (HasFatalFailure()) return;
        }
      }
    }
  });
}

TEST(FootprintBatch, ManyHeadingsOnEveryTarget) {
  for_each_target([](VectorTarget target, const std::string& name) {
    std::mt19937_64 rng(0x5eed);
    const std::vector<double> headings = random_headings(rng, 200000);
    std::vector<Pose2> poses(headings.size());
    for (std::size_t k = 0; k < headings.size(); ++k) poses[k] = {1.0, -2.0, headings[k]};
    expect_as_make_ego(target, box_shape(0.0), poses, name);
  });
}

TEST(FootprintBatch, SimdTargetNamesTheChosenTarget) {
  EXPECT_EQ(simd_target(), target_name(chosen_target()));
  EXPECT_EQ(chosen_target(), runnable_targets().front());
  // The baseline is last and always there; every other target is a vector one.
  EXPECT_EQ(runnable_targets().back(), VectorTarget{HWY_STATIC_TARGET});
  for (std::size_t k = 0; k + 1 < runnable_targets().size(); ++k) {
    EXPECT_NE(std::string(target_name(runnable_targets()[k])), "scalar");
  }
  // The same kernel through the chosen target as through place_footprints.
  const TrajectoryPoint point{0, {3, 4, 1}};
  double got[8], chosen[8];
  const auto columns = [](double* c) {
    return FootprintColumns{c, c + 1, c + 2, c + 3, c + 4, c + 5, c + 6, c + 7, 1};
  };
  place_footprints({2, 1, 1, 0}, &point, 1, columns(got));
  place_footprints_on(chosen_target(), {2, 1, 1, 0}, &point, 1, columns(chosen));
  for (int k = 0; k < 8; ++k) EXPECT_TRUE(same_bits(got[k], chosen[k])) << k;
}

}  // namespace
}  // namespace collision::detail
