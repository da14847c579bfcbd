package org.fthp.apps.cloverleaf;

/** A deck the program cannot run: names the line (1-based, 0 when not tied to one line) and keyword. */
final class DeckException extends Exception {

    final int line;
    final String keyword;

    DeckException(int line, String keyword, String message) {
        super(message);
        this.line = line;
        this.keyword = keyword;
    }

    /** "clover.in:7: x_cells: expected ..." as a compiler would print it. */
    String describe(String source) {
        StringBuilder b = new StringBuilder(source);
        if (line > 0) {
            b.append(':').append(line);
        }
        b.append(": ");
        if (keyword != null) {
            b.append('\'').append(keyword).append("': ");
        }
        return b.append(getMessage()).toString();
    }
}
