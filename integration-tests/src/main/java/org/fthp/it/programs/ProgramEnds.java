package org.fthp.it.programs;

import java.util.ArrayList;
import java.util.List;

import mpi.MPI;
import mpi.MPIException;

/**
 * Each way a program can end a job without reaching MPI_Finalize, chosen by the arguments
 * {@code <how> <rank|all> [code]}: after MPI_Init and a barrier the chosen rank(s) end that way, while every other
 * rank waits in a receive nobody will match (only the job's end stops it) and would then finalize.
 * <ul>
 * <li>{@code throw}: an uncaught IllegalStateException escapes main;
 * <li>{@code exit}: System.exit(code) before MPI_Finalize ({@code code} 0 included);
 * <li>{@code return}: main returns without MPI_Finalize;
 * <li>{@code abort}: COMM_WORLD.abort(code);
 * <li>{@code fatal}: a send to a rank that does not exist under ERRORS_ARE_FATAL;
 * <li>{@code oom}: an OutOfMemoryError; {@code stack}: a StackOverflowError.
 * </ul>
 * Nothing after the end may run: "NOT REACHED" must never be printed.
 */
public final class ProgramEnds {

    public static void main(String[] args) throws MPIException {
        String how = args[0];
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        boolean mine = args[1].equals("all") || Integer.parseInt(args[1]) == rank;
        int code = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        MPI.COMM_WORLD.barrier();
        if (mine) {
            switch (how) {
                case "throw" -> throw new IllegalStateException("ProgramEnds fails on rank " + rank);
                case "exit" -> System.exit(code);
                case "return" -> {
                    return;
                }
                case "abort" -> MPI.COMM_WORLD.abort(code);
                case "fatal" -> MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, size, 0);
                case "oom" -> {
                    List<long[]> hog = new ArrayList<>();
                    hog.add(new long[Integer.MAX_VALUE - 16]);
                    System.out.println("NOT REACHED " + hog.size());
                }
                case "stack" -> System.out.println("NOT REACHED " + deeper(0));
                default -> throw new IllegalArgumentException("unknown way to end: " + how);
            }
            System.out.println("NOT REACHED after " + how + " on rank " + rank);
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 12345);
            System.out.println("NOT REACHED on rank " + rank);
        }
        MPI.Finalize();
    }

    private static long deeper(long depth) {
        return deeper(depth + 1) + 1;
    }
}
