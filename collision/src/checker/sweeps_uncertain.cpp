// The relative sweep against a moving body grown by its uncertainty ellipse (see sweeps.hpp),
// apart from sweeps.cpp (docs/architecture.md: why some variants compile apart).
#include "checker/sweep_pieces.hpp"
#include "checker/sweeps.hpp"

namespace collision::detail {

template <class Ego>
bool uncertain_sweep_hits_moving(const FineContext& context, const Part& part, const EgoPose& a,
                                 const EgoPose& b, const BodyPiece* pieces, std::size_t piece_count,
                                 int* iterations) {
  return pieces_hit<Ego, UncertainBody>(context, part, a, b, pieces, piece_count, nullptr,
                                        iterations);
}

template bool uncertain_sweep_hits_moving<BoxEgo>(const FineContext&, const Part&, const EgoPose&,
                                                  const EgoPose&, const BodyPiece*, std::size_t,
                                                  int*);
template bool uncertain_sweep_hits_moving<PolygonEgo>(const FineContext&, const Part&,
                                                      const EgoPose&, const EgoPose&,
                                                      const BodyPiece*, std::size_t, int*);

}  // namespace collision::detail
