// Bidirectional exchange between two ranks (each Irecv + Isend + Waitall), as a halo exchange.
#include <mpi.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int other = 1 - r;
  for (long bytes : {8L << 10, 64L << 10, 256L << 10, 1L << 20, 4L << 20}) {
    std::vector<char> s(bytes, 1), d(bytes, 0);
    const int reps = bytes >= (1 << 20) ? 100 : 400;
    std::vector<double> t(reps);
    for (int k = 0; k < reps + 20; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      auto a = std::chrono::steady_clock::now();
      MPI_Request q[2];
      MPI_Irecv(d.data(), bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, &q[0]);
      MPI_Isend(s.data(), bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, &q[1]);
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count();
      if (k >= 20) t[k - 20] = us;
    }
    std::sort(t.begin(), t.end());
    // memcpy of the same size for reference
    auto a = std::chrono::steady_clock::now();
    for (int k = 0; k < 50; ++k) {
      std::memcpy(d.data(), s.data(), bytes);
      asm volatile("" ::: "memory");
    }
    double mc =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count() /
        50;
    if (r == 0)
      std::printf("%8ld B  median %8.1f us (%.2f GB/s)  min %8.1f  memcpy %.1f us\n", bytes,
                  t[reps / 2], bytes / t[reps / 2] / 1e3, t[0], mc);
  }
  MPI_Finalize();
}
