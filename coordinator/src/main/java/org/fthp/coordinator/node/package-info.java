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
 *
 * <p>Death reports from the launcher's proxy library ({@link org.fthp.coordinator.node.ProxyReportPipe}) are
 * local to a host: each coordinator creates its pipe and names it on its ready line, and the library writes
 * to every pipe of its host. With emulated nodes every coordinator gets every report, so the primary ends the
 * job when all nodes say a reported pid is not theirs ({@link org.fthp.coordinator.node.UnownedPidVotes}). On
 * real hosts the library only sees mpirun's own children; it would have to be preloaded into each host's orted
 * as well, writing to that host's coordinator only, whose one vote would then suffice: the primary must count
 * as many votes as coordinators share a host's reports, not the node count (not done).
 */
package org.fthp.coordinator.node;
