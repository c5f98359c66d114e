// The relative sweep against a moving body grown by its uncertainty ellipse (see sweeps.hpp),
// apart from sweeps.cpp so that its instantiations leave the plain ones' inlining as it was.
#include "checker/sweep_pieces.hpp"
#include "checker/sweeps.hpp"

namespace collision::detail {

template <class Ego>
bool grown_sweep_hits_moving(const FineContext& context, const Part& part, const EgoPose& a,
                             const EgoPose& b, const BodyPiece* pieces, std::size_t piece_count,
                             int* iterations) {
  return pieces_hit<Ego, GrownBody>(context, part, a, b, pieces, piece_count, nullptr, iterations);
}

template bool grown_sweep_hits_moving<BoxEgo>(const FineContext&, const Part&, const EgoPose&,
                                              const EgoPose&, const BodyPiece*, std::size_t, int*);
template bool grown_sweep_hits_moving<PolygonEgo>(const FineContext&, const Part&, const EgoPose&,
                                                  const EgoPose&, const BodyPiece*, std::size_t,
                                                  int*);

}  // namespace collision::detail
