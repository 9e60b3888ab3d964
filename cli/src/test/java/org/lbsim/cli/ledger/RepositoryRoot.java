package org.lbsim.cli.ledger;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root folder, found upwards from where the tests run (the module folder). */
final class RepositoryRoot {
    private RepositoryRoot() {
    }

    static Path find() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.isRegularFile(p.resolve("mvnw")) && Files.isDirectory(p.resolve("cli")))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no repository root (a folder with mvnw and cli/) above " + Path.of("").toAbsolutePath());
        }
        return p;
    }
}
