/**
 * Spare processes ({@code fthp-run --spares S}): extra native ranks at the end of the native COMM_WORLD that hold
 * no logical rank. Each node coordinator keeps its own spares' connections apart from its program processes (a
 * spare receives no failure set, and its loss is no rank's loss) and releases them to MPI_Finalize once the
 * primary has seen every program process finish or fail.
 */
package org.fthp.coordinator.spares;
