/**
 * Failure coordinators of FTHP-J (docs/DESIGN.md §9–§10): one {@link org.fthp.coordinator.node.NodeCoordinator}
 * per node, grouped under group leaders, with the primary (node 0) owning the job-wide failure set and its epoch.
 *
 * <p>Layering, bottom up:
 * <ul>
 *   <li>{@code event} — the domain: who failed ({@link org.fthp.coordinator.event.FailedProcess}), the epoch-numbered
 *       failure set the primary keeps, and the job shape that decides when a logical rank has lost every copy.
 *       No networking.</li>
 *   <li>{@code wire} — frames, message codec and the HMAC handshake. Knows nothing about hierarchy.</li>
 *   <li>{@code node} — the coordinator server and the hierarchy wiring.</li>
 *   <li>{@code client} — what an MPI process embeds to register with its local coordinator and hear about failures.</li>
 * </ul>
 * Pure Java + Netty; no MPI anywhere in this module.
 */
package org.fthp.coordinator;
