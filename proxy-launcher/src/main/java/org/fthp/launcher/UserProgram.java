package org.fthp.launcher;

/**
 * The user's program once -jar has been resolved: the class every rank starts and the class
 * path it needs (which goes after our runtime jar).
 */
public record UserProgram(String mainClass, String classpath) {}
