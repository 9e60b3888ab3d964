package org.lbsim.cli.errors;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Control characters in text for the terminal. Names, titles, paths and values come from the user or from
 * a file; printed raw, an escape sequence in one could clear the screen, retitle the window or hide what
 * follows. Everything {@code lbsim} prints passes through {@link #guard}, which shows control characters
 * as escapes ({@code \e}, {@code \a}, {@code \0}, {@code \x7f}, {@code \u009b}); error messages go through
 * {@link #escape}, which also escapes line breaks, so that one error stays one line.
 */
public final class ControlCharacters {
    private ControlCharacters() {
    }

    /** Every control character escaped, line breaks and tabs too: for a string shown inside one line. */
    /** {@code s} on one line: surrounding blanks stripped, each line break with the blanks around it made one space ("" for null). */
    public static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    public static String escape(String s) {
        return escape(s, false);
    }

    /** Control characters escaped except line feeds and tabs, which lay out printed text. */
    public static String escapeKeepingLines(String s) {
        return escape(s, true);
    }

    private static String escape(String s, boolean keepLines) {
        if (s == null) {
            return "null";
        }
        int i = 0;
        while (i < s.length() && !escaped(s.charAt(i), keepLines)) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!escaped(c, keepLines)) {
                sb.append(c);
                continue;
            }
            switch (c) {
                case 0 -> sb.append("\\0");
                case 7 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case 11 -> sb.append("\\v");
                case '\f' -> sb.append("\\f");
                case '\r' -> sb.append("\\r");
                case 27 -> sb.append("\\e");
                default -> sb.append(c < 0x100 ? String.format(java.util.Locale.ROOT, "\\x%02x", (int) c) : String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        return sb.toString();
    }

    /**
     * C0 and C1 controls and DEL (Unicode category Cc), and the characters that reorder or break text on screen
     * without being seen: the bidirectional overrides and isolates, and the line and paragraph separators.
     */
    public static boolean escaped(char c, boolean keepLines) {
        if (keepLines && (c == '\n' || c == '\t')) {
            return false;
        }
        return Character.getType(c) == Character.CONTROL || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069')
                || c == '\u2028' || c == '\u2029';
    }

    /**
     * {@code out} printing through {@link #escapeKeepingLines}: text printed or formatted has its control
     * characters escaped; bytes written directly (picocli's help, a progress line's carriage return) keep tabs,
     * line ends and carriage returns and have the other C0 controls and DEL escaped. Closing it leaves
     * {@code out} open; {@link PrintStream#checkError} reports a failed write to {@code out}.
     */
    public static PrintStream guard(PrintStream out) {
        return out instanceof Guarded ? out : new Guarded(out);
    }

    /** Whether this stream prints to the process's standard output (directly or through {@link #guard}). */
    public static boolean isStdout(PrintStream p) {
        return p == System.out || p instanceof Guarded g && g.target == System.out;
    }

    private static final class Guarded extends PrintStream {
        private final PrintStream target;

        Guarded(PrintStream target) {
            super(new Bytes(target), false);
            this.target = target;
        }

        @Override
        public void print(String s) {
            target.print(escapeKeepingLines(s));
        }

        @Override
        public void print(Object o) {
            print(String.valueOf(o));
        }

        @Override
        public void print(char c) {
            print(String.valueOf(c));
        }

        @Override
        public void print(char[] s) {
            print(new String(s));
        }

        @Override
        public boolean checkError() {
            boolean own = super.checkError();
            return target.checkError() || own;
        }

        @Override
        public void close() {
            flush();
        }
    }

    /** Bytes to the target with the C0 controls but tab, line feed and carriage return (and DEL) escaped. */
    private static final class Bytes extends OutputStream {
        private final PrintStream target;

        Bytes(PrintStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                int c = b[i] & 0xff;
                if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
                    target.write(b, start, i - start);
                    byte[] e = escape(String.valueOf((char) c)).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    target.write(e, 0, e.length);
                    start = i + 1;
                }
            }
            target.write(b, start, off + len - start);
        }

        @Override
        public void flush() throws IOException {
            target.flush();
        }
    }
}
