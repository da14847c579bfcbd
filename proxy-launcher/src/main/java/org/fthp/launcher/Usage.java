package org.fthp.launcher;

/** The text printed by {@code fthp-run --help} and after a usage error. */
final class Usage {

    private Usage() {}

    static final String TEXT = """
            usage: fthp-run -np N [mpirun options] -- [java options] MainClass [args...]
                   fthp-run -np N [mpirun options] -- [java options] -jar app.jar [args...]
                   fthp-run --plan --processes P --mtbf-per-process T --checkpoint T [...]
                                    replicate, checkpoint, or both, and how often? (fthp-plan --help)

            Runs N ranks of a Java program written against Open MPI's Java API ("mpi"
            package) on the native MPI library, through FTHP-J.

            Options before "--":
              -np N, -n N, --np N   number of ranks (a positive integer; required)
              --replicas M          give M of the N ranks (ranks 0..M-1) a live replica: N+M
                                    processes; the program still sees N ranks (0 <= M <= N)
              --degree F            the same as a fraction of N (--degree 1: every rank replicated)
              --show-replica-output show replicas' stdout/stderr, each line prefixed
                                    "[replica R] " (hidden by default: their twins print the same)
              --log-limit BYTES     bound of each process's message log (suffix K/M/G; default 256M):
                                    above it a sender waits for its receivers' acknowledgements
              --mpi openmpi|mpich   the native MPI to run on: its ABI is probed with its own
                                    compiler wrapper (mpicc, mpicc.mpich), its launcher starts
                                    the job (mpirun, mpiexec.hydra). Default: Open MPI when it is
                                    installed, else MPICH
              --verbose             print the native launcher command line to stderr
              --nodes K             start K coordinators (emulated nodes: blocks of ranks); a rank
                                    that loses every copy then ends the job with exit code 4
              --group-size G        coordinators per group leader (default: about sqrt(K))
              --events FILE         failure log (JSON lines): injected kills, and with --nodes the
                                    failures the coordinators detect
              --kill R[:cmp|rep]@S  SIGKILL that copy of logical rank R S seconds after every
                                    process finished MPI_Init (repeatable)
              --kill spare:S@S      SIGKILL spare S (0..--spares - 1) S seconds after that
              --kill R[:cmp|rep]#C  that copy SIGKILLs itself as it enters its C-th MPI call
                                    after MPI_Init: the same point of the program every run
              --inject weibull      random SIGKILLs at Weibull inter-arrival times, with
                --mtbf S            system mean time between failures, or
                --mtbf-per-process S  per-process MTBF (divided by the process count)
                --shape K           Weibull shape (default 0.7)   --seed N  (default 1)
                --sdc-rate R        also flip one bit per process at exponential times,
                                    R per process per hour (silent data corruption)
              --sdc on|off|abort    twins of replicated ranks compare their sends and, at each
                                    checkpoint, their state (on by default); a difference rolls
                                    the job back to the last verified checkpoint (in place with
                                    --spares or relaunched with --restart), or ends it with exit
                                    code 6 (abort, or neither)
              --sdc-interval S      compare sends between checkpoints every S seconds (default 1)
              --corrupt R[:cmp|rep][:state|msg]@S or #C
                                    flip one seeded bit of that copy of rank R, in a registered
                                    array (state) or its next message (msg), S seconds after
                                    MPI_Init or at its C-th MPI call (repeatable)
              --checkpoint-interval S|auto
                                    the primary coordinator says a checkpoint is due every S
                                    seconds after the last one, or at Daly's interval from the
                                    measured cost and the job's MTTI (auto; uses --mtbf-per-process
                                    or --mtbf if given, else the failures seen)
              --checkpoint-dir DIR  also write committed checkpoints to DIR (checked writable now);
                                    a DIR holding the same program's committed checkpoints (main
                                    class or jar, arguments, N) is resumed from its newest usable
                                    epoch, output continuing where the earlier job's stopped;
                                    another program's is refused (exit 3). SIGUSR1 or SIGTERM:
                                    checkpoint at the next snapshot, commit to DIR, end (exit 75)
              --resume auto|never|force  auto (default) as above; never: start from the
                                    beginning, the earlier epochs moved to DIR/previous-K; force:
                                    also from checkpoints of the older format (no program recorded)
              --checkpoint-disk-every K  only every K-th committed checkpoint (default 1)
              --checkpoint-memory BYTES  piece memory per coordinator (suffix K/M/G; default 512M)
              --restart K           when a rank loses every copy, relaunch the job (at most K
                                    times) from the last committed checkpoint (default 0: exit 4)
              --restart-replicas M2 relaunch with M2 replicas instead of M
              --spares S            start S spare processes after the program's: each completes
                                    MPI_Init, then waits without CPU until it takes a lost rank's
                                    place, or finalizes with the job (on several hosts: placed
                                    on another host than the copies they may replace)
              --restore-replicas on|off  a rank that lost one of its copies gets a free spare as its
                                    replica again at the next checkpoint (default on with spares)
              --host H1:S1,H2:S2..., --hostfile F   (mpirun's own options) with two or more hosts
                                    and coordinators: one coordinator per host, the proxy in every
                                    host's orted, output through fthp-run; fthp-run runs on the
                                    first host and places the processes itself
              --map-replicas next|same  on several hosts, each replica on another host than its
                                    computational copy (next, the default) or on the same one
              -h, --help            print this help
              anything else         passed to the launcher verbatim, in order

            Exit code: the job's. A program that ends the job without MPI_Finalize ends it at once,
            replicated or not, with its own code: an uncaught exception or error escaping main 1,
            System.exit(n) n (0 before Finalize: 5), a return from main without Finalize 5,
            MPI_Abort(c) c, an MPI_ERRORS_ARE_FATAL error its error class; never repaired or
            restarted. 2: bad command line; 3: bad environment; 4: a rank lost every copy;
            75: stopped on request (SIGUSR1/SIGTERM) after committing a checkpoint: run again to resume.

            At exit a one-line summary goes to stderr: ranks, replicas, messages and bytes each
            side sent natively, and the largest message log a process held; with checkpoints or
            restarts another line: checkpoints, their mean cost, restarts, time lost to rollback.

            After "--": what you would give to "java": JVM options, -cp/-classpath/--class-path,
            then the main class (or -jar app.jar) and the program's arguments.

            Environment:
              FTHP_JAVA_HOME  JDK (22+) to use; otherwise JAVA_HOME or the newest in /usr/lib/jvm
              FTHP_MPIRUN     native launcher to use instead of "mpirun" (or "mpiexec.hydra") on the PATH
              FTHP_MPICC      compiler wrapper the ABI is probed with (then, without --mpi, the
                              library it belongs to is the one the job runs on)
              FTHP_MPI_JAR    runtime jar (default $FTHP_HOME/replication/target/fthp-mpi.jar)
              FTHP_EMPI_ABI   ready ABI description of the native MPI (otherwise probed once)
            """;
}
