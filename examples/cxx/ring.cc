// ring: an ordinary MPI program in C++, built with ftsim's wrappers
// (Makefile: CXX = ftsimcxx) or its CMake package (CMakeLists.txt).
//
// Every round each rank sends a vector to its right neighbour and receives
// one from its left (MPI_Isend, MPI_Irecv, MPI_Waitall) and adds the
// received vector into its own; every 25 rounds rank 0 broadcasts a scale
// factor (MPI_Bcast), and at the end the ranks compare a checksum with
// MPI_Reduce and MPI_Allgather against the value computed in closed form.
// Rank 0 prints "ring: ... verified" (or "FAILED") and every rank reports
// the verdict to ftsim (ft_report_result); main returns 1 on a failure.
//
// No safe point (no ft_snapshot): after a failure the program runs again
// from the top of main, as a relaunched binary would. Objects of the lost
// run are abandoned, not destroyed; static objects are constructed once,
// when the program is loaded, and keep their state across a restart (the
// program checks that its static Registry was constructed exactly once).
//
// Usage: ring [rounds] (default 300).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "ft.h"

namespace {

struct Registry {
  int constructed = 0;
  Registry() { constructed++; }
};
Registry registry; // constructed once per rank when the program is loaded

class Ring {
public:
  Ring(MPI_Comm comm, int length)
      : comm_(comm), mine_(length), theirs_(length) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    for (int i = 0; i < length; i++)
      mine_[i] = rank_ + 1;
  }

  void round() {
    MPI_Request reqs[2];
    int right = (rank_ + 1) % size_, left = (rank_ + size_ - 1) % size_;
    MPI_Irecv(theirs_.data(), static_cast<int>(theirs_.size()), MPI_LONG, left,
              7, comm_, &reqs[0]);
    MPI_Isend(mine_.data(), static_cast<int>(mine_.size()), MPI_LONG, right, 7,
              comm_, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (size_t i = 0; i < mine_.size(); i++)
      mine_[i] = (mine_[i] + theirs_[i]) % 1000003;
  }

  void scale(long factor) {
    MPI_Bcast(&factor, 1, MPI_LONG, 0, comm_);
    for (long &v : mine_)
      v = v * factor % 1000003;
  }

  long checksum() const {
    return std::accumulate(mine_.begin(), mine_.end(), 0L) % 1000003;
  }
  int rank() const { return rank_; }
  int size() const { return size_; }

private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<long> mine_, theirs_;
};

// The same rounds on every rank's vector at once: what the ring must give.
long expected(int size, int length, int rounds) {
  std::vector<long> v(static_cast<size_t>(size));
  for (int r = 0; r < size; r++)
    v[static_cast<size_t>(r)] = r + 1;
  for (int k = 0; k < rounds; k++) {
    std::vector<long> next(v.size());
    for (int r = 0; r < size; r++)
      next[static_cast<size_t>(r)] =
          (v[static_cast<size_t>(r)] +
           v[static_cast<size_t>((r + size - 1) % size)]) %
          1000003;
    v = next;
    if ((k + 1) % 25 == 0)
      for (long &x : v)
        x = x * 3 % 1000003;
  }
  long sum = 0;
  for (long x : v)
    sum = (sum + x * length % 1000003) % 1000003;
  return sum;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rounds = argc > 1 ? std::atoi(argv[1]) : 300;
  const int length = 64;
  Ring ring(MPI_COMM_WORLD, length);
  for (int k = 0; k < rounds; k++) {
    ring.round();
    if ((k + 1) % 25 == 0)
      ring.scale(ring.rank() == 0 ? 3 : 0); // rank 0's factor wins
  }
  long mine = ring.checksum(), total = 0;
  MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  std::vector<long> all(static_cast<size_t>(ring.size()));
  MPI_Allgather(&mine, 1, MPI_LONG, all.data(), 1, MPI_LONG, MPI_COMM_WORLD);
  long gathered = std::accumulate(all.begin(), all.end(), 0L);
  int ok = gathered % 1000003 == expected(ring.size(), length, rounds) &&
           registry.constructed == 1;
  if (ring.rank() == 0) {
    ok = ok && total == gathered;
    std::printf("ring: %d ranks, %d rounds, checksum %ld: %s\n", ring.size(),
                rounds, gathered % 1000003, ok ? "verified" : "FAILED");
  }
  ft_report_result(ok, static_cast<double>(gathered % 1000003));
  MPI_Finalize();
  return ok ? 0 : 1;
}
