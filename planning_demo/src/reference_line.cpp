#include "reference_line.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace planning_demo {
namespace {

using collision::kPi;
constexpr double kSampleStep = 0.2;    // metres of chord between samples of the curve
constexpr double kMinPointGap = 0.01;  // metres between consecutive input points
constexpr double kMaxLength = 1e5;     // metres: longer lines would take too many samples

// Second derivatives of the natural cubic spline through (u[i], v[i]) (Thomas algorithm).
std::vector<double> natural_spline_moments(const std::vector<double>& u,
                                           const std::vector<double>& v) {
  const std::size_t n = u.size();
  std::vector<double> moments(n, 0.0);
  if (n < 3) return moments;
  std::vector<double> diag(n, 1.0), upper(n, 0.0), rhs(n, 0.0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double h0 = u[i] - u[i - 1];
    const double h1 = u[i + 1] - u[i];
    const double lower = h0 / 6.0;
    diag[i] = (h0 + h1) / 3.0;
    upper[i] = h1 / 6.0;
    rhs[i] = (v[i + 1] - v[i]) / h1 - (v[i] - v[i - 1]) / h0;
    // Eliminate the lower entry against the previous row.
    const double factor = lower / diag[i - 1];
    diag[i] -= factor * upper[i - 1];
    rhs[i] -= factor * rhs[i - 1];
  }
  for (std::size_t i = n - 2; i >= 1; --i) {
    moments[i] = (rhs[i] - upper[i] * moments[i + 1]) / diag[i];
  }
  return moments;
}

struct SplineValue {
  double value, first, second;
};

SplineValue evaluate(const std::vector<double>& u, const std::vector<double>& v,
                     const std::vector<double>& m, std::size_t i, double x) {
  const double h = u[i + 1] - u[i];
  const double a = (u[i + 1] - x) / h;
  const double b = (x - u[i]) / h;
  SplineValue out{};
  out.value =
      a * v[i] + b * v[i + 1] + ((a * a * a - a) * m[i] + (b * b * b - b) * m[i + 1]) * h * h / 6.0;
  out.first = (v[i + 1] - v[i]) / h - (3 * a * a - 1) * h / 6.0 * m[i] +
              (3 * b * b - 1) * h / 6.0 * m[i + 1];
  out.second = a * m[i] + b * m[i + 1];
  return out;
}

}  // namespace

ReferenceLine::ReferenceLine(std::vector<collision::Vec2> points) : points_(std::move(points)) {
  if (points_.size() < 2) {
    throw std::invalid_argument("needs at least 2 points, got " + std::to_string(points_.size()));
  }
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (!points_[i].allFinite()) {
      throw std::invalid_argument("point " + std::to_string(i) + " is not finite");
    }
    if (i > 0 && (points_[i] - points_[i - 1]).norm() < kMinPointGap) {
      throw std::invalid_argument("point " + std::to_string(i) +
                                  " repeats the previous one (closer than 1 cm)");
    }
  }
  const std::size_t n = points_.size();
  std::vector<double> u(n, 0.0), xs(n), ys(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = points_[i].x();
    ys[i] = points_[i].y();
    if (i > 0) u[i] = u[i - 1] + (points_[i] - points_[i - 1]).norm();
  }
  if (u.back() > kMaxLength) {
    throw std::invalid_argument("is longer than 100 km (" + std::to_string(u.back() / 1000) +
                                " km between its points)");
  }
  const std::vector<double> mx = natural_spline_moments(u, xs);
  const std::vector<double> my = natural_spline_moments(u, ys);

  double s = 0;
  double previous_heading = 0;
  collision::Vec2 previous_point = points_.front();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const int steps = std::max(1, static_cast<int>(std::ceil((u[i + 1] - u[i]) / kSampleStep)));
    for (int k = (i == 0 ? 0 : 1); k <= steps; ++k) {
      const double x = u[i] + (u[i + 1] - u[i]) * k / steps;
      const SplineValue sx = evaluate(u, xs, mx, i, x);
      const SplineValue sy = evaluate(u, ys, my, i, x);
      const collision::Vec2 point(sx.value, sy.value);
      const double speed_sq = sx.first * sx.first + sy.first * sy.first;
      if (!(speed_sq > 1e-12)) {
        throw std::invalid_argument("the curve through the points has a cusp near point " +
                                    std::to_string(i + 1));
      }
      double heading = std::atan2(sy.first, sx.first);
      if (!samples_.empty()) {
        heading = previous_heading + std::remainder(heading - previous_heading, 2 * kPi);
        s += (point - previous_point).norm();
      }
      const double curvature =
          (sx.first * sy.second - sy.first * sx.second) / (speed_sq * std::sqrt(speed_sq));
      samples_.push_back(Sample{s, point, heading, curvature});
      previous_heading = heading;
      previous_point = point;
    }
  }
}

ReferenceLine::Frame ReferenceLine::frame(double s) const {
  const Sample& first = samples_.front();
  const Sample& last = samples_.back();
  auto straight = [](const Sample& end, double ds) {
    const collision::Vec2 tangent(std::cos(end.heading), std::sin(end.heading));
    return Frame{end.point + ds * tangent, end.heading, 0.0};
  };
  if (s <= first.s) return straight(first, s - first.s);
  if (s >= last.s) return straight(last, s - last.s);
  const auto upper = std::upper_bound(samples_.begin(), samples_.end(), s,
                                      [](double value, const Sample& x) { return value < x.s; });
  const Sample& b = *upper;
  const Sample& a = *(upper - 1);
  const double span = b.s - a.s;
  const double w = span > 0 ? (s - a.s) / span : 0.0;
  return Frame{(1 - w) * a.point + w * b.point, (1 - w) * a.heading + w * b.heading,
               (1 - w) * a.curvature + w * b.curvature};
}

collision::Vec2 ReferenceLine::to_world(double s, double d) const {
  const Frame f = frame(s);
  return f.point + d * collision::Vec2(-std::sin(f.heading), std::cos(f.heading));
}

collision::Pose2 ReferenceLine::pose(double s, double d, double heading_offset) const {
  const Frame f = frame(s);
  const collision::Vec2 p =
      f.point + d * collision::Vec2(-std::sin(f.heading), std::cos(f.heading));
  return collision::Pose2{p.x(), p.y(), std::remainder(f.heading + heading_offset, 2 * kPi)};
}

collision::Vec2 ReferenceLine::to_frenet(const collision::Vec2& point) const {
  double best_sq = std::numeric_limits<double>::infinity();
  collision::Vec2 best(0, 0);
  for (std::size_t i = 0; i + 1 < samples_.size(); ++i) {
    const collision::Vec2 a = samples_[i].point;
    const collision::Vec2 ab = samples_[i + 1].point - a;
    const double len_sq = ab.squaredNorm();
    // The first and last segments continue straight beyond the ends, like frame() does.
    const double lo = i == 0 ? -std::numeric_limits<double>::infinity() : 0.0;
    const double hi = i + 2 == samples_.size() ? std::numeric_limits<double>::infinity() : 1.0;
    const double w = len_sq > 0 ? std::clamp((point - a).dot(ab) / len_sq, lo, hi) : 0.0;
    const collision::Vec2 foot = a + w * ab;
    const double dist_sq = (point - foot).squaredNorm();
    if (dist_sq < best_sq) {
      best_sq = dist_sq;
      const double s = samples_[i].s + w * (samples_[i + 1].s - samples_[i].s);
      const double cross = ab.x() * (point - a).y() - ab.y() * (point - a).x();
      best = collision::Vec2(s, (cross >= 0 ? 1.0 : -1.0) * std::sqrt(dist_sq));
    }
  }
  return best;
}

}  // namespace planning_demo
