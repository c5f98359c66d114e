// A moving obstacle part over the time of one sweep (internal): the body at an instant, the
// pieces of a step within which its motion is linear, and the look-ups into its prediction that
// make them. Plain values and inline functions: the scan makes them for every moving candidate
// at every pose.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "broad_phase/scene.hpp"
#include "collision/swept_hull.hpp"
#include "collision/trajectory.hpp"
#include "geometry/heading_axis.hpp"
#include "narrow_phase/support.hpp"
#include "world/prediction.hpp"

namespace collision::detail {

// A moving body at one instant: time t of the step being tested, which is also the fraction s
// of that step (0 at its start, 1 at its end). Pieces of a step are halved by s, not by t: a step
// can be shorter than two double steps of time (a denormal duration), and then halving in time
// gives back an end and confirms nothing.
//
// axis: heading_axis(pose.heading), made with the body (the default initializer reads the pose
// given before it), because every view, box and bound of the body turns by it, and a body made
// once per moving part and time (body_track.hpp) is read by every candidate trajectory. Make a
// new BodyAt for a new pose; never assign `pose` alone.
struct BodyAt {
  double t;
  Pose2 pose;
  double s = 0;
  Vec2 axis = heading_axis(pose.heading);
};

// A stretch of a step within which both the ego and the body move linearly (start == end: the
// body exists at that instant only).
struct BodyPiece {
  BodyAt start;
  BodyAt end;
};

// Heading change from one pose to the next. heading_change gives 0 too where the heading holds,
// but a turn known to be 0 here lets the inflations that follow fold to their no-turn values
// for predictions that keep their heading (constant velocity), the common case.
inline double turn_between(double from_rad, double to_rad) {
  return from_rad == to_rad ? 0.0 : heading_change(from_rad, to_rad);
}

// How far the body's region strays over a piece from the hull of its regions at the piece's ends
// (region_inflation: the rotation sagitta of its farthest point, and the turn of a growing
// uncertainty ellipse).
inline double body_rotation_inflation(const Part& part, const BodyAt& a, const BodyAt& b) {
  return region_inflation(part, a.t, b.t, turn_between(a.pose.heading, b.pose.heading));
}

// The body at time t, or nothing outside its prediction when the config ignores it there (or the
// part exists only within it, outside_of). hint:
// a search hint into the prediction (see predicted_pose), or null.
inline std::optional<BodyAt> body_at(const Part& part, double t, OutsidePrediction outside,
                                     std::size_t* hint) {
  const std::optional<Pose2> pose =
      predicted_pose(*part.prediction, t, outside_of(part, outside), hint);
  if (!pose) return std::nullopt;
  return BodyAt{t, *pose};
}

// The body halfway through a piece, on its linear motion within it.
inline BodyAt body_halfway(const BodyAt& a, const BodyAt& b) {
  return BodyAt{0.5 * (a.t + b.t), interpolate(a.pose, b.pose, 0.5), 0.5 * (a.s + b.s)};
}

// Whether the body's prediction has a time strictly inside (ta, tb), which splits a step.
inline bool time_inside(const Part& part, double ta, double tb, std::size_t hint) {
  const std::vector<PredictedPose>& prediction = *part.prediction;
  const std::size_t k = first_predicted_after(prediction, ta, &hint);
  return k < prediction.size() && prediction[k].t < tb;
}

// The same as time_inside, given k = first_predicted_after(prediction, tb), which a look-up of tb
// leaves in its hint: the latest predicted time before tb is then the one before k, or the one
// before that where that one is tb itself, and no search is needed.
inline bool time_inside_before(const std::vector<PredictedPose>& prediction, double ta, double tb,
                               std::size_t k) {
  std::size_t below = k;  // prediction[0 .. below) lie before tb
  if (below > 0 && !(prediction[below - 1].t < tb)) --below;
  return below > 0 && prediction[below - 1].t > ta;
}

// Splits [ta, tb] at every predicted time inside it into `pieces`. A piece with one end outside
// the prediction (at_ta or at_tb absent) shrinks to the instant at its other end, and a piece
// with both ends outside is dropped. Each end gets its fraction of the step: 0 at ta, 1 at tb.
// hint: where to start the search for the predicted times (read, not updated), or null.
inline void body_pieces(const Part& part, double ta, double tb, std::optional<BodyAt> at_ta,
                        std::optional<BodyAt> at_tb, const std::size_t* hint,
                        std::vector<BodyPiece>& pieces) {
  pieces.clear();
  if (at_ta) at_ta->s = 0;
  if (at_tb) at_tb->s = 1;
  std::optional<BodyAt> previous = std::move(at_ta);
  auto close_piece = [&](std::optional<BodyAt> next) {
    if (previous && next) {
      pieces.push_back({*previous, *next});
    } else if (previous || next) {
      const BodyAt& only = previous ? *previous : *next;
      pieces.push_back({only, only});
    }
    previous = next;
  };
  // Predictions are sorted by time: the predicted times inside (ta, tb) from the search hint,
  // not a pass over the whole prediction per pair.
  const std::vector<PredictedPose>& prediction = *part.prediction;
  std::size_t hint_copy = hint != nullptr ? *hint : prediction.size() + 1;
  for (std::size_t k = first_predicted_after(prediction, ta, &hint_copy);
       k < prediction.size() && prediction[k].t < tb; ++k) {
    close_piece(BodyAt{prediction[k].t, prediction[k].pose, (prediction[k].t - ta) / (tb - ta)});
  }
  close_piece(std::move(at_tb));
}

}  // namespace collision::detail
