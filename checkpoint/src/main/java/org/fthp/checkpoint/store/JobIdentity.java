package org.fthp.checkpoint.store;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Which program wrote a checkpoint directory: what a later job must match to resume from it. The main class (or
 * the jar a {@code -jar} job starts), the program's arguments and the number of logical ranks; not the replication
 * degree, which a resumed job may change.
 *
 * @param program   {@code class <name>} or {@code jar <absolute path>}
 * @param arguments the program's arguments, in order
 * @param ranks     logical ranks (N)
 */
public record JobIdentity(String program, List<String> arguments, int ranks) {

    public JobIdentity {
        arguments = List.copyOf(arguments);
        if (program == null || program.isBlank() || ranks <= 0) {
            throw new IllegalArgumentException("a job identity needs a program and ranks > 0: " + program + ", "
                    + ranks);
        }
    }

    public static JobIdentity ofClass(String mainClass, List<String> arguments, int ranks) {
        return new JobIdentity("class " + mainClass, arguments, ranks);
    }

    public static JobIdentity ofJar(java.nio.file.Path jar, List<String> arguments, int ranks) {
        return new JobIdentity("jar " + jar.toAbsolutePath().normalize(), arguments, ranks);
    }

    /** What a job {@code asked} differs in from this one (recorded), in words; empty when the same job. */
    public String difference(JobIdentity asked) {
        List<String> d = new ArrayList<>();
        if (!program.equals(asked.program)) {
            d.add("program " + program + " there, " + asked.program + " asked");
        }
        if (!arguments.equals(asked.arguments)) {
            d.add("arguments " + arguments + " there, " + asked.arguments + " asked");
        }
        if (ranks != asked.ranks) {
            d.add(ranks + " ranks there, " + asked.ranks + " asked");
        }
        return String.join("; ", d);
    }

    /**
     * One shell-safe token (the coordinators get it on their command line, maybe through ssh or srun):
     * {@code ranks/program/arg/arg...}, each part percent-encoded.
     */
    public String token() {
        StringBuilder b = new StringBuilder().append(ranks).append('/').append(encode(program));
        for (String a : arguments) {
            b.append('/').append(encode(a));
        }
        return b.toString();
    }

    public static JobIdentity fromToken(String token) {
        String[] parts = token.split("/", -1);
        if (parts.length < 2) {
            throw new IllegalArgumentException("not a job identity token: " + token);
        }
        List<String> args = new ArrayList<>();
        for (int i = 2; i < parts.length; i++) {
            args.add(decode(parts[i]));
        }
        return new JobIdentity(decode(parts[1]), args, Integer.parseInt(parts[0]));
    }

    /** Percent-encoding without the characters a shell would expand or split on. */
    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("*", "%2A").replace("+", "%20");
    }

    static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return program + (arguments.isEmpty() ? "" : " " + String.join(" ", arguments)) + " on " + ranks + " ranks";
    }
}
