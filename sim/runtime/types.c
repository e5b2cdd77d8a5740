/* Derived datatypes: the runtime records how many basic elements each
 * constructor's type holds, for MPI_Get_elements, which SMPI 3.32 does not
 * implement (it aborts the run: "Not yet implemented: PMPI_Get_elements").
 * Every constructor is the library's (the runtime only watches); MPI's
 * count of basic elements in a status is the received bytes measured in
 * them. Under a real MPI (reference mode) the library's MPI_Get_elements
 * serves, and nothing here is built. */
#include <stdint.h>

#include "runtime.h"

#ifdef SMPI_H

/* What a type holds per instance: basic elements, and their common size
 * (0: they differ). */
struct ft_type_info {
  MPI_Datatype type;
  int64_t elements;
  int basic; /* bytes of each basic element, 0 if they differ */
};

/* The record of `type`: *out; 0 if the runtime has none (a predefined type,
 * or one made through a binding it does not watch). */
static int lookup(struct ft_runtime *rt, MPI_Datatype type,
                  struct ft_type_info *out) {
  for (size_t i = rt->n_types; i-- > 0;) /* newest first: handles recur */
    if (rt->types[i].type == type) {
      *out = rt->types[i];
      return 1;
    }
  return 0;
}

/* 1 if `type` is predefined (MPI_COMBINER_NAMED). */
static int named(MPI_Datatype type) {
  int ni = 0, na = 0, nd = 0, combiner = -1;
  FT_PMPI(Type_get_envelope, type, &ni, &na, &nd, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

/* The record of `type`, predefined ones made up (one element of its size);
 * 0 for a derived type the runtime did not see made. */
static int info_of(struct ft_runtime *rt, MPI_Datatype type,
                   struct ft_type_info *out) {
  if (lookup(rt, type, out))
    return 1;
  if (!named(type))
    return 0;
  int size = 0;
  FT_PMPI(Type_size, type, &size);
  *out = (struct ft_type_info){.type = type, .elements = 1, .basic = size};
  return 1;
}

/* Records *made (if rc is MPI_SUCCESS) as `n` copies of each of the types
 * olds[0..count) weighted by weights[] (NULL: 1 each). */
static int record(struct ft_runtime *rt, int rc, const MPI_Datatype *made,
                  int count, const MPI_Datatype olds[], const int weights[],
                  int64_t n) {
  if (rc != MPI_SUCCESS)
    return rc;
  struct ft_type_info t = {.type = *made, .elements = 0, .basic = -1};
  for (int i = 0; i < count; i++) {
    struct ft_type_info o;
    if (!info_of(rt, olds[i], &o)) {
      t.elements = -1; /* unknown: MPI_Get_elements refuses it */
      break;
    }
    int64_t w = (weights ? weights[i] : 1) * n;
    t.elements += w * o.elements;
    if (w > 0 && o.elements > 0)
      t.basic = t.basic == -1 || t.basic == o.basic ? o.basic : 0;
  }
  if (t.basic < 0)
    t.basic = 0;
  rt->types = ft_reserve(rt->types, rt->n_types + 1, &rt->cap_types,
                         sizeof *rt->types, "the datatypes' records");
  rt->types[rt->n_types++] = t;
  return rc;
}

static int64_t sum(int count, const int lens[]) {
  int64_t s = 0;
  for (int i = 0; i < count; i++)
    s += lens[i];
  return s;
}

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_contiguous(count, old, made), made, 1, &old, NULL,
                count);
}

int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                    MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_vector(count, blocklen, stride, old, made), made,
                1, &old, NULL, (int64_t)count * blocklen);
}

int MPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                     MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_hvector(count, blocklen, stride, old, made), made,
                1, &old, NULL, (int64_t)count * blocklen);
}

int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride,
                            MPI_Datatype old, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt,
                PMPI_Type_create_hvector(count, blocklen, stride, old, made),
                made, 1, &old, NULL, (int64_t)count * blocklen);
}

int MPI_Type_indexed(int count, const int *blocklens, const int *displs,
                     MPI_Datatype old, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_indexed(count, blocklens, displs, old, made),
                made, 1, &old, NULL, sum(count, blocklens));
}

int MPI_Type_create_indexed_block(int count, int blocklen, const int *displs,
                                  MPI_Datatype old, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(
      rt, PMPI_Type_create_indexed_block(count, blocklen, displs, old, made),
      made, 1, &old, NULL, (int64_t)count * blocklen);
}

int MPI_Type_hindexed(int count, const int *blocklens, const MPI_Aint *displs,
                      MPI_Datatype old, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_hindexed(count, blocklens, displs, old, made),
                made, 1, &old, NULL, sum(count, blocklens));
}

int MPI_Type_create_hindexed(int count, const int *blocklens,
                             const MPI_Aint *displs, MPI_Datatype old,
                             MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt,
                PMPI_Type_create_hindexed(count, blocklens, displs, old, made),
                made, 1, &old, NULL, sum(count, blocklens));
}

int MPI_Type_create_hindexed_block(int count, int blocklen,
                                   const MPI_Aint *displs, MPI_Datatype old,
                                   MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(
      rt, PMPI_Type_create_hindexed_block(count, blocklen, displs, old, made),
      made, 1, &old, NULL, (int64_t)count * blocklen);
}

int MPI_Type_struct(int count, const int *blocklens, const MPI_Aint *displs,
                    const MPI_Datatype *olds, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_struct(count, blocklens, displs, olds, made),
                made, count, olds, blocklens, 1);
}

int MPI_Type_create_struct(int count, const int *blocklens,
                           const MPI_Aint *displs, const MPI_Datatype *olds,
                           MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt,
                PMPI_Type_create_struct(count, blocklens, displs, olds, made),
                made, count, olds, blocklens, 1);
}

int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_create_resized(old, lb, extent, made), made, 1,
                &old, NULL, 1);
}

int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  return record(rt, PMPI_Type_dup(old, made), made, 1, &old, NULL, 1);
}

int MPI_Type_create_subarray(int ndims, const int *sizes, const int *subsizes,
                             const int *starts, int order, MPI_Datatype old,
                             MPI_Datatype *made) {
  struct ft_runtime *rt = ft_runtime();
  int64_t n = 1;
  for (int d = 0; d < ndims; d++)
    n *= subsizes[d];
  return record(rt,
                PMPI_Type_create_subarray(ndims, sizes, subsizes, starts, order,
                                          old, made),
                made, 1, &old, NULL, n);
}

/* The basic elements in `bytes` of `type`: whole instances, then the part
 * of one, measured in its basic elements when they have one size (else
 * the part cannot be counted without the type map: refused, by name). */
static MPI_Count elements_in(struct ft_runtime *rt, const char *call,
                             MPI_Count bytes, MPI_Datatype type) {
  struct ft_type_info t;
  if (!info_of(rt, type, &t) || t.elements < 0)
    ft_fatal("%s on a datatype made through a constructor ftsim's runtime "
             "does not watch (a Fortran binding, MPI_Type_create_darray...): "
             "SMPI 3.32 has no MPI_Get_elements of its own",
             call);
  int size = 0;
  FT_PMPI(Type_size, type, &size);
  if (size == 0 || bytes == MPI_UNDEFINED)
    return bytes == MPI_UNDEFINED ? MPI_UNDEFINED : 0;
  MPI_Count whole = bytes / size, part = bytes % size;
  if (part == 0)
    return whole * t.elements;
  if (t.basic > 0 && part % t.basic == 0)
    return whole * t.elements + part / t.basic;
  if (t.basic > 0)
    return MPI_UNDEFINED; /* not a whole number of basic elements */
  ft_fatal("%s on a message ending inside an element of a datatype whose "
           "basic elements differ in size: not supported by ftsim's runtime",
           call);
}

static int get_elements(struct ft_runtime *rt, const char *call,
                        MPI_Status *status, MPI_Datatype type,
                        MPI_Count *elements) {
  int bytes = 0;
  int rc = PMPI_Get_count(status, MPI_BYTE, &bytes);
  if (rc != MPI_SUCCESS)
    return ft_err_result(rt, call, MPI_COMM_WORLD, rc);
  if (type == MPI_DATATYPE_NULL)
    return ft_err_raise(rt, call, MPI_COMM_WORLD, MPI_ERR_TYPE,
                        "MPI_DATATYPE_NULL");
  *elements = elements_in(rt, call, bytes, type);
  return MPI_SUCCESS;
}

int MPI_Get_elements(MPI_Status *status, MPI_Datatype type, int *elements) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Count n = 0;
  int rc = get_elements(rt, "MPI_Get_elements", status, type, &n);
  if (rc == MPI_SUCCESS)
    *elements = n > INT32_MAX ? MPI_UNDEFINED : (int)n;
  return rc;
}

int MPI_Get_elements_x(MPI_Status *status, MPI_Datatype type,
                       MPI_Count *elements) {
  struct ft_runtime *rt = ft_runtime();
  return get_elements(rt, "MPI_Get_elements_x", status, type, elements);
}

#endif /* SMPI_H */
