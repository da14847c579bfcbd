package org.fthp.model.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import javax.imageio.ImageIO;
import org.fthp.model.Strikes;
import org.fthp.model.calibration.Calibration;
import org.fthp.model.strategy.Strategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectionTest {

    @TempDir
    Path dir;

    /** The paper's series: system MTBF 2000 s at 8192 processes, Table I's costs. */
    private static Scenario paper(List<Integer> processes) {
        return new Scenario("paper", "paper", 2000.0 * 8192, 0.7, Strikes.ANY_PROCESS, 3 * 3600,
                Calibration.paperHpcg(), processes, 1);
    }

    @Test
    void theCrossoverLiesWhereTheLeadChanges() {
        Projection projection = new Projection(paper(List.of(1024, 4096, 16384)), 200, 1);
        OptionalDouble crossover = projection.crossoverProcesses();
        assertTrue(crossover.isPresent());
        double at = crossover.getAsDouble();
        assertTrue(at > 4096 && at < 16384, "crossover at " + at);
        // a little below it checkpointing leads, a little above replication does
        int below = 2 * (int) (at * 0.9 / 2);
        int above = 2 * (int) (at * 1.1 / 2);
        assertTrue(projection.point(Strategy.CHECKPOINT_RESTART, below).estimate().efficiencyExpected()
                > projection.point(Strategy.REPLICATION, below).estimate().efficiencyExpected());
        assertTrue(projection.point(Strategy.CHECKPOINT_RESTART, above).estimate().efficiencyExpected()
                < projection.point(Strategy.REPLICATION, above).estimate().efficiencyExpected());
    }

    @Test
    void noCrossoverWhenOneStrategyLeadsThroughout() {
        assertTrue(new Projection(paper(List.of(1024, 2048)), 100, 1).crossoverProcesses().isEmpty());
    }

    @Test
    void writesACsvRowPerPointAndReadablePictures() throws IOException {
        Scenario scenario = paper(List.of(1024, 8192));
        Projection projection = new Projection(scenario, 50, 3);
        List<ProjectionPoint> points = projection.points();
        assertEquals(2 * Strategy.values().length, points.size());
        Path csv = dir.resolve("paper.csv");
        ProjectionCsv.write(csv, scenario, points);
        List<String> lines = Files.readAllLines(csv);
        assertEquals(ProjectionCsv.HEADER, lines.get(0));
        assertEquals(points.size() + 1, lines.size());
        int columns = ProjectionCsv.HEADER.split(",").length;
        for (String line : lines) {
            assertEquals(columns, line.split(",", -1).length, line);
        }
        assertTrue(lines.get(2).startsWith("paper,1024,16000.0,replication,512,512,"), lines.get(2));

        Path efficiency = dir.resolve("efficiency.png");
        EfficiencyChart.write(efficiency, scenario, points, OptionalDouble.of(5000));
        BufferedImage picture = ImageIO.read(efficiency.toFile());
        assertEquals(900, picture.getWidth());
        assertEquals(560, picture.getHeight());
        Path split = dir.resolve("split.png");
        TimeSplitChart.write(split, scenario, points, Set.of(1024, 8192));
        assertEquals(1000, ImageIO.read(split.toFile()).getWidth());
    }

    @Test
    void barsForAtMostFiveCounts() {
        assertEquals(Set.of(1024, 8192, 32768, 262144, 1 << 20),   // indices 0, 3, 5, 8, 10 of 11
                ProjectionMain.splitCounts(Scenario.doublingFrom1024(1 << 20)));
        assertEquals(Set.of(1024, 2048), ProjectionMain.splitCounts(List.of(1024, 2048)));
        assertEquals("1M", TimeSplitChart.countLabel(1 << 20));
        assertEquals("16k", TimeSplitChart.countLabel(16384));
        assertEquals("1000", TimeSplitChart.countLabel(1000));
    }
}
