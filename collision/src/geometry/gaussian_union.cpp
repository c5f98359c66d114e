// The standard normal measure of a union of convex polygons: gaussian_union.hpp says why in polar
// coordinates.
#include "geometry/gaussian_union.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/vec2_math.hpp"

namespace collision::detail {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 2 * kPi;
// The quadrature's panels are at most this wide (rad), and a polygon narrower than two of them
// gets panels of its own (its span's ends are breakpoints), so no polygon falls between samples.
constexpr double kPanelWidth = kTwoPi / 64;
// A feature of the integrand at least this wide (rad) holds one of a panel's first five samples
// (its ends, middle and quarters), which then differ from the three-point estimate and make the
// quadrature refine there; narrower ones need a break of their own.
constexpr double kSpikeWidth = kPanelWidth / 4;
// Halvings of a panel at most: 2^-14 of a panel is far below any feature that carries mass.
constexpr int kMaxDepth = 14;

// The angle of v in [0, 2 pi).
double angle_of(const Vec2& v) {
  const double a = std::atan2(v.y(), v.x());
  return a < 0 ? a + kTwoPi : a;
}

}  // namespace

void GaussianUnion::clear() {
  normals_.clear();
  offsets_.clear();
  polygons_.clear();
  vertex_angles_.clear();
}

void GaussianUnion::add(const Vec2* v, std::size_t count) {
  if (count < 3) return;
  Polygon polygon;
  polygon.first = normals_.size();
  bool holds_origin = true;
  for (std::size_t j = 0; j < count; ++j) {
    const Vec2& a = v[j];
    const Vec2& b = v[j + 1 == count ? 0 : j + 1];
    const Vec2 normal = right_perp(b - a);  // outward for a counter-clockwise polygon
    const double length = normal.norm();
    if (!(length > 0)) continue;  // a repeated vertex
    const double offset = normal.dot(a);
    // Wholly beyond the radius: the half-plane alone keeps the polygon out of the disc.
    if (offset < -kGaussianRadius * length) {
      normals_.resize(polygon.first);
      offsets_.resize(polygon.first);
      return;
    }
    holds_origin = holds_origin && offset >= 0;
    normals_.push_back(normal);
    offsets_.push_back(offset);
  }
  polygon.count = normals_.size() - polygon.first;
  if (polygon.count < 3) {
    normals_.resize(polygon.first);
    offsets_.resize(polygon.first);
    return;
  }
  polygon.holds_origin = holds_origin;
  polygon.first_angle = vertex_angles_.size();
  if (holds_origin) {
    polygon.begin = 0;
    polygon.end = kTwoPi;
  } else {
    // The origin is outside, so the polygon lies within less than a half turn seen from it,
    // about the direction of its vertex mean.
    Vec2 mean = Vec2::Zero();
    for (std::size_t j = 0; j < count; ++j) mean += v[j];
    const Vec2 axis = unit(mean);
    double low = 0, high = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const double a = std::atan2(cross(axis, v[j]), axis.dot(v[j]));
      low = std::min(low, a);
      high = std::max(high, a);
    }
    polygon.begin = angle_of(axis) + low;
    if (polygon.begin < 0) polygon.begin += kTwoPi;
    if (polygon.begin >= kTwoPi) polygon.begin -= kTwoPi;
    polygon.end = polygon.begin + (high - low);
  }
  // Where an edge's line passes close to the origin for how far out its vertex is, the rays near
  // the vertex run along the edge and the integrand turns within an angle of about
  // distance / radius there: a thin polygon through or beside the origin is a spike that a
  // panel's samples could miss (kSpikeWidth). Those vertices break the panels.
  const auto line_distance = [](const Vec2& a, const Vec2& b) {
    const double length = (b - a).norm();
    return length > 0 ? std::abs(cross(a, b - a)) / length : kGaussianRadius;
  };
  for (std::size_t j = 0; j < count; ++j) {
    const Vec2& previous = v[j == 0 ? count - 1 : j - 1];
    const Vec2& next = v[j + 1 == count ? 0 : j + 1];
    const double radius = std::min(v[j].norm(), kGaussianRadius);
    const double close = std::min(line_distance(previous, v[j]), line_distance(v[j], next));
    if (radius > 0 && close < radius * kSpikeWidth) vertex_angles_.push_back(angle_of(v[j]));
  }
  polygon.angle_count = vertex_angles_.size() - polygon.first_angle;
  polygons_.push_back(polygon);
}

double GaussianUnion::along_ray(Candidates candidates, double phi) const {
  const Vec2 u(std::cos(phi), std::sin(phi));
  intervals_.clear();
  for (std::size_t k = 0; k < candidates.count; ++k) {
    const Polygon& p = polygons_[candidates.index[k]];
    if (!p.holds_origin) {
      double from_begin = phi - p.begin;
      if (from_begin < 0) from_begin += kTwoPi;
      if (from_begin > p.end - p.begin) continue;
    }
    double enter = 0, leave = kGaussianRadius;
    for (std::size_t j = p.first; j < p.first + p.count && enter < leave; ++j) {
      const double d = normals_[j].dot(u);
      const double c = offsets_[j];
      if (d > 0) {
        leave = std::min(leave, c / d);
      } else if (d < 0) {
        enter = std::max(enter, c / d);
      } else if (c < 0) {
        leave = 0;
      }
    }
    if (enter < leave) intervals_.emplace_back(enter, leave);
  }
  if (intervals_.empty()) return 0;
  // Few intervals per ray: insertion sort by where they start, then merge.
  for (std::size_t k = 1; k < intervals_.size(); ++k) {
    const Vec2 x = intervals_[k];
    std::size_t j = k;
    for (; j > 0 && intervals_[j - 1].x() > x.x(); --j) intervals_[j] = intervals_[j - 1];
    intervals_[j] = x;
  }
  double mass = 0;
  double enter = intervals_[0].x(), leave = intervals_[0].y();
  const auto close = [&]() {
    mass += std::exp(-0.5 * enter * enter) - std::exp(-0.5 * leave * leave);
  };
  for (std::size_t k = 1; k < intervals_.size(); ++k) {
    if (intervals_[k].x() > leave) {
      close();
      enter = intervals_[k].x();
      leave = intervals_[k].y();
    } else {
      leave = std::max(leave, intervals_[k].y());
    }
  }
  close();
  return mass / kTwoPi;
}

double GaussianUnion::simpson(Candidates candidates, double a, double b, double fa, double fm,
                              double fb, double whole, double tolerance, int depth) const {
  const double m = 0.5 * (a + b);
  const double lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  const double flm = along_ray(candidates, lm), frm = along_ray(candidates, rm);
  const double h = (b - a) / 12;
  const double left = h * (fa + 4 * flm + fm), right = h * (fm + 4 * frm + fb);
  const double delta = left + right - whole;
  if (depth >= kMaxDepth || std::abs(delta) <= 15 * tolerance) return left + right + delta / 15;
  return simpson(candidates, a, m, fa, flm, fm, left, 0.5 * tolerance, depth + 1) +
         simpson(candidates, m, b, fm, frm, fb, right, 0.5 * tolerance, depth + 1);
}

double GaussianUnion::measure(double tolerance) const {
  if (polygons_.empty()) return 0;
  // The polygons' spans on [0, 2 pi) (one that wraps past 2 pi in two pieces), merged.
  std::vector<Piece>& pieces = pieces_;
  pieces.clear();
  for (const Polygon& p : polygons_) {
    if (p.end > kTwoPi) {
      pieces.push_back({p.begin, kTwoPi});
      pieces.push_back({0, p.end - kTwoPi});
    } else {
      pieces.push_back({p.begin, p.end});
    }
  }
  std::sort(pieces.begin(), pieces.end(),
            [](const Piece& a, const Piece& b) { return a.begin < b.begin; });
  spans_.clear();
  span_polygons_.clear();
  for (const Piece& piece : pieces) {
    if (!spans_.empty() && piece.begin <= spans_.back().end) {
      spans_.back().end = std::max(spans_.back().end, piece.end);
    } else {
      spans_.push_back({piece.begin, piece.end, 0, 0});
    }
  }
  for (Span& span : spans_) {
    span.first = span_polygons_.size();
    for (std::size_t k = 0; k < polygons_.size(); ++k) {
      const Polygon& p = polygons_[k];
      const bool meets = p.holds_origin || (p.begin < span.end && p.end > span.begin) ||
                         (p.end > kTwoPi && p.end - kTwoPi > span.begin);
      if (meets) span_polygons_.push_back(k);
    }
    span.count = span_polygons_.size() - span.first;
  }

  // Each span in panels: at most kPanelWidth wide, and broken at the ends of narrow polygons
  // and at the vertices of wide ones, so that within a panel the integrand has no feature
  // narrower than the panel that its samples could miss.
  const double density = tolerance / kTwoPi;  // tolerance per radian
  std::vector<double>& breaks = breaks_;
  double total = 0;
  for (const Span& span : spans_) {
    breaks.clear();
    const double width = span.end - span.begin;
    const int panels = std::max(2, static_cast<int>(std::ceil(width / kPanelWidth)));
    for (int k = 0; k <= panels; ++k) breaks.push_back(span.begin + width * k / panels);
    const auto add_break = [&](double angle) {
      if (angle >= kTwoPi) angle -= kTwoPi;
      if (angle > span.begin && angle < span.end) breaks.push_back(angle);
    };
    for (std::size_t k = 0; k < span.count; ++k) {
      const Polygon& p = polygons_[span_polygons_[span.first + k]];
      for (std::size_t j = 0; j < p.angle_count; ++j) add_break(vertex_angles_[p.first_angle + j]);
      if (!p.holds_origin && p.end - p.begin <= 2 * kPanelWidth) {
        add_break(p.begin);
        add_break(p.end);
      }
    }
    std::sort(breaks.begin(), breaks.end());
    // Each panel is integrated with the polygons whose span meets it (ends included, so that
    // the value at a shared end is the same from both sides).
    const auto meets = [](const Polygon& p, double a, double b) {
      return p.holds_origin || (p.begin <= b && p.end >= a) ||
             (p.end > kTwoPi && p.end - kTwoPi >= a);
    };
    const auto panel = [&](double a, double b) {
      panel_polygons_.clear();
      for (std::size_t k = 0; k < span.count; ++k) {
        const std::size_t index = span_polygons_[span.first + k];
        if (meets(polygons_[index], a, b)) panel_polygons_.push_back(index);
      }
      return Candidates{panel_polygons_.data(), panel_polygons_.size()};
    };
    double fa = -1;  // the integrand at the panel's start, once known
    for (std::size_t k = 1; k < breaks.size(); ++k) {
      const double a = breaks[k - 1], b = breaks[k];
      if (!(b - a > 1e-12)) continue;
      const Candidates candidates = panel(a, b);
      if (fa < 0) fa = along_ray(candidates, a);
      const double fb = along_ray(candidates, b);
      const double fm = along_ray(candidates, 0.5 * (a + b));
      const double whole = (b - a) / 6 * (fa + 4 * fm + fb);
      total += simpson(candidates, a, b, fa, fm, fb, whole, density * (b - a), 0);
      fa = fb;
    }
  }
  return std::clamp(total, 0.0, 1.0);
}

}  // namespace collision::detail
