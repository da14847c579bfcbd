/*
 * Describes the ABI of the MPI library this file is compiled against, so the
 * Java binding never hard-codes one library's layout. Compiled with that
 * library's mpicc and run once per library (no MPI_Init needed); the output is
 * a Java properties file:
 *
 *   library.path       where libmpi was loaded from (dladdr of MPI_Init)
 *   handle.bytes       width of MPI_Comm (8 in Open MPI, 4 in MPICH)
 *   status.*           size of MPI_Status and offsets of its public fields
 *   const.NAME         integer constants (MPI_ANY_SOURCE, error classes, ...)
 *   handle.NAME        symbol:NAME for handles that are addresses of exported
 *                      objects (Open MPI), int:VALUE for integer handles (MPICH)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>

static void print_const(const char *name, long long value) {
    printf("const.%s=%lld\n", name, value);
}

static void print_handle_bits(const char *name, const void *handle_storage, size_t width) {
    if (width == sizeof(void *)) {
        void *address;
        memcpy(&address, handle_storage, sizeof address);
        Dl_info info;
        if (address != NULL && dladdr(address, &info) && info.dli_sname != NULL
                && info.dli_saddr == address) {
            printf("handle.%s=symbol:%s\n", name, info.dli_sname);
            return;
        }
        printf("handle.%s=int:%lld\n", name, (long long) (intptr_t) address);
    } else {
        int value;
        memcpy(&value, handle_storage, sizeof value);
        printf("handle.%s=int:%d\n", name, value);
    }
}

#define CONST(x) print_const(#x, (long long) (x))
#define HANDLE(x) do { __typeof__(x) h__ = (x); print_handle_bits(#x, &h__, sizeof h__); } while (0)

int main(void) {
    Dl_info lib;
    if (dladdr((void *) &MPI_Init, &lib) && lib.dli_fname != NULL) {
        printf("library.path=%s\n", lib.dli_fname);
    }
#ifdef OMPI_MAJOR_VERSION
    printf("library.family=openmpi\n");
    printf("library.version=%d.%d.%d\n", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
    printf("library.family=mpich\n");
    printf("library.version=%s\n", MPICH_VERSION);
#else
    printf("library.family=unknown\n");
#endif
    printf("mpi.version=%d.%d\n", MPI_VERSION, MPI_SUBVERSION);
    printf("handle.bytes=%zu\n", sizeof(MPI_Comm));
    printf("aint.bytes=%zu\n", sizeof(MPI_Aint));
    printf("count.bytes=%zu\n", sizeof(MPI_Count));
    printf("status.bytes=%zu\n", sizeof(MPI_Status));
    printf("status.source=%zu\n", offsetof(MPI_Status, MPI_SOURCE));
    printf("status.tag=%zu\n", offsetof(MPI_Status, MPI_TAG));
    printf("status.error=%zu\n", offsetof(MPI_Status, MPI_ERROR));
    printf("bottom.address=%lld\n", (long long) (intptr_t) MPI_BOTTOM);

    CONST(MPI_SUCCESS); CONST(MPI_ANY_SOURCE); CONST(MPI_ANY_TAG); CONST(MPI_PROC_NULL);
    CONST(MPI_ROOT); CONST(MPI_UNDEFINED); CONST(MPI_TAG_UB); CONST(MPI_MAX_ERROR_STRING);
    CONST(MPI_MAX_PROCESSOR_NAME); CONST(MPI_MAX_OBJECT_NAME); CONST(MPI_BSEND_OVERHEAD);
    CONST(MPI_THREAD_SINGLE); CONST(MPI_THREAD_FUNNELED); CONST(MPI_THREAD_SERIALIZED);
    CONST(MPI_THREAD_MULTIPLE); CONST(MPI_IDENT); CONST(MPI_CONGRUENT); CONST(MPI_SIMILAR);
    CONST(MPI_UNEQUAL); CONST(MPI_GRAPH); CONST(MPI_CART); CONST(MPI_DIST_GRAPH);
    CONST(MPI_COMM_TYPE_SHARED); CONST(MPI_KEYVAL_INVALID);
    CONST(MPI_ERR_BUFFER); CONST(MPI_ERR_COUNT); CONST(MPI_ERR_TYPE); CONST(MPI_ERR_TAG);
    CONST(MPI_ERR_COMM); CONST(MPI_ERR_RANK); CONST(MPI_ERR_REQUEST); CONST(MPI_ERR_ROOT);
    CONST(MPI_ERR_GROUP); CONST(MPI_ERR_OP); CONST(MPI_ERR_TOPOLOGY); CONST(MPI_ERR_DIMS);
    CONST(MPI_ERR_ARG); CONST(MPI_ERR_UNKNOWN); CONST(MPI_ERR_TRUNCATE); CONST(MPI_ERR_OTHER);
    CONST(MPI_ERR_INTERN); CONST(MPI_ERR_IN_STATUS); CONST(MPI_ERR_PENDING);
    CONST(MPI_ERR_ACCESS); CONST(MPI_ERR_AMODE); CONST(MPI_ERR_ASSERT);
    CONST(MPI_ERR_BAD_FILE); CONST(MPI_ERR_BASE); CONST(MPI_ERR_CONVERSION);
    CONST(MPI_ERR_DISP); CONST(MPI_ERR_DUP_DATAREP); CONST(MPI_ERR_FILE_EXISTS);
    CONST(MPI_ERR_FILE_IN_USE); CONST(MPI_ERR_FILE); CONST(MPI_ERR_INFO_KEY);
    CONST(MPI_ERR_INFO_NOKEY); CONST(MPI_ERR_INFO_VALUE); CONST(MPI_ERR_INFO);
    CONST(MPI_ERR_IO); CONST(MPI_ERR_KEYVAL); CONST(MPI_ERR_LOCKTYPE); CONST(MPI_ERR_NAME);
    CONST(MPI_ERR_NO_MEM); CONST(MPI_ERR_NOT_SAME); CONST(MPI_ERR_NO_SPACE);
    CONST(MPI_ERR_NO_SUCH_FILE); CONST(MPI_ERR_PORT); CONST(MPI_ERR_QUOTA);
    CONST(MPI_ERR_READ_ONLY); CONST(MPI_ERR_RMA_CONFLICT); CONST(MPI_ERR_RMA_SYNC);
    CONST(MPI_ERR_SERVICE); CONST(MPI_ERR_SIZE); CONST(MPI_ERR_SPAWN);
    CONST(MPI_ERR_UNSUPPORTED_DATAREP); CONST(MPI_ERR_UNSUPPORTED_OPERATION);
    CONST(MPI_ERR_WIN); CONST(MPI_ERR_LASTCODE);
    CONST(MPI_COMBINER_NAMED); CONST(MPI_COMBINER_CONTIGUOUS); CONST(MPI_COMBINER_VECTOR);
    CONST(MPI_COMBINER_HVECTOR); CONST(MPI_COMBINER_INDEXED); CONST(MPI_COMBINER_HINDEXED);
    CONST(MPI_COMBINER_INDEXED_BLOCK); CONST(MPI_COMBINER_STRUCT); CONST(MPI_COMBINER_RESIZED);
    CONST(MPI_COMBINER_DUP);

    HANDLE(MPI_COMM_WORLD); HANDLE(MPI_COMM_SELF); HANDLE(MPI_COMM_NULL);
    HANDLE(MPI_GROUP_EMPTY); HANDLE(MPI_GROUP_NULL); HANDLE(MPI_REQUEST_NULL);
    HANDLE(MPI_DATATYPE_NULL); HANDLE(MPI_OP_NULL); HANDLE(MPI_ERRHANDLER_NULL);
    HANDLE(MPI_INFO_NULL); HANDLE(MPI_MESSAGE_NULL); HANDLE(MPI_MESSAGE_NO_PROC);
    HANDLE(MPI_ERRORS_RETURN); HANDLE(MPI_ERRORS_ARE_FATAL);
    HANDLE(MPI_BYTE); HANDLE(MPI_CHAR); HANDLE(MPI_SIGNED_CHAR); HANDLE(MPI_UNSIGNED_CHAR);
    HANDLE(MPI_SHORT); HANDLE(MPI_UNSIGNED_SHORT); HANDLE(MPI_INT); HANDLE(MPI_UNSIGNED);
    HANDLE(MPI_LONG); HANDLE(MPI_UNSIGNED_LONG); HANDLE(MPI_LONG_LONG); HANDLE(MPI_FLOAT);
    HANDLE(MPI_DOUBLE); HANDLE(MPI_PACKED); HANDLE(MPI_INT8_T); HANDLE(MPI_INT16_T);
    HANDLE(MPI_INT32_T); HANDLE(MPI_INT64_T); HANDLE(MPI_UINT16_T); HANDLE(MPI_C_BOOL);
    HANDLE(MPI_C_FLOAT_COMPLEX); HANDLE(MPI_C_DOUBLE_COMPLEX); HANDLE(MPI_2INT);
    HANDLE(MPI_SHORT_INT); HANDLE(MPI_LONG_INT); HANDLE(MPI_FLOAT_INT); HANDLE(MPI_DOUBLE_INT);
    HANDLE(MPI_MAX); HANDLE(MPI_MIN); HANDLE(MPI_SUM); HANDLE(MPI_PROD); HANDLE(MPI_LAND);
    HANDLE(MPI_BAND); HANDLE(MPI_LOR); HANDLE(MPI_BOR); HANDLE(MPI_LXOR); HANDLE(MPI_BXOR);
    HANDLE(MPI_MINLOC); HANDLE(MPI_MAXLOC); HANDLE(MPI_REPLACE); HANDLE(MPI_NO_OP);
    return 0;
}
