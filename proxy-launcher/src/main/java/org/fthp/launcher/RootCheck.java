package org.fthp.launcher;

/** Whether we run as root, which Open MPI refuses unless given --allow-run-as-root. */
public final class RootCheck {

    private RootCheck() {}

    public static boolean runningAsRoot() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        } catch (LinkageError | RuntimeException e) {
            // Module jdk.security.auth absent (a jlinked runtime) or not a Unix: best guess.
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
