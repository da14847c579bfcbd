package org.fthp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fthp.launcher.MpirunCommand;
import org.junit.jupiter.api.Test;

/**
 * The compile commands fthp-run gives its ranks name methods of the runtime that exist: the JVM ignores a command
 * whose method is gone (renamed, its parameters changed), so a refactoring would silently bring back what the
 * command keeps away.
 */
class RankCompileCommandsTest {

    /** {@code -XX:CompileCommand=<command>,<class>::<method><descriptor>}. */
    private static final Pattern METHOD_COMMAND =
            Pattern.compile("-XX:CompileCommand=(\\w+),([\\w.$]+)::(\\w+)(\\(.*\\).+)");
    /** {@code -XX:CompileCommand=<option>,<class>::<method><descriptor>,<value>}. */
    private static final Pattern METHOD_OPTION =
            Pattern.compile("-XX:CompileCommand=(\\w+),([\\w.$]+)::(\\w+)(\\([^)]*\\)[^,]+),(\\w+)");

    /** {@code -XX:CompileCommand=<option>,<class>::<method><descriptor>,<decimal value>}. */
    private static final Pattern METHOD_SCALE =
            Pattern.compile("-XX:CompileCommand=(\\w+),([\\w.$]+)::(\\w+)(\\([^)]*\\)[^,]+),(\\d+\\.\\d+)");

    @Test
    void theGeneralPathKeptApartIsTheOneTheShallowEntriesFallBackTo() throws ClassNotFoundException {
        List<String> commands = MpirunCommand.GENERAL_PATH_APART;
        assertFalse(commands.isEmpty());
        for (String command : commands) {
            Matcher m = METHOD_COMMAND.matcher(command);
            assertTrue(m.matches(), "not a command on one method with its descriptor: " + command);
            assertEquals("dontinline", m.group(1), command);
            assertNamesAMethod(command, m.group(2), m.group(3), m.group(4));
        }
    }

    @Test
    void theShallowEntriesCompiledInTheForegroundAreTheProgramsSendAndRecv() throws ClassNotFoundException {
        List<String> commands = MpirunCommand.SHALLOW_ENTRIES_FOREGROUND;
        assertEquals(2, commands.size());
        for (String command : commands) {
            Matcher m = METHOD_OPTION.matcher(command);
            assertTrue(m.matches(), "not an option on one method with its descriptor: " + command);
            assertEquals("BackgroundCompilation", m.group(1), command);
            assertEquals("false", m.group(5), command);
            assertEquals("mpi.Comm", m.group(2), command);
            assertNamesAMethod(command, m.group(2), m.group(3), m.group(4));
        }
        assertTrue(commands.get(0).contains("::send("), commands.get(0));
        assertTrue(commands.get(1).contains("::recv("), commands.get(1));
    }

    @Test
    void theShallowEntriesCompiledEarlyAreTheProgramsSendAndRecvWithAScaleBelowOne() throws ClassNotFoundException {
        List<String> commands = MpirunCommand.SHALLOW_ENTRIES_EARLY;
        assertEquals(2, commands.size());
        for (String command : commands) {
            Matcher m = METHOD_SCALE.matcher(command);
            assertTrue(m.matches(), "not a scale on one method with its descriptor: " + command);
            assertEquals("CompileThresholdScaling", m.group(1), command);
            double scale = Double.parseDouble(m.group(5));
            assertTrue(scale > 0 && scale < 1, command);
            assertEquals("mpi.Comm", m.group(2), command);
            assertNamesAMethod(command, m.group(2), m.group(3), m.group(4));
        }
        assertTrue(commands.get(0).contains("::send("), commands.get(0));
        assertTrue(commands.get(1).contains("::recv("), commands.get(1));
    }

    private static void assertNamesAMethod(String command, String holderName, String name, String descriptor)
            throws ClassNotFoundException {
        Class<?> holder = Class.forName(holderName);
        List<Method> named = Arrays.stream(holder.getDeclaredMethods())
                .filter(method -> method.getName().equals(name)).toList();
        assertTrue(named.stream().anyMatch(method -> descriptor(method).equals(descriptor)),
                command + " names no method; " + holder.getName() + "." + name + " has "
                        + named.stream().map(RankCompileCommandsTest::descriptor).toList());
    }

    private static String descriptor(Method method) {
        return MethodType.methodType(method.getReturnType(), method.getParameterTypes()).toMethodDescriptorString();
    }
}
