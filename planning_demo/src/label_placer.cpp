#include "label_placer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace planning_demo {

using collision::Vec2;

double PixelBox::overlap_area(const PixelBox& o) const {
  const double w = std::min(hi.x(), o.hi.x()) - std::max(lo.x(), o.lo.x());
  const double h = std::min(hi.y(), o.hi.y()) - std::max(lo.y(), o.lo.y());
  return w > 0 && h > 0 ? w * h : 0.0;
}

PixelBox LabelPlacer::text_box(const Vec2& at, const std::string& text, double size) {
  // Bold DejaVu Sans averages about 0.68 em per character; 2 px of halo around.
  const double half_width = 0.34 * size * static_cast<double>(text.size()) + 2;
  return PixelBox{Vec2(at.x() - half_width, at.y() - 0.8 * size - 2),
                  Vec2(at.x() + half_width, at.y() + 0.25 * size + 2)};
}

double LabelPlacer::cost(const PixelBox& box) const {
  double covered = 0;
  for (const PixelBox& b : labels_) covered += 4 * box.overlap_area(b);  // labels on labels: worst
  for (const PixelBox& b : blocked_) covered += box.overlap_area(b);
  // Outside the frame: as bad as covering a label.
  const double inside_w =
      std::max(0.0, std::min(box.hi.x(), frame_.hi.x()) - std::max(box.lo.x(), frame_.lo.x()));
  const double inside_h =
      std::max(0.0, std::min(box.hi.y(), frame_.hi.y()) - std::max(box.lo.y(), frame_.lo.y()));
  const double area = (box.hi.x() - box.lo.x()) * (box.hi.y() - box.lo.y());
  covered += 4 * (area - inside_w * inside_h);
  return covered;
}

LabelPlacement LabelPlacer::place(const Vec2& anchor, double gap, const std::string& text,
                                  double size) {
  std::vector<Vec2> spots = {anchor + Vec2(0, -gap)};
  const PixelBox probe = text_box(Vec2(0, 0), text, size);
  const double half_w = 0.5 * (probe.hi.x() - probe.lo.x());
  for (const double ring : {0.0, 14.0, 30.0, 50.0, 80.0, 120.0}) {
    const double r = gap + ring;
    // Above, below, right, left, then the diagonals.
    for (const Vec2& d : {Vec2(0, -1), Vec2(0, 1), Vec2(1, 0), Vec2(-1, 0), Vec2(1, -1),
                          Vec2(-1, -1), Vec2(1, 1), Vec2(-1, 1)}) {
      // Sideways spots keep the text's near end at distance r.
      spots.push_back(anchor + Vec2(d.x() * (r + half_w), d.y() * r + (d.y() > 0 ? size : 0)));
    }
  }
  double best_cost = std::numeric_limits<double>::infinity();
  std::size_t best = 0;
  for (std::size_t i = 0; i < spots.size(); ++i) {
    const double c = cost(text_box(spots[i], text, size));
    if (c < best_cost) {
      best_cost = c;
      best = i;
    }
    if (c == 0) break;
  }
  labels_.push_back(text_box(spots[best], text, size));
  return LabelPlacement{spots[best], best != 0};
}

}  // namespace planning_demo
