package mpi;

/** A Cartesian communicator's grid and this process's place in it (CartComm.getTopo). */
public final class CartParms {

    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    protected CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims.clone();
        this.periods = periods.clone();
        this.coords = coords.clone();
    }

    /** Number of dimensions of the grid. */
    public int getDimCount() {
        return dims.length;
    }

    /** Number of processes along dimension i. */
    public int getDim(int i) {
        return dims[i];
    }

    /** Whether dimension i wraps around. */
    public boolean getPeriod(int i) {
        return periods[i];
    }

    /** This process's coordinate along dimension i. */
    public int getCoord(int i) {
        return coords[i];
    }
}
