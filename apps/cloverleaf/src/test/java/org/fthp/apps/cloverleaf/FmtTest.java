package org.fthp.apps.cloverleaf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FmtTest {

    @Test
    void fortranEditDescriptors() {
        assertEquals("      0.1193E+01", Fmt.e(1.19316898756307, 16, 4));
        assertEquals("      0.1000E+03", Fmt.e(100.0, 16, 4));
        assertEquals("      0.0000E+00", Fmt.e(0.0, 16, 4));
        assertEquals("     -0.2500E-02", Fmt.e(-0.0025, 16, 4));
        assertEquals("   0.2842171E-13", Fmt.e(2.842171e-14, 16, 7));
        assertEquals(" 4.00E-02", Fmt.es(0.04, 9, 2));
        assertEquals("   0.0400000", Fmt.f(0.04, 12, 7));
        assertEquals("     87", Fmt.i(87, 7));
        assertEquals("   sound   ", Fmt.a("sound   ", 11));
    }
}
