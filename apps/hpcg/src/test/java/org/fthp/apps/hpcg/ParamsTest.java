package org.fthp.apps.hpcg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ParamsTest {

    private static final String DAT = "HPCG benchmark input file\nSandia National Laboratories; University of Tennessee, Knoxville\n";

    @Test
    void optionsInBothForms() {
        Params p = Params.parse(new String[] {"--nx=32", "--ny", "24", "--nz=16", "--rt=5"});
        assertEquals(32, p.nx());
        assertEquals(24, p.ny());
        assertEquals(16, p.nz());
        assertEquals(5, p.runningTime());
        assertEquals(0, p.npx());
    }

    @Test
    void setsFixTheTimedSetCount() {
        assertEquals(0, Params.parse(new String[] {"--nx=16", "--rt=5"}).sets(), "from --rt unless given");
        Params p = Params.parse(new String[] {"--nx=16", "--sets=12"});
        assertEquals(12, p.sets());
        assertEquals(12, Params.fromInts(p.toInts(), p.outDir()).sets(), "survives the broadcast packing");
        assertMessage("at least one timed set", new String[] {"--nx=16", "--sets=0"}, null);
    }

    @Test
    void positionalArguments() {
        Params p = Params.parse(new String[] {"16", "24", "32", "7"});
        assertEquals(16, p.nx());
        assertEquals(24, p.ny());
        assertEquals(32, p.nz());
        assertEquals(7, p.runningTime());
    }

    @Test
    void missingDimensionsTakeTheLargestGivenAndNoRtMeansQuickPath() {
        Params p = Params.parse(new String[] {"--nx=32"});
        assertEquals(32, p.ny());
        assertEquals(32, p.nz());
        assertEquals(0, p.runningTime());
    }

    @Test
    void hpcgDatAsTheReferenceReadsIt() {
        Params p = Params.parse(new String[0], DAT + "104 104 104\n60\n");
        assertEquals(104, p.nx());
        assertEquals(60, p.runningTime());
        Params q = Params.parse(new String[] {"--rt=3"}, DAT + "16 24 32   trailing words are a comment\n1800\n2 1 1\n");
        assertEquals(24, q.ny());
        assertEquals(3, q.runningTime(), "--rt overrides line 4");
        assertEquals(2, q.npx());
        assertEquals(1, q.npz());
    }

    @Test
    void malformedInputIsAClearError() {
        assertMessage("not a multiple of 8", new String[] {"--nx=20"}, null);
        assertMessage("at least 16", new String[] {"--nx=8"}, null);
        assertMessage("not a non-negative integer", new String[] {"--nx=abc"}, null);
        assertMessage("negative", new String[] {"--rt=-1", "--nx=16"}, null);
        assertMessage("unknown option --foo", new String[] {"--foo=1"}, null);
        assertMessage("needs a value", new String[] {"--nx"}, null);
        assertMessage("not supported", new String[] {"--pz=1"}, null);
        assertMessage("all of npx, npy, npz", new String[] {"--nx=16", "--npx=2"}, null);
        assertMessage("at least 4 lines", new String[0], DAT + "16 16 16\n");
        assertMessage("line 3", new String[0], DAT + "16 16\n60\n");
        assertMessage("line 4", new String[0], DAT + "16 16 16\nsixty\n");
        assertMessage("line 5", new String[0], DAT + "16 16 16\n60\n2 x 1\n");
    }

    @Test
    void missingHpcgDatIsAClearError() {
        InputError e = assertThrows(InputError.class,
                () -> Params.parse(new String[] {"--dat=/nonexistent/hpcg.dat"}));
        assertTrue(e.getMessage().contains("cannot read"), e.getMessage());
    }

    private static void assertMessage(String fragment, String[] args, String dat) {
        InputError e = assertThrows(InputError.class, () -> Params.parse(args, dat));
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' should mention '" + fragment + "'");
    }
}
