// Included by header_error.cu: the error is reported in this file.
__device__ int broken() { return undefined_in_header; }
