#include "checker/body_track.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "world/validate_in_batch.hpp"

namespace collision::detail {

namespace {

std::uint64_t bits_of(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The disc that holds the body's region over `pieces`: within a piece the pivot moves on the
// chord between the piece's ends, so the box of all ends holds every position, and the region
// lies within its radius (at the last piece's end, its uncertainty ellipse being largest then)
// plus the piece's inflation of its pivot.
CandidateCircle circle_of(const Part& part, const BodyPiece* pieces, std::size_t count) {
  Aabb box;
  double inflation = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const BodyPiece& piece = pieces[k];
    box.extend(Vec2(piece.start.pose.x, piece.start.pose.y));
    box.extend(Vec2(piece.end.pose.x, piece.end.pose.y));
    inflation = std::max(inflation, body_rotation_inflation(part, piece.start, piece.end));
  }
  const Vec2 center = 0.5 * (box.min() + box.max());
  const Vec2 half = 0.5 * (box.max() - box.min());
  const double radius = region_radius(part, pieces[count - 1].end.t) + inflation + half.norm();
  return {center.x(), center.y(),
          radius + 4 * rounding_slack(center.cwiseAbs().maxCoeff() + radius)};
}

Aabb body_box(const Part& part, const BodyAt& at) {
  return region_box(part, at.pose, at.axis, at.t);
}

// The box over `pieces`: the boxes at the pieces' ends, each grown by its piece's sagitta.
// known_start, known_end: the boxes of the body at the first piece's start and at the last
// piece's end when the caller has them (the previous step's body, this step's), or null.
Aabb motion_box_of(const Part& part, const BodyPiece* pieces, std::size_t count,
                   const Aabb* known_start, const Aabb* known_end) {
  Aabb box;
  const std::size_t last = count - 1;
  for (std::size_t k = 0; k < count; ++k) {
    const BodyPiece& piece = pieces[k];
    const double inflation = body_rotation_inflation(part, piece.start, piece.end);
    const Aabb start =
        k == 0 && known_start != nullptr ? *known_start : body_box(part, piece.start);
    const Aabb end = k == last && known_end != nullptr ? *known_end : body_box(part, piece.end);
    box.extend(start.inflated(inflation)).extend(end.inflated(inflation));
  }
  return box;
}

// The body at time t as body_at makes it, turned by `known`'s axis where `known` holds the same
// heading to the bit: a body that keeps its heading, as most predictions do, costs no sine and
// cosine per step.
std::optional<BodyAt> body_at_keeping_axis(const Part& part, double t, OutsidePrediction outside,
                                           std::size_t* hint, const std::optional<BodyAt>& known) {
  const std::optional<Pose2> pose =
      predicted_pose(*part.prediction, t, outside_of(part, outside), hint);
  if (!pose) return std::nullopt;
  if (known && bits_of(known->pose.heading) == bits_of(pose->heading)) {
    return BodyAt{t, *pose, 0, known->axis};
  }
  return BodyAt{t, *pose};
}

}  // namespace

BodyStep body_step(const Part& part, double t_before, double t_now, bool sweep,
                   OutsidePrediction outside, const BodyStep* previous, std::size_t* hint,
                   std::vector<BodyPiece>& pieces) {
  BodyStep step;
  // The common step is one piece, held here; others are split into `pieces`.
  BodyPiece one{{0, Pose2{}}, {0, Pose2{}}};
  const BodyPiece* first = &one;
  std::size_t count = 0;
  const std::vector<PredictedPose>& prediction = *part.prediction;
  if (sweep) {
    // The previous pose's step was made at t_before: its body is this one's start.
    step.before = previous != nullptr ? previous->now : body_at(part, t_before, outside, hint);
    step.now = body_at_keeping_axis(part, t_now, outside, hint, step.before);
    if (step.before && step.now) {
      // A look-up of t_now within the prediction leaves in the hint the first predicted time
      // after it, and the last before it is then the one to compare with t_before.
      const bool looked_up = t_now >= prediction.front().t && t_now <= prediction.back().t;
      step.one_piece = !(looked_up ? time_inside_before(prediction, t_before, t_now, *hint)
                                   : time_inside(part, t_before, t_now, *hint));
    }
    if (step.one_piece) {
      one = {*step.before, *step.now};
      count = 1;
    } else {
      body_pieces(part, t_before, t_now, step.before, step.now, hint, pieces);
      first = pieces.data();
      count = pieces.size();
    }
  } else {
    step.now = body_at_keeping_axis(part, t_now, outside, hint,
                                    previous != nullptr ? previous->now : std::nullopt);
    if (step.now) {
      one = {*step.now, *step.now};
      count = 1;
    }
  }
  if (step.now) step.pose_box = body_box(part, *step.now);
  if (count > 0) {
    step.circle = circle_of(part, first, count);
    // A present start (set only for a sweep) opens the first piece; given a previous step, it is
    // that step's body, whose box is known. A present body at t_now closes the last piece: its
    // box is the pose box.
    const bool start_known = previous != nullptr && step.before;
    step.motion_box = motion_box_of(part, first, count, start_known ? &previous->pose_box : nullptr,
                                    step.now ? &step.pose_box : nullptr);
  }
  return step;
}

namespace {

// The first n of `flags` reset, reallocated only when the batch needs more than `capacity`.
void reset_flags(std::unique_ptr<ResettableOnce[]>& flags, std::size_t& capacity, std::size_t n) {
  if (n > capacity) {
    flags = std::make_unique<ResettableOnce[]>(n);
    capacity = n;
    return;
  }
  for (std::size_t k = 0; k < n; ++k) flags[k].reset();
}

}  // namespace

void BodyTracks::ChunkIndex::clear() {
  reach.clear();
  part.clear();
  first_slice.clear();
  slice_boxes.clear();
}

void BodyTracks::start(const Scene& scene, const CheckerConfig& config, const Trajectory& longest,
                       const std::vector<Trajectory>& batch) {
  scene_ = &scene;
  sweep_ = config.continuous.enabled;
  outside_ = config.obstacles.outside_prediction;
  times_.clear();
  for (const TrajectoryPoint& p : longest) times_.push_back(p.t);
  chunk_ = static_cast<std::size_t>(config.broad_phase.poses_per_query);
  chunks_ = (times_.size() + chunk_ - 1) / chunk_;
  row_of_part_.assign(scene.parts.size(), 0);
  on_grid_.assign(batch.size(), 0);
  std::size_t rows = 0;
  for (std::size_t k = 0; k < scene.parts.size(); ++k) {
    if (scene.parts[k].moving) row_of_part_[k] = rows++;
  }
  steps_.assign(rows * chunks_, nullptr);
  reset_flags(made_, made_capacity_, rows * chunks_);
  if (chunk_ > block_size_) {
    blocks_.clear();
    block_size_ = chunk_;
  }
  blocks_used_ = 0;
  index_chunks_ = config.broad_phase.spatial_index;
  near_.assign(index_chunks_ ? chunks_ : 0, Aabb());
  // One pass over the batch, trajectory by trajectory: it is validated, which brings its points
  // into the cache, and then its times are compared with the grid's and its rear axles boxed
  // chunk by chunk. The times and the axles are read in the same loop, without a branch on the
  // times; a trajectory's boxes count only once its times have all matched.
  boxes_.assign(chunks_, Aabb());
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const Trajectory& trajectory = batch[k];
    const std::size_t n = trajectory.size();
    // The longest trajectory gave the grid, so none is longer.
    assert(n <= times_.size());
    validate_in_batch(trajectory, k, config.trajectory);
    // The bits in which any time differs from the grid's: the times match bit for bit exactly
    // when none does, and an integer xor costs less than a compare that minds NaN.
    std::uint64_t differing_bits = 0;
    auto axle = [&](std::size_t j) { return Vec2(trajectory[j].pose.x, trajectory[j].pose.y); };
    std::size_t c = 0;
    for (std::size_t begin = 0; begin < n; ++c, begin += chunk_) {
      Aabb box;  // a local: extending boxes_[c] in place would store it at every pose
      if (sweep_ && begin > 0) box.extend(axle(begin - 1));
      const std::size_t stop = std::min(n, begin + chunk_);
      for (std::size_t j = begin; j < stop; ++j) {
        differing_bits |= bits_of(trajectory[j].t) ^ bits_of(times_[j]);
        box.extend(axle(j));
      }
      boxes_[c] = box;
    }
    const bool off_grid = differing_bits != 0;
    on_grid_[k] = !off_grid;
    if (off_grid || !index_chunks_) continue;
    for (std::size_t d = 0; d < c; ++d) near_[d].extend(boxes_[d]);
  }
  if (index_chunks_) {
    // A scan's query box for a chunk holds its footprints' boxes (within the box centre's lever
    // and radius of the rear axle), grown by the largest sweep inflation (a sagitta, at most
    // twice rear_radius), the clearance threshold (at most the horizon) and the contact
    // tolerance; a millimetre covers the boxes' outward rounding many times over. A trailer's
    // scan places it at its hitch, at most the sum of the hitch offsets from the towing rear axle
    // that the batch's points give, and its sweeps stray from their line by at most that sum
    // again (checker/articulated_check.cpp): the reach is the largest body's.
    const auto body_reach = [](const EgoShape& shape) {
      return shape.center_lever + shape.box_radius + 2 * shape.rear_radius;
    };
    double reach = body_reach(scene.ego), hitches = 0;
    for (std::size_t k = 0; k < scene.trailers.size(); ++k) {
      hitches += std::abs(config.vehicle.trailers[k].hitch_offset);
      reach = std::max(reach, 2 * hitches + body_reach(scene.trailers[k]));
    }
    reach_ = reach + config.clearance.horizon + config.narrow_phase.contact_tolerance + 1e-3;
    if (chunk_indexes_.size() < chunks_) chunk_indexes_.resize(chunks_);
    for (std::size_t c = 0; c < chunks_; ++c) chunk_indexes_[c].clear();
    reset_flags(chunk_made_, chunk_made_capacity_, chunks_);
  }
}

const BodyStep* BodyTracks::row(std::size_t part_index, std::size_t begin,
                                [[maybe_unused]] std::size_t end,
                                std::vector<BodyPiece>& pieces) const {
  const std::size_t c = begin / chunk_;
  assert(end > begin && (end - 1) / chunk_ == c && end <= times_.size());
  const std::size_t k = row_of_part_[part_index] * chunks_ + c;
  // Most rows are asked for by many candidates: a made one costs one load.
  if (!made_[k].done()) made_[k].call([&] { make_row(part_index, k, c, pieces); });
  return steps_[k] + (begin - c * chunk_);
}

void BodyTracks::make_row(std::size_t part_index, std::size_t k, std::size_t chunk,
                          std::vector<BodyPiece>& pieces) const {
  const std::size_t first = chunk * chunk_, last = std::min(times_.size(), first + chunk_);
  BodyStep* steps = nullptr;
  {
    const std::lock_guard<std::mutex> lock(blocks_mutex_);
    if (blocks_used_ == blocks_.size()) {
      blocks_.push_back(std::make_unique<BodyStep[]>(block_size_));
    }
    steps = blocks_[blocks_used_++].get();
  }
  body_steps(
      scene_->parts[part_index], [this](std::size_t i) { return times_[i]; }, first, last, sweep_,
      outside_, steps, pieces);
  // Published by the row's flag.
  steps_[k] = steps;
}

void BodyTracks::make_chunk_index(std::size_t begin, std::size_t end, ChunkIndex& index,
                                  std::vector<BodyPiece>& pieces) const {
  // Only the bodies that the scene's index finds near the batch's rear axles over the chunk
  // (the pose before it too, for a sweep) can meet a scan's query box, so only their steps are
  // made.
  const std::size_t first = sweep_ && begin > 0 ? begin - 1 : begin;
  const Aabb& near = near_[begin / chunk_];
  std::vector<int>& ids = index.near;
  ids.clear();
  const SpatialIndex& scene_index = *scene_->index;
  if (!near.is_empty()) {
    scene_index.query_moving(near.inflated(reach_), times_[first], times_[end - 1], ids);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  index.first_slice.push_back(0);
  for (const int k : ids) {
    const Aabb box =
        motion_reach(row(static_cast<std::size_t>(k), begin, end, pieces), end - begin);
    // An empty box (the body absent over the chunk) meets no query.
    if (box.is_empty()) continue;
    index.reach.push_back({box, static_cast<int>(index.part.size())});
    index.part.push_back(k);
    scene_index.moving_boxes(k, times_[first], times_[end - 1], index.slice_boxes);
    index.first_slice.push_back(index.slice_boxes.size());
  }
  std::sort(index.reach.begin(), index.reach.end(),
            [](const Reach& a, const Reach& b) { return a.box.max().x() < b.box.max().x(); });
}

bool BodyTracks::moving_near(std::size_t begin, std::size_t end, const Aabb& box,
                             std::vector<int>& ids, std::vector<BodyPiece>& pieces) const {
  if (!index_chunks_ || begin % chunk_ != 0 || end != std::min(times_.size(), begin + chunk_)) {
    return false;
  }
  const std::size_t c = begin / chunk_;
  ChunkIndex& index = chunk_indexes_[c];
  if (!chunk_made_[c].done()) {
    chunk_made_[c].call([&] { make_chunk_index(begin, end, index, pieces); });
  }
  // The entries whose steps' box meets the query box (those reaching its lower x bound are the
  // tail of the sorted array), each kept if one of its slice boxes meets the query box too (the
  // scene's index would have returned it).
  const auto from = std::lower_bound(index.reach.begin(), index.reach.end(), box.min().x(),
                                     [](const Reach& r, double x) { return r.box.max().x() < x; });
  for (auto r = from; r != index.reach.end(); ++r) {
    if (!r->box.intersects(box)) continue;
    const std::size_t entry = static_cast<std::size_t>(r->entry);
    for (std::size_t j = index.first_slice[entry]; j < index.first_slice[entry + 1]; ++j) {
      if (index.slice_boxes[j].intersects(box)) {
        ids.push_back(index.part[entry]);
        break;
      }
    }
  }
  return true;
}

}  // namespace collision::detail
