package org.fthp.apps.hpcg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Run parameters, taken as HPCG 3.1's init does: local grid nx ny nz and the target run time
 * from the command line ({@code --nx=16}, {@code --nx 16}, or positional {@code nx ny nz rt}),
 * otherwise from {@code hpcg.dat} (line 3: nx ny nz, line 4: seconds, optional line 5: npx npy npz).
 * A dimension left out takes the largest of the others (at least 16), as the reference does.
 *
 * <p>Unlike the reference, which silently substitutes defaults for unreadable input, anything
 * malformed here is an {@link InputError}: a benchmark run on a grid nobody asked for is worse
 * than no run.
 *
 * <p>{@code --sets=N} (not in the reference; 0 = not given) fixes the number of timed sets instead of deriving
 * it from {@code --rt} and a measured time: runs that must do the same work whatever the machine's speed (the
 * efficiency experiments of bench/efficiency.sh compare runs under failures with failure-free ones) need it.
 */
record Params(int nx, int ny, int nz, int runningTime, int npx, int npy, int npz, int sets, Path outDir) {

    /** Three coarsenings by 2 (four MG levels) need every local dimension divisible by 8. */
    static final int MULTIPLE = 8;
    static final int MIN_DIM = 16;

    static final String USAGE = """
            usage: Hpcg [--nx=N --ny=N --nz=N] [--rt=SECONDS] [--sets=N] [--npx=P --npy=P --npz=P] [--dat=FILE] [--out=DIR]
                   Hpcg nx ny nz [rt]
              without nx/ny/nz the parameters come from hpcg.dat (--dat, default ./hpcg.dat);
              local dimensions must be >= 16 and multiples of 8; --rt=0 (the default when nx/ny/nz are
              given without --rt) is the reference's QuickPath: one timed set, no 10x kernel timing;
              --sets=N (>= 1) runs exactly N timed sets instead of as many as fit in --rt.""";

    /** Packs the parameters for a broadcast from rank 0 (the reference broadcasts what it read). */
    int[] toInts() {
        return new int[] {nx, ny, nz, runningTime, npx, npy, npz, sets};
    }

    static Params fromInts(int[] v, Path outDir) {
        return new Params(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], outDir);
    }

    static Params parse(String[] args) {
        return parse(args, null);
    }

    /**
     * @param datOverride contents to use instead of reading the hpcg.dat file (tests); null reads the file
     */
    static Params parse(String[] args, String datOverride) {
        int[] v = new int[7];          // nx ny nz rt npx npy npz; -1 = not given
        int sets = 0;                  // 0: from rt
        java.util.Arrays.fill(v, -1);
        Path dat = Path.of("hpcg.dat");
        Path out = Path.of(".");
        int positional = 0;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                throw new InputError(USAGE);
            }
            if (!a.startsWith("--")) {
                if (positional >= 4) {
                    throw new InputError("unexpected argument '" + a + "'\n" + USAGE);
                }
                v[positional++] = parseInt(a, "positional argument " + (positional));
                continue;
            }
            String key;
            String value;
            int eq = a.indexOf('=');
            if (eq >= 0) {
                key = a.substring(2, eq);
                value = a.substring(eq + 1);
            } else {
                key = a.substring(2);
                if (i + 1 >= args.length) {
                    throw new InputError("option --" + key + " needs a value\n" + USAGE);
                }
                value = args[++i];
            }
            switch (key) {
                case "nx" -> v[0] = parseInt(value, "--nx");
                case "ny" -> v[1] = parseInt(value, "--ny");
                case "nz" -> v[2] = parseInt(value, "--nz");
                case "rt" -> v[3] = parseInt(value, "--rt");
                case "npx" -> v[4] = parseInt(value, "--npx");
                case "npy" -> v[5] = parseInt(value, "--npy");
                case "npz" -> v[6] = parseInt(value, "--npz");
                case "sets" -> {
                    sets = parseInt(value, "--sets");
                    if (sets < 1) {
                        throw new InputError("--sets=" + sets + ": at least one timed set");
                    }
                }
                case "dat" -> dat = Path.of(value);
                case "out" -> out = Path.of(value);
                case "pz", "zl", "zu" -> throw new InputError(
                        "--" + key + " (varying nz per process layer) is not supported by this port");
                default -> throw new InputError("unknown option --" + key + "\n" + USAGE);
            }
        }
        boolean dimsGiven = v[0] >= 0 || v[1] >= 0 || v[2] >= 0;
        if (!dimsGiven) {
            String text = datOverride;
            if (text == null) {
                try {
                    text = Files.readString(dat);
                } catch (IOException e) {
                    throw new InputError("no nx/ny/nz on the command line and cannot read " + dat.toAbsolutePath()
                            + " (" + e.getClass().getSimpleName() + ")\n" + USAGE);
                }
            }
            readDat(text, dat.toString(), v);
        }
        if (v[3] < 0) {
            v[3] = 0;   // dimensions on the command line and no --rt: the reference's QuickPath (rt = 0)
        }
        fillDimensions(v);
        for (int d = 0; d < 3; d++) {
            String name = "n" + "xyz".charAt(d);
            if (v[d] < MIN_DIM) {
                throw new InputError(name + "=" + v[d] + " is too small: local dimensions must be at least " + MIN_DIM);
            }
            if (v[d] % MULTIPLE != 0) {
                throw new InputError(name + "=" + v[d] + " is not a multiple of " + MULTIPLE
                        + " (the multigrid coarsens each local dimension by 2 three times)");
            }
        }
        int givenP = 0;
        for (int d = 4; d < 7; d++) {
            if (v[d] > 0) {
                givenP++;
            } else if (v[d] == 0 || v[d] == -1) {
                v[d] = 0;
            }
        }
        if (givenP != 0 && givenP != 3) {
            throw new InputError("give all of npx, npy, npz or none of them");
        }
        return new Params(v[0], v[1], v[2], v[3], v[4], v[5], v[6], sets, out);
    }

    /** Largest of the other dimensions for any left unspecified, at least 16: HPCG_Init's rule. */
    private static void fillDimensions(int[] v) {
        for (int i = 0; i < 3; i++) {
            if (v[i] <= 0) {
                int m = Math.max(v[(i + 1) % 3], v[(i + 2) % 3]);
                v[i] = Math.max(m, MIN_DIM);
            }
        }
    }

    /** hpcg.dat: two free-text lines, then nx ny nz, then the seconds, then optionally npx npy npz. */
    static void readDat(String text, String name, int[] v) {
        List<String> lines = text.lines().toList();
        if (lines.size() < 4) {
            throw new InputError(name + ": expected at least 4 lines (2 header lines, 'nx ny nz', 'seconds'), found "
                    + lines.size());
        }
        int[] dims = ints(lines.get(2), name, 3, 3, "line 3 (nx ny nz)");
        for (int d = 0; d < 3; d++) {
            if (v[d] < 0) {
                v[d] = dims[d];
            }
        }
        int[] rt = ints(lines.get(3), name, 1, 1, "line 4 (running time in seconds)");
        if (v[3] < 0) {
            v[3] = rt[0];
        }
        if (lines.size() >= 5 && !lines.get(4).isBlank()) {
            int[] p = ints(lines.get(4), name, 3, 3, "line 5 (npx npy npz)");
            for (int d = 0; d < 3; d++) {
                if (v[4 + d] < 0) {
                    v[4 + d] = p[d];
                }
            }
        }
    }

    /** The first {@code want} whitespace-separated integers of a line (anything after them is a comment). */
    private static int[] ints(String line, String file, int want, int atLeast, String what) {
        String[] tok = line.trim().split("\\s+");
        if (tok.length < atLeast || tok[0].isEmpty()) {
            throw new InputError(file + ": " + what + " should hold " + want + " integer(s), found '" + line.strip() + "'");
        }
        int[] r = new int[want];
        for (int i = 0; i < want; i++) {
            r[i] = parseInt(tok[i], file + " " + what);
        }
        return r;
    }

    private static int parseInt(String s, String what) {
        try {
            int x = Integer.parseInt(s.trim());
            if (x < 0) {
                throw new InputError(what + ": negative value " + x);
            }
            return x;
        } catch (NumberFormatException e) {
            throw new InputError(what + ": '" + s + "' is not a non-negative integer");
        }
    }
}
