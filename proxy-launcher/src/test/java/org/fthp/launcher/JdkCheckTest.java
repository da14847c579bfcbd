package org.fthp.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JdkCheckTest {

    @Test
    void readsFeatureVersionFromJavaVersionOutput() {
        assertEquals(25, JdkCheck.parseFeatureVersion("openjdk version \"25.0.1\" 2025-10-21 LTS"));
        assertEquals(17, JdkCheck.parseFeatureVersion("openjdk version \"17.0.12\" 2024-07-16"));
        assertEquals(22, JdkCheck.parseFeatureVersion("java version \"22\" 2024-03-19"));
        assertEquals(8, JdkCheck.parseFeatureVersion("java version \"1.8.0_401\""));
        assertEquals(-1, JdkCheck.parseFeatureVersion("no version here"));
    }

    @Test
    void refusesJdksOlderThan22() throws LaunchException {
        JdkCheck.requireSupported(22, "java");
        LaunchException e = assertThrows(LaunchException.class, () -> JdkCheck.requireSupported(17, "java"));
        assertEquals(LaunchException.ENVIRONMENT, e.exitCode());
    }
}
