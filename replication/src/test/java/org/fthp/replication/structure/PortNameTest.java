package org.fthp.replication.structure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PortNameTest {

    @Test
    void roundTrip() {
        PortName p = new PortName(3, 17);
        assertEquals("fthp-port:3:17", p.toString());
        assertEquals(p, PortName.parse(p.toString()));
    }

    /** A program may copy the name through a char[] of MPI.MAX_PORT_NAME; trailing padding is not part of it. */
    @Test
    void toleratesTrailingBlanks() {
        assertEquals(new PortName(0, 1), PortName.parse("fthp-port:0:1  "));
    }

    @Test
    void refusesForeignNames() {
        for (String s : new String[] {null, "", "tcp://1.2.3.4:5", "fthp-port:1", "fthp-port:a:1", "fthp-port:1:2:3",
                "fthp-port:-1:0"}) {
            assertThrows(IllegalArgumentException.class, () -> PortName.parse(s), String.valueOf(s));
        }
    }
}
