/*
 * The small-message hot path of EMPI as a few fat native calls, compiled at first use with the installed MPI's
 * compiler wrapper (one library per MPI flavour: handle widths and MPI_Status differ between Open MPI and MPICH)
 * and reached two ways: as JNI methods of org.fthp.empi.fast.JniCalls, which the interpreter and C1 call nearly as
 * cheaply as C2 does, and as plain C symbols (fthp_fp_*) for FFM downcalls.
 *
 * Every call here returns at once: posts and tests only, never a blocking MPI call (a peer may be dead).
 * Request slots and statuses are native memory Java owns, in EMPI's layouts (Empi.allocateHandles/allocateStatuses):
 * handles are passed as Java longs, which hold an Open MPI pointer or an MPICH int alike.
 *
 * Results of the test calls: 1 complete, 0 pending, negative: minus the MPI error code.
 */
#include <jni.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#define H_DATATYPE(h) ((MPI_Datatype) (intptr_t) (h))
#define H_COMM(h) ((MPI_Comm) (intptr_t) (h))
#define PTR(a) ((void *) (intptr_t) (a))

static int test_once(MPI_Request *request, MPI_Status *status) {
    int flag = 0;
    int rc = MPI_Test(request, &flag, status);
    return rc != MPI_SUCCESS ? -rc : flag;
}

/* The message header (msglog.MessageHeader's layout) at the start of staging. */
static void put_header(char *out, int32_t commId, int32_t source, int64_t sendId, int32_t flags, int32_t payload) {
    memcpy(out, &commId, 4);
    memcpy(out + 4, &source, 4);
    memcpy(out + 8, &sendId, 8);
    memcpy(out + 16, &flags, 4);
    memcpy(out + 20, &payload, 4);
}

/* ---- plain C, for FFM downcalls ---- */

/* The sizes of the headers this was built with: the loaders refuse a library built for another MPI. */
int fthp_fp_request_bytes(void) {
    return (int) sizeof(MPI_Request);
}

int fthp_fp_status_bytes(void) {
    return (int) sizeof(MPI_Status);
}

/* MPI_Isend then one MPI_Test: 1 if the send completed at once (the request slot is then MPI_REQUEST_NULL). */
int fthp_fp_isend_test(void *buf, int count, int64_t datatype, int dest, int tag, int64_t comm,
                       MPI_Request *request, MPI_Status *status) {
    int rc = MPI_Isend(buf, count, H_DATATYPE(datatype), dest, tag, H_COMM(comm), request);
    return rc != MPI_SUCCESS ? -rc : test_once(request, status);
}

/* MPI_Irecv then one MPI_Test. */
int fthp_fp_irecv_test(void *buf, int count, int64_t datatype, int source, int tag, int64_t comm,
                       MPI_Request *request, MPI_Status *status) {
    int rc = MPI_Irecv(buf, count, H_DATATYPE(datatype), source, tag, H_COMM(comm), request);
    return rc != MPI_SUCCESS ? -rc : test_once(request, status);
}

/* MPI_Test with the flag as the result, no flag cell to read back. */
int fthp_fp_test(MPI_Request *request, MPI_Status *status) {
    return test_once(request, status);
}

/*
 * A completed receive's status as one long: source in the high 32 bits, the received byte count in the low 32
 * (MPI_Get_count over MPI_BYTE; -1 as MPI_UNDEFINED). The tag stays in the status for the callers that asked for
 * any tag.
 */
int64_t fthp_fp_status_word(MPI_Status *status) {
    int count = 0;
    MPI_Get_count(status, MPI_BYTE, &count);
    return ((int64_t) status->MPI_SOURCE << 32) | (uint32_t) count;
}

/* ---- JNI: static natives of org.fthp.empi.fast.JniCalls ---- */

JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_requestBytes(JNIEnv *env, jclass cls) {
    return fthp_fp_request_bytes();
}

JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_statusBytes(JNIEnv *env, jclass cls) {
    return fthp_fp_status_bytes();
}

JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_irecvTest(JNIEnv *env, jclass cls, jlong buf, jint count,
        jlong datatype, jint source, jint tag, jlong comm, jlong request, jlong status) {
    return fthp_fp_irecv_test(PTR(buf), count, datatype, source, tag, comm, PTR(request), PTR(status));
}

JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_test(JNIEnv *env, jclass cls, jlong request, jlong status) {
    return test_once(PTR(request), PTR(status));
}

/*
 * MPI_Isend of a headed message in staging, then up to tests MPI_Tests (at least one) until it completes. Open MPI's
 * shared memory completes a send past its inline size (256 B by default) only when the receiver hands the
 * fragment back, tens of tests later while the receiver polls: a few more tests here mostly spare the caller a
 * send left in flight (an operation to keep, detach and complete later); bounded, it never waits on a peer longer
 * than tests tests.
 */
static int isend_headed(char *staging, int length, int dest, int tag, int64_t comm, MPI_Request *request,
                        MPI_Status *status, int tests) {
    int done = fthp_fp_isend_test(staging, length, (int64_t) (intptr_t) MPI_BYTE, dest, tag, comm, request, status);
    for (int i = 1; done == 0 && i < tests; i++) {
        done = test_once(request, status);
    }
    return done;
}

/* Copies length bytes of array from offset to the native address staging, then MPI_Isend + one MPI_Test. */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_isendArrayTest(JNIEnv *env, jclass cls, jbyteArray array,
        jint offset, jint length, jlong staging, jlong datatype, jint dest, jint tag, jlong comm, jlong request,
        jlong status) {
    (*env)->GetByteArrayRegion(env, array, offset, length, (jbyte *) PTR(staging));
    if ((*env)->ExceptionCheck(env)) {
        return 0; /* the ArrayIndexOutOfBoundsException is pending: Java sees it, nothing was posted */
    }
    return fthp_fp_isend_test(PTR(staging), length, datatype, dest, tag, comm, PTR(request), PTR(status));
}

/* One MPI_Test of a receive into staging; when complete, copies length bytes to array at offset. */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_testCopyOut(JNIEnv *env, jclass cls, jlong request,
        jlong status, jlong staging, jbyteArray array, jint offset, jint length) {
    int done = test_once(PTR(request), PTR(status));
    if (done == 1 && length > 0) {
        (*env)->SetByteArrayRegion(env, array, offset, length, (const jbyte *) PTR(staging));
    }
    return done;
}

/* Copies native memory into a byte[], for callers that post themselves. */
JNIEXPORT void JNICALL Java_org_fthp_empi_fast_JniCalls_copyOut(JNIEnv *env, jclass cls, jlong address,
        jbyteArray array, jint offset, jint length) {
    (*env)->SetByteArrayRegion(env, array, offset, length, (const jbyte *) PTR(address));
}

/* ---- a headed message (org.fthp.msglog.MessageHeader: int comm id, int source, long send id, int flags,
 * int payload bytes, native order, 24 bytes) with its payload from or to a Java primitive array ---- */

#define HEADER_BYTES 24
#define FLAG_RENDEZVOUS 1

/*
 * Writes the header and copies payload bytes of array (any primitive element type; bytes: it is a byte[]) from
 * byte arrayByte into staging after it, then MPI_Isend of the whole and up to tests MPI_Tests (isend_headed). The
 * caller checked the bounds and the room.
 * The array is pinned only for the memcpy (GetPrimitiveArrayCritical: no JNI or MPI call while held).
 */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_sendHeaded(JNIEnv *env, jclass cls, jobject array,
        jboolean bytes, jlong arrayByte, jint payload, jlong staging, jint commId, jint source, jlong sendId, jint flags,
        jint dest, jint tag, jlong comm, jlong request, jlong status, jint tests) {
    char *out = PTR(staging);
    put_header(out, commId, source, sendId, flags, payload);
    if (payload > 0 && bytes) {
        /* a byte[]: a plain region copy, without pinning the array (no GC locker) */
        (*env)->GetByteArrayRegion(env, (jbyteArray) array, (jsize) arrayByte, payload, (jbyte *) (out + HEADER_BYTES));
    } else if (payload > 0) {
        char *a = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
        if (a == NULL) {
            return 0; /* OutOfMemoryError pending: nothing was posted */
        }
        memcpy(out + HEADER_BYTES, a + arrayByte, (size_t) payload);
        (*env)->ReleasePrimitiveArrayCritical(env, array, a, JNI_ABORT);
    }
    return isend_headed(out, HEADER_BYTES + payload, dest, tag, comm, PTR(request), PTR(status), tests);
}

/*
 * A completed headed receive (see testReceiveHeaded): its header into out, its payload's whole items into array.
 * 1, or 0 with an OutOfMemoryError pending.
 */
static jint fill_received(JNIEnv *env, MPI_Status *st, jlong staging, jint capacity, jobject array, jboolean bytes,
                          jlong arrayByte, jint itemBytes, jint items, jintArray out) {
    const char *in = PTR(staging);
    jint h[6];
    int64_t sendId;
    memcpy(&h[0], in + 16, 4);
    memcpy(&h[1], in + 20, 4);
    memcpy(&h[2], in + 4, 4);
    h[3] = st->MPI_TAG;
    memcpy(&sendId, in + 8, 8);
    h[4] = (jint) (sendId & 0xffffffff);
    h[5] = (jint) (sendId >> 32);
    (*env)->SetIntArrayRegion(env, out, 0, 6, h);
    if ((h[0] & FLAG_RENDEZVOUS) == 0 && h[1] >= 0 && h[1] <= capacity - HEADER_BYTES && itemBytes > 0) {
        int64_t n = h[1] / itemBytes;
        if (n > items) {
            n = items;
        }
        if (n > 0 && bytes) {
            (*env)->SetByteArrayRegion(env, (jbyteArray) array, (jsize) arrayByte, (jsize) (n * itemBytes),
                                       (const jbyte *) (in + HEADER_BYTES));
        } else if (n > 0) {
            char *a = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
            if (a == NULL) {
                return 0;
            }
            memcpy(a + arrayByte, in + HEADER_BYTES, (size_t) (n * itemBytes));
            (*env)->ReleasePrimitiveArrayCritical(env, array, a, 0);
        }
    }
    return 1;
}

/*
 * One MPI_Test of a headed receive into staging (capacity bytes posted). When complete: out[0] flags, [1] payload
 * bytes, [2] logical source, [3] native tag, [4] and [5] the send id's low and high halves; and when the payload
 * came with the header and fits, min(payload / itemBytes, items) whole items of it are copied into array from
 * byte arrayByte (the caller checked that items fit there). A payload that does not fit is left for the caller
 * to refuse.
 */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_testReceiveHeaded(JNIEnv *env, jclass cls, jlong request,
        jlong status, jlong staging, jint capacity, jobject array, jboolean bytes, jlong arrayByte, jint itemBytes,
        jint items, jintArray out) {
    MPI_Status *st = PTR(status);
    int done = test_once(PTR(request), st);
    if (done != 1) {
        return done;
    }
    return fill_received(env, st, staging, capacity, array, bytes, arrayByte, itemBytes, items, out);
}

/*
 * MPI_Irecv of up to capacity bytes into staging; 0, or minus the MPI error code. No test here: the payload must not
 * reach the program's array before the call that receives it has sent from it (a send-receive-replace posts its
 * receive first), so the first test comes from testReceiveHeaded.
 */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_irecvHeaded(JNIEnv *env, jclass cls, jint source, jint tag,
        jlong comm, jlong request, jlong staging, jint capacity) {
    int rc = MPI_Irecv(PTR(staging), capacity, MPI_BYTE, source, tag, H_COMM(comm), PTR(request));
    return rc != MPI_SUCCESS ? -rc : 0;
}

/*
 * irecvHeaded, then testReceiveHeaded's test: for a plain receive, whose payload may reach the program's array in
 * the call that posts it (no send from that array follows). A message already there costs one call, not two.
 * Minus the MPI error code when the receive could not be posted; else as testReceiveHeaded.
 */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_irecvTestHeaded(JNIEnv *env, jclass cls, jint source,
        jint tag, jlong comm, jlong request, jlong status, jlong staging, jint capacity, jobject array, jboolean bytes,
        jlong arrayByte, jint itemBytes, jint items, jintArray out) {
    int rc = MPI_Irecv(PTR(staging), capacity, MPI_BYTE, source, tag, H_COMM(comm), PTR(request));
    if (rc != MPI_SUCCESS) {
        return -rc;
    }
    return Java_org_fthp_empi_fast_JniCalls_testReceiveHeaded(env, cls, request, status, staging, capacity, array,
            bytes, arrayByte, itemBytes, items, out);
}

/* ---- the shallow path's receive of a primitive array: the result in the return value, no header array ---- */

#define POLL_PENDING (-1)
#define POLL_APART (-2)
#define POLL_ERROR_BASE 3

/*
 * The shallow path's poll, both entries' part of it: up to polls tests (at least one), then the completed
 * header's verdict. Sets *copy to the bytes of whole items (at most items of itemBytes) the caller copies from
 * staging after the header into the array, 0 when none; returns what the entries return (below).
 */
static int poll_headed(MPI_Request *request, MPI_Status *status, const char *staging, int capacity, int itemBytes,
                       int items, int polls, int64_t *copy) {
    *copy = 0;
    int flag = 0;
    for (int i = 0; !flag && i < polls; i++) {
        int rc = MPI_Test(request, &flag, status);
        if (rc != MPI_SUCCESS) {
            return -(POLL_ERROR_BASE + rc);
        }
    }
    if (!flag) {
        return POLL_PENDING;
    }
    int32_t flags, payload;
    memcpy(&flags, staging + 16, 4);
    memcpy(&payload, staging + 20, 4);
    if ((flags & FLAG_RENDEZVOUS) != 0 || payload < 0 || payload > capacity - HEADER_BYTES || itemBytes <= 0) {
        return POLL_APART;
    }
    int64_t n = payload / itemBytes;
    if (n > items) {
        n = items;
    }
    *copy = n > 0 ? n * itemBytes : 0;
    return payload;
}

/*
 * Polls a headed receive into staging (capacity bytes posted) up to polls times (at least once) until it
 * completes: at the native library's speed between returns to Java, where the caller's duty (a failure, a
 * rollback) runs; bounded, it never waits on a peer longer than polls tests. Results: the payload's bytes (>= 0)
 * when complete, its whole items copied into array from byte 0 (at most items of itemBytes); POLL_PENDING;
 * POLL_APART when complete with a header that says the payload travels apart or does not fit (the caller reads
 * the header from staging); -(POLL_ERROR_BASE + the MPI error code) when the test failed (the receive is then
 * complete too). No JNI function but the one array copy: a warm caller pays one call and one copy per message.
 */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_pollArray(JNIEnv *env, jclass cls, jlong request,
        jlong status, jlong staging, jint capacity, jobject array, jboolean bytes, jint itemBytes, jint items,
        jint polls) {
    const char *in = PTR(staging);
    int64_t copy;
    int result = poll_headed(PTR(request), PTR(status), in, capacity, itemBytes, items, polls, &copy);
    if (copy > 0 && bytes) {
        (*env)->SetByteArrayRegion(env, (jbyteArray) array, 0, (jsize) copy, (const jbyte *) (in + HEADER_BYTES));
    } else if (copy > 0) {
        char *a = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
        if (a == NULL) {
            return POLL_PENDING; /* OutOfMemoryError pending: Java throws it */
        }
        memcpy(a, in + HEADER_BYTES, (size_t) copy);
        (*env)->ReleasePrimitiveArrayCritical(env, array, a, 0);
    }
    return result;
}

/* MPI_Irecv of up to capacity bytes into staging, then pollArray: a plain receive posted and polled in one call. */
JNIEXPORT jint JNICALL Java_org_fthp_empi_fast_JniCalls_irecvPollArray(JNIEnv *env, jclass cls, jint source,
        jint tag, jlong comm, jlong request, jlong status, jlong staging, jint capacity, jobject array, jboolean bytes,
        jint itemBytes, jint items, jint polls) {
    int rc = MPI_Irecv(PTR(staging), capacity, MPI_BYTE, source, tag, H_COMM(comm), PTR(request));
    if (rc != MPI_SUCCESS) {
        return -(POLL_ERROR_BASE + rc);
    }
    return Java_org_fthp_empi_fast_JniCalls_pollArray(env, cls, request, status, staging, capacity, array, bytes,
            itemBytes, items, polls);
}

/* A completed headed receive's envelope: the logical source (from the header) high, the native tag low. */
JNIEXPORT jlong JNICALL Java_org_fthp_empi_fast_JniCalls_envelope(JNIEnv *env, jclass cls, jlong staging,
        jlong status) {
    jint source;
    memcpy(&source, (const char *) PTR(staging) + 4, 4);
    return ((jlong) source << 32) | (uint32_t) ((MPI_Status *) PTR(status))->MPI_TAG;
}

/* ---- the shallow path's calls with the array's address: FFM downcalls that pass a heap array (critical) ---- */

int fthp_fp_send_array(const char *array, int payload, char *staging, int commId, int source, int64_t sendId,
                       int flags, int dest, int tag, int64_t comm, MPI_Request *request, MPI_Status *status,
                       int tests) {
    put_header(staging, commId, source, sendId, flags, payload);
    if (payload > 0) {
        memcpy(staging + HEADER_BYTES, array, (size_t) payload);
    }
    return isend_headed(staging, HEADER_BYTES + payload, dest, tag, comm, request, status, tests);
}

int fthp_fp_poll_array(MPI_Request *request, MPI_Status *status, const char *staging, int capacity, char *array,
                       int itemBytes, int items, int polls) {
    int64_t copy;
    int result = poll_headed(request, status, staging, capacity, itemBytes, items, polls, &copy);
    if (copy > 0) {
        memcpy(array, staging + HEADER_BYTES, (size_t) copy);
    }
    return result;
}

int fthp_fp_irecv_poll_array(int source, int tag, int64_t comm, MPI_Request *request, MPI_Status *status,
                             char *staging, int capacity, char *array, int itemBytes, int items, int polls) {
    int rc = MPI_Irecv(staging, capacity, MPI_BYTE, source, tag, H_COMM(comm), request);
    if (rc != MPI_SUCCESS) {
        return -(POLL_ERROR_BASE + rc);
    }
    return fthp_fp_poll_array(request, status, staging, capacity, array, itemBytes, items, polls);
}
