// The standard normal measure of a union of convex polygons (internal): P(z in Q_1 ∪ ... ∪ Q_n)
// for z ~ N(0, I2), which is what a collision risk is once each time's set of hitting offsets is
// written in the offset's standard-normal coordinates (checker/risk.cpp).
//
// Why polar coordinates. Along a ray from the origin the standard normal's mass between radii a
// and b is exp(-a^2/2) - exp(-b^2/2), in closed form, and a ray meets each convex polygon in one
// interval, so the union's mass along a ray is exact (intervals merged) whatever the polygons'
// overlaps. What is left is a one-dimensional integral over the ray's angle of a continuous,
// piecewise smooth function (kinks where a ray passes a vertex or two boundaries cross), which
// adaptive Simpson quadrature integrates to a tolerance with its own error estimate. The polygons
// need no union of their own (no Boolean operation, no round-off at crossings), and a polygon
// costs only where its angular span is.
#pragma once

#include <cstddef>
#include <vector>

#include "collision/vec2.hpp"

namespace collision::detail {

// The radius beyond which the mass is ignored: exp(-kGaussianRadius^2 / 2) = 1.5e-8 lies
// outside it.
inline constexpr double kGaussianRadius = 6.0;

class GaussianUnion {
 public:
  void clear();
  // Adds a convex polygon, counter-clockwise, `count` >= 3 vertices (standard-normal
  // coordinates). One wholly beyond kGaussianRadius is dropped; a degenerate one (no area) adds
  // nothing measurable.
  void add(const Vec2* vertices, std::size_t count);
  bool empty() const { return polygons_.empty(); }
  std::size_t size() const { return polygons_.size(); }

  // P(z in the union), in [0, 1], within about `tolerance` (absolute; the quadrature's own
  // estimate, which tests/gaussian_union_test.cpp holds against closed forms and sampling).
  double measure(double tolerance) const;

 private:
  struct Polygon {
    std::size_t first = 0;  // into normals_ / offsets_
    std::size_t count = 0;
    bool holds_origin = false;
    double begin = 0, end = 0;  // angular span, rad, begin in [0, 2 pi), end in (begin, begin + pi]
    // Its vertices' angles in [0, 2 pi), kept where they break the quadrature's panels.
    std::size_t first_angle = 0, angle_count = 0;  // into vertex_angles_
  };
  struct Span {  // a merged angular interval and the polygons that reach into it
    double begin = 0, end = 0;
    std::size_t first = 0, count = 0;  // into span_polygons_
  };
  struct Candidates {  // the polygons a ray may meet, by index into polygons_
    const std::size_t* index;
    std::size_t count;
  };

  // The union's mass along the ray of angle phi, over 2 pi (the integrand).
  double along_ray(Candidates candidates, double phi) const;
  double simpson(Candidates candidates, double a, double b, double fa, double fm, double fb,
                 double whole, double tolerance, int depth) const;

  struct Piece {  // a polygon's span, or one of its two pieces where it wraps past 2 pi
    double begin, end;
  };

  std::vector<Vec2> normals_;  // edge normals (not unit): inside is normal . z <= offset
  std::vector<double> offsets_;
  std::vector<Polygon> polygons_;
  std::vector<double> vertex_angles_;
  mutable std::vector<Span> spans_;
  mutable std::vector<std::size_t> span_polygons_;
  mutable std::vector<Vec2> intervals_;  // per ray: (enter, leave) radii
  // The working memory of measure(), kept so that a measure allocates nothing once grown.
  mutable std::vector<Piece> pieces_;
  mutable std::vector<double> breaks_;
  mutable std::vector<std::size_t> panel_polygons_;
};

}  // namespace collision::detail
