/* A small seeded mutation fuzzer: the main() of every fuzz target.
 *
 *   fuzz_NAME [--seed S] [--iterations N] [--seconds T] CORPUS_FILE...
 *
 * Reads the corpus files (valid inputs), then N times (or until T seconds
 * have passed) takes one of them or a previous mutant, applies 1 to 8
 * random mutations (bit flips, byte changes, insertions of bytes and of
 * tokens the parsers care about, deletions, duplicated or swapped chunks)
 * and calls the target's LLVMFuzzerTestOneInput, the libFuzzer entry
 * point, so the same targets can also be linked with -fsanitize=fuzzer.
 * A target reports a broken invariant by abort(); memory errors are
 * caught when built with ASan (the asan preset). Prints one line:
 *   fuzz NAME: N inputs (M from the corpus) in T s, seed S
 * Deterministic for a seed and a corpus (unless --seconds cuts it short).
 * Pure C11 + POSIX clock. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern const char *const ft_fuzz_name;

#define MAX_INPUT 65536
#define POOL 64

static uint64_t next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static size_t below(uint64_t *s, size_t n) { return n ? next(s) % n : 0; }

struct input {
  uint8_t *data;
  size_t size;
};

static const char *const tokens[] = {",",
                                     "\"",
                                     "\n",
                                     "\t",
                                     " ",
                                     "#",
                                     ":",
                                     "=",
                                     "-",
                                     "0",
                                     "1",
                                     "-1",
                                     "1e308",
                                     "nan",
                                     "inf",
                                     "none",
                                     "0x10",
                                     "\r\n",
                                     "\"\"",
                                     "99999999999999999999",
                                     "2/30/2005 25:61",
                                     "lanl:",
                                     "fta:",
                                     "protocols",
                                     "pcl",
                                     "ok",
                                     "true",
                                     "1.5e-3",
                                     "\0"};
#define NTOKENS (sizeof tokens / sizeof *tokens)

static void insert(struct input *in, size_t at, const uint8_t *b, size_t n) {
  if (in->size + n > MAX_INPUT)
    return;
  memmove(in->data + at + n, in->data + at, in->size - at);
  memcpy(in->data + at, b, n);
  in->size += n;
}

static void mutate_once(struct input *in, uint64_t *s) {
  size_t at = below(s, in->size + 1), n;
  uint8_t byte = (uint8_t)next(s);
  const char *tok;
  switch (below(s, 7)) {
  case 0: /* flip a bit */
    if (in->size)
      in->data[below(s, in->size)] ^= (uint8_t)(1u << below(s, 8));
    break;
  case 1: /* set a byte */
    if (in->size)
      in->data[below(s, in->size)] = byte;
    break;
  case 2: /* insert a byte */
    insert(in, at, &byte, 1);
    break;
  case 3: /* insert a token (the NUL token is one byte) */
    tok = tokens[below(s, NTOKENS)];
    insert(in, at, (const uint8_t *)tok, *tok ? strlen(tok) : 1);
    break;
  case 4: /* delete a chunk */
    n = below(s, in->size - at + 1) % 16;
    memmove(in->data + at, in->data + at + n, in->size - at - n);
    in->size -= n;
    break;
  case 5: { /* duplicate a chunk */
    n = below(s, in->size - at + 1) % 64;
    uint8_t chunk[64];
    memcpy(chunk, in->data + at, n);
    insert(in, below(s, in->size + 1), chunk, n);
    break;
  }
  default: /* truncate */
    in->size = at;
  }
}

static int read_file(const char *path, struct input *in) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  in->data = malloc(MAX_INPUT);
  in->size = in->data ? fread(in->data, 1, MAX_INPUT, f) : 0;
  fclose(f);
  return in->data ? 0 : -1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  uint64_t seed = 1, s;
  long iterations = 10000;
  double seconds = 0;
  struct input pool[POOL];
  size_t npool = 0, ncorpus;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
      iterations = atol(argv[++i]);
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
      seconds = atof(argv[++i]);
    else if (npool < POOL / 2 && read_file(argv[i], &pool[npool]) == 0)
      npool++;
    else {
      fprintf(stderr, "fuzz %s: cannot read corpus file %s\n", ft_fuzz_name,
              argv[i]);
      return 2;
    }
  }
  ncorpus = npool;
  for (size_t i = 0; i < ncorpus; i++)
    LLVMFuzzerTestOneInput(pool[i].data, pool[i].size);
  s = seed;
  double start = now();
  uint8_t *buf = malloc(MAX_INPUT);
  long done = 0;
  for (; done < iterations && buf; done++) {
    if (seconds > 0 && (done & 255) == 0 && now() - start > seconds)
      break;
    struct input in = {buf, 0};
    const struct input *from = npool ? &pool[below(&s, npool)] : NULL;
    if (from)
      memcpy(buf, from->data, in.size = from->size);
    for (size_t m = 1 + below(&s, 8); m > 0; m--)
      mutate_once(&in, &s);
    LLVMFuzzerTestOneInput(in.data, in.size);
    if (npool < POOL && below(&s, 16) == 0) { /* keep some mutants */
      pool[npool].data = malloc(MAX_INPUT);
      if (pool[npool].data) {
        memcpy(pool[npool].data, in.data, in.size);
        pool[npool++].size = in.size;
      }
    }
  }
  printf("fuzz %s: %ld inputs (%zu from the corpus) in %.2f s, seed %llu\n",
         ft_fuzz_name, done, ncorpus, now() - start, (unsigned long long)seed);
  for (size_t i = 0; i < npool; i++)
    free(pool[i].data);
  free(buf);
  return 0;
}
