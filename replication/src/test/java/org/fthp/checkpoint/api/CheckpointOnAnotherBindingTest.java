package org.fthp.checkpoint.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program using the checkpoint API runs on another implementation of the
 * {@code mpi} API (Open MPI's own Java binding ahead on the class path) as in a
 * job without checkpoint storage. Here the other binding is a one-class
 * {@code mpi.MPI} compiled into a directory ahead of everything else.
 */
class CheckpointOnAnotherBindingTest {

    @Test
    void withAnotherMpiFirstOnTheClassPathTheCallsDoWhatAJobWithoutStorageDoes(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src/mpi/MPI.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "package mpi; public class MPI { }");
        Path classes = dir.resolve("classes");
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-d", classes.toString(), src.toString()));

        try (URLClassLoader loader = loader(classes)) {
            Class<?> checkpoint = loader.loadClass(Checkpoint.class.getName());
            assertFalse((Boolean) call(checkpoint, "isRestart"));
            assertEquals(-1L, call(checkpoint, "recover"));
            assertFalse((Boolean) call(checkpoint, "snapshot"));
            assertFalse((Boolean) call(checkpoint, "checkpoint"));
            assertEquals(1L, call(checkpoint, "nextEpoch"));
            assertEquals(-1L, call(checkpoint, "lastCommittedEpoch"));
            call(checkpoint, "register", "x", new double[4]);
            call(checkpoint, "unregister", "x");
            // a new zeroed array every time: nothing is kept there to hand back
            double[] a = (double[]) call(checkpoint, "registerArray", "a", double[].class, 5);
            assertEquals(5, a.length);
            assertTrue(a != call(checkpoint, "registerArray", "a", double[].class, 5));
            // the arguments are still checked
            InvocationTargetException bad = assertThrows(InvocationTargetException.class,
                    () -> call(checkpoint, "register", "", new double[1]));
            assertEquals(CheckpointException.class.getName(), bad.getCause().getClass().getName());
            bad = assertThrows(InvocationTargetException.class, () -> call(checkpoint, "register", "s", "text"));
            assertTrue(bad.getCause().getMessage().contains("java.lang.String"), bad.getCause().getMessage());
            bad = assertThrows(InvocationTargetException.class,
                    () -> call(checkpoint, "registerArray", "b", boolean[].class, 1));
            assertEquals(CheckpointException.class.getName(), bad.getCause().getClass().getName());
            bad = assertThrows(InvocationTargetException.class,
                    () -> call(checkpoint, "registerArray", "o", Object[].class, 1));
            assertEquals(CheckpointException.class.getName(), bad.getCause().getClass().getName());
            bad = assertThrows(InvocationTargetException.class,
                    () -> call(checkpoint, "registerArray", "n", int[].class, -1));
            assertTrue(bad.getCause().getMessage().contains("negative length"), bad.getCause().getMessage());
        }
    }

    @Test
    void onFthpsOwnMpiClassesTheCallsNeedMpiInit() throws Exception {
        try (URLClassLoader loader = loader(null)) {
            Class<?> checkpoint = loader.loadClass(Checkpoint.class.getName());
            InvocationTargetException outside = assertThrows(InvocationTargetException.class,
                    () -> call(checkpoint, "isRestart"));
            assertTrue(outside.getCause().getMessage().contains("between MPI.Init and MPI.Finalize"),
                    outside.getCause().getMessage());
        }
    }

    /** This test's class path, with {@code first} ahead of it when given; nothing from the application loader. */
    private static URLClassLoader loader(Path first) throws Exception {
        List<URL> urls = new ArrayList<>();
        if (first != null) {
            urls.add(first.toUri().toURL());
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    private static Object call(Class<?> type, String name, Object... args) throws Exception {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                return m.invoke(null, args);
            }
        }
        throw new NoSuchMethodException(name);
    }
}
