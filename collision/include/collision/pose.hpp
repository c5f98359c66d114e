// Placing a point by a pose: the one rigid motion every user of Pose2 needs.
#pragma once

#include "collision/vec2.hpp"

namespace collision {

// The world position of a point given in the frame of `pose`: (pose.x, pose.y) + R(heading) *
// local, where R turns counter-clockwise by pose.heading (radians) and local is in metres along
// the pose's heading (x) and to its left (y). The cosine and sine are the library's own, the ones
// its checker and transformed() place footprints and obstacles with, so a point placed here lands
// on the same bits as the vertex the library would make of it.
Vec2 transform_point(const Pose2& pose, const Vec2& local);

}  // namespace collision
