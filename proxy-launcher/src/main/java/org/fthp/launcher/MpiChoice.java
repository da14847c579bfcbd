package org.fthp.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --mpi openmpi|mpich}: which native MPI a job runs on. Taken off the command line before the rest is parsed
 * (it shapes the launcher, not the job). Without it the job runs on what is installed ({@link
 * NativeMpi#installedDefault}), unless FTHP_MPICC or FTHP_EMPI_ABI point at another library: the ABI description
 * then decides, since the ranks load the library it names.
 *
 * @param explicit the library given with --mpi
 * @param rest     the command line without it
 */
record MpiChoice(Optional<NativeMpi> explicit, List<String> rest) {

    static final String OPTION = "--mpi";

    static MpiChoice extract(List<String> args) throws LaunchException {
        int separator = args.indexOf(LaunchOptionsParser.SEPARATOR);
        int end = separator < 0 ? args.size() : separator;
        Optional<NativeMpi> mpi = Optional.empty();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < end; i++) {
            if (!args.get(i).equals(OPTION)) {
                rest.add(args.get(i));
                continue;
            }
            if (i + 1 >= end) {
                throw LaunchException.usage(OPTION + " needs a value: openmpi or mpich");
            }
            NativeMpi named = NativeMpi.named(args.get(++i));
            if (mpi.isPresent() && mpi.get() != named) {
                throw LaunchException.usage(OPTION + " is given twice: " + mpi.get().name() + " and " + named.name());
            }
            mpi = Optional.of(named);
        }
        rest.addAll(args.subList(end, args.size()));
        return new MpiChoice(mpi, rest);
    }

    /** The library whose wrapper probes the ABI: the one asked for, else the installed one. */
    NativeMpi toProbe(Map<String, String> env) {
        return explicit.orElseGet(() -> NativeMpi.installedDefault(env));
    }

    /**
     * The library the job runs on, now that the ABI description's {@code family} is known: the one asked for, which
     * the description must be of; else the description's; else the installed one.
     */
    NativeMpi resolve(Map<String, String> env, String family) throws LaunchException {
        Optional<NativeMpi> described = NativeMpi.ofFamily(family);
        if (explicit.isPresent()) {
            if (described.isPresent() && described.get() != explicit.get()) {
                throw LaunchException.environment(OPTION + " " + explicit.get().name()
                        + " was asked for, but the ABI description is of " + family
                        + " (FTHP_MPICC or FTHP_EMPI_ABI name the other library)");
            }
            return explicit.get();
        }
        return described.orElseGet(() -> NativeMpi.installedDefault(env));
    }
}
