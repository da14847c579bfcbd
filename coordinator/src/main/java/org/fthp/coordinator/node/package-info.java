/**
 * Node coordinators and their hierarchy.
 *
 * <p>Emulated nodes ({@code fthp-run --nodes K}): K coordinators on loopback, ranks assigned to them in blocks; in
 * one JVM via {@link org.fthp.coordinator.node.Hierarchy}, or as K processes via
 * {@link org.fthp.coordinator.node.CoordinatorMain}.
 *
 * <p>Real hosts: {@code fthp-run} starts one {@code CoordinatorMain} per host (through the same remote launch it
 * uses for ranks), every one with the same {@code --nodes} list of {@code host:port} and {@code --bind} set to
 * that host's cluster interface, and passes FTHP_JOB_SECRET through the environment; each rank gets
 * FTHP_COORDINATOR naming its own host's coordinator. Only coordinator-to-coordinator links cross hosts.
 */
package org.fthp.coordinator.node;
