package org.fthp.model.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationTest {

    @TempDir
    Path dir;

    @Test
    void readsAMeasuredFileAndScalesTheCheckpointWithTheRanks() throws IOException {
        Path file = dir.resolve("measured.properties");
        Files.writeString(file, """
                # from bench/efficiency.sh
                ranks=8
                checkpoint.seconds=2.0
                checkpoint.scaling=1
                restore.seconds=3.0
                relaunch.seconds=4.5
                repair.seconds=0.25
                replication.overhead=0.02
                logtrim.fraction=0.001
                """);
        Calibration c = Calibration.load(file);
        assertEquals(new Calibration(8, 2.0, 1, 3.0, 4.5, 0.25, 0.02, 0.001), c);
        assertEquals(1.0, c.checkpointSeconds(4), 1e-12);           // half the ranks, half the data
        assertEquals(4.5 + 6.0, c.restartSeconds(16), 1e-12);       // relaunch does not scale
    }

    @Test
    void restoreDefaultsToTheCheckpointAndTheRestToNothing() throws IOException {
        Path file = dir.resolve("minimal.properties");
        Files.writeString(file, "ranks=4\ncheckpoint.seconds=7\n");
        assertEquals(new Calibration(4, 7, 0, 7, 0, 0, 0, 0), Calibration.load(file));
    }

    @Test
    void aBadFileIsRefusedWithItsNameAndKey() throws IOException {
        Path typo = dir.resolve("typo.properties");
        Files.writeString(typo, "ranks=4\ncheckpoint.seconds=7\nrestart.seconds=3\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Calibration.load(typo));
        assertTrue(e.getMessage().contains("typo.properties") && e.getMessage().contains("restart.seconds"), e.getMessage());

        Path missing = dir.resolve("missing.properties");
        Files.writeString(missing, "checkpoint.seconds=7\n");
        e = assertThrows(IllegalArgumentException.class, () -> Calibration.load(missing));
        assertTrue(e.getMessage().contains("ranks is required"), e.getMessage());

        Path word = dir.resolve("word.properties");
        Files.writeString(word, "ranks=4\ncheckpoint.seconds=seven\n");
        e = assertThrows(IllegalArgumentException.class, () -> Calibration.load(word));
        assertTrue(e.getMessage().contains("checkpoint.seconds must be a number"), e.getMessage());

        Path negative = dir.resolve("negative.properties");
        Files.writeString(negative, "ranks=4\ncheckpoint.seconds=7\nrepair.seconds=-1\n");
        e = assertThrows(IllegalArgumentException.class, () -> Calibration.load(negative));
        assertTrue(e.getMessage().contains("repair.seconds"), e.getMessage());
    }

    @Test
    void thePapersHpcgCostsGoThroughTableOnesEnds() {
        Calibration paper = Calibration.paperHpcg();
        assertEquals(46, paper.checkpointSeconds(1024), 1e-9);
        assertEquals(215, paper.checkpointSeconds(8192), 0.1);
        assertEquals(0.013, paper.replicationOverhead(), 0);
    }
}
