/**
 * Node coordinators and their hierarchy.
 *
 * <p>Emulated nodes ({@code fthp-run --nodes K}): K coordinators on loopback, ranks assigned to them in blocks; in
 * one JVM via {@link org.fthp.coordinator.node.Hierarchy}, or as K processes via
 * {@link org.fthp.coordinator.node.CoordinatorMain}.
 *
 * <p>Several hosts ({@code fthp-run --host/--hostfile}): one {@code CoordinatorMain} per host, started through the
 * remote agent mpirun uses, with {@code --nodes stdin --node-count K --bind ADDR}: each binds an ephemeral port on
 * its host's address, names it on its ready line, and is sent the whole list on stdin (the secret arrives
 * before, as the first line the remote wrapper reads into the environment). Each rank registers with its own
 * host's coordinator ({@code FTHP_COORDINATOR_OF}); only coordinator-to-coordinator links cross hosts.
 *
 * <p>Death reports from the launcher's proxy library ({@link org.fthp.coordinator.node.ProxyReportPipe}) are
 * local to a host. With emulated nodes every coordinator gets every report (the library writes to every pipe),
 * so the primary ends the job when all nodes say a reported pid is not theirs
 * ({@link org.fthp.coordinator.node.UnownedPidVotes}). On several hosts the library is also preloaded into
 * each host's orted and writes to {@code --report-dir}'s FIFO of that host's coordinator only, whose one vote
 * suffices ({@link org.fthp.coordinator.node.NodeCoordinator#reportsArePerHost}).
 */
package org.fthp.coordinator.node;
