/*
 * Names of the MPI error classes, so the programs here print the same words
 * on every library (the numbers differ: MPI_ERR_REQUEST is 7 in Open MPI 4.1
 * and 19 in MPICH 4.0). Shared by the programs of this directory only.
 */
#ifndef FTHP_ERRNAMES_H
#define FTHP_ERRNAMES_H

#include <mpi.h>
#include <stdio.h>

#define FTHP_ERR_ENTRY(x) { x, #x }

static const struct { int value; const char *name; } fthp_err_classes[] = {
    FTHP_ERR_ENTRY(MPI_SUCCESS), FTHP_ERR_ENTRY(MPI_ERR_BUFFER), FTHP_ERR_ENTRY(MPI_ERR_COUNT),
    FTHP_ERR_ENTRY(MPI_ERR_TYPE), FTHP_ERR_ENTRY(MPI_ERR_TAG), FTHP_ERR_ENTRY(MPI_ERR_COMM),
    FTHP_ERR_ENTRY(MPI_ERR_RANK), FTHP_ERR_ENTRY(MPI_ERR_REQUEST), FTHP_ERR_ENTRY(MPI_ERR_ROOT),
    FTHP_ERR_ENTRY(MPI_ERR_GROUP), FTHP_ERR_ENTRY(MPI_ERR_OP), FTHP_ERR_ENTRY(MPI_ERR_TOPOLOGY),
    FTHP_ERR_ENTRY(MPI_ERR_DIMS), FTHP_ERR_ENTRY(MPI_ERR_ARG), FTHP_ERR_ENTRY(MPI_ERR_UNKNOWN),
    FTHP_ERR_ENTRY(MPI_ERR_TRUNCATE), FTHP_ERR_ENTRY(MPI_ERR_OTHER), FTHP_ERR_ENTRY(MPI_ERR_INTERN),
    FTHP_ERR_ENTRY(MPI_ERR_IN_STATUS), FTHP_ERR_ENTRY(MPI_ERR_PENDING), FTHP_ERR_ENTRY(MPI_ERR_KEYVAL),
    FTHP_ERR_ENTRY(MPI_ERR_NO_MEM), FTHP_ERR_ENTRY(MPI_ERR_INFO), FTHP_ERR_ENTRY(MPI_ERR_SIZE),
    FTHP_ERR_ENTRY(MPI_ERR_WIN), FTHP_ERR_ENTRY(MPI_ERR_UNSUPPORTED_OPERATION),
};

/* "MPI_ERR_RANK" for a class, "class N" for one not in the table. */
static const char *fthp_class_name(int cls) {
    static char other[32];
    for (size_t i = 0; i < sizeof fthp_err_classes / sizeof fthp_err_classes[0]; i++) {
        if (fthp_err_classes[i].value == cls) {
            return fthp_err_classes[i].name;
        }
    }
    snprintf(other, sizeof other, "class %d", cls);
    return other;
}

/* The class of an error code (MPICH returns codes that are not classes). */
static int fthp_class_of(int code) {
    int cls = code;
    if (code != MPI_SUCCESS && MPI_Error_class(code, &cls) != MPI_SUCCESS) {
        return code;
    }
    return cls;
}

#endif
