package org.fthp.apps.cloverleaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.fthp.it.MpiJob;
import org.junit.jupiter.api.Test;

class DeckParserTest {

    static Path deck(String name) {
        return MpiJob.home().resolve("apps/cloverleaf/decks").resolve(name);
    }

    @Test
    void readsTheReferenceBenchmarkDeck() throws Exception {
        Deck d = DeckParser.parse(Files.readString(deck("clover_bm_short.in")));
        assertEquals(960, d.xCells());
        assertEquals(960, d.yCells());
        assertEquals(87, d.endStep());
        assertEquals(0.5, d.endTime());
        assertEquals(0.04, d.dtInit());
        assertEquals(0.04, d.dtMax());
        assertEquals(1.5, d.dtRise());
        assertEquals(2, d.testProblem());
        assertEquals(10, d.summaryFrequency(), "default");
        assertEquals(2, d.states().size());
        State s2 = d.states().get(1);
        assertEquals(State.Geometry.RECTANGLE, s2.geometry());
        assertEquals(1.0, s2.density());
        assertEquals(2.5, s2.energy());
        // states after the first are shrunk by a hundredth of a cell (dx = 10/960)
        assertEquals(0.0 + (10.0 / 960) / 100.0, s2.xmin());
        assertEquals(5.0 - (10.0 / 960) / 100.0, s2.xmax());
        assertEquals(0.2, d.states().get(0).density());
    }

    @Test
    void followsTheReferenceLexicalRules() throws Exception {
        Deck d = DeckParser.parse("""
                ignored before the block
                *CLOVER
                 STATE 1 Density=0.5, energy 2 ! comment: x_cells=999
                 x_cells 12 ; y_cells=999
                 y_cells=7
                 xmax=1.2d1 ymax=7
                 tiles_per_task=2
                 profiler_on
                 summary_frequency=0
                *endclover
                ignored after the block
                """);
        assertEquals(12, d.xCells());
        assertEquals(7, d.yCells());
        assertEquals(12.0, d.xmax());
        assertEquals(0.5, d.states().get(0).density());
        assertEquals(2.0, d.states().get(0).energy());
        assertTrue(d.profilerOn());
        assertEquals(0, d.summaryFrequency());
    }

    @Test
    void theBuiltInDeckIsTestProblemOne() throws Exception {
        Deck d = DeckParser.parse(Deck.DEFAULT_DECK);
        assertEquals(10, d.xCells());
        assertEquals(2, d.yCells());
        assertEquals(3.0, d.endTime());
        assertEquals(1, d.testProblem());
    }

    private static DeckException error(String body) {
        return assertThrows(DeckException.class, () -> DeckParser.parse("*clover\n" + body + "\n*endclover\n"));
    }

    @Test
    void malformedDecksNameTheLineAndKeyword() {
        DeckException e = error(" state 1 density=1 energy=1\n x_cells=abc");
        assertEquals(3, e.line);
        assertEquals("x_cells", e.keyword);
        assertTrue(e.describe("d.in").startsWith("d.in:3: 'x_cells': expected an integer, got 'abc'"), e.describe("d.in"));

        e = error(" state 1 density=1 energy=1\n x_cellz=10");
        assertEquals("x_cellz", e.keyword);
        assertTrue(e.getMessage().contains("unknown keyword"));

        e = error(" state 1 density=1 energy=1\n end_time=soon");
        assertTrue(e.getMessage().contains("expected a number"), e.getMessage());

        e = error(" state 1 density=1 energy=1\n end_step");
        assertTrue(e.getMessage().contains("missing value"), e.getMessage());

        e = error(" state 1 density=1 energy=1\n x_cells=-4");
        assertTrue(e.getMessage().contains("must be positive"), e.getMessage());

        e = error(" state 1 density=1 energy=1\n state 1 density=2 energy=1");
        assertEquals(3, e.line);
        assertTrue(e.getMessage().contains("defined twice"), e.getMessage());

        e = error(" state 1 density=1 energy=1\n state 2 density=2 energy=1 xmin=0 xmax=1 ymin=0 ymax=1");
        assertEquals("state 2 geometry", e.keyword);

        e = error(" state 1 density=1 energy=1\n state 2 density=2 geometry=hexagon");
        assertTrue(e.getMessage().contains("unknown geometry 'hexagon'"), e.getMessage());

        e = error(" state 1 density=1 energy=1\n state 3 density=2 geometry=point");
        assertTrue(e.getMessage().contains("state 2 is not defined"), e.getMessage());

        e = error(" state 1 density=1 energy=1 colour=red");
        assertTrue(e.getMessage().contains("unknown state keyword"), e.getMessage());

        e = error(" x_cells=10");
        assertTrue(e.getMessage().contains("no states"), e.getMessage());

        e = error(" state 1 density=1 energy=1\n xmin=5 xmax=1");
        assertEquals("xmax", e.keyword);

        e = assertThrows(DeckException.class, () -> DeckParser.parse(" state 1 density=1\n"));
        assertTrue(e.getMessage().contains("no *clover block"), e.getMessage());

        e = assertThrows(DeckException.class, () -> DeckParser.parse("*clover\n state 1 density=1\n"));
        assertTrue(e.getMessage().contains("not closed"), e.getMessage());
    }
}
