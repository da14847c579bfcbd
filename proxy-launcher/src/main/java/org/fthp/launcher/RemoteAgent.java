package org.fthp.launcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The remote agent mpirun starts its daemons on other hosts with, found as mpirun finds it: {@code --mca
 * plm_rsh_agent A} among the options fthp-run passes through, else {@code OMPI_MCA_plm_rsh_agent}, else ssh.
 * fthp-run starts each remote host's coordinator through the same agent, with ssh's convention: {@code AGENT
 * HOST 'one command line for the remote shell'}.
 */
record RemoteAgent(List<String> words) {

    static final String PARAMETER = "plm_rsh_agent";
    static final String ENV = "OMPI_MCA_" + PARAMETER;

    RemoteAgent {
        words = List.copyOf(words);
    }

    static RemoteAgent of(List<String> mpirunArgs, Map<String, String> env) {
        String value = McaOptions.value(mpirunArgs, PARAMETER);
        if (value == null) {
            value = env.get(ENV);
        }
        if (value == null || value.isBlank()) {
            value = "ssh";
        }
        // Open MPI takes the first of "a : b" alternatives it finds; we take the first
        int alternatives = value.indexOf(" : ");
        if (alternatives >= 0) {
            value = value.substring(0, alternatives);
        }
        return new RemoteAgent(Arrays.asList(value.strip().split("\\s+")));
    }

    /** hydra's own variable for its launcher's program ({@code -launcher-exec}). */
    static final String HYDRA_ENV = "HYDRA_LAUNCHER_EXEC";

    /**
     * MPICH's: {@code -launcher-exec A} (or {@code --launcher-exec}) among the options fthp-run passes through, else
     * {@code HYDRA_LAUNCHER_EXEC}, else ssh. fthp-run gives hydra its own launcher (scripts/mpich-hydra-rsh.sh), which
     * runs this agent.
     */
    static RemoteAgent ofHydra(List<String> launcherArgs, Map<String, String> env) {
        String value = null;
        for (int i = 0; i + 1 < launcherArgs.size(); i++) {
            if (HYDRA_EXEC_OPTIONS.contains(launcherArgs.get(i))) {
                value = launcherArgs.get(i + 1);
            }
        }
        if (value == null) {
            value = env.get(HYDRA_ENV);
        }
        if (value == null || value.isBlank()) {
            value = "ssh";
        }
        return new RemoteAgent(Arrays.asList(value.strip().split("\\s+")));
    }

    static final java.util.Set<String> HYDRA_EXEC_OPTIONS = java.util.Set.of("-launcher-exec", "--launcher-exec");

    /** The agent's command that runs {@code words} on {@code host}, quoted for the remote shell. */
    List<String> command(String host, List<String> remoteWords) {
        List<String> command = new ArrayList<>(words);
        command.add(host);
        StringBuilder line = new StringBuilder("exec");
        for (String w : remoteWords) {
            line.append(' ').append(shellQuoted(w));
        }
        command.add(line.toString());
        return command;
    }

    static String shellQuoted(String word) {
        return word.matches("[A-Za-z0-9_./:=+,@%-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /** {@code --mca NAME VALUE} (or {@code -mca}) among mpirun's options. */
    static final class McaOptions {
        private McaOptions() {}

        /** The last value given for {@code name}, or null. */
        static String value(List<String> args, String name) {
            String found = null;
            for (int i = 0; i + 2 < args.size(); i++) {
                String t = args.get(i);
                if ((t.equals("--mca") || t.equals("-mca")) && args.get(i + 1).equals(name)) {
                    found = args.get(i + 2);
                }
            }
            return found;
        }
    }
}
