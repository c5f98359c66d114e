#include "broad_phase/spatial_index.hpp"

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>
#include <iterator>

namespace collision::detail {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;

using Point2 = bg::model::point<double, 2, bg::cs::cartesian>;
using Box2 = bg::model::box<Point2>;
using Point3 = bg::model::point<double, 3, bg::cs::cartesian>;
using Box3 = bg::model::box<Point3>;

struct SpatialIndex::Trees {
  bgi::rtree<std::pair<Box2, int>, bgi::dynamic_rstar> stationary;
  bgi::rtree<std::pair<Box3, int>, bgi::dynamic_rstar> moving;
  Trees(std::vector<std::pair<Box2, int>> s, std::vector<std::pair<Box3, int>> m, int entries)
      : stationary(s, bgi::dynamic_rstar(static_cast<std::size_t>(entries))),
        moving(m, bgi::dynamic_rstar(static_cast<std::size_t>(entries))) {}
};

namespace {

Box2 to_box(const Aabb& b) {
  return Box2(Point2(b.min().x(), b.min().y()), Point2(b.max().x(), b.max().y()));
}

Box3 to_box(const Aabb& b, double t_min, double t_max) {
  return Box3(Point3(b.min().x(), b.min().y(), t_min), Point3(b.max().x(), b.max().y(), t_max));
}

}  // namespace

SpatialIndex::SpatialIndex(const std::vector<std::pair<Aabb, int>>& stationary,
                           const std::vector<std::pair<SpaceTimeBox, int>>& moving,
                           int max_node_entries) {
  std::vector<std::pair<Box2, int>> s;
  s.reserve(stationary.size());
  for (const auto& [box, id] : stationary) s.emplace_back(to_box(box), id);
  std::vector<std::pair<Box3, int>> m;
  m.reserve(moving.size());
  for (const auto& [b, id] : moving) m.emplace_back(to_box(b.box, b.t_min, b.t_max), id);
  // The range constructor bulk-loads (packing), which gives better trees than inserting one by one.
  trees_ = std::make_unique<Trees>(std::move(s), std::move(m), max_node_entries);
}

SpatialIndex::~SpatialIndex() = default;

void SpatialIndex::query(const Aabb& box, double t_min, double t_max, std::vector<int>& ids) const {
  // query() with an output iterator walks the tree directly; the qbegin() iterators are
  // type-erased and keep their traversal stack on the heap, an allocation per query.
  auto append_id = boost::make_function_output_iterator(
      [&ids](const auto& value) { ids.push_back(value.second); });
  trees_->stationary.query(bgi::intersects(to_box(box)), append_id);
  if (trees_->moving.empty()) return;
  trees_->moving.query(bgi::intersects(to_box(box, t_min, t_max)), append_id);
}

}  // namespace collision::detail
