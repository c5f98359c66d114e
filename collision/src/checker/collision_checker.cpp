// The two-stage trajectory checker.
//
// Per trajectory, poses are taken in chunks of broad_phase.poses_per_query. One R*-tree query per
// chunk (the chunk's footprint boxes, grown by the clearance horizon) returns the candidate parts;
// then, per pose and candidate, bounding circles reject, then AABBs, and only the survivors reach
// GJK, warm-started from the previous pose of the same part. With continuous checking the test at
// pose i is the sweep from pose i-1 (which contains pose i); against a moving body it is the
// relative sweep, split at the body's predicted times so that both motions are linear within each
// piece. Clearance is the GJK distance at each pose to the parts within the horizon, skipped when
// a cheap lower bound already exceeds the best distance found.
#include "collision/collision_checker.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <thread>

#include "collision/errors.hpp"
#include "collision/swept_hull.hpp"
#include "geometry/heading_axis.hpp"
#include "narrow_phase/narrow_phase.hpp"
#include "world/prediction.hpp"
#include "narrow_phase/relative_sweep.hpp"
#include "broad_phase/scene.hpp"

namespace collision {

using detail::Part;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Bisection steps for the contact time inside a sweep: the estimate is at most
// (t(i) - t(i-1)) / 2^kContactTimeBisections early.
constexpr int kContactTimeBisections = 10;

// Most halvings spent on one sweep test (each costs two GJK calls): bounds the work of a
// pathological step (a huge vehicle turning by pi past a long obstacle, with a millimetre asked
// for) at the price of a coarser hit there. A near miss of a car needs about 2 * log2(excess /
// max_overestimate), under 20.
constexpr int kSweepSplitBudget = 64;

double distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double length2 = ab.squaredNorm();
  const double s = length2 > 0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + s * ab - p).norm();
}

Aabb disc_box(const Vec2& center, double radius) { return Aabb(center, center).inflated(radius); }

// The ego at one trajectory point: its footprint as the queries need it (the half sizes are the
// scan's), without building an Obb, whose validation and stored heading a pose does not need.
struct EgoPose {
  Pose2 pose;
  double t;
  Vec2 center;  // of the footprint, world frame
  Vec2 axis;    // unit, along the heading
  Aabb aabb;    // rounded outward
  // For the sweep arriving here from the previous pose (0 at the first pose or without
  // continuous checking): rotation sagitta of the farthest corner about the rear axle, and of
  // the box centre. They depend on the pose only, so they are computed once, not per pair.
  double sweep_inflation = 0;
  double center_inflation = 0;
};

// A moving body at one instant: time t of the step being tested, which is also the fraction s
// of that step (0 at its start, 1 at its end). Pieces of a step are halved by s, not by t: a step
// can be shorter than two double steps of time (a denormal duration), and then halving in time
// gives back an end and confirms nothing.
struct BodyAt {
  double t;
  Pose2 pose;
  double s = 0;
};

// Heading change from one pose to the next; predictions that keep their heading (constant
// velocity) skip the remainder and the cosine of the sagitta that follow.
double turn_between(double from_rad, double to_rad) {
  return from_rad == to_rad ? 0.0 : heading_change(from_rad, to_rad);
}

struct Caches {
  GjkCache pose;
  GjkCache sweep;
  // A moving part's body at the last pose's time (NaN: none yet): the next sweep starts there.
  BodyAt body{std::numeric_limits<double>::quiet_NaN(), Pose2{}};
  bool body_present = false;
  std::size_t prediction_hint = 0;  // where the last search of the body's prediction ended
};

// A candidate part's bounding circle, laid out for the per-pose prefilter; a moving body's is
// infinite (its circle moves with it: test_moving places it), so it always passes.
struct CandidateBound {
  double x;
  double y;
  double radius;  // +infinity for a moving body
};

// The working memory of one scan, kept per thread between checks so that a check allocates
// nothing once the vectors have grown to the largest trajectory and candidate set seen.
struct Scratch {
  std::vector<EgoPose> ego;
  std::vector<int> candidates;
  std::vector<CandidateBound> bounds;  // parallel to candidates
  std::vector<int> survivors;          // of the prefilter at the current pose: slots of candidates
  std::vector<Caches> caches;
  // What a candidate's caches start from, built once: a fresh Caches{} per chunk was zeroed by a
  // rep stos whose start-up cost 5% of a corridor check.
  const Caches fresh{};
  std::vector<std::pair<BodyAt, BodyAt>> pieces;
  std::vector<const detail::Part*> hits;
};

class TrajectoryScan {
 public:
  TrajectoryScan(const CheckerConfig& config, const detail::Scene& scene,
                 const Trajectory& trajectory, Scratch& scratch)
      : config_(config),
        scene_(scene),
        trajectory_(trajectory),
        origin_(trajectory.front().pose.x, trajectory.front().pose.y),
        tolerance_(config.narrow_phase.contact_tolerance),
        horizon_(config.clearance.horizon),
        continuous_(config.continuous.enabled),
        shape_(scene.ego),
        ego_(scratch.ego),
        candidates_(scratch.candidates),
        bounds_(scratch.bounds),
        survivors_(scratch.survivors),
        caches_(scratch.caches),
        fresh_(scratch.fresh),
        pieces_(scratch.pieces),
        hits_(scratch.hits) {
    ego_.clear();
  }

  TrajectoryResult run() {
    TrajectoryResult result;
    result.min_clearance = kInfinity;
    const std::size_t n = trajectory_.size();
    const std::size_t chunk = static_cast<std::size_t>(config_.broad_phase.poses_per_query);
    const std::uint64_t part_count = scene_.parts.size();
    double best_clearance = kInfinity;

    for (std::size_t begin = 0; begin < n; begin += chunk) {
      const std::size_t end = std::min(n, begin + chunk);
      prepare_ego(end);
      collect_candidates(begin, end, std::min(best_clearance, horizon_));
      if (candidates_.empty()) {
        // Nothing near these poses (most chunks of a trajectory): every pair is the index's.
        const std::uint64_t pairs = part_count * (end - begin);
        result.stats.pairs_seen += pairs;
        result.stats.rejected_by_index += pairs;
        continue;
      }
      for (std::size_t i = begin; i < end; ++i) {
        result.stats.pairs_seen += part_count;
        result.stats.rejected_by_index += part_count - candidates_.size();
        // Every candidate is tested, also after a hit: the lowest id and the earliest contact
        // among all parts hit at this index are the answer (and every pair is counted).
        hits_.clear();
        const std::size_t kept = prefilter(i, std::min(best_clearance, horizon_));
        result.stats.rejected_by_circle += candidates_.size() - kept;
        for (std::size_t j = 0; j < kept; ++j) {
          const std::size_t k = static_cast<std::size_t>(survivors_[j]);
          const Part& part = scene_.parts[static_cast<std::size_t>(candidates_[k])];
          const double threshold = hits_.empty() ? std::min(best_clearance, horizon_) : -kInfinity;
          const PairOutcome outcome = test_pair(part, i, caches_[k], threshold, result.stats);
          if (outcome.hit) {
            hits_.push_back(&part);
          } else if (outcome.distance < best_clearance) {
            best_clearance = outcome.distance;
          }
        }
        if (!hits_.empty()) {
          result.collides = true;
          result.first_collision_index = i;
          double time = kInfinity;
          int id = std::numeric_limits<int>::max();
          for (const Part* part : hits_) {
            id = std::min(id, part->obstacle_id);
            time = std::min(time, contact_time(*part, i));
          }
          result.first_collision_time = time;
          result.obstacle_id = id;
          result.min_clearance = 0;
          return result;
        }
      }
    }
    if (horizon_ > 0 && best_clearance <= horizon_) result.min_clearance = best_clearance;
    return result;
  }

 private:
  struct PairOutcome {
    bool hit = false;
    double distance = kInfinity;  // clearance at the pose, when measured
  };

  // Footprints are made chunk by chunk, as the scan reaches them: a trajectory that collides
  // early never pays for the poses after its hit. A pose with the last one's heading reuses its
  // axis (a trajectory holding its heading, as most do once a manoeuvre ends, then costs no
  // cosine and sine); heading and axis are carried in registers, not read back from the pose
  // just stored (a stalled load: perf put 8% of the scan's samples on it).
  void prepare_ego(std::size_t end) {
    if (ego_.size() >= end) return;
    double heading = kInfinity;  // no pose before: any finite heading differs
    Vec2 axis = Vec2::Zero();
    if (!ego_.empty()) {
      heading = ego_.back().pose.heading;
      axis = ego_.back().axis;
    }
    while (ego_.size() < end) {
      const TrajectoryPoint& p = trajectory_[ego_.size()];
      const double previous_heading = heading;
      if (p.pose.heading != heading) {
        heading = p.pose.heading;
        axis = detail::heading_axis(heading);
      }
      EgoPose e = make_ego(p.pose, p.t, axis);
      if (continuous_ && !ego_.empty()) {
        const double turn = heading_change(previous_heading, heading);
        e.sweep_inflation = rotation_inflation(shape_.rear_radius, turn);
        e.center_inflation = rotation_inflation(shape_.center_lever, turn);
      }
      ego_.push_back(e);
    }
  }

  // The footprint at a pose, computed as footprint() does (bit for bit the same box).
  EgoPose make_ego(const Pose2& pose, double t) const {
    return make_ego(pose, t, detail::heading_axis(pose.heading));
  }
  // The same with the axis of its heading given.
  EgoPose make_ego(const Pose2& pose, double t, const Vec2& axis) const {
    const Vec2 center = Vec2(pose.x, pose.y) + shape_.axle_to_center * axis;
    const Vec2 extent(
        shape_.half_length * std::abs(axis.x()) + shape_.half_width * std::abs(axis.y()),
        shape_.half_length * std::abs(axis.y()) + shape_.half_width * std::abs(axis.x()));
    const Aabb aabb = Aabb(center - extent, center + extent)
                          .inflated(detail::rounding_slack(center.cwiseAbs().maxCoeff()));
    return {pose, t, center, axis, aabb, 0, 0};
  }

  detail::ObbView view(const EgoPose& ego) const {
    return detail::ObbView(ego.center, ego.axis, shape_.half_length, shape_.half_width, origin_);
  }

  bool sweeps_into(std::size_t i) const { return continuous_ && i > 0; }

  // Candidate parts for poses [begin, end): one index query for the chunk, or every part. The
  // query box is grown by the clearance threshold so far, not the whole horizon: a part farther
  // than the best clearance found cannot lower it.
  void collect_candidates(std::size_t begin, std::size_t end, double clearance_threshold) {
    candidates_.clear();
    const std::size_t first = sweeps_into(begin) ? begin - 1 : begin;
    if (!config_.broad_phase.spatial_index) {
      for (std::size_t k = 0; k < scene_.parts.size(); ++k)
        candidates_.push_back(static_cast<int>(k));
    } else {
      Aabb box;
      double inflation = 0;
      for (std::size_t i = first; i < end; ++i) {
        box.extend(ego_[i].aabb);
        if (i > first) inflation = std::max(inflation, ego_[i].sweep_inflation);
      }
      box = box.inflated(inflation + clearance_threshold + tolerance_);
      scene_.index->query(box, ego_[first].t, ego_[end - 1].t, candidates_);
      std::sort(candidates_.begin(), candidates_.end());
      candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
    }
    caches_.assign(candidates_.size(), fresh_);
    bounds_.clear();
    for (const int k : candidates_) {
      const Part& part = scene_.parts[static_cast<std::size_t>(k)];
      bounds_.push_back({part.circle_center.x(), part.circle_center.y(),
                         part.moving ? kInfinity : part.circle_radius});
    }
    survivors_.resize(candidates_.size());
  }

  // A bounding-circle test of every candidate at pose i in one tight pass, looser than
  // test_pair's and so cheap that the dozen parts an index query returns per pose cost a few
  // nanoseconds each: one circle about the middle of the step from pose i-1 holds both the swept
  // capsule that the collision test uses and the disc that the clearance test uses (with the
  // threshold at the start of the pose, which only shrinks). It keeps at least what the exact
  // tests keep, so the answers and the stage counts are those of testing every candidate; the
  // survivors get the exact tests. Returns how many survive; their slots are the first entries of
  // survivors_.
  std::size_t prefilter(std::size_t i, double clearance_threshold) {
    if (!config_.broad_phase.bounding_circles || candidates_.empty()) {
      for (std::size_t k = 0; k < candidates_.size(); ++k) survivors_[k] = static_cast<int>(k);
      return candidates_.size();
    }
    const EgoPose& ego = ego_[i];
    const bool sweep = sweeps_into(i);
    const Vec2 b = ego.center;
    const Vec2 a = sweep ? ego_[i - 1].center : b;
    const Vec2 middle = 0.5 * (a + b);
    const double path_reach = (sweep ? ego.sweep_inflation : 0.0) + tolerance_;
    // Half the step's length, bounded by its L1 norm (no square root).
    const double reach = shape_.box_radius + 0.5 * (b - a).cwiseAbs().sum() +
                         std::max(path_reach, std::max(clearance_threshold, 0.0));
    constexpr double kMargin = 1 + 1e-12;  // round-off of the squares, relative
    const double mx = middle.x(), my = middle.y();
    std::size_t kept = 0;
    for (std::size_t k = 0; k < bounds_.size(); ++k) {
      const CandidateBound& c = bounds_[k];
      const double dx = c.x - mx, dy = c.y - my;
      const double r = (reach + c.radius) * kMargin;  // infinite for a moving body: always kept
      survivors_[kept] = static_cast<int>(k);
      kept += dx * dx + dy * dy <= r * r ? 1 : 0;
    }
    return kept;
  }

  PairOutcome test_pair(const Part& part, std::size_t i, Caches& caches, double clearance_threshold,
                        CheckStats& stats) {
    return part.moving ? test_moving(part, i, caches, clearance_threshold, stats)
                       : test_stationary(part, i, caches, clearance_threshold, stats);
  }

  // ---- stationary parts ----

  PairOutcome test_stationary(const Part& part, std::size_t i, Caches& caches,
                              double clearance_threshold, CheckStats& stats) {
    const EgoPose& ego = ego_[i];
    const double pose_gap = (ego.center - part.circle_center).norm() - shape_.box_radius -
                            part.circle_radius;  // lower bound of the pose's distance
    const bool sweep = sweeps_into(i);
    double collision_gap = pose_gap;
    Aabb collision_box = ego.aabb;
    if (sweep) {
      const EgoPose& prev = ego_[i - 1];
      // The exact test is the hull of the two boxes grown by the rotation inflation about the
      // rear axle: inside the capsule of the box centres grown by the same amount.
      collision_gap = distance_to_segment(part.circle_center, prev.center, ego.center) -
                      shape_.box_radius - ego.sweep_inflation - part.circle_radius;
      collision_box = Aabb(prev.aabb).extend(ego.aabb).inflated(ego.sweep_inflation);
    }
    bool check_collision = !config_.broad_phase.bounding_circles || collision_gap <= tolerance_;
    bool measure = clearance_threshold > 0 &&
                   (!config_.broad_phase.bounding_circles || pose_gap <= clearance_threshold);
    if (!check_collision && !measure) {
      ++stats.rejected_by_circle;
      return {};
    }
    if (config_.broad_phase.aabbs) {
      check_collision = check_collision && collision_box.squared_exterior_distance(part.aabb) <=
                                               tolerance_ * tolerance_;
      measure = measure && ego.aabb.exterior_distance(part.aabb) <= clearance_threshold;
      if (!check_collision && !measure) {
        ++stats.rejected_by_aabb;
        return {};
      }
    }
    ++stats.sent_to_gjk;
    int iterations = 0;
    PairOutcome outcome;
    const detail::PolygonView obstacle(*part.polygon, origin_);
    if (measure) {
      const detail::MinkowskiDifference diff(view(ego), obstacle);
      const detail::Clearance d = detail::clearance(
          diff, tolerance_, config_.narrow_phase.max_gjk_iterations, pose_cache(caches));
      iterations += d.iterations;
      outcome.hit = d.hit;
      outcome.distance = d.distance;
    }
    if (!outcome.hit && check_collision && (sweep || !measure)) {
      outcome.hit =
          sweep ? sweep_hits_stationary(part, ego_[i - 1], ego, sweep_cache(caches), &iterations)
                : pose_hits_stationary(part, ego, pose_cache(caches), &iterations);
    }
    stats.gjk_iterations += static_cast<std::uint64_t>(iterations);
    return outcome;
  }

  bool pose_hits_stationary(const Part& part, const EgoPose& ego, GjkCache* cache,
                            int* iterations) const {
    const detail::MinkowskiDifference diff(view(ego), detail::PolygonView(*part.polygon, origin_));
    return detail::intersects(diff, tolerance_, config_.narrow_phase.max_gjk_iterations, cache,
                              iterations);
  }

  // Whether the sweep of the ego from a to b touches the part: the hull of the two boxes grown by
  // the rotation sagitta. A turning step's hull covers more than the sweep (sweep_overestimate);
  // a hull hit stands once that excess is within continuous.max_overestimate, otherwise it is
  // confirmed on the two halves of the step. Only pieces whose hull is hit are split further, so
  // a near miss costs a few extra tests, not a dense resampling.
  bool sweep_hits_stationary(const Part& part, const EgoPose& a, const EgoPose& b, GjkCache* cache,
                             int* iterations) {
    split_budget_ = kSweepSplitBudget;
    return step_hits_stationary(part, a, b, cache, iterations);
  }

  bool step_hits_stationary(const Part& part, const EgoPose& a, const EgoPose& b, GjkCache* cache,
                            int* iterations) {
    const double turn = heading_change(a.pose.heading, b.pose.heading);
    const detail::HullView<detail::ObbView> hull(view(a), view(b),
                                                 rotation_inflation(shape_.rear_radius, turn));
    const detail::MinkowskiDifference diff(hull, detail::PolygonView(*part.polygon, origin_));
    if (!detail::intersects(diff, tolerance_, config_.narrow_phase.max_gjk_iterations, cache,
                            iterations)) {
      return false;
    }
    if (!split(sweep_overestimate(shape_.rear_radius, turn))) return true;
    const EgoPose m = ego_between(a, b, 0.5);
    return step_hits_stationary(part, a, m, nullptr, iterations) ||
           step_hits_stationary(part, m, b, nullptr, iterations);
  }

  // Whether a hull hit that over-covers by `overestimate` is to be confirmed on halves (and the
  // budget allows it).
  bool split(double overestimate) {
    if (overestimate <= config_.continuous.max_overestimate || split_budget_ == 0) return false;
    --split_budget_;
    return true;
  }

  // The ego a fraction s in [0, 1] of the way from a to b (by pose, not by time: see BodyAt).
  EgoPose ego_between(const EgoPose& a, const EgoPose& b, double s) const {
    if (s == 0) return a;
    if (s == 1) return b;
    return make_ego(interpolate(a.pose, b.pose, s), a.t + s * (b.t - a.t));
  }

  // ---- moving parts ----

  // hint: a search hint into the body's prediction (see predicted_pose), or null.
  std::optional<BodyAt> body_at(const Part& part, double t, std::size_t* hint) const {
    const std::optional<Pose2> pose = detail::predicted_pose(
        part.obstacle->prediction(), t, config_.obstacles.outside_prediction, hint);
    if (!pose) return std::nullopt;
    return BodyAt{t, *pose};
  }

  // Turns the body's polygon into place: only for pairs that reach GJK.
  detail::PlacedPolygonView body_view(const Part& part, const BodyAt& body) const {
    return detail::PlacedPolygonView(*part.polygon, Vec2(body.pose.x, body.pose.y),
                                     detail::heading_axis(body.pose.heading), origin_);
  }

  // Splits [ta, tb] at every predicted time inside it: within each piece both the ego and the
  // body move linearly. With `ignore`, a piece with one end outside the prediction shrinks to the
  // instant at its other end (the body exists there only at that predicted time), and a piece
  // with both ends outside is dropped. Each end gets its fraction of the step: 0 at ta, 1 at tb.
  void body_pieces(const Part& part, double ta, double tb, std::optional<BodyAt> at_ta,
                   std::optional<BodyAt> at_tb, std::size_t* hint) {
    pieces_.clear();
    if (at_ta) at_ta->s = 0;
    if (at_tb) at_tb->s = 1;
    std::optional<BodyAt> previous = std::move(at_ta);
    auto close_piece = [&](std::optional<BodyAt> next) {
      if (previous && next) {
        pieces_.emplace_back(*previous, *next);
      } else if (previous || next) {
        const BodyAt& only = previous ? *previous : *next;
        pieces_.emplace_back(only, only);
      }
      previous = next;
    };
    // Predictions are sorted by time: the predicted times inside (ta, tb) from the search hint,
    // not a pass over the whole prediction per pair.
    const std::vector<PredictedPose>& prediction = part.obstacle->prediction();
    std::size_t hint_copy = hint != nullptr ? *hint : prediction.size() + 1;
    for (std::size_t k = detail::first_predicted_after(prediction, ta, &hint_copy);
         k < prediction.size() && prediction[k].t < tb; ++k) {
      close_piece(BodyAt{prediction[k].t, prediction[k].pose, (prediction[k].t - ta) / (tb - ta)});
    }
    close_piece(std::move(at_tb));
  }

  static double body_rotation_inflation(const Part& part, const BodyAt& a, const BodyAt& b) {
    return rotation_inflation(part.circle_radius, turn_between(a.pose.heading, b.pose.heading));
  }

  // Whether the body's prediction has a time strictly inside (ta, tb), which splits a step.
  static bool time_inside(const Part& part, double ta, double tb, std::size_t hint) {
    const std::vector<PredictedPose>& prediction = part.obstacle->prediction();
    const std::size_t k = detail::first_predicted_after(prediction, ta, &hint);
    return k < prediction.size() && prediction[k].t < tb;
  }

  // The bounding-circle test of a step in one piece (the body present at both ends, no
  // predicted time inside), the common case along a trajectory: the same numbers as the
  // general path of test_moving computes for one piece, without building the pieces. True when
  // neither the sweep nor the clearance measurement can reach the body.
  bool one_piece_rejected(const Part& part, std::size_t i, const BodyAt& before, const BodyAt& now,
                          double pose_gap, double clearance_threshold) const {
    const EgoPose& prev = ego_[i - 1];
    const EgoPose& ego = ego_[i];
    const Vec2 pa(before.pose.x, before.pose.y), pb(now.pose.x, now.pose.y);
    const double body_inflation =
        rotation_inflation(part.circle_radius, turn_between(before.pose.heading, now.pose.heading));
    const Vec2 ra = ego_center_at(prev, ego, 0.0) - pa;
    const Vec2 rb = ego_center_at(prev, ego, 1.0) - pb;
    const double collision_gap = distance_to_segment(Vec2::Zero(), ra, rb) - shape_.box_radius -
                                 ego.center_inflation - ego.sweep_inflation - part.circle_radius -
                                 body_inflation;
    const bool measure = clearance_threshold > 0 && pose_gap <= clearance_threshold;
    return collision_gap > tolerance_ && !measure;
  }

  PairOutcome test_moving(const Part& part, std::size_t i, Caches& caches,
                          double clearance_threshold, CheckStats& stats) {
    const EgoPose& ego = ego_[i];
    const bool sweep = sweeps_into(i);
    std::optional<BodyAt> before;
    if (sweep && caches.body.t == ego_[i - 1].t) {
      if (caches.body_present) before = caches.body;
    } else if (sweep) {
      before = body_at(part, ego_[i - 1].t, &caches.prediction_hint);
    }
    const std::optional<BodyAt> now = body_at(part, ego.t, &caches.prediction_hint);
    caches.body = now.value_or(BodyAt{ego.t, Pose2{}});
    caches.body.t = ego.t;
    caches.body_present = now.has_value();
    const double radius = part.circle_radius;
    double pose_gap = kInfinity;
    if (now)
      pose_gap = (ego.center - Vec2(now->pose.x, now->pose.y)).norm() - shape_.box_radius - radius;

    if (sweep && before && now && config_.broad_phase.bounding_circles &&
        !time_inside(part, ego_[i - 1].t, ego.t, caches.prediction_hint) &&
        one_piece_rejected(part, i, *before, *now, pose_gap, clearance_threshold)) {
      ++stats.rejected_by_circle;
      return {};
    }

    double collision_gap = pose_gap;
    Aabb body_box;
    if (now) body_box = disc_box(Vec2(now->pose.x, now->pose.y), radius);
    Aabb collision_box = ego.aabb;
    if (sweep) {
      const EgoPose& prev = ego_[i - 1];
      body_pieces(part, prev.t, ego.t, before, now, &caches.prediction_hint);
      collision_gap = kInfinity;
      body_box = Aabb();
      const double ego_inflation = ego.sweep_inflation;
      const double center_inflation = ego.center_inflation;
      for (const auto& [qa, qb] : pieces_) {
        const Vec2 pa(qa.pose.x, qa.pose.y), pb(qb.pose.x, qb.pose.y);
        const double body_inflation = body_rotation_inflation(part, qa, qb);
        // Relative motion of the box centre (on its chord; the arc is within center_inflation)
        // about the body's pivot: linear within the piece. The exact test grows the piece's hull
        // by at most ego_inflation + body_inflation.
        const Vec2 ra = ego_center_at(prev, ego, qa.s) - pa;
        const Vec2 rb = ego_center_at(prev, ego, qb.s) - pb;
        collision_gap =
            std::min(collision_gap, distance_to_segment(Vec2::Zero(), ra, rb) - shape_.box_radius -
                                        center_inflation - ego_inflation - radius - body_inflation);
        body_box.extend(disc_box(pa, radius + body_inflation))
            .extend(disc_box(pb, radius + body_inflation));
      }
      // A piece's ego boxes lie in the step's hull grown by ego_inflation, and its own hull is
      // grown by at most ego_inflation again.
      collision_box = Aabb(prev.aabb).extend(ego.aabb).inflated(2 * ego_inflation);
    }
    if (!now && (!sweep || pieces_.empty())) {
      // Absent at this time (outside its prediction, ignored): the first stage switched on
      // rejects it (it has no bounds now); with every stage off the fine stage finds it absent.
      ++(config_.broad_phase.bounding_circles ? stats.rejected_by_circle
         : config_.broad_phase.aabbs          ? stats.rejected_by_aabb
                                              : stats.sent_to_gjk);
      return {};
    }
    bool check_collision = !config_.broad_phase.bounding_circles || collision_gap <= tolerance_;
    bool measure = now && clearance_threshold > 0 &&
                   (!config_.broad_phase.bounding_circles || pose_gap <= clearance_threshold);
    if (!config_.broad_phase.bounding_circles)
      check_collision = sweep ? !body_box.is_empty() : now.has_value();
    if (!check_collision && !measure) {
      ++stats.rejected_by_circle;
      return {};
    }
    if (config_.broad_phase.aabbs) {
      const Aabb now_box = now ? disc_box(Vec2(now->pose.x, now->pose.y), radius) : Aabb();
      check_collision = check_collision && collision_box.squared_exterior_distance(body_box) <=
                                               tolerance_ * tolerance_;
      measure = measure && ego.aabb.exterior_distance(now_box) <= clearance_threshold;
      if (!check_collision && !measure) {
        ++stats.rejected_by_aabb;
        return {};
      }
    }
    ++stats.sent_to_gjk;
    int iterations = 0;
    PairOutcome outcome;
    if (measure) {
      const detail::MinkowskiDifference diff(view(ego), body_view(part, *now));
      const detail::Clearance d = detail::clearance(
          diff, tolerance_, config_.narrow_phase.max_gjk_iterations, pose_cache(caches));
      iterations += d.iterations;
      outcome.hit = d.hit;
      outcome.distance = d.distance;
    }
    if (!outcome.hit && check_collision && (sweep || !measure)) {
      if (sweep) {
        outcome.hit = sweep_hits_moving(part, ego_[i - 1], ego, sweep_cache(caches), &iterations);
      } else {
        const detail::MinkowskiDifference diff(view(ego), body_view(part, *now));
        outcome.hit = detail::intersects(diff, tolerance_, config_.narrow_phase.max_gjk_iterations,
                                         pose_cache(caches), &iterations);
      }
    }
    stats.gjk_iterations += static_cast<std::uint64_t>(iterations);
    return outcome;
  }

  // Where the ego box centre would be a fraction s of the way from a to b, on the chord (rotation
  // excluded: the callers add the centre's sagitta).
  static Vec2 ego_center_at(const EgoPose& a, const EgoPose& b, double s) {
    return a.center + s * (b.center - a.center);
  }

  // The relative sweep of the ego from a to b against the body, piece by piece (pieces_ must
  // hold the body's pieces over [a.t, b.t]).
  bool sweep_hits_moving(const Part& part, const EgoPose& a, const EgoPose& b, GjkCache* cache,
                         int* iterations) {
    split_budget_ = kSweepSplitBudget;
    for (const auto& [qa, qb] : pieces_) {
      // A cache only fits the same piece structure; use it when the step is one piece.
      if (piece_hits(part, a, b, qa, qb, pieces_.size() == 1 ? cache : nullptr, iterations)) {
        return true;
      }
    }
    return false;
  }

  // One piece [qa.t, qb.t] of the step from a to b, in which both motions are linear; split
  // like a stationary sweep while its hull over-covers by more than max_overestimate.
  bool piece_hits(const Part& part, const EgoPose& a, const EgoPose& b, const BodyAt& qa,
                  const BodyAt& qb, GjkCache* cache, int* iterations) {
    const EgoPose ea = ego_between(a, b, qa.s);
    const EgoPose eb = ego_between(a, b, qb.s);
    const double ego_turn = heading_change(ea.pose.heading, eb.pose.heading);
    const double body_turn = turn_between(qa.pose.heading, qb.pose.heading);
    const double inflation = rotation_inflation(shape_.rear_radius, ego_turn) +
                             rotation_inflation(part.circle_radius, body_turn);
    const detail::RelativeSweepDifference diff(view(ea), body_view(part, qa), view(eb),
                                               body_view(part, qb), inflation);
    if (!detail::intersects(diff, tolerance_, config_.narrow_phase.max_gjk_iterations, cache,
                            iterations)) {
      return false;
    }
    const double overestimate = sweep_overestimate(shape_.rear_radius, ego_turn) +
                                sweep_overestimate(part.circle_radius, body_turn);
    if (qa.s == qb.s || !split(overestimate)) return true;
    const BodyAt qm = body_halfway(qa, qb);
    return piece_hits(part, a, b, qa, qm, nullptr, iterations) ||
           piece_hits(part, a, b, qm, qb, nullptr, iterations);
  }

  // The body halfway through the piece from qa to qb, on its linear motion within it.
  static BodyAt body_halfway(const BodyAt& qa, const BodyAt& qb) {
    return BodyAt{0.5 * (qa.t + qb.t), interpolate(qa.pose, qb.pose, 0.5), 0.5 * (qa.s + qb.s)};
  }

  // ---- contact time ----

  // t(i), or for a sweep hit the earliest time in [t(i-1), t(i)] at which the sweep from pose
  // i-1 already hits (bisection; conservative: never later than the true contact).
  double contact_time(const Part& part, std::size_t i) {
    if (!sweeps_into(i)) return ego_[i].t;
    const EgoPose& a = ego_[i - 1];
    const EgoPose& b = ego_[i];
    double lo = 0, hi = 1;
    for (int step = 0; step < kContactTimeBisections; ++step) {
      const double mid = 0.5 * (lo + hi);
      const double t_mid = a.t + mid * (b.t - a.t);
      const EgoPose m = make_ego(interpolate(a.pose, b.pose, mid), t_mid);
      int iterations = 0;
      bool hit;
      if (part.moving) {
        body_pieces(part, a.t, t_mid, body_at(part, a.t, nullptr), body_at(part, t_mid, nullptr),
                    nullptr);
        hit = sweep_hits_moving(part, a, m, nullptr, &iterations);
      } else {
        hit = sweep_hits_stationary(part, a, m, nullptr, &iterations);
      }
      (hit ? hi : lo) = mid;
    }
    return std::min(a.t + hi * (b.t - a.t), b.t);  // round-off must not pass t(i)
  }

  GjkCache* pose_cache(Caches& c) const {
    return config_.narrow_phase.warm_start ? &c.pose : nullptr;
  }
  GjkCache* sweep_cache(Caches& c) const {
    return config_.narrow_phase.warm_start ? &c.sweep : nullptr;
  }

  const CheckerConfig& config_;
  const detail::Scene& scene_;
  const Trajectory& trajectory_;
  Vec2 origin_;  // local origin of every GJK query of this trajectory
  double tolerance_;
  double horizon_;
  bool continuous_;
  const detail::EgoShape& shape_;  // the footprint's dimensions, derived once per scene
  int split_budget_ = 0;           // halvings left for the current sweep test
  std::vector<EgoPose>& ego_;      // the poses made so far
  std::vector<int>& candidates_;
  std::vector<CandidateBound>& bounds_;             // parallel to candidates_
  std::vector<int>& survivors_;                     // slots of candidates_ kept at this pose
  std::vector<Caches>& caches_;                     // parallel to candidates_
  const Caches& fresh_;                             // Scratch::fresh
  std::vector<std::pair<BodyAt, BodyAt>>& pieces_;  // of the moving body over the current step
  std::vector<const Part*>& hits_;                  // parts hit at the current index
};

}  // namespace

CheckStats& CheckStats::operator+=(const CheckStats& o) {
  pairs_seen += o.pairs_seen;
  rejected_by_index += o.rejected_by_index;
  rejected_by_circle += o.rejected_by_circle;
  rejected_by_aabb += o.rejected_by_aabb;
  sent_to_gjk += o.sent_to_gjk;
  gjk_iterations += o.gjk_iterations;
  return *this;
}

CollisionChecker::CollisionChecker(CheckerConfig config) : config_(std::move(config)) {
  validate(config_);
  scene_ = detail::build_scene({}, config_);
}

CollisionChecker::~CollisionChecker() = default;
CollisionChecker::CollisionChecker(CollisionChecker&&) noexcept = default;
CollisionChecker& CollisionChecker::operator=(CollisionChecker&&) noexcept = default;

const CheckerConfig& CollisionChecker::config() const { return config_; }

void CollisionChecker::set_obstacles(std::vector<Obstacle> obstacles) {
  scene_ = detail::build_scene(std::move(obstacles), config_);
}

TrajectoryResult CollisionChecker::check(const Trajectory& trajectory) const {
  validate_trajectory(trajectory);
  return check_valid(trajectory);
}

TrajectoryResult CollisionChecker::check_valid(const Trajectory& trajectory) const {
  if (scene_->parts.empty()) {
    TrajectoryResult empty;
    empty.min_clearance = kInfinity;
    return empty;
  }
  thread_local Scratch scratch;
  return TrajectoryScan(config_, *scene_, trajectory, scratch).run();
}

std::vector<TrajectoryResult> CollisionChecker::check_all(
    const std::vector<Trajectory>& trajectories) const {
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    try {
      validate_trajectory(trajectories[i]);
    } catch (const TrajectoryError& e) {
      throw TrajectoryError("trajectory " + std::to_string(i) + ": " + e.what());
    }
  }
  std::vector<TrajectoryResult> results(trajectories.size());
  std::size_t threads = config_.threads > 0 ? static_cast<std::size_t>(config_.threads)
                                            : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, trajectories.size());
  if (threads <= 1) {
    for (std::size_t i = 0; i < trajectories.size(); ++i) results[i] = check_valid(trajectories[i]);
    return results;
  }
  // Each worker takes the next unclaimed trajectory; results land at their own index, so the
  // output is the same whatever the interleaving.
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&]() {
    try {
      for (std::size_t i = next++; i < trajectories.size() && !failed; i = next++) {
        results[i] = check_valid(trajectories[i]);
      }
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace collision
