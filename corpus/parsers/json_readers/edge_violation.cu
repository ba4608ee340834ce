}

// ---- cudiff edge: a planted violation of R-CONSTVAR-NO-REF (the program must be rejected) ----
const int cudiff_edge_cref = 10;
__device__ int cudiff_edge_cref_read() {
  const int &cudiff_edge_r = cudiff_edge_cref; // expected-error: R-CONSTVAR-NO-REF
  return cudiff_edge_r;
}
