package org.fthp.coordinator.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CoordinatorLogTest {

    @AfterEach
    void restoreDefaultLogging() throws Exception {
        LogManager.getLogManager().readConfiguration();
    }

    @Test
    void eachRecordIsOneLineWithTheCoordinatorsPrefix() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CoordinatorLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        Logger log = Logger.getLogger(NodeCoordinator.class.getName());
        log.log(Level.SEVERE, "coordinator primary: {0}; aborting the job", "logical rank 1 lost all its copies");
        log.log(Level.INFO, "coordinator node {0}: lost {1}", new Object[] {1, "pid 7"});
        log.log(Level.FINE, "not shown at the default level");
        log.log(Level.WARNING, "coordinator node 0: link failed", new SocketException("Connection reset"));
        assertEquals(String.join(System.lineSeparator(),
                "fthp-coordinator: coordinator primary: logical rank 1 lost all its copies; aborting the job",
                "fthp-coordinator: coordinator node 1: lost pid 7",
                "fthp-coordinator: coordinator node 0: link failed: java.net.SocketException: Connection reset", ""),
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLineHasNoBreakOfItsOwn() {
        LogRecord r = new LogRecord(Level.INFO, "epoch {0}, {1} failed");
        r.setParameters(new Object[] {2, 1});
        assertEquals("fthp-coordinator: epoch 2, 1 failed", CoordinatorLog.line(r));
    }
}
