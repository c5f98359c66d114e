#include "broad_phase/spatial_index.hpp"

#include <algorithm>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>
#include <cmath>
#include <iterator>
#include <utility>
#include <variant>

#include "collision/tolerances.hpp"

namespace collision::detail {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

using Point2 = bg::model::point<double, 2, bg::cs::cartesian>;
using Box2 = bg::model::box<Point2>;

namespace {

Box2 to_box(const Aabb& b) {
  return Box2(Point2(b.min().x(), b.min().y()), Point2(b.max().x(), b.max().y()));
}

// At most this many time buckets, and bucket entries at most this many times the boxes (plus a
// few): where predictions span far more than the bucket length (times far apart, boxes held for
// ever), the buckets are made longer rather than each box copied into thousands of them.
constexpr double kMaxBuckets = 4096;
constexpr std::size_t kMaxCopiesPerBox = 4;

}  // namespace

// The trees, with the node capacity fixed at compile time (Params = bgi::rstar<N>: nodes of
// fixed size, which Boost lays out and walks faster) or read from the config (bgi::dynamic_rstar).
//
// Moving bodies' space-time boxes are kept in buckets of time, a plane tree per bucket: a box
// is in every bucket its time range meets, and a query reads the buckets its own range meets,
// keeping the boxes whose time range meets it too. That is the same set as one tree in (x, y,
// t) gives, at a fraction of the cost: a query spans a few tenths of a second, so it reads one
// or two buckets of a few dozen boxes, where a 3-D tree's walk tests boxes of every time.
// Bucket 0 holds all times before the first finite bound, the last bucket all after the last.
template <class Params>
struct IndexTrees {
  using Tree = bgi::rtree<std::pair<Box2, int>, Params>;  // int: an item id, or a slice index
  Tree stationary;
  std::vector<Tree> buckets;
  // The moving boxes with their ids (SpatialIndex's, which outlives the trees): a bucket's
  // entries are indexes into it.
  const std::vector<std::pair<SpaceTimeBox, int>>* slices = nullptr;
  double t0 = 0;             // s: where bucket 1 starts
  double bucket_length = 1;  // s
  std::size_t inner = 0;     // buckets between the two open ones

  IndexTrees(const std::vector<std::pair<Box2, int>>& s,
             const std::vector<std::pair<SpaceTimeBox, int>>& moving, double time_bucket,
             const Params& params)
      : stationary(s, params), slices(&moving) {
    if (moving.empty()) return;
    // The span of the finite time bounds (the index's "forever" lies beyond kMaxTime).
    double lo = kMaxTime, hi = -kMaxTime;
    for (const auto& [b, id] : moving) {
      for (const double t : {b.t_min, b.t_max}) {
        if (std::abs(t) <= kMaxTime) {
          lo = std::min(lo, t);
          hi = std::max(hi, t);
        }
      }
    }
    if (lo > hi) lo = hi = 0;
    t0 = lo;
    bucket_length = std::max(time_bucket, (hi - lo) / kMaxBuckets);
    for (;;) {
      inner = static_cast<std::size_t>(std::ceil((hi - lo) / bucket_length)) + 1;
      std::size_t copies = 0;
      for (const auto& [b, id] : moving) copies += bucket_of(b.t_max) - bucket_of(b.t_min) + 1;
      if (inner == 1 || copies <= kMaxCopiesPerBox * moving.size() + 64) break;
      bucket_length *= 2;
    }
    std::vector<std::vector<std::pair<Box2, int>>> entries(inner + 2);
    for (std::size_t slice = 0; slice < moving.size(); ++slice) {
      const SpaceTimeBox& b = moving[slice].first;
      for (std::size_t k = bucket_of(b.t_min); k <= bucket_of(b.t_max); ++k) {
        entries[k].emplace_back(to_box(b.box), static_cast<int>(slice));
      }
    }
    buckets.reserve(entries.size());
    for (const auto& e : entries) buckets.emplace_back(e, params);
  }

  // Monotone in t, so that a box and a query meeting at a time share that time's bucket.
  std::size_t bucket_of(double t) const {
    if (!(t >= t0)) return 0;  // NaN cannot reach here: times are validated
    const double k = std::floor((t - t0) / bucket_length);
    return k >= static_cast<double>(inner) ? inner + 1 : 1 + static_cast<std::size_t>(k);
  }

  template <class Out>
  void query_stationary(const Box2& plane, Out append_id) const {
    stationary.query(bgi::intersects(plane), append_id);
  }

  template <class Out>
  void query_moving(const Box2& plane, double t_min, double t_max, Out append_id) const {
    if (buckets.empty()) return;
    auto in_time = boost::make_function_output_iterator([&](const std::pair<Box2, int>& value) {
      const auto& [b, id] = (*slices)[static_cast<std::size_t>(value.second)];
      if (b.t_min <= t_max && b.t_max >= t_min)
        *append_id++ = std::pair<Box2, int>(value.first, id);
    });
    const std::size_t last = bucket_of(t_max);
    for (std::size_t k = bucket_of(t_min); k <= last; ++k) {
      if (!buckets[k].empty()) buckets[k].query(bgi::intersects(plane), in_time);
    }
  }
};

namespace {

// The default capacity gets the compile-time trees; any other the run-time ones.
constexpr int kStaticNodeEntries = 16;
using StaticTrees = IndexTrees<bgi::rstar<kStaticNodeEntries>>;
using DynamicTrees = IndexTrees<bgi::dynamic_rstar>;

}  // namespace

struct SpatialIndex::Trees {
  std::variant<StaticTrees, DynamicTrees> trees;
};

SpatialIndex::SpatialIndex(const std::vector<std::pair<Aabb, int>>& stationary,
                           const std::vector<std::pair<SpaceTimeBox, int>>& moving,
                           int max_node_entries, double time_bucket)
    : grid_(BoxGrid::make(stationary)), moving_(moving) {
  std::stable_sort(moving_.begin(), moving_.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });
  // The stationary items go into the tree only where the grid declined them.
  std::vector<std::pair<Box2, int>> s;
  if (!grid_) {
    s.reserve(stationary.size());
    for (const auto& [box, id] : stationary) s.emplace_back(to_box(box), id);
  }
  // The range constructors bulk-load (packing), which gives better trees than inserting one by
  // one.
  if (max_node_entries == kStaticNodeEntries) {
    trees_ = std::make_unique<Trees>(Trees{std::variant<StaticTrees, DynamicTrees>(
        std::in_place_index<0>, s, moving_, time_bucket, bgi::rstar<kStaticNodeEntries>())});
  } else {
    trees_ = std::make_unique<Trees>(Trees{std::variant<StaticTrees, DynamicTrees>(
        std::in_place_index<1>, s, moving_, time_bucket,
        bgi::dynamic_rstar(static_cast<std::size_t>(max_node_entries)))});
  }
}

SpatialIndex::~SpatialIndex() = default;

namespace {

// Calls query(trees, append_id) on whichever trees the index holds, with an output iterator that
// appends the ids: query() with an output iterator walks a tree directly, where the qbegin()
// iterators are type-erased and keep their traversal stack on the heap, an allocation per query.
template <class Trees, class Query>
void with_trees(const Trees& trees, std::vector<int>& ids, const Query& query) {
  auto append_id = boost::make_function_output_iterator(
      [&ids](const std::pair<Box2, int>& value) { ids.push_back(value.second); });
  if (const StaticTrees* t = std::get_if<StaticTrees>(&trees)) {
    query(*t, append_id);
  } else {
    query(std::get<DynamicTrees>(trees), append_id);
  }
}

}  // namespace

void SpatialIndex::query(const Aabb& box, double t_min, double t_max, std::vector<int>& ids) const {
  query_stationary(box, ids);
  if (!moving_.empty()) query_moving(box, t_min, t_max, ids);
}

void SpatialIndex::query_stationary(const Aabb& box, std::vector<int>& ids) const {
  if (grid_) {
    grid_->query(box, [&ids](int id) { ids.push_back(id); });
    return;
  }
  with_trees(trees_->trees, ids, [&](const auto& trees, auto append_id) {
    trees.query_stationary(to_box(box), append_id);
  });
}

void SpatialIndex::query_moving(const Aabb& box, double t_min, double t_max,
                                std::vector<int>& ids) const {
  with_trees(trees_->trees, ids, [&](const auto& trees, auto append_id) {
    trees.query_moving(to_box(box), t_min, t_max, append_id);
  });
}

void SpatialIndex::moving_boxes(int id, double t_min, double t_max,
                                std::vector<Aabb>& boxes) const {
  auto it = std::lower_bound(moving_.begin(), moving_.end(), id,
                             [](const auto& entry, int value) { return entry.second < value; });
  for (; it != moving_.end() && it->second == id; ++it) {
    if (it->first.t_min <= t_max && it->first.t_max >= t_min) boxes.push_back(it->first.box);
  }
}

}  // namespace collision::detail
