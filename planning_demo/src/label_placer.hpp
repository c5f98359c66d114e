// Placing the picture's labels so that they overlap neither each other nor the drawing they
// name: each label tries spots around its anchor, nearest first, and takes the first that is
// free; a label moved away from its first choice gets a leader line back to its anchor.
#pragma once

#include <collision/collision.hpp>
#include <string>
#include <vector>

namespace planning_demo {

// A box in picture pixels.
struct PixelBox {
  collision::Vec2 lo, hi;
  bool overlaps(const PixelBox& o) const {
    return lo.x() < o.hi.x() && o.lo.x() < hi.x() && lo.y() < o.hi.y() && o.lo.y() < hi.y();
  }
  double overlap_area(const PixelBox& o) const;
};

struct LabelPlacement {
  collision::Vec2 at;  // text anchor: the middle of the baseline, pixels
  bool moved = false;  // not at its first choice: draw a leader line to the anchor
};

class LabelPlacer {
 public:
  // Labels stay inside this frame (pixels).
  explicit LabelPlacer(PixelBox frame) : frame_(frame) {}

  // Something no label may cover (an obstacle's body, the ego's footprint).
  void block(const PixelBox& box) { blocked_.push_back(box); }

  // The box a label of `text` in bold at `size` px takes with its baseline middle at `at`.
  static PixelBox text_box(const collision::Vec2& at, const std::string& text, double size);

  // A place for the label near `anchor` (pixels): first choice `gap` px above it, then spots on
  // rings around it, up to about 120 px away; the first free one wins, else the least covered.
  // The label's box is then reserved.
  LabelPlacement place(const collision::Vec2& anchor, double gap, const std::string& text,
                       double size);

 private:
  double cost(const PixelBox& box) const;

  PixelBox frame_;
  std::vector<PixelBox> blocked_;
  std::vector<PixelBox> labels_;
};

}  // namespace planning_demo
