/* SMPI 3.32's `ompi` collective selector (coll_select.h): the decision
 * trees of src/smpi/colls/smpi_openmpi_selector.cpp, copied as they are
 * (only the operation's commutativity became a parameter), so that a
 * comparison with that file stays line for line. */
#include "coll_select.h"

int ft_coll_select_allreduce(int communicator_size, size_t total_dsize,
                             int commutative) {
  int alg = 1;

  if (!commutative) {
    if (communicator_size < 4) {
      if (total_dsize < 131072) {
        alg = 3;
      } else {
        alg = 1;
      }
    } else if (communicator_size < 8) {
      alg = 3;
    } else if (communicator_size < 16) {
      if (total_dsize < 1048576) {
        alg = 3;
      } else {
        alg = 2;
      }
    } else if (communicator_size < 128) {
      alg = 3;
    } else if (communicator_size < 256) {
      if (total_dsize < 131072) {
        alg = 2;
      } else if (total_dsize < 524288) {
        alg = 3;
      } else {
        alg = 2;
      }
    } else if (communicator_size < 512) {
      if (total_dsize < 4096) {
        alg = 2;
      } else if (total_dsize < 524288) {
        alg = 3;
      } else {
        alg = 2;
      }
    } else {
      if (total_dsize < 2048) {
        alg = 2;
      } else {
        alg = 3;
      }
    }
  } else {
    if (communicator_size < 4) {
      if (total_dsize < 8) {
        alg = 4;
      } else if (total_dsize < 4096) {
        alg = 3;
      } else if (total_dsize < 8192) {
        alg = 4;
      } else if (total_dsize < 16384) {
        alg = 3;
      } else if (total_dsize < 65536) {
        alg = 4;
      } else if (total_dsize < 262144) {
        alg = 5;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 8) {
      if (total_dsize < 16) {
        alg = 4;
      } else if (total_dsize < 8192) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 16) {
      if (total_dsize < 8192) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 32) {
      if (total_dsize < 64) {
        alg = 5;
      } else if (total_dsize < 4096) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 64) {
      if (total_dsize < 128) {
        alg = 5;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 128) {
      if (total_dsize < 262144) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 256) {
      if (total_dsize < 131072) {
        alg = 2;
      } else if (total_dsize < 262144) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 512) {
      if (total_dsize < 4096) {
        alg = 2;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 2048) {
      if (total_dsize < 2048) {
        alg = 2;
      } else if (total_dsize < 16384) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 4096) {
      if (total_dsize < 2048) {
        alg = 2;
      } else if (total_dsize < 4096) {
        alg = 5;
      } else if (total_dsize < 16384) {
        alg = 3;
      } else {
        alg = 6;
      }
    } else {
      if (total_dsize < 2048) {
        alg = 2;
      } else if (total_dsize < 16384) {
        alg = 5;
      } else if (total_dsize < 32768) {
        alg = 3;
      } else {
        alg = 6;
      }
    }
  }
  return alg;
}

int ft_coll_select_alltoall(int communicator_size, size_t total_dsize) {
  int alg = 1;

  if (communicator_size == 2) {
    if (total_dsize < 2) {
      alg = 2;
    } else if (total_dsize < 4) {
      alg = 5;
    } else if (total_dsize < 16) {
      alg = 2;
    } else if (total_dsize < 64) {
      alg = 5;
    } else if (total_dsize < 256) {
      alg = 2;
    } else if (total_dsize < 4096) {
      alg = 5;
    } else if (total_dsize < 32768) {
      alg = 2;
    } else if (total_dsize < 262144) {
      alg = 4;
    } else if (total_dsize < 1048576) {
      alg = 5;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 8) {
    if (total_dsize < 8192) {
      alg = 4;
    } else if (total_dsize < 16384) {
      alg = 1;
    } else if (total_dsize < 65536) {
      alg = 4;
    } else if (total_dsize < 524288) {
      alg = 1;
    } else if (total_dsize < 1048576) {
      alg = 2;
    } else {
      alg = 1;
    }
  } else if (communicator_size < 16) {
    if (total_dsize < 262144) {
      alg = 4;
    } else {
      alg = 1;
    }
  } else if (communicator_size < 32) {
    if (total_dsize < 4) {
      alg = 4;
    } else if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 8192) {
      alg = 4;
    } else if (total_dsize < 32768) {
      alg = 1;
    } else if (total_dsize < 262144) {
      alg = 4;
    } else if (total_dsize < 524288) {
      alg = 1;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 64) {
    if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 524288) {
      alg = 1;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 128) {
    if (total_dsize < 1024) {
      alg = 3;
    } else if (total_dsize < 2048) {
      alg = 1;
    } else if (total_dsize < 4096) {
      alg = 4;
    } else if (total_dsize < 262144) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 256) {
    if (total_dsize < 1024) {
      alg = 3;
    } else if (total_dsize < 2048) {
      alg = 4;
    } else if (total_dsize < 262144) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 512) {
    if (total_dsize < 1024) {
      alg = 3;
    } else if (total_dsize < 8192) {
      alg = 4;
    } else if (total_dsize < 32768) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 1024) {
    if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 8192) {
      alg = 4;
    } else if (total_dsize < 16384) {
      alg = 1;
    } else if (total_dsize < 131072) {
      alg = 4;
    } else if (total_dsize < 262144) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 2048) {
    if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 1024) {
      alg = 4;
    } else if (total_dsize < 2048) {
      alg = 1;
    } else if (total_dsize < 16384) {
      alg = 4;
    } else if (total_dsize < 262144) {
      alg = 1;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 4096) {
    if (total_dsize < 1024) {
      alg = 3;
    } else if (total_dsize < 4096) {
      alg = 4;
    } else if (total_dsize < 8192) {
      alg = 1;
    } else if (total_dsize < 131072) {
      alg = 4;
    } else {
      alg = 1;
    }
  } else {
    if (total_dsize < 2048) {
      alg = 3;
    } else if (total_dsize < 8192) {
      alg = 4;
    } else if (total_dsize < 16384) {
      alg = 1;
    } else if (total_dsize < 32768) {
      alg = 4;
    } else if (total_dsize < 65536) {
      alg = 1;
    } else {
      alg = 4;
    }
  }

  return alg;
}

int ft_coll_select_alltoallv(int communicator_size) {
  int alg = 1;

  if (communicator_size < 4) {
    alg = 2;
  } else if (communicator_size < 64) {
    alg = 1;
  } else if (communicator_size < 128) {
    alg = 2;
  } else if (communicator_size < 256) {
    alg = 1;
  } else if (communicator_size < 1024) {
    alg = 2;
  } else {
    alg = 1;
  }
  return alg;
}

int ft_coll_select_barrier(int communicator_size) {
  int alg = 1;

  if (communicator_size < 4) {
    alg = 3;
  } else if (communicator_size < 8) {
    alg = 1;
  } else if (communicator_size < 64) {
    alg = 3;
  } else if (communicator_size < 256) {
    alg = 4;
  } else if (communicator_size < 512) {
    alg = 6;
  } else if (communicator_size < 1024) {
    alg = 4;
  } else if (communicator_size < 4096) {
    alg = 6;
  } else {
    alg = 4;
  }

  return alg;
}

int ft_coll_select_bcast(int communicator_size, size_t total_dsize) {
  int alg = 1;

  if (communicator_size < 4) {
    if (total_dsize < 32) {
      alg = 3;
    } else if (total_dsize < 256) {
      alg = 5;
    } else if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 1024) {
      alg = 7;
    } else if (total_dsize < 32768) {
      alg = 1;
    } else if (total_dsize < 131072) {
      alg = 5;
    } else if (total_dsize < 262144) {
      alg = 2;
    } else if (total_dsize < 524288) {
      alg = 1;
    } else if (total_dsize < 1048576) {
      alg = 6;
    } else {
      alg = 5;
    }
  } else if (communicator_size < 8) {
    if (total_dsize < 64) {
      alg = 5;
    } else if (total_dsize < 128) {
      alg = 6;
    } else if (total_dsize < 2048) {
      alg = 5;
    } else if (total_dsize < 8192) {
      alg = 6;
    } else if (total_dsize < 1048576) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 16) {
    if (total_dsize < 8) {
      alg = 7;
    } else if (total_dsize < 64) {
      alg = 5;
    } else if (total_dsize < 4096) {
      alg = 7;
    } else if (total_dsize < 16384) {
      alg = 5;
    } else if (total_dsize < 32768) {
      alg = 6;
    } else {
      alg = 1;
    }
  } else if (communicator_size < 32) {
    if (total_dsize < 4096) {
      alg = 7;
    } else if (total_dsize < 1048576) {
      alg = 6;
    } else {
      alg = 8;
    }
  } else if (communicator_size < 64) {
    if (total_dsize < 2048) {
      alg = 6;
    } else {
      alg = 7;
    }
  } else if (communicator_size < 128) {
    alg = 7;
  } else if (communicator_size < 256) {
    if (total_dsize < 2) {
      alg = 6;
    } else if (total_dsize < 16384) {
      alg = 5;
    } else if (total_dsize < 32768) {
      alg = 1;
    } else if (total_dsize < 65536) {
      alg = 5;
    } else {
      alg = 7;
    }
  } else if (communicator_size < 1024) {
    if (total_dsize < 16384) {
      alg = 7;
    } else if (total_dsize < 32768) {
      alg = 4;
    } else {
      alg = 7;
    }
  } else if (communicator_size < 2048) {
    if (total_dsize < 524288) {
      alg = 7;
    } else {
      alg = 8;
    }
  } else if (communicator_size < 4096) {
    if (total_dsize < 262144) {
      alg = 7;
    } else {
      alg = 8;
    }
  } else {
    if (total_dsize < 8192) {
      alg = 7;
    } else if (total_dsize < 16384) {
      alg = 5;
    } else if (total_dsize < 262144) {
      alg = 7;
    } else {
      alg = 8;
    }
  }
  return alg;
}

int ft_coll_select_reduce(int communicator_size, size_t total_dsize,
                          int commutative) {
  int alg = 1;

  if (!commutative) {
    if (communicator_size < 4) {
      if (total_dsize < 8) {
        alg = 6;
      } else {
        alg = 1;
      }
    } else if (communicator_size < 8) {
      alg = 1;
    } else if (communicator_size < 16) {
      if (total_dsize < 1024) {
        alg = 6;
      } else if (total_dsize < 8192) {
        alg = 1;
      } else if (total_dsize < 16384) {
        alg = 6;
      } else if (total_dsize < 262144) {
        alg = 1;
      } else {
        alg = 6;
      }
    } else if (communicator_size < 128) {
      alg = 6;
    } else if (communicator_size < 256) {
      if (total_dsize < 512) {
        alg = 6;
      } else if (total_dsize < 1024) {
        alg = 1;
      } else {
        alg = 6;
      }
    } else {
      alg = 6;
    }
  } else {
    if (communicator_size < 4) {
      if (total_dsize < 8) {
        alg = 7;
      } else if (total_dsize < 16) {
        alg = 4;
      } else if (total_dsize < 32) {
        alg = 3;
      } else if (total_dsize < 262144) {
        alg = 1;
      } else if (total_dsize < 524288) {
        alg = 3;
      } else if (total_dsize < 1048576) {
        alg = 2;
      } else {
        alg = 3;
      }
    } else if (communicator_size < 8) {
      if (total_dsize < 4096) {
        alg = 4;
      } else if (total_dsize < 65536) {
        alg = 2;
      } else if (total_dsize < 262144) {
        alg = 5;
      } else if (total_dsize < 524288) {
        alg = 1;
      } else if (total_dsize < 1048576) {
        alg = 5;
      } else {
        alg = 1;
      }
    } else if (communicator_size < 16) {
      if (total_dsize < 8192) {
        alg = 4;
      } else {
        alg = 5;
      }
    } else if (communicator_size < 32) {
      if (total_dsize < 4096) {
        alg = 4;
      } else {
        alg = 5;
      }
    } else if (communicator_size < 256) {
      alg = 5;
    } else if (communicator_size < 512) {
      if (total_dsize < 8192) {
        alg = 5;
      } else if (total_dsize < 16384) {
        alg = 6;
      } else {
        alg = 5;
      }
    } else if (communicator_size < 2048) {
      alg = 5;
    } else if (communicator_size < 4096) {
      if (total_dsize < 512) {
        alg = 5;
      } else if (total_dsize < 1024) {
        alg = 6;
      } else if (total_dsize < 8192) {
        alg = 5;
      } else if (total_dsize < 16384) {
        alg = 6;
      } else {
        alg = 5;
      }
    } else {
      if (total_dsize < 16) {
        alg = 5;
      } else if (total_dsize < 32) {
        alg = 6;
      } else if (total_dsize < 1024) {
        alg = 5;
      } else if (total_dsize < 2048) {
        alg = 6;
      } else if (total_dsize < 8192) {
        alg = 5;
      } else if (total_dsize < 16384) {
        alg = 6;
      } else {
        alg = 5;
      }
    }
  }

  return alg;
}

int ft_coll_select_reduce_scatter(int communicator_size, size_t total_dsize,
                                  int commutative) {
  int alg = 1;

  if (!commutative) {
    alg = 1;
  } else {
    if (communicator_size < 4) {
      if (total_dsize < 65536) {
        alg = 3;
      } else if (total_dsize < 131072) {
        alg = 4;
      } else {
        alg = 3;
      }
    } else if (communicator_size < 8) {
      if (total_dsize < 8) {
        alg = 1;
      } else if (total_dsize < 262144) {
        alg = 2;
      } else {
        alg = 3;
      }
    } else if (communicator_size < 32) {
      if (total_dsize < 262144) {
        alg = 2;
      } else {
        alg = 3;
      }
    } else if (communicator_size < 64) {
      if (total_dsize < 64) {
        alg = 1;
      } else if (total_dsize < 2048) {
        alg = 2;
      } else if (total_dsize < 524288) {
        alg = 4;
      } else {
        alg = 3;
      }
    } else if (communicator_size < 128) {
      if (total_dsize < 256) {
        alg = 1;
      } else if (total_dsize < 512) {
        alg = 2;
      } else if (total_dsize < 2048) {
        alg = 4;
      } else if (total_dsize < 4096) {
        alg = 2;
      } else {
        alg = 4;
      }
    } else if (communicator_size < 256) {
      if (total_dsize < 256) {
        alg = 1;
      } else if (total_dsize < 512) {
        alg = 2;
      } else {
        alg = 4;
      }
    } else if (communicator_size < 512) {
      if (total_dsize < 256) {
        alg = 1;
      } else if (total_dsize < 1024) {
        alg = 2;
      } else {
        alg = 4;
      }
    } else if (communicator_size < 1024) {
      if (total_dsize < 512) {
        alg = 1;
      } else if (total_dsize < 2048) {
        alg = 2;
      } else if (total_dsize < 8192) {
        alg = 4;
      } else if (total_dsize < 16384) {
        alg = 2;
      } else {
        alg = 4;
      }
    } else if (communicator_size < 2048) {
      if (total_dsize < 512) {
        alg = 1;
      } else if (total_dsize < 4096) {
        alg = 2;
      } else if (total_dsize < 16384) {
        alg = 4;
      } else if (total_dsize < 32768) {
        alg = 2;
      } else {
        alg = 4;
      }
    } else if (communicator_size < 4096) {
      if (total_dsize < 512) {
        alg = 1;
      } else if (total_dsize < 4096) {
        alg = 2;
      } else {
        alg = 4;
      }
    } else {
      if (total_dsize < 1024) {
        alg = 1;
      } else if (total_dsize < 8192) {
        alg = 2;
      } else {
        alg = 4;
      }
    }
  }

  return alg;
}

int ft_coll_select_allgather(int communicator_size, size_t total_dsize) {
  int alg = 1;

  if (communicator_size == 2) {
    alg = 6;
  } else if (communicator_size < 32) {
    alg = 3;
  } else if (communicator_size < 64) {
    if (total_dsize < 1024) {
      alg = 3;
    } else if (total_dsize < 65536) {
      alg = 5;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 128) {
    if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 65536) {
      alg = 5;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 256) {
    if (total_dsize < 512) {
      alg = 3;
    } else if (total_dsize < 131072) {
      alg = 5;
    } else if (total_dsize < 524288) {
      alg = 4;
    } else if (total_dsize < 1048576) {
      alg = 5;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 512) {
    if (total_dsize < 32) {
      alg = 3;
    } else if (total_dsize < 128) {
      alg = 2;
    } else if (total_dsize < 1024) {
      alg = 3;
    } else if (total_dsize < 131072) {
      alg = 5;
    } else if (total_dsize < 524288) {
      alg = 4;
    } else if (total_dsize < 1048576) {
      alg = 5;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 1024) {
    if (total_dsize < 64) {
      alg = 3;
    } else if (total_dsize < 256) {
      alg = 2;
    } else if (total_dsize < 2048) {
      alg = 3;
    } else {
      alg = 5;
    }
  } else if (communicator_size < 2048) {
    if (total_dsize < 4) {
      alg = 3;
    } else if (total_dsize < 8) {
      alg = 2;
    } else if (total_dsize < 16) {
      alg = 3;
    } else if (total_dsize < 32) {
      alg = 2;
    } else if (total_dsize < 256) {
      alg = 3;
    } else if (total_dsize < 512) {
      alg = 2;
    } else if (total_dsize < 4096) {
      alg = 3;
    } else {
      alg = 5;
    }
  } else if (communicator_size < 4096) {
    if (total_dsize < 32) {
      alg = 2;
    } else if (total_dsize < 128) {
      alg = 3;
    } else if (total_dsize < 512) {
      alg = 2;
    } else if (total_dsize < 4096) {
      alg = 3;
    } else {
      alg = 5;
    }
  } else {
    if (total_dsize < 2) {
      alg = 3;
    } else if (total_dsize < 8) {
      alg = 2;
    } else if (total_dsize < 16) {
      alg = 3;
    } else if (total_dsize < 512) {
      alg = 2;
    } else if (total_dsize < 4096) {
      alg = 3;
    } else {
      alg = 5;
    }
  }

  return alg;
}

int ft_coll_select_allgatherv(int communicator_size, size_t per_rank_dsize) {
  int alg = 1;

  if (communicator_size == 2) {
    if (per_rank_dsize < 2048) {
      alg = 3;
    } else if (per_rank_dsize < 4096) {
      alg = 5;
    } else if (per_rank_dsize < 8192) {
      alg = 3;
    } else {
      alg = 5;
    }
  } else if (communicator_size < 8) {
    if (per_rank_dsize < 256) {
      alg = 1;
    } else if (per_rank_dsize < 4096) {
      alg = 4;
    } else if (per_rank_dsize < 8192) {
      alg = 3;
    } else if (per_rank_dsize < 16384) {
      alg = 4;
    } else if (per_rank_dsize < 262144) {
      alg = 2;
    } else {
      alg = 4;
    }
  } else if (communicator_size < 16) {
    if (per_rank_dsize < 1024) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else if (communicator_size < 32) {
    if (per_rank_dsize < 128) {
      alg = 1;
    } else if (per_rank_dsize < 262144) {
      alg = 2;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 64) {
    if (per_rank_dsize < 256) {
      alg = 1;
    } else if (per_rank_dsize < 8192) {
      alg = 2;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 128) {
    if (per_rank_dsize < 256) {
      alg = 1;
    } else if (per_rank_dsize < 4096) {
      alg = 2;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 256) {
    if (per_rank_dsize < 1024) {
      alg = 2;
    } else if (per_rank_dsize < 65536) {
      alg = 4;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 512) {
    if (per_rank_dsize < 1024) {
      alg = 2;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 1024) {
    if (per_rank_dsize < 512) {
      alg = 2;
    } else if (per_rank_dsize < 1024) {
      alg = 1;
    } else if (per_rank_dsize < 4096) {
      alg = 2;
    } else if (per_rank_dsize < 1048576) {
      alg = 4;
    } else {
      alg = 3;
    }
  } else {
    if (per_rank_dsize < 4096) {
      alg = 2;
    } else {
      alg = 4;
    }
  }

  return alg;
}

int ft_coll_select_gather(int communicator_size, size_t total_dsize) {
  int alg = 1;

  if (communicator_size < 4) {
    if (total_dsize < 2) {
      alg = 3;
    } else if (total_dsize < 4) {
      alg = 1;
    } else if (total_dsize < 32768) {
      alg = 2;
    } else if (total_dsize < 65536) {
      alg = 1;
    } else if (total_dsize < 131072) {
      alg = 2;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 8) {
    if (total_dsize < 1024) {
      alg = 2;
    } else if (total_dsize < 8192) {
      alg = 1;
    } else if (total_dsize < 32768) {
      alg = 2;
    } else if (total_dsize < 262144) {
      alg = 1;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 256) {
    alg = 2;
  } else if (communicator_size < 512) {
    if (total_dsize < 2048) {
      alg = 2;
    } else if (total_dsize < 8192) {
      alg = 1;
    } else {
      alg = 2;
    }
  } else {
    alg = 2;
  }

  return alg;
}

int ft_coll_select_scatter(int communicator_size, size_t total_dsize) {
  int alg = 1;

  if (communicator_size < 4) {
    if (total_dsize < 2) {
      alg = 3;
    } else if (total_dsize < 131072) {
      alg = 1;
    } else if (total_dsize < 262144) {
      alg = 3;
    } else {
      alg = 1;
    }
  } else if (communicator_size < 8) {
    if (total_dsize < 2048) {
      alg = 2;
    } else if (total_dsize < 4096) {
      alg = 1;
    } else if (total_dsize < 8192) {
      alg = 2;
    } else if (total_dsize < 32768) {
      alg = 1;
    } else if (total_dsize < 1048576) {
      alg = 3;
    } else {
      alg = 1;
    }
  } else if (communicator_size < 16) {
    if (total_dsize < 16384) {
      alg = 2;
    } else if (total_dsize < 1048576) {
      alg = 3;
    } else {
      alg = 1;
    }
  } else if (communicator_size < 32) {
    if (total_dsize < 16384) {
      alg = 2;
    } else if (total_dsize < 32768) {
      alg = 1;
    } else {
      alg = 3;
    }
  } else if (communicator_size < 64) {
    if (total_dsize < 512) {
      alg = 2;
    } else if (total_dsize < 8192) {
      alg = 3;
    } else if (total_dsize < 16384) {
      alg = 2;
    } else {
      alg = 3;
    }
  } else {
    if (total_dsize < 512) {
      alg = 2;
    } else {
      alg = 3;
    }
  }

  return alg;
}
