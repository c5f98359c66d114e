# The library's sources, by layer (docs/architecture.md). Listed, not globbed: a new file is a
# decision about its layer, and the fuzz build (fuzz/CMakeLists.txt) compiles the same list.
set(COLLISION_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR}/src)
set(COLLISION_SOURCES
  ${COLLISION_SOURCE_DIR}/common/number_text.cpp
  ${COLLISION_SOURCE_DIR}/geometry/circle.cpp
  ${COLLISION_SOURCE_DIR}/geometry/convex_polygon.cpp
  ${COLLISION_SOURCE_DIR}/geometry/ellipse.cpp
  ${COLLISION_SOURCE_DIR}/geometry/obb.cpp
  ${COLLISION_SOURCE_DIR}/geometry/polygon_decomposition.cpp
  ${COLLISION_SOURCE_DIR}/geometry/pose.cpp
  ${COLLISION_SOURCE_DIR}/geometry/swept_hull.cpp
  ${COLLISION_SOURCE_DIR}/narrow_phase/queries.cpp
  ${COLLISION_SOURCE_DIR}/narrow_phase/queries_ellipse_pairs.cpp
  ${COLLISION_SOURCE_DIR}/narrow_phase/sat.cpp
  ${COLLISION_SOURCE_DIR}/world/obstacle.cpp
  ${COLLISION_SOURCE_DIR}/world/obstacle_class.cpp
  ${COLLISION_SOURCE_DIR}/world/plausibility.cpp
  ${COLLISION_SOURCE_DIR}/world/trajectory.cpp
  ${COLLISION_SOURCE_DIR}/world/vehicle.cpp
  ${COLLISION_SOURCE_DIR}/simd/footprint_batch.cpp
  ${COLLISION_SOURCE_DIR}/simd/vector_targets.cpp
  ${COLLISION_SOURCE_DIR}/broad_phase/box_grid.cpp
  ${COLLISION_SOURCE_DIR}/broad_phase/scene.cpp
  ${COLLISION_SOURCE_DIR}/broad_phase/spatial_index.cpp
  ${COLLISION_SOURCE_DIR}/config/config.cpp
  ${COLLISION_SOURCE_DIR}/checker/body_track.cpp
  ${COLLISION_SOURCE_DIR}/checker/face_witness.cpp
  ${COLLISION_SOURCE_DIR}/checker/fine_stage.cpp
  ${COLLISION_SOURCE_DIR}/checker/fine_stage_uncertain.cpp
  ${COLLISION_SOURCE_DIR}/checker/sweeps.cpp
  ${COLLISION_SOURCE_DIR}/checker/sweeps_uncertain.cpp
  ${COLLISION_SOURCE_DIR}/checker/trajectory_scan_box_ego.cpp
  ${COLLISION_SOURCE_DIR}/checker/trajectory_scan_polygon_ego.cpp
  ${COLLISION_SOURCE_DIR}/checker/clearance_scan.cpp
  ${COLLISION_SOURCE_DIR}/checker/collision_checker.cpp
  ${COLLISION_SOURCE_DIR}/checker/worker_pool.cpp
)
