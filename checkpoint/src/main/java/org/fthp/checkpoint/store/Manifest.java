package org.fthp.checkpoint.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * What makes an epoch committed: every rank's piece, exactly one per rank {@code 0..ranks-1}, in rank order, and
 * the job that wrote it (so a later job resumes only from its own program's checkpoints).
 *
 * <p>On disk it is a short text (readable with {@code cat} when something goes wrong), ending with a line holding
 * the CRC32C of everything above it, so a manifest cut short or altered is never taken for a commit:
 * <pre>
 * fthp-checkpoint-manifest 2
 * epoch 12
 * ranks 4
 * program class%20org.example.Solver
 * arguments 2
 * argument 100
 * argument --fast
 * piece 0 1048640 9a3c11f0
 * ...
 * crc32c 5d2e07aa
 * </pre>
 * Format 1 (written before jobs were recorded) has no program and argument lines: {@link #job()} is then empty.
 */
public record Manifest(long epoch, int ranks, List<PieceEntry> pieces, Optional<JobIdentity> job) {
    static final String FIRST_LINE_V1 = "fthp-checkpoint-manifest 1";
    static final String FIRST_LINE = "fthp-checkpoint-manifest 2";

    /** A manifest of no recorded job (the store stamps its job when it commits). */
    public Manifest(long epoch, int ranks, List<PieceEntry> pieces) {
        this(epoch, ranks, pieces, Optional.empty());
    }

    public Manifest {
        pieces = List.copyOf(pieces);
        java.util.Objects.requireNonNull(job, "job");
        if (job.isPresent() && job.get().ranks() != ranks) {
            throw new IllegalArgumentException("a manifest of " + ranks + " ranks cannot record a job of "
                    + job.get().ranks());
        }
        if (epoch < 0 || ranks <= 0 || pieces.size() != ranks) {
            throw new IllegalArgumentException("a manifest needs epoch >= 0 and one piece for each of its " + ranks
                    + " ranks; got epoch " + epoch + " with " + pieces.size() + " pieces");
        }
        for (int r = 0; r < ranks; r++) {
            if (pieces.get(r).rank() != r) {
                throw new IllegalArgumentException("manifest pieces must be ranks 0.." + (ranks - 1)
                        + " in order; position " + r + " holds rank " + pieces.get(r).rank());
            }
        }
    }

    /** The same manifest, recording {@code job}. */
    public Manifest withJob(JobIdentity job) {
        return new Manifest(epoch, ranks, pieces, Optional.of(job));
    }

    public long totalBytes() {
        return pieces.stream().mapToLong(PieceEntry::bytes).sum();
    }

    byte[] encode() {
        StringBuilder body = new StringBuilder(job.isPresent() ? FIRST_LINE : FIRST_LINE_V1).append('\n')
                .append("epoch ").append(epoch).append('\n')
                .append("ranks ").append(ranks).append('\n');
        job.ifPresent(j -> {
            body.append("program ").append(JobIdentity.encode(j.program())).append('\n')
                    .append("arguments ").append(j.arguments().size()).append('\n');
            for (String a : j.arguments()) {
                body.append("argument ").append(JobIdentity.encode(a)).append('\n');
            }
        });
        for (PieceEntry p : pieces) {
            body.append("piece ").append(p.rank()).append(' ').append(p.bytes()).append(' ')
                    .append(HexFormat.of().toHexDigits(p.crc32c())).append('\n');
        }
        byte[] head = body.toString().getBytes(StandardCharsets.US_ASCII);
        CRC32C crc = new CRC32C();
        crc.update(head);
        return (body + "crc32c " + HexFormat.of().toHexDigits((int) crc.getValue()) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    static Manifest decode(byte[] bytes) throws CorruptManifestException {
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int lastLine = text.lastIndexOf("crc32c ");
        boolean v2 = text.startsWith(FIRST_LINE + "\n");
        if (!(v2 || text.startsWith(FIRST_LINE_V1 + "\n")) || lastLine < 0 || !text.endsWith("\n")) {
            throw new CorruptManifestException("not a complete manifest");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, lastLine);
        String stored = text.substring(lastLine + "crc32c ".length(), text.length() - 1);
        if (!stored.equals(HexFormat.of().toHexDigits((int) crc.getValue()))) {
            throw new CorruptManifestException("manifest checksum mismatch");
        }
        try {
            String[] lines = text.substring(0, lastLine).split("\n");
            long epoch = Long.parseLong(field(lines[1], "epoch"));
            int ranks = Integer.parseInt(field(lines[2], "ranks"));
            int at = 3;
            Optional<JobIdentity> job = Optional.empty();
            if (v2) {
                String program = JobIdentity.decode(field(lines[at++], "program"));
                int count = Integer.parseInt(field(lines[at++], "arguments"));
                List<String> args = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    args.add(JobIdentity.decode(field(lines[at++], "argument")));
                }
                job = Optional.of(new JobIdentity(program, args, ranks));
            }
            if (lines.length != at + ranks) {
                throw new CorruptManifestException("manifest of " + ranks + " ranks lists " + (lines.length - at));
            }
            List<PieceEntry> pieces = new ArrayList<>(ranks);
            for (int i = at; i < lines.length; i++) {
                String[] f = field(lines[i], "piece").split(" ");
                if (f.length != 3) {
                    throw new CorruptManifestException("bad piece line '" + lines[i] + "'");
                }
                pieces.add(new PieceEntry(Integer.parseInt(f[0]), Long.parseLong(f[1]),
                        (int) Long.parseLong(f[2], 16)));
            }
            return new Manifest(epoch, ranks, pieces, job);
        } catch (RuntimeException e) {
            throw new CorruptManifestException("unreadable manifest: " + e.getMessage());
        }
    }

    private static String field(String line, String name) throws CorruptManifestException {
        if (!line.startsWith(name + " ")) {
            throw new CorruptManifestException("expected '" + name + "', got '" + line + "'");
        }
        return line.substring(name.length() + 1);
    }
}
