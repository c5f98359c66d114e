// A moving body along a trajectory's time grid (internal): where the body is at each pose's
// time, whether the step into that pose is one linear piece, and a circle that holds the body
// over the tested motion (the step, or the pose alone).
//
// None of it depends on the ego, only on the body and the times. The candidates of one planning
// cycle almost always share their times (t0 + k dt), so check_all computes it once per moving
// part and time (BodyTracks) and every candidate on that grid reads it; a trajectory off the
// grid, and check() alone, compute the same values per chunk of poses with the same function,
// so both paths give the same answers to the bit.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "broad_phase/circle_prefilter.hpp"
#include "broad_phase/scene.hpp"
#include "checker/body_motion.hpp"
#include "collision/config.hpp"
#include "collision/trajectory.hpp"

namespace collision::detail {

// The body over the test at pose i: the sweep from pose i-1 (continuous checking, i > 0) or the
// pose alone.
struct BodyStep {
  std::optional<BodyAt> now;     // at t(i); none outside the prediction when it is ignored there
  std::optional<BodyAt> before;  // at t(i-1), for a sweep
  // The sweep is one piece: the body present at both ends and no predicted time strictly inside.
  bool one_piece = false;
  // Holds every position of the body's pivot over the tested motion, grown by the body's
  // bounding radius and rotation sagitta: a disc that holds the body throughout. NaN centre when
  // the body is absent over the whole motion (no disc then keeps it).
  CandidateCircle circle{std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::quiet_NaN(), 0};
  // World boxes (m, rounded outward): of the body at t(i), its body-frame box turned into place;
  // and of the body over the tested motion, the boxes at the pieces' ends grown by the pieces'
  // rotation sagitta. Empty when the body is absent.
  Aabb pose_box;
  Aabb motion_box;
};

// The step of `part` into a pose at time t_now (s). sweep: the test there is the sweep from the
// previous pose, at time t_before (else t_before is not read). previous: the step made for the
// previous pose (at t_before), whose body this one starts from, or null. hint: a search hint
// into the prediction (see predicted_pose). pieces: working memory. The same steps with or
// without `previous`, to the bit.
BodyStep body_step(const Part& part, double t_before, double t_now, bool sweep,
                   OutsidePrediction outside, const BodyStep* previous, std::size_t* hint,
                   std::vector<BodyPiece>& pieces);

// The steps of `part` at poses [begin, end) of a time grid, into out[0 .. end - begin): each
// made from the one before it, the first from nothing, so that a chunk's steps are the whole
// grid's to the bit. time(i): pose i's time (s); sweep: continuous checking (pose i > 0 is tested
// as the sweep from pose i-1). pieces: working memory.
template <class Time>
void body_steps(const Part& part, const Time& time, std::size_t begin, std::size_t end, bool sweep,
                OutsidePrediction outside, BodyStep* out, std::vector<BodyPiece>& pieces) {
  std::size_t hint = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const bool from_previous = sweep && i > 0;
    out[i - begin] = body_step(part, from_previous ? time(i - 1) : 0.0, time(i), from_previous,
                               outside, i > begin ? &out[i - begin - 1] : nullptr, &hint, pieces);
  }
}

// The steps of every moving part along one time grid, computed once for all the trajectories
// of a check_all call that share it. A part's row is made by the first scan that asks for it
// (on any thread; a concurrent one waits for it): most bodies of a scene are never near any
// candidate, and their rows are never made.
class BodyTracks {
 public:
  // The steps of the moving parts of `scene` at the given times (strictly increasing). The scene
  // must outlive the tracks.
  BodyTracks(const Scene& scene, const CheckerConfig& config, std::vector<double> times);

  // Whether a trajectory's times are this grid's first trajectory.size() times, bit for bit.
  bool covers(const Trajectory& trajectory) const;

  // The steps of part `part_index` (a moving part), indexed by pose. pieces: working memory.
  const BodyStep* row(std::size_t part_index, std::vector<BodyPiece>& pieces) const;

 private:
  const Scene* scene_;
  bool sweep_;
  OutsidePrediction outside_;
  std::vector<double> times_;
  std::vector<std::size_t> row_of_part_;  // per part; meaningful for moving parts only
  // Row by row, times_.size() per moving part; a row is written once, under its flag.
  mutable std::vector<BodyStep> steps_;
  std::unique_ptr<std::once_flag[]> made_;
};

}  // namespace collision::detail
