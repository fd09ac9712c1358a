// gl-compute operator kernels against their cpu twins (to be written: issue 4).
