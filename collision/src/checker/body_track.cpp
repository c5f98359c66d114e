#include "checker/body_track.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace collision::detail {

namespace {

// The disc that holds the body's region over `pieces`: within a piece the pivot moves on the
// chord between the piece's ends, so the box of all ends holds every position, and the region
// lies within its radius (at the last piece's end, its uncertainty ellipse being largest then)
// plus the piece's inflation of its pivot.
CandidateCircle circle_of(const Part& part, const std::vector<BodyPiece>& pieces) {
  Aabb box;
  double inflation = 0;
  for (const BodyPiece& piece : pieces) {
    box.extend(Vec2(piece.start.pose.x, piece.start.pose.y));
    box.extend(Vec2(piece.end.pose.x, piece.end.pose.y));
    inflation = std::max(inflation, body_rotation_inflation(part, piece.start, piece.end));
  }
  const Vec2 center = 0.5 * (box.min() + box.max());
  const Vec2 half = 0.5 * (box.max() - box.min());
  const double radius = region_radius(part, pieces.back().end.t) + inflation + half.norm();
  return {center.x(), center.y(),
          radius + 4 * rounding_slack(center.cwiseAbs().maxCoeff() + radius)};
}

Aabb body_box(const Part& part, const BodyAt& at) {
  return region_box(part, at.pose, at.axis, at.t);
}

// The box over `pieces`: the boxes at the pieces' ends, each grown by its piece's sagitta.
// known_start, known_end: the boxes of the body at the first piece's start and at the last
// piece's end when the caller has them (the previous step's body, this step's), or null.
Aabb motion_box_of(const Part& part, const std::vector<BodyPiece>& pieces, const Aabb* known_start,
                   const Aabb* known_end) {
  Aabb box;
  const std::size_t last = pieces.size() - 1;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const BodyPiece& piece = pieces[k];
    const double inflation = body_rotation_inflation(part, piece.start, piece.end);
    const Aabb start =
        k == 0 && known_start != nullptr ? *known_start : body_box(part, piece.start);
    const Aabb end = k == last && known_end != nullptr ? *known_end : body_box(part, piece.end);
    box.extend(start.inflated(inflation)).extend(end.inflated(inflation));
  }
  return box;
}

}  // namespace

BodyStep body_step(const Part& part, double t_before, double t_now, bool sweep,
                   OutsidePrediction outside, const BodyStep* previous, std::size_t* hint,
                   std::vector<BodyPiece>& pieces) {
  BodyStep step;
  pieces.clear();
  if (sweep) {
    // The previous pose's step was made at t_before: its body is this one's start.
    step.before = previous != nullptr ? previous->now : body_at(part, t_before, outside, hint);
    step.now = body_at(part, t_now, outside, hint);
    step.one_piece = step.before && step.now && !time_inside(part, t_before, t_now, *hint);
    if (step.one_piece) {
      pieces.push_back({*step.before, *step.now});
    } else {
      body_pieces(part, t_before, t_now, step.before, step.now, hint, pieces);
    }
  } else {
    step.now = body_at(part, t_now, outside, hint);
    if (step.now) pieces.push_back({*step.now, *step.now});
  }
  if (step.now) step.pose_box = body_box(part, *step.now);
  if (!pieces.empty()) {
    step.circle = circle_of(part, pieces);
    // A present start (set only for a sweep) opens the first piece; given a previous step, it is
    // that step's body, whose box is known. A present body at t_now closes the last piece: its
    // box is the pose box.
    const bool start_known = previous != nullptr && step.before;
    step.motion_box = motion_box_of(part, pieces, start_known ? &previous->pose_box : nullptr,
                                    step.now ? &step.pose_box : nullptr);
  }
  return step;
}

BodyTracks::BodyTracks(const Scene& scene, const CheckerConfig& config, std::vector<double> times)
    : scene_(&scene),
      sweep_(config.continuous.enabled),
      outside_(config.obstacles.outside_prediction),
      times_(std::move(times)),
      row_of_part_(scene.parts.size(), 0) {
  std::size_t rows = 0;
  for (std::size_t k = 0; k < scene.parts.size(); ++k) {
    if (scene.parts[k].moving) row_of_part_[k] = rows++;
  }
  steps_.resize(rows * times_.size());
  made_ = std::make_unique<std::once_flag[]>(rows);
}

const BodyStep* BodyTracks::row(std::size_t part_index, std::vector<BodyPiece>& pieces) const {
  const std::size_t r = row_of_part_[part_index];
  BodyStep* steps = steps_.data() + r * times_.size();
  std::call_once(made_[r], [&] {
    body_steps(
        scene_->parts[part_index], [this](std::size_t i) { return times_[i]; }, 0, times_.size(),
        sweep_, outside_, steps, pieces);
  });
  return steps;
}

bool BodyTracks::covers(const Trajectory& trajectory) const {
  if (trajectory.size() > times_.size()) return false;
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    if (trajectory[i].t != times_[i]) return false;
  }
  return true;
}

}  // namespace collision::detail
