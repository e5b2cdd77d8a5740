/* Fortran bindings (mpif.h, gfortran's one trailing underscore).
 *
 * Under SMPI a C wrapper does not see Fortran calls: SimGrid's own Fortran
 * bindings call its internals directly (DESIGN.md). So the runtime defines
 * the mpi_*_ symbols itself; each converts Fortran handles and forwards to
 * the interposed C function, so C and Fortran take the same path. */
#include <stdint.h>
#include <stdlib.h>

#include "backend.h"
#include "runtime.h"

#ifdef MPI_STATUS_SIZE
#define F_STATUS_SIZE MPI_STATUS_SIZE /* SMPI defines it for C too */
#else
#define F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

typedef MPI_Fint F; /* a Fortran INTEGER */

static MPI_Comm comm_of(const F *f) { return MPI_Comm_f2c(*f); }
static MPI_Datatype type_of(const F *f) { return MPI_Type_f2c(*f); }
/* A buffer argument: Fortran's MPI_BOTTOM (a variable of the library's) is
 * C's MPI_BOTTOM, from which a datatype of absolute addresses
 * (MPI_GET_ADDRESS) starts; MPI_IN_PLACE where the call allows it. */
static void *buf_of(void *p) { return ft_backend_f_bottom(p) ? MPI_BOTTOM : p; }
static const void *in_buf(const void *p) {
  return ft_backend_f_in_place(p) ? MPI_IN_PLACE : buf_of((void *)p);
}

/* Status out-parameters: a C status to fill, or MPI_STATUS_IGNORE. */
static MPI_Status *c_status(F *f, MPI_Status *tmp) {
  return ft_backend_f_status_ignore(f) ? MPI_STATUS_IGNORE : tmp;
}
static void f_status(MPI_Status *c, F *f) {
  if (c != MPI_STATUS_IGNORE)
    ft_backend_status_c2f(c, f);
}

/* Request arrays: Fortran handles <-> a C array (freed by from_c). */
static MPI_Request *to_c(int n, const F *f) {
  MPI_Request *c = malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
  if (!c)
    ft_fatal("out of memory converting %d Fortran requests", n);
  for (int i = 0; i < n; i++)
    c[i] = MPI_Request_f2c(f[i]);
  return c;
}
static void from_c(int n, MPI_Request *c, F *f) {
  for (int i = 0; i < n; i++)
    f[i] = MPI_Request_c2f(c[i]);
  free(c);
}
/* Status arrays: a C array, or MPI_STATUSES_IGNORE (then *tmp is NULL). */
static MPI_Status *c_statuses(int n, F *f, MPI_Status **tmp) {
  *tmp = NULL;
  if (ft_backend_f_statuses_ignore(f))
    return MPI_STATUSES_IGNORE;
  *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof **tmp);
  if (!*tmp)
    ft_fatal("out of memory converting %d Fortran statuses", n);
  return *tmp;
}
static void f_statuses(int n, MPI_Status *c, F *f) {
  for (int i = 0; c && i < n; i++)
    ft_backend_status_c2f(&c[i], f + i * F_STATUS_SIZE);
  free(c);
}

/* ---- Life cycle and communicators ---- */

void mpi_init_(F *ierr) {
  ft_note_init_caller(ft_runtime(), __builtin_return_address(0));
  *ierr = MPI_Init(NULL, NULL);
}
void mpi_init_thread_(F *required, F *provided, F *ierr) {
  ft_note_init_caller(ft_runtime(), __builtin_return_address(0));
  int p = 0;
  *ierr = MPI_Init_thread(NULL, NULL, *required, &p);
  *provided = p;
}
void mpi_finalize_(F *ierr) { *ierr = MPI_Finalize(); }
void mpi_abort_(F *comm, F *code, F *ierr) {
  *ierr = MPI_Abort(comm_of(comm), *code);
}
double mpi_wtime_(void) { return MPI_Wtime(); }
void mpi_comm_rank_(F *comm, F *rank, F *ierr) {
  *ierr = MPI_Comm_rank(comm_of(comm), rank);
}
void mpi_comm_size_(F *comm, F *size, F *ierr) {
  *ierr = MPI_Comm_size(comm_of(comm), size);
}
void mpi_comm_dup_(F *comm, F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_dup(comm_of(comm), &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_comm_dup_with_info_(F *comm, F *info, F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_dup_with_info(comm_of(comm), MPI_Info_f2c(*info), &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_comm_split_(F *comm, F *color, F *key, F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_split(comm_of(comm), *color, *key, &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_comm_create_(F *comm, F *group, F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_create(comm_of(comm), MPI_Group_f2c(*group), &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_comm_split_type_(F *comm, F *type, F *key, F *info, F *newcomm,
                          F *ierr) {
  MPI_Comm c;
  *ierr =
      MPI_Comm_split_type(comm_of(comm), *type, *key, MPI_Info_f2c(*info), &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_comm_compare_(F *a, F *b, F *result, F *ierr) {
  int r = 0;
  *ierr = MPI_Comm_compare(comm_of(a), comm_of(b), &r);
  *result = r;
}
void mpi_comm_group_(F *comm, F *group, F *ierr) {
  MPI_Group g;
  *ierr = MPI_Comm_group(comm_of(comm), &g);
  *group = MPI_Group_c2f(g);
}
/* LOGICAL arguments: gfortran's default LOGICAL is an INTEGER-sized 0 or 1
 * (-ff2c does not change it). */
void mpi_cart_create_(F *comm, F *ndims, F *dims, F *periods, F *reorder,
                      F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr =
      MPI_Cart_create(comm_of(comm), *ndims, dims, periods, *reorder != 0, &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_cart_sub_(F *comm, F *remain, F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr = MPI_Cart_sub(comm_of(comm), remain, &c);
  *newcomm = MPI_Comm_c2f(c);
}
void mpi_comm_free_(F *comm, F *ierr) {
  MPI_Comm c = comm_of(comm);
  *ierr = MPI_Comm_free(&c);
  *comm = MPI_Comm_c2f(c);
}

/* ---- Error handlers (errors.c) ---- */

void mpi_comm_create_errhandler_(ft_f_errhandler_fn *fn, F *handler, F *ierr) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Errhandler h = MPI_ERRHANDLER_NULL;
  *ierr = ft_err_create_fortran(rt, fn, &h);
  *handler = MPI_Errhandler_c2f(h);
}
void mpi_comm_set_errhandler_(F *comm, F *handler, F *ierr) {
  *ierr = MPI_Comm_set_errhandler(comm_of(comm), MPI_Errhandler_f2c(*handler));
}
void mpi_comm_get_errhandler_(F *comm, F *handler, F *ierr) {
  MPI_Errhandler h = MPI_ERRHANDLER_NULL;
  *ierr = MPI_Comm_get_errhandler(comm_of(comm), &h);
  *handler = MPI_Errhandler_c2f(h);
}
void mpi_comm_call_errhandler_(F *comm, F *code, F *ierr) {
  *ierr = MPI_Comm_call_errhandler(comm_of(comm), *code);
}

/* ---- Point to point ---- */

void mpi_send_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
               F *ierr) {
  *ierr =
      MPI_Send(buf_of(buf), *count, type_of(type), *dest, *tag, comm_of(comm));
}
void mpi_ssend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                F *ierr) {
  *ierr =
      MPI_Ssend(buf_of(buf), *count, type_of(type), *dest, *tag, comm_of(comm));
}
void mpi_rsend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                F *ierr) {
  *ierr =
      MPI_Rsend(buf_of(buf), *count, type_of(type), *dest, *tag, comm_of(comm));
}
void mpi_issend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                 F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Issend(buf_of(buf), *count, type_of(type), *dest, *tag,
                     comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_irsend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                 F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Irsend(buf_of(buf), *count, type_of(type), *dest, *tag,
                     comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_sendrecv_replace_(void *buf, F *count, F *type, F *dest, F *stag,
                           F *source, F *rtag, F *comm, F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  *ierr = MPI_Sendrecv_replace(buf_of(buf), *count, type_of(type), *dest, *stag,
                               *source, *rtag, comm_of(comm), s);
  f_status(s, status);
}
void mpi_recv_(void *buf, F *count, F *type, F *source, F *tag, F *comm,
               F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  *ierr = MPI_Recv(buf_of(buf), *count, type_of(type), *source, *tag,
                   comm_of(comm), s);
  f_status(s, status);
}
void mpi_isend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Isend(buf_of(buf), *count, type_of(type), *dest, *tag,
                    comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_irecv_(void *buf, F *count, F *type, F *source, F *tag, F *comm,
                F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Irecv(buf_of(buf), *count, type_of(type), *source, *tag,
                    comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag,
                   void *rbuf, F *rcount, F *rtype, F *source, F *rtag, F *comm,
                   F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  *ierr = MPI_Sendrecv(buf_of(sbuf), *scount, type_of(stype), *dest, *stag,
                       buf_of(rbuf), *rcount, type_of(rtype), *source, *rtag,
                       comm_of(comm), s);
  f_status(s, status);
}
void mpi_probe_(F *source, F *tag, F *comm, F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  *ierr = MPI_Probe(*source, *tag, comm_of(comm), s);
  f_status(s, status);
}
void mpi_iprobe_(F *source, F *tag, F *comm, F *flag, F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  int fl = 0;
  *ierr = MPI_Iprobe(*source, *tag, comm_of(comm), &fl, s);
  *flag = fl;
  if (fl)
    f_status(s, status);
}

/* ---- Completion ---- */

void mpi_wait_(F *request, F *status, F *ierr) {
  MPI_Request r = MPI_Request_f2c(*request);
  MPI_Status tmp, *s = c_status(status, &tmp);
  *ierr = MPI_Wait(&r, s);
  *request = MPI_Request_c2f(r);
  f_status(s, status);
}
void mpi_waitall_(F *n, F *requests, F *statuses, F *ierr) {
  MPI_Status *tmp, *s = c_statuses(*n, statuses, &tmp);
  MPI_Request *r = to_c(*n, requests);
  *ierr = MPI_Waitall(*n, r, s);
  from_c(*n, r, requests);
  f_statuses(*n, tmp, statuses);
}
void mpi_waitany_(F *n, F *requests, F *index, F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  MPI_Request *r = to_c(*n, requests);
  int i;
  *ierr = MPI_Waitany(*n, r, &i, s);
  from_c(*n, r, requests);
  *index = i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
  f_status(s, status);
}
void mpi_waitsome_(F *n, F *requests, F *outcount, F *indices, F *statuses,
                   F *ierr) {
  MPI_Status *tmp, *s = c_statuses(*n, statuses, &tmp);
  MPI_Request *r = to_c(*n, requests);
  int out, *idx = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *idx);
  if (!idx)
    ft_fatal("out of memory in mpi_waitsome");
  *ierr = MPI_Waitsome(*n, r, &out, idx, s);
  from_c(*n, r, requests);
  *outcount = out;
  for (int i = 0; out != MPI_UNDEFINED && i < out; i++)
    indices[i] = idx[i] + 1;
  f_statuses(out == MPI_UNDEFINED ? 0 : out, tmp, statuses);
  free(idx);
}
void mpi_test_(F *request, F *flag, F *status, F *ierr) {
  MPI_Request r = MPI_Request_f2c(*request);
  MPI_Status tmp, *s = c_status(status, &tmp);
  int fl = 0;
  *ierr = MPI_Test(&r, &fl, s);
  *request = MPI_Request_c2f(r);
  *flag = fl;
  if (fl)
    f_status(s, status);
}
void mpi_request_free_(F *request, F *ierr) {
  MPI_Request r = MPI_Request_f2c(*request);
  *ierr = MPI_Request_free(&r);
  *request = MPI_Request_c2f(r);
}
void mpi_comm_create_group_(F *comm, F *group, F *tag, F *newcomm, F *ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_create_group(comm_of(comm), MPI_Group_f2c(*group), *tag, &c);
  *newcomm = MPI_Comm_c2f(c);
}
/* ---- Queries answered by the runtime (comm.c, types.c) ---- */

/* A predefined attribute is an INTEGER in Fortran (C gives a pointer to
 * it); an application's own is the value it set. */
void mpi_comm_get_attr_(F *comm, F *keyval, MPI_Aint *value, F *flag, F *ierr) {
  void *v = NULL;
  int fl = 0, k = *keyval;
  *ierr = MPI_Comm_get_attr(comm_of(comm), k, &v, &fl);
  *flag = fl;
  if (!fl)
    return;
  int predefined = k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO ||
                   k == MPI_WTIME_IS_GLOBAL || k == MPI_UNIVERSE_SIZE ||
                   k == MPI_APPNUM || k == MPI_LASTUSEDCODE;
  *value = predefined ? *(const int *)v : (MPI_Aint)(intptr_t)v;
}
void mpi_topo_test_(F *comm, F *status, F *ierr) {
  int st = MPI_UNDEFINED;
  *ierr = MPI_Topo_test(comm_of(comm), &st);
  *status = st;
}
void mpi_get_elements_(F *status, F *type, F *count, F *ierr) {
  MPI_Status c;
  int n = 0;
  ft_backend_status_f2c(status, &c);
  *ierr = MPI_Get_elements(&c, type_of(type), &n);
  *count = n;
}
void mpi_cancel_(F *request, F *ierr) {
  MPI_Request r = MPI_Request_f2c(*request);
  *ierr = MPI_Cancel(&r);
}

/* ---- Persistent requests (persist.c) ---- */

void mpi_send_init_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                    F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Send_init(buf_of(buf), *count, type_of(type), *dest, *tag,
                        comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_ssend_init_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                     F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Ssend_init(buf_of(buf), *count, type_of(type), *dest, *tag,
                         comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_rsend_init_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,
                     F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Rsend_init(buf_of(buf), *count, type_of(type), *dest, *tag,
                         comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_recv_init_(void *buf, F *count, F *type, F *source, F *tag, F *comm,
                    F *request, F *ierr) {
  MPI_Request r;
  *ierr = MPI_Recv_init(buf_of(buf), *count, type_of(type), *source, *tag,
                        comm_of(comm), &r);
  *request = MPI_Request_c2f(r);
}
void mpi_start_(F *request, F *ierr) {
  MPI_Request r = MPI_Request_f2c(*request);
  *ierr = MPI_Start(&r);
}
void mpi_startall_(F *n, F *requests, F *ierr) {
  MPI_Request *r = to_c(*n, requests);
  *ierr = MPI_Startall(*n, r);
  from_c(*n, r, requests);
}
void mpi_testall_(F *n, F *requests, F *flag, F *statuses, F *ierr) {
  MPI_Status *tmp, *s = c_statuses(*n, statuses, &tmp);
  MPI_Request *r = to_c(*n, requests);
  int fl = 0;
  *ierr = MPI_Testall(*n, r, &fl, s);
  from_c(*n, r, requests);
  *flag = fl;
  f_statuses(fl ? *n : 0, tmp, statuses);
}
void mpi_testany_(F *n, F *requests, F *index, F *flag, F *status, F *ierr) {
  MPI_Status tmp, *s = c_status(status, &tmp);
  MPI_Request *r = to_c(*n, requests);
  int i, fl = 0;
  *ierr = MPI_Testany(*n, r, &i, &fl, s);
  from_c(*n, r, requests);
  *flag = fl;
  *index = i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
  if (fl && i != MPI_UNDEFINED)
    f_status(s, status);
}
void mpi_testsome_(F *n, F *requests, F *outcount, F *indices, F *statuses,
                   F *ierr) {
  MPI_Status *tmp, *s = c_statuses(*n, statuses, &tmp);
  MPI_Request *r = to_c(*n, requests);
  int out, *idx = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *idx);
  if (!idx)
    ft_fatal("out of memory in mpi_testsome");
  *ierr = MPI_Testsome(*n, r, &out, idx, s);
  from_c(*n, r, requests);
  *outcount = out;
  for (int i = 0; out != MPI_UNDEFINED && i < out; i++)
    indices[i] = idx[i] + 1;
  f_statuses(out == MPI_UNDEFINED ? 0 : out, tmp, statuses);
  free(idx);
}

/* ---- Collectives ---- */

void mpi_barrier_(F *comm, F *ierr) { *ierr = MPI_Barrier(comm_of(comm)); }
void mpi_bcast_(void *buf, F *count, F *type, F *root, F *comm, F *ierr) {
  *ierr = MPI_Bcast(buf_of(buf), *count, type_of(type), *root, comm_of(comm));
}
void mpi_reduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *root,
                 F *comm, F *ierr) {
  *ierr = MPI_Reduce(in_buf(sbuf), buf_of(rbuf), *count, type_of(type),
                     MPI_Op_f2c(*op), *root, comm_of(comm));
}
void mpi_allreduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm,
                    F *ierr) {
  *ierr = MPI_Allreduce(in_buf(sbuf), buf_of(rbuf), *count, type_of(type),
                        MPI_Op_f2c(*op), comm_of(comm));
}
void mpi_gather_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount,
                 F *rtype, F *root, F *comm, F *ierr) {
  *ierr = MPI_Gather(in_buf(sbuf), *scount, type_of(stype), buf_of(rbuf),
                     *rcount, type_of(rtype), *root, comm_of(comm));
}
void mpi_gatherv_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts,
                  F *displs, F *rtype, F *root, F *comm, F *ierr) {
  *ierr = MPI_Gatherv(in_buf(sbuf), *scount, type_of(stype), buf_of(rbuf),
                      rcounts, displs, type_of(rtype), *root, comm_of(comm));
}
void mpi_scatter_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount,
                  F *rtype, F *root, F *comm, F *ierr) {
  *ierr =
      MPI_Scatter(buf_of(sbuf), *scount, type_of(stype), (void *)in_buf(rbuf),
                  *rcount, type_of(rtype), *root, comm_of(comm));
}
void mpi_scatterv_(void *sbuf, F *scounts, F *displs, F *stype, void *rbuf,
                   F *rcount, F *rtype, F *root, F *comm, F *ierr) {
  *ierr = MPI_Scatterv(buf_of(sbuf), scounts, displs, type_of(stype),
                       (void *)in_buf(rbuf), *rcount, type_of(rtype), *root,
                       comm_of(comm));
}
void mpi_allgather_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount,
                    F *rtype, F *comm, F *ierr) {
  *ierr = MPI_Allgather(in_buf(sbuf), *scount, type_of(stype), buf_of(rbuf),
                        *rcount, type_of(rtype), comm_of(comm));
}
void mpi_allgatherv_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts,
                     F *displs, F *rtype, F *comm, F *ierr) {
  *ierr = MPI_Allgatherv(in_buf(sbuf), *scount, type_of(stype), buf_of(rbuf),
                         rcounts, displs, type_of(rtype), comm_of(comm));
}
void mpi_alltoall_(void *sbuf, F *scount, F *stype, void *rbuf, F *rcount,
                   F *rtype, F *comm, F *ierr) {
  *ierr = MPI_Alltoall(in_buf(sbuf), *scount, type_of(stype), buf_of(rbuf),
                       *rcount, type_of(rtype), comm_of(comm));
}
void mpi_alltoallv_(void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf,
                    F *rcounts, F *rdispls, F *rtype, F *comm, F *ierr) {
  *ierr = MPI_Alltoallv(in_buf(sbuf), scounts, sdispls, type_of(stype), rbuf,
                        rcounts, rdispls, type_of(rtype), comm_of(comm));
}
void mpi_scan_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm,
               F *ierr) {
  *ierr = MPI_Scan(in_buf(sbuf), buf_of(rbuf), *count, type_of(type),
                   MPI_Op_f2c(*op), comm_of(comm));
}
void mpi_exscan_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm,
                 F *ierr) {
  *ierr = MPI_Exscan(in_buf(sbuf), buf_of(rbuf), *count, type_of(type),
                     MPI_Op_f2c(*op), comm_of(comm));
}
void mpi_reduce_scatter_(void *sbuf, void *rbuf, F *rcounts, F *type, F *op,
                         F *comm, F *ierr) {
  *ierr = MPI_Reduce_scatter(in_buf(sbuf), buf_of(rbuf), rcounts, type_of(type),
                             MPI_Op_f2c(*op), comm_of(comm));
}
void mpi_reduce_scatter_block_(void *sbuf, void *rbuf, F *rcount, F *type,
                               F *op, F *comm, F *ierr) {
  *ierr =
      MPI_Reduce_scatter_block(in_buf(sbuf), buf_of(rbuf), *rcount,
                               type_of(type), MPI_Op_f2c(*op), comm_of(comm));
}

/* Type arrays: Fortran handles -> a C array (free it). */
static MPI_Datatype *types_of(int n, const F *f) {
  MPI_Datatype *c = malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
  if (!c)
    ft_fatal("out of memory converting %d Fortran datatypes", n);
  for (int i = 0; i < n; i++)
    c[i] = MPI_Type_f2c(f[i]);
  return c;
}
void mpi_alltoallw_(void *sbuf, F *scounts, F *sdispls, F *stypes, void *rbuf,
                    F *rcounts, F *rdispls, F *rtypes, F *comm, F *ierr) {
  int n = 0;
  MPI_Comm_size(comm_of(comm), &n);
  MPI_Datatype *st = types_of(n, stypes), *rt = types_of(n, rtypes);
  *ierr = MPI_Alltoallw(in_buf(sbuf), scounts, sdispls, st, buf_of(rbuf),
                        rcounts, rdispls, rt, comm_of(comm));
  free(st);
  free(rt);
}

/* ---- Calls the runtime does not support (unsupported.c) ----
 *
 * Without these, SimGrid's (or the MPI's) own Fortran bindings would make
 * them behind the runtime's back. The arguments are never read, so the
 * stubs declare none. */

#define FT_UNSUPPORTED_F(fname, cname)                                         \
  void fname(void);                                                            \
  void fname(void) { ft_unsupported(cname); }
FT_UNSUPPORTED_F(mpi_ibarrier_, "MPI_Ibarrier")
FT_UNSUPPORTED_F(mpi_ibcast_, "MPI_Ibcast")
FT_UNSUPPORTED_F(mpi_igather_, "MPI_Igather")
FT_UNSUPPORTED_F(mpi_igatherv_, "MPI_Igatherv")
FT_UNSUPPORTED_F(mpi_iallgather_, "MPI_Iallgather")
FT_UNSUPPORTED_F(mpi_iallgatherv_, "MPI_Iallgatherv")
FT_UNSUPPORTED_F(mpi_iscatter_, "MPI_Iscatter")
FT_UNSUPPORTED_F(mpi_iscatterv_, "MPI_Iscatterv")
FT_UNSUPPORTED_F(mpi_ireduce_, "MPI_Ireduce")
FT_UNSUPPORTED_F(mpi_iallreduce_, "MPI_Iallreduce")
FT_UNSUPPORTED_F(mpi_iscan_, "MPI_Iscan")
FT_UNSUPPORTED_F(mpi_iexscan_, "MPI_Iexscan")
FT_UNSUPPORTED_F(mpi_ireduce_scatter_, "MPI_Ireduce_scatter")
FT_UNSUPPORTED_F(mpi_ireduce_scatter_block_, "MPI_Ireduce_scatter_block")
FT_UNSUPPORTED_F(mpi_ialltoall_, "MPI_Ialltoall")
FT_UNSUPPORTED_F(mpi_ialltoallv_, "MPI_Ialltoallv")
FT_UNSUPPORTED_F(mpi_ialltoallw_, "MPI_Ialltoallw")
FT_UNSUPPORTED_F(mpi_neighbor_allgather_, "MPI_Neighbor_allgather")
FT_UNSUPPORTED_F(mpi_neighbor_allgatherv_, "MPI_Neighbor_allgatherv")
FT_UNSUPPORTED_F(mpi_neighbor_alltoall_, "MPI_Neighbor_alltoall")
FT_UNSUPPORTED_F(mpi_neighbor_alltoallv_, "MPI_Neighbor_alltoallv")
FT_UNSUPPORTED_F(mpi_neighbor_alltoallw_, "MPI_Neighbor_alltoallw")
FT_UNSUPPORTED_F(mpi_ineighbor_allgather_, "MPI_Ineighbor_allgather")
FT_UNSUPPORTED_F(mpi_ineighbor_allgatherv_, "MPI_Ineighbor_allgatherv")
FT_UNSUPPORTED_F(mpi_ineighbor_alltoall_, "MPI_Ineighbor_alltoall")
FT_UNSUPPORTED_F(mpi_ineighbor_alltoallv_, "MPI_Ineighbor_alltoallv")
FT_UNSUPPORTED_F(mpi_ineighbor_alltoallw_, "MPI_Ineighbor_alltoallw")
FT_UNSUPPORTED_F(mpi_bsend_, "MPI_Bsend")
FT_UNSUPPORTED_F(mpi_ibsend_, "MPI_Ibsend")
FT_UNSUPPORTED_F(mpi_bsend_init_, "MPI_Bsend_init")
FT_UNSUPPORTED_F(mpi_mprobe_, "MPI_Mprobe")
FT_UNSUPPORTED_F(mpi_improbe_, "MPI_Improbe")
FT_UNSUPPORTED_F(mpi_comm_idup_, "MPI_Comm_idup")
FT_UNSUPPORTED_F(mpi_graph_create_, "MPI_Graph_create")
FT_UNSUPPORTED_F(mpi_dist_graph_create_, "MPI_Dist_graph_create")
FT_UNSUPPORTED_F(mpi_dist_graph_create_adjacent_,
                 "MPI_Dist_graph_create_adjacent")
FT_UNSUPPORTED_F(mpi_intercomm_create_, "MPI_Intercomm_create")
FT_UNSUPPORTED_F(mpi_intercomm_merge_, "MPI_Intercomm_merge")
FT_UNSUPPORTED_F(mpi_comm_spawn_, "MPI_Comm_spawn")
FT_UNSUPPORTED_F(mpi_comm_connect_, "MPI_Comm_connect")
FT_UNSUPPORTED_F(mpi_comm_accept_, "MPI_Comm_accept")
FT_UNSUPPORTED_F(mpi_comm_join_, "MPI_Comm_join")
FT_UNSUPPORTED_F(mpi_win_create_, "MPI_Win_create")
FT_UNSUPPORTED_F(mpi_win_allocate_, "MPI_Win_allocate")
FT_UNSUPPORTED_F(mpi_win_allocate_shared_, "MPI_Win_allocate_shared")
FT_UNSUPPORTED_F(mpi_win_create_dynamic_, "MPI_Win_create_dynamic")
FT_UNSUPPORTED_F(mpi_file_open_, "MPI_File_open")
