// variants_dense: the compute-dense family's part of the variant pass. The default does
// nothing; the dense family (generator/dense*.cpp) replaces this file with its transforms.
#include "generator/variants_parts.h"

namespace cudiff::generator {

void derive_dense_variant(Program& /*program*/, Rng& /*rng*/, std::vector<std::string>& /*applied*/) {}

} // namespace cudiff::generator
