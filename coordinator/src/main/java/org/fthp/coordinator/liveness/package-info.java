/**
 * Seeing a local process die before the kernel has torn it down: {@link org.fthp.coordinator.liveness.LifeLock},
 * a robust mutex the process holds for its life and its node's coordinator waits for.
 */
package org.fthp.coordinator.liveness;
