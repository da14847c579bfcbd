/*
 * A JVMTI agent for bench/call-count.sh: counts the Java methods the JVM enters, per method, between the program's
 * entry into a method named "callCountStart" and its entry into one named "callCountStop" (CallCount's markers), and
 * prints them at the VM's death, most entered first, divided by CALLS_PER (the program's calls counted). Asking for
 * method entry events keeps every method interpreted, which is what is counted: the calls a program's first
 * messages make before any JIT.
 */
#include <jvmti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS (1 << 16)

static jmethodID methods[SLOTS];
static long entries[SLOTS];
static int counting;
static long total;

static int named(jvmtiEnv *jvmti, jmethodID m, const char *name) {
    char *n;
    if ((*jvmti)->GetMethodName(jvmti, m, &n, NULL, NULL) != JVMTI_ERROR_NONE) {
        return 0;
    }
    int same = strcmp(n, name) == 0;
    (*jvmti)->Deallocate(jvmti, (unsigned char *) n);
    return same;
}

static void JNICALL entered(jvmtiEnv *jvmti, JNIEnv *env, jthread thread, jmethodID m) {
    unsigned long slot = ((unsigned long) m >> 3) & (SLOTS - 1);
    while (methods[slot] != NULL && methods[slot] != m) {
        slot = (slot + 1) & (SLOTS - 1);
    }
    if (methods[slot] == NULL) {   /* first entry of this method: is it a marker? */
        if (named(jvmti, m, "callCountStart")) {
            counting = 1;
            return;
        }
        if (named(jvmti, m, "callCountStop")) {
            counting = 0;
            return;
        }
        if (!counting) {
            return;
        }
        methods[slot] = m;
    } else if (!counting) {
        return;
    }
    entries[slot]++;
    total++;
}

static int most_first(const void *a, const void *b) {
    long x = entries[*(const int *) a], y = entries[*(const int *) b];
    return x < y ? 1 : x > y ? -1 : 0;
}

static void JNICALL died(jvmtiEnv *jvmti, JNIEnv *env) {
    static int order[SLOTS];
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (methods[i] != NULL) {
            order[n++] = i;
        }
    }
    qsort(order, n, sizeof order[0], most_first);
    const char *per = getenv("CALLS_PER");
    double d = per != NULL && atof(per) > 0 ? atof(per) : 1;
    printf("callcount total %.2f\n", total / d);
    for (int k = 0; k < n; k++) {
        jclass c;
        char *cls, *name;
        jmethodID m = methods[order[k]];
        if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &c) != JVMTI_ERROR_NONE
            || (*jvmti)->GetClassSignature(jvmti, c, &cls, NULL) != JVMTI_ERROR_NONE) {
            continue;
        }
        if ((*jvmti)->GetMethodName(jvmti, m, &name, NULL, NULL) == JVMTI_ERROR_NONE) {
            printf("callcount %.2f %s.%s\n", entries[order[k]] / d, cls, name);
            (*jvmti)->Deallocate(jvmti, (unsigned char *) name);
        }
        (*jvmti)->Deallocate(jvmti, (unsigned char *) cls);
    }
    fflush(stdout);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
        return JNI_ERR;
    }
    jvmtiCapabilities caps = {0};
    caps.can_generate_method_entry_events = 1;
    jvmtiEventCallbacks callbacks = {0};
    callbacks.MethodEntry = entered;
    callbacks.VMDeath = died;
    if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE
        || (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks) != JVMTI_ERROR_NONE
        || (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, NULL) != JVMTI_ERROR_NONE
        || (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL) != JVMTI_ERROR_NONE) {
        return JNI_ERR;
    }
    return JNI_OK;
}
