package org.fthp.apps.cloverleaf;

/** Mesh geometry and initial state of a chunk (the reference's initialise_chunk and generate_chunk kernels). */
final class Setup {

    private Setup() {}

    /** Vertex and cell positions, widths, cell volumes and face areas of a uniform mesh. */
    static void geometry(Chunk c, Deck deck) {
        double dx = deck.dx();
        double dy = deck.dy();
        // Each chunk starts from its own origin, as in the reference.
        double xmin = deck.xmin() + dx * (double) (c.left - 1);
        double ymin = deck.ymin() + dy * (double) (c.bottom - 1);
        int h = Chunk.HALO;
        for (int j = 1 - h; j <= c.xMax + h + 1; j++) {
            c.vertexx[j + h] = xmin + dx * (double) (j - 1);
            c.vertexdx[j + h] = dx;
        }
        for (int k = 1 - h; k <= c.yMax + h + 1; k++) {
            c.vertexy[k + h] = ymin + dy * (double) (k - 1);
            c.vertexdy[k + h] = dy;
        }
        for (int j = 1 - h; j <= c.xMax + h; j++) {
            c.cellx[j + h] = 0.5 * (c.vertexx[j + h] + c.vertexx[j + h + 1]);
            c.celldx[j + h] = dx;
        }
        for (int k = 1 - h; k <= c.yMax + h; k++) {
            c.celly[k + h] = 0.5 * (c.vertexy[k + h] + c.vertexy[k + h + 1]);
            c.celldy[k + h] = dy;
        }
        for (int k = 1 - h; k <= c.yMax + h; k++) {
            for (int j = 1 - h; j <= c.xMax + h; j++) {
                int i = c.idx(j, k);
                c.volume[i] = dx * dy;
                c.xarea[i] = c.celldy[k + h];
                c.yarea[i] = c.celldx[j + h];
            }
        }
    }

    /** Fills the chunk with state 1, then paints every later state over the cells its shape covers. */
    static void generate(Chunk c, Deck deck) {
        int h = Chunk.HALO;
        State background = deck.states().get(0);
        for (int k = 1; k <= c.yMax; k++) {
            for (int j = 1; j <= c.xMax; j++) {
                int i = c.idx(j, k);
                c.energy0[i] = background.energy();
                c.density0[i] = background.density();
            }
        }
        for (int k = 1 - h; k <= c.yMax + h; k++) {
            for (int j = 1 - h; j <= c.xMax + h; j++) {
                int i = c.idx(j, k);
                c.xvel0[i] = background.xvel();
                c.yvel0[i] = background.yvel();
            }
        }
        for (State s : deck.states().subList(1, deck.states().size())) {
            double xCent = s.xmin();
            double yCent = s.ymin();
            for (int k = 1; k <= c.yMax; k++) {
                for (int j = 1; j <= c.xMax; j++) {
                    boolean inside = switch (s.geometry()) {
                        case RECTANGLE -> c.vertexx[j + 1 + h] >= s.xmin() && c.vertexx[j + h] < s.xmax()
                                && c.vertexy[k + 1 + h] >= s.ymin() && c.vertexy[k + h] < s.ymax();
                        case CIRCLE -> {
                            double ddx = c.cellx[j + h] - xCent;
                            double ddy = c.celly[k + h] - yCent;
                            yield Math.sqrt(ddx * ddx + ddy * ddy) <= s.radius();
                        }
                        case POINT -> c.vertexx[j + h] == xCent && c.vertexy[k + h] == yCent;
                    };
                    if (inside) {
                        int i = c.idx(j, k);
                        c.energy0[i] = s.energy();
                        c.density0[i] = s.density();
                        // the state's velocity goes to the cell's four vertices
                        for (int n : new int[] {i, i + 1, i + c.stride, i + c.stride + 1}) {
                            c.xvel0[n] = s.xvel();
                            c.yvel0[n] = s.yvel();
                        }
                    }
                }
            }
        }
    }
}
