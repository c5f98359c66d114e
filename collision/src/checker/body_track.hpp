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

#include <atomic>
#include <cstddef>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "broad_phase/circle_prefilter.hpp"
#include "broad_phase/scene.hpp"
#include "broad_phase/spatial_index.hpp"
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

// The box of a body over steps[0 .. count), the union of their motion boxes: by which a scan
// keeps a moving body as a candidate for those poses, on every path (so the same bits on each).
inline Aabb motion_reach(const BodyStep* steps, std::size_t count) {
  Aabb reach;
  for (std::size_t i = 0; i < count; ++i) reach.extend(steps[i].motion_box);
  return reach;
}

// A once flag that a new batch can reset, which std::once_flag cannot: the tracks keep their
// flags, as the rest of their memory, from one batch call to the next. The first caller of
// call() runs `make`; a concurrent one waits until it has finished (yielding: a row or a chunk
// index takes microseconds). Should `make` throw, the flag is free again for the next caller,
// as std::call_once leaves it.
class ResettableOnce {
 public:
  bool done() const { return state_.load(std::memory_order_acquire) == kDone; }
  // Only while no thread calls call() (between batches).
  void reset() { state_.store(kFree, std::memory_order_relaxed); }
  template <class Make>
  void call(Make&& make) {
    while (!done()) {
      int expected = kFree;
      if (state_.compare_exchange_strong(expected, kRunning, std::memory_order_acquire)) {
        try {
          make();
        } catch (...) {
          state_.store(kFree, std::memory_order_release);
          throw;
        }
        state_.store(kDone, std::memory_order_release);
        return;
      }
      std::this_thread::yield();
    }
  }

 private:
  enum : int { kFree, kRunning, kDone };
  std::atomic<int> state_{kFree};
};

// The steps of every moving part along one time grid, computed once for all the trajectories
// of a batch call that share it. A part's steps over a chunk of broad_phase.poses_per_query
// poses are made by the first scan that asks for them (on any thread; a concurrent one waits):
// most bodies of a scene come near no candidate, or near them for a few chunks only, and the
// rest is never made.
//
// Over each chunk the tracks can also index the moving bodies near the batch by their boxes
// over the chunk's steps: where the scene's index holds a moving body by a whole time slice of
// its prediction (a car's second of travel), this one holds it by the chunk's few tenths of a
// second, once for all the candidates, and gives each scan exactly the bodies the scene's
// index followed by drop_moving_beyond would (chunk_candidates.hpp).
//
// One object serves batch after batch (start()), keeping every buffer it has grown: a planner's
// batches are alike from cycle to cycle, so after the first few a batch call allocates nothing
// here.
class BodyTracks {
 public:
  BodyTracks() = default;
  BodyTracks(const BodyTracks&) = delete;
  BodyTracks& operator=(const BodyTracks&) = delete;

  // Starts the tracks of a new batch: the steps of the moving parts of `scene` at the times of
  // `longest` (strictly increasing, the batch's longest trajectory), for the trajectories of
  // `batch` whose times are a prefix of them. The scene and the batch must outlive the batch's
  // scans; no scan of an earlier batch may still read the tracks. The pass that reads the batch's
  // times and positions validates every trajectory first (validate_trajectory and
  // config.trajectory's limits, with its errors naming the trajectory's index), so that the
  // batch is read from memory once: the first invalid trajectory throws TrajectoryError.
  void start(const Scene& scene, const CheckerConfig& config, const Trajectory& longest,
             const std::vector<Trajectory>& batch);

  // Whether the times of the batch's trajectory k are this grid's first ones, bit for bit: only
  // then may its scan read the tracks.
  bool covers(std::size_t k) const { return on_grid_[k] != 0; }

  // The steps of part `part_index` (a moving part) at poses [begin, end), which lie in one chunk
  // of the grid: the result's [i - begin] is pose i's. pieces: working memory.
  const BodyStep* row(std::size_t part_index, std::size_t begin, std::size_t end,
                      std::vector<BodyPiece>& pieces) const;

  // Appends to `ids` the moving parts that a scan's query box `box` for poses [begin, end) gets
  // from the scene's index and keeps by their steps there (drop_moving_beyond in
  // chunk_candidates.hpp), the same set, from an index of the chunk made by the first scan
  // that asks. False, with nothing appended, when [begin, end) is not a whole chunk of the grid
  // (a shorter trajectory's last, the mode follower's first) or the tracks make no chunk indexes.
  // pieces: working memory.
  bool moving_near(std::size_t begin, std::size_t end, const Aabb& box, std::vector<int>& ids,
                   std::vector<BodyPiece>& pieces) const;

 private:
  const Scene* scene_ = nullptr;
  bool sweep_ = false;
  OutsidePrediction outside_{};
  std::vector<double> times_;
  std::size_t chunk_ = 1;                 // poses per chunk
  std::size_t chunks_ = 0;                // chunks in the grid
  std::vector<std::size_t> row_of_part_;  // per part; meaningful for moving parts only
  // Per moving part and chunk (row * chunks_ + chunk), its steps once made (under its flag),
  // pointing into one of blocks_: only the chunks that scans ask for take a block.
  mutable std::vector<const BodyStep*> steps_;
  std::unique_ptr<ResettableOnce[]> made_;
  std::size_t made_capacity_ = 0;
  void make_row(std::size_t part_index, std::size_t k, std::size_t chunk,
                std::vector<BodyPiece>& pieces) const;
  // Blocks of block_size_ steps (at least a chunk), kept across batches; the first blocks_used_
  // hold this batch's rows. Taken under the mutex, by whichever thread makes a row.
  mutable std::mutex blocks_mutex_;
  mutable std::vector<std::unique_ptr<BodyStep[]>> blocks_;
  mutable std::size_t blocks_used_ = 0;
  std::size_t block_size_ = 0;
  // The moving bodies near the batch over one chunk: their steps' boxes over the chunk (the
  // union of the motion boxes), by entry, sorted by their upper x bound, so that a query reads
  // only the entries whose boxes reach its lower x bound; and per entry its part and the boxes by
  // which the scene's index holds it over the chunk's times (entry k's are
  // slice_boxes[first_slice[k] .. first_slice[k + 1])). A chunk holds a few dozen bodies at most
  // (those near the batch), for which a sorted array is as quick as a tree and needs no nodes.
  struct Reach {
    Aabb box;
    int entry;
  };
  struct ChunkIndex {
    std::vector<Reach> reach;
    std::vector<int> part;
    std::vector<std::size_t> first_slice;
    std::vector<Aabb> slice_boxes;
    std::vector<int> near;  // working memory: the scene's moving parts near the batch
    void clear();
  };
  void make_chunk_index(std::size_t begin, std::size_t end, ChunkIndex& index,
                        std::vector<BodyPiece>& pieces) const;

  std::vector<char> on_grid_;  // per trajectory of the batch: covers()
  // For chunk indexes: per chunk the box of the rear axles of the batch's trajectories on the
  // grid there (and at the pose before it, for a sweep), how far (m) a scan's query box reaches
  // from them, and per chunk its index, written once (under its flag). chunk_indexes_ keeps
  // chunks beyond chunks_ from longer batches before, unused.
  bool index_chunks_ = false;
  std::vector<Aabb> near_;
  std::vector<Aabb> boxes_;  // working memory of start(): one trajectory's axles per chunk
  double reach_ = 0;
  mutable std::vector<ChunkIndex> chunk_indexes_;
  std::unique_ptr<ResettableOnce[]> chunk_made_;
  std::size_t chunk_made_capacity_ = 0;
};

// Appends to `ids`, unsorted and possibly repeated, the parts that a scan's query box `box` for
// poses [begin, end) meets: the moving bodies from the tracks' index of the chunk where there is
// one (then true), else from the scene's index, which holds them by time slices over [t_first,
// t_last] (the poses' times); the stationary parts; and the scene's discs that `disc_box` meets
// (the query box without the clearance threshold: the disc tree measures their clearance).
// tracks: null for a single check. pieces: working memory.
inline bool parts_near(const Scene& scene, const BodyTracks* tracks, std::size_t begin,
                       std::size_t end, const Aabb& box, const Aabb& disc_box, double t_first,
                       double t_last, std::vector<int>& ids, std::vector<BodyPiece>& pieces) {
  if (scene.discs) scene.discs->query(disc_box, ids);
  if (tracks != nullptr && tracks->moving_near(begin, end, box, ids, pieces)) {
    scene.index->query_stationary(box, ids);
    return true;
  }
  scene.index->query(box, t_first, t_last, ids);
  return false;
}

}  // namespace collision::detail
