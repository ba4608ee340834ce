This file is prose, not CUDA: neither compiler can accept it, and
that is agreement, not a discrepancy.
