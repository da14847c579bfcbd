package org.fthp.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts a job runs on, read from the mpirun options fthp-run passes through unchanged ({@code --host
 * h0:4,h1:4}, {@code -H}, {@code --hostfile F}, {@code --machinefile F}), with mpirun's conventions: a name
 * without a count is one slot, a name given twice adds its slots, a hostfile line is {@code NAME [slots=N]
 * [max_slots=M]} with {@code #} comments. Hosts keep the order of their first mention (mpirun fills them in
 * that order). When both a host list and a hostfile are given, the list decides (mpirun takes its hosts from
 * the file and the list narrows them; the list's slots are what we place by).
 *
 * @param hosts the distinct hosts, in order; empty when the options name none (this machine only)
 */
record HostList(List<Host> hosts) {

    /** One host and how many processes mpirun places there before it oversubscribes. */
    record Host(String name, int slots) {}

    HostList {
        hosts = List.copyOf(hosts);
    }

    /** Several hosts: the coordinators, the proxy and the output go across hosts. */
    boolean several() {
        return hosts.size() > 1;
    }

    int count() {
        return hosts.size();
    }

    Host get(int k) {
        return hosts.get(k);
    }

    int totalSlots() {
        return hosts.stream().mapToInt(Host::slots).sum();
    }

    static HostList of(List<String> mpirunArgs) throws LaunchException {
        String list = null;
        String file = null;
        for (int i = 0; i < mpirunArgs.size(); i++) {
            String token = mpirunArgs.get(i);
            String option = token.contains("=") && token.startsWith("--") ? token.substring(0, token.indexOf('='))
                    : token;
            String inline = option.equals(token) ? null : token.substring(token.indexOf('=') + 1);
            boolean isList = option.equals("--host") || option.equals("-host") || option.equals("-H");
            boolean isFile = option.equals("--hostfile") || option.equals("-hostfile")
                    || option.equals("--machinefile") || option.equals("-machinefile");
            if (!isList && !isFile) {
                continue;
            }
            String value = inline;
            if (value == null) {
                if (i + 1 >= mpirunArgs.size()) {
                    throw LaunchException.usage(option + " needs a value");
                }
                value = mpirunArgs.get(++i);
            }
            if (isList) {
                list = value;
            } else {
                file = value;
            }
        }
        if (list != null) {
            return parseList(list);
        }
        if (file != null) {
            try {
                return parseFile(Files.readAllLines(Path.of(file)), file);
            } catch (IOException e) {
                throw LaunchException.usage("cannot read the hostfile " + file + ": " + e.getMessage());
            }
        }
        return new HostList(List.of());
    }

    /** {@code h0:4,h1:4} or {@code h0,h0,h1}. */
    static HostList parseList(String list) throws LaunchException {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (String entry : list.split(",")) {
            entry = entry.strip();
            if (entry.isEmpty()) {
                throw LaunchException.usage("--host " + list + ": an empty host name");
            }
            int colon = entry.lastIndexOf(':');
            String name = colon < 0 ? entry : entry.substring(0, colon);
            int count = colon < 0 ? 1 : count(entry.substring(colon + 1), "--host " + list);
            slots.merge(name, count, Integer::sum);
        }
        return from(slots);
    }

    /** For tests: a list known to be well formed. */
    static HostList parseListUnchecked(String list) {
        try {
            return parseList(list);
        } catch (LaunchException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static HostList parseFile(List<String> lines, String file) throws LaunchException {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (String raw : lines) {
            int hash = raw.indexOf('#');
            String line = (hash < 0 ? raw : raw.substring(0, hash)).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            int count = 1;
            for (int w = 1; w < words.length; w++) {
                if (words[w].startsWith("slots=")) {
                    count = count(words[w].substring("slots=".length()), "hostfile " + file);
                } else if (!words[w].startsWith("max_slots=") && !words[w].startsWith("max-slots=")) {
                    throw LaunchException.usage("hostfile " + file + ": cannot read \"" + words[w] + "\" in \""
                            + line + "\"");
                }
            }
            slots.merge(words[0], count, Integer::sum);
        }
        return from(slots);
    }

    private static HostList from(Map<String, Integer> slots) {
        List<Host> hosts = new ArrayList<>();
        slots.forEach((name, n) -> hosts.add(new Host(name, n)));
        return new HostList(hosts);
    }

    private static int count(String text, String where) throws LaunchException {
        try {
            int n = Integer.parseInt(text.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw LaunchException.usage(where + ": a slot count must be a positive number, not \"" + text + "\"");
    }
}
