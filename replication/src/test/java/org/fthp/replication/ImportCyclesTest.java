package org.fthp.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MethodTypeEntry;
import java.lang.classfile.constantpool.NameAndTypeEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.fthp.replication.runtime.Engine;
import org.junit.jupiter.api.Test;

/**
 * No import circle in the compiled engine (docs/DESIGN.md §15): no two source files that reach each other through
 * the classes they use, and no two packages that do, but for the entries of {@link #ALLOWED_PACKAGE_EDGES}. Read
 * from the class files of this module (constant pool, field and method types), so what javac inlines (constants)
 * does not count and nothing else is missed. A nested class counts as its file.
 */
class ImportCyclesTest {

    /**
     * Package dependencies a cycle may use, each with why it cannot go. A package cycle through any other edge
     * fails the test. None: the engine's packages form a hierarchy.
     */
    private static final Map<String, String> ALLOWED_PACKAGE_EDGES = Map.of();

    /**
     * Packages whose files may reach each other. {@code mpi} is Open MPI's Java API, whose public classes name
     * each other by design: {@code MPI} holds COMM_WORLD and the predefined datatypes and ops,
     * {@code Intracomm.createIntercomm} returns an {@code Intercomm} whose {@code merge} returns an
     * {@code Intracomm}, {@code Comm}'s calls take {@code Datatype}s and return {@code Status}es and
     * {@code Request}s; its helpers use {@code MPI}'s datatypes. The package as a whole still sits above the
     * engine (a package cycle through it would fail).
     */
    private static final Map<String, String> FILE_CYCLES_ALLOWED_IN = Map.of(
            "mpi", "Open MPI's Java API: its classes name each other");

    @Test
    void noFileReachesItself() throws IOException {
        Map<String, Set<String>> files = fileGraph(classesRoot());
        List<String> cycles = new ArrayList<>();
        for (List<String> scc : cycles(files)) {
            if (!scc.stream().allMatch(f -> FILE_CYCLES_ALLOWED_IN.containsKey(packageOf(f)))) {
                cycles.add(scc + " via " + edgesWithin(files, Set.copyOf(scc)));
            }
        }
        assertTrue(cycles.isEmpty(), "files in an import cycle:\n" + String.join("\n", cycles));
    }

    @Test
    void noPackageReachesItselfButThroughAllowedEdges() throws IOException {
        Map<String, Set<String>> files = fileGraph(classesRoot());
        Map<String, Set<String>> packages = new TreeMap<>();
        for (Map.Entry<String, Set<String>> e : files.entrySet()) {
            String from = packageOf(e.getKey());
            Set<String> to = packages.computeIfAbsent(from, k -> new TreeSet<>());
            for (String f : e.getValue()) {
                String p = packageOf(f);
                if (!p.equals(from) && !ALLOWED_PACKAGE_EDGES.containsKey(from + " -> " + p)) {
                    to.add(p);
                }
            }
        }
        List<String> cycles = new ArrayList<>();
        for (List<String> scc : cycles(packages)) {
            Set<String> members = Set.copyOf(scc);
            List<String> why = new ArrayList<>();
            for (Map.Entry<String, Set<String>> e : files.entrySet()) {
                for (String f : e.getValue()) {
                    String from = packageOf(e.getKey());
                    String to = packageOf(f);
                    if (!from.equals(to) && members.contains(from) && members.contains(to)) {
                        why.add(simple(e.getKey()) + " -> " + simple(f));
                    }
                }
            }
            cycles.add(scc + " via " + why);
        }
        assertTrue(cycles.isEmpty(), "packages in an import cycle:\n" + String.join("\n", cycles));
    }

    /** Every allowed edge still exists: an entry whose reason went away goes too. */
    @Test
    void everyAllowedPackageEdgeIsUsed() throws IOException {
        Map<String, Set<String>> files = fileGraph(classesRoot());
        Set<String> used = new TreeSet<>();
        files.forEach((from, tos) -> tos.forEach(to -> used.add(packageOf(from) + " -> " + packageOf(to))));
        for (String edge : ALLOWED_PACKAGE_EDGES.keySet()) {
            assertTrue(used.contains(edge), "allowed but unused: " + edge);
        }
    }

    /** The cycle finder itself, on a graph whose cycles are known. */
    @Test
    void findsTheCyclesOfAKnownGraph() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("a", Set.of("b"));
        g.put("b", Set.of("c"));
        g.put("c", Set.of("a", "d"));
        g.put("d", Set.of("e"));
        g.put("e", Set.of());
        g.put("f", Set.of("f", "e"));
        List<List<String>> found = cycles(g);
        assertEquals(1, found.size());
        assertEquals(Set.of("a", "b", "c"), Set.copyOf(found.get(0)));
    }

    // ---- reading the classes ----

    /** This module's compiled classes (target/classes), found through a class of it. */
    private static Path classesRoot() {
        try {
            Path p = Path.of(Engine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertTrue(Files.isDirectory(p), "expected the module's class directory, got " + p);
            return p;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Top-level class (internal name) to the top-level classes of this module it uses. */
    private static Map<String, Set<String>> fileGraph(Path root) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        List<Path> classes;
        try (Stream<Path> s = Files.walk(root)) {
            classes = s.filter(p -> p.toString().endsWith(".class")).toList();
        }
        for (Path p : classes) {
            ClassModel m = ClassFile.of().parse(p);
            String me = fileOf(m.thisClass().asInternalName());
            Set<String> uses = graph.computeIfAbsent(me, k -> new TreeSet<>());
            for (PoolEntry e : m.constantPool()) {
                if (e instanceof ClassEntry c) {
                    String n = c.asInternalName();
                    if (n.startsWith("[")) {
                        addDescriptor(n, uses);
                    } else {
                        uses.add(fileOf(n));
                    }
                } else if (e instanceof NameAndTypeEntry nt) {
                    addDescriptor(nt.type().stringValue(), uses);
                } else if (e instanceof MethodTypeEntry mt) {
                    addDescriptor(mt.descriptor().stringValue(), uses);
                }
            }
            for (FieldModel f : m.fields()) {
                addDescriptor(f.fieldType().stringValue(), uses);
            }
            for (MethodModel mm : m.methods()) {
                addDescriptor(mm.methodType().stringValue(), uses);
            }
        }
        Set<String> ours = graph.keySet();
        for (Map.Entry<String, Set<String>> e : graph.entrySet()) {
            e.getValue().retainAll(ours);
            e.getValue().remove(e.getKey());
        }
        return graph;
    }

    private static void addDescriptor(String descriptor, Set<String> into) {
        int i = 0;
        while ((i = descriptor.indexOf('L', i)) >= 0) {
            int end = descriptor.indexOf(';', i);
            if (end < 0) {
                return;
            }
            into.add(fileOf(descriptor.substring(i + 1, end)));
            i = end + 1;
        }
    }

    private static String fileOf(String internalName) {
        int nested = internalName.indexOf('$');
        return nested < 0 ? internalName : internalName.substring(0, nested);
    }

    private static String packageOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
    }

    private static String simple(String internalName) {
        return internalName.substring(internalName.lastIndexOf('/') + 1);
    }

    private static List<String> edgesWithin(Map<String, Set<String>> graph, Set<String> members) {
        List<String> edges = new ArrayList<>();
        for (String from : members) {
            for (String to : graph.get(from)) {
                if (members.contains(to)) {
                    edges.add(simple(from) + " -> " + simple(to));
                }
            }
        }
        return edges;
    }

    // ---- strongly connected components (Tarjan), iterative ----

    /** The strongly connected components of more than one node. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> found = new ArrayList<>();
        int[] next = {0};
        for (String start : graph.keySet()) {
            if (index.containsKey(start)) {
                continue;
            }
            Deque<Object[]> work = new ArrayDeque<>();   // {node, iterator over its successors}
            visit(start, index, low, stack, onStack, next);
            work.push(new Object[] {start, graph.getOrDefault(start, Set.of()).iterator()});
            while (!work.isEmpty()) {
                Object[] frame = work.peek();
                String v = (String) frame[0];
                @SuppressWarnings("unchecked")
                java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
                if (it.hasNext()) {
                    String w = it.next();
                    if (!index.containsKey(w)) {
                        visit(w, index, low, stack, onStack, next);
                        work.push(new Object[] {w, graph.getOrDefault(w, Set.of()).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = (String) work.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    List<String> component = new ArrayList<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        found.add(component);
                    }
                }
            }
        }
        return found;
    }

    private static void visit(String v, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
                              Set<String> onStack, int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]);
        next[0]++;
        stack.push(v);
        onStack.add(v);
    }
}
