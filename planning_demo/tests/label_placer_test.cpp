// Labels placed by LabelPlacer overlap neither each other nor the drawing they must not hide.
#include "label_placer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planning_demo {
namespace {

using collision::Vec2;

TEST(LabelPlacer, FirstChoiceWhenFree) {
  LabelPlacer placer(PixelBox{Vec2(0, 0), Vec2(1000, 1000)});
  const LabelPlacement p = placer.place(Vec2(500, 500), 10, "car 42", 12);
  EXPECT_FALSE(p.moved);
  EXPECT_DOUBLE_EQ(p.at.x(), 500);
  EXPECT_DOUBLE_EQ(p.at.y(), 490);
}

TEST(LabelPlacer, CrowdedLabelsDoNotOverlap) {
  // Twenty labels on one anchor, as twenty cars in one place would ask.
  LabelPlacer placer(PixelBox{Vec2(0, 0), Vec2(1000, 1000)});
  std::vector<PixelBox> boxes;
  for (int i = 0; i < 20; ++i) {
    const std::string text = "car " + std::to_string(100 + i);
    const LabelPlacement p = placer.place(Vec2(500, 500), 8, text, 12);
    boxes.push_back(LabelPlacer::text_box(p.at, text, 12));
    EXPECT_EQ(p.moved, i > 0) << i;
  }
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      EXPECT_FALSE(boxes[i].overlaps(boxes[j])) << i << " and " << j;
    }
  }
}

TEST(LabelPlacer, AvoidsWhatItNamesAndStaysInTheFrame) {
  LabelPlacer placer(PixelBox{Vec2(0, 0), Vec2(400, 300)});
  const PixelBox body{Vec2(180, 120), Vec2(220, 180)};  // a body around the anchor
  placer.block(body);
  const LabelPlacement p = placer.place(Vec2(200, 150), 0, "truck 7", 12);
  const PixelBox label = LabelPlacer::text_box(p.at, "truck 7", 12);
  EXPECT_FALSE(label.overlaps(body));
  EXPECT_TRUE(p.moved);
  // Near the top edge, the label goes below rather than out of the frame.
  const LabelPlacement q = placer.place(Vec2(50, 5), 4, "bus 8", 12);
  const PixelBox top = LabelPlacer::text_box(q.at, "bus 8", 12);
  EXPECT_GE(top.lo.y(), 0.0);
}

}  // namespace
}  // namespace planning_demo
