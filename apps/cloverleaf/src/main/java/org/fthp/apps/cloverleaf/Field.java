package org.fthp.apps.cloverleaf;

/**
 * The fields a halo update can name, numbered and typed as in the reference (its FIELD_* and
 * CELL/VERTEX/X_FACE/Y_FACE constants). The type fixes which indices a halo covers and how an
 * external (reflective) boundary mirrors it.
 */
enum Field {
    DENSITY0(Type.CELL), DENSITY1(Type.CELL), ENERGY0(Type.CELL), ENERGY1(Type.CELL),
    PRESSURE(Type.CELL), VISCOSITY(Type.CELL), SOUNDSPEED(Type.CELL),
    XVEL0(Type.VERTEX), XVEL1(Type.VERTEX), YVEL0(Type.VERTEX), YVEL1(Type.VERTEX),
    VOL_FLUX_X(Type.X_FACE), VOL_FLUX_Y(Type.Y_FACE), MASS_FLUX_X(Type.X_FACE), MASS_FLUX_Y(Type.Y_FACE);

    enum Type {
        CELL(0, 0), VERTEX(1, 1), X_FACE(1, 0), Y_FACE(0, 1);

        /** 1 when the data has one more entry than cells in x (resp. y). */
        final int xInc;
        final int yInc;

        Type(int xInc, int yInc) {
            this.xInc = xInc;
            this.yInc = yInc;
        }
    }

    final Type type;
    /** Bit of this field in a field set. */
    final int bit;

    Field(Type type) {
        this.type = type;
        this.bit = 1 << ordinal();
    }

    static final Field[] ALL = values();

    /** A set of fields as a bit mask (the reference passes an array of 0/1 flags). */
    static int set(Field... fields) {
        int mask = 0;
        for (Field f : fields) {
            mask |= f.bit;
        }
        return mask;
    }

    /** The array of this field in a chunk. */
    double[] of(Chunk c) {
        return switch (this) {
            case DENSITY0 -> c.density0;
            case DENSITY1 -> c.density1;
            case ENERGY0 -> c.energy0;
            case ENERGY1 -> c.energy1;
            case PRESSURE -> c.pressure;
            case VISCOSITY -> c.viscosity;
            case SOUNDSPEED -> c.soundspeed;
            case XVEL0 -> c.xvel0;
            case XVEL1 -> c.xvel1;
            case YVEL0 -> c.yvel0;
            case YVEL1 -> c.yvel1;
            case VOL_FLUX_X -> c.volFluxX;
            case VOL_FLUX_Y -> c.volFluxY;
            case MASS_FLUX_X -> c.massFluxX;
            case MASS_FLUX_Y -> c.massFluxY;
        };
    }

    /** Reflective boundaries flip the velocity (and flux) component normal to the boundary. */
    boolean isXComponent() {
        return this == XVEL0 || this == XVEL1 || this == VOL_FLUX_X || this == MASS_FLUX_X;
    }

    boolean isYComponent() {
        return this == YVEL0 || this == YVEL1 || this == VOL_FLUX_Y || this == MASS_FLUX_Y;
    }
}
