package org.lbsim.cli.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.lbsim.cli.errors.UserError;

/** What {@code lbsim plot} and {@code lbsim report} read: a run folder, or a results database (a file, or a folder holding results.duckdb). */
record ReportInputs(Path runFolder, Path database) {
    static final String DEFAULT_DB = "results.duckdb";

    static ReportInputs of(Path input) {
        String shown = input.toString();
        if (Files.isDirectory(input)) {
            if (Files.isRegularFile(input.resolve("summary.json"))) {
                return new ReportInputs(input, null);
            }
            if (Files.isRegularFile(input.resolve(DEFAULT_DB))) {
                return new ReportInputs(null, input.resolve(DEFAULT_DB));
            }
            throw UserError.at(shown, "", "neither a run folder (no summary.json) nor a sweep folder (no " + DEFAULT_DB + ")");
        }
        if (!Files.exists(input)) {
            throw UserError.at(shown, "", "no such file or folder");
        }
        return new ReportInputs(null, input);
    }

    boolean isRun() {
        return runFolder != null;
    }

    /** Writes text through a temporary file in the same folder, so a reader never sees half a file. */
    static void writeAtomically(Path file, byte[] bytes, String shown) {
        Path abs = file.toAbsolutePath().normalize();
        try {
            Files.createDirectories(abs.getParent());
            Path tmp = abs.resolveSibling("." + abs.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            try {
                Files.write(tmp, bytes);
                try {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw UserError.at(shown, "", "cannot write: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
    }

    static void writeAtomically(Path file, String text, String shown) {
        writeAtomically(file, text.getBytes(StandardCharsets.UTF_8), shown);
    }
}
