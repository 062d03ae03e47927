package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.ConfigRegistry;

import java.nio.file.Files;
import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** conf/CONFIG.md is generated from the key definitions and must not drift from them. */
class ConfigDocsTest {
    @Test
    void committedReferenceIsCurrent() throws Exception {
        ConfigDocsCommand.registerAll();
        Path md = Path.of("../conf/CONFIG.md");
        assertTrue(Files.isRegularFile(md), "conf/CONFIG.md is missing");
        assertEquals(ConfigRegistry.markdown(), Files.readString(md),
                "conf/CONFIG.md is stale: run ./submit/tomospark config-docs");
        assertEquals(ConfigRegistry.exampleProperties(), Files.readString(Path.of("../conf/tomospark.properties")),
                "conf/tomospark.properties is stale: run ./submit/tomospark config-docs");
        for (ConfigKey<?> k : ConfigRegistry.all()) assertFalse(k.doc().isBlank(), k.name() + " has no documentation");
    }

    @Test
    void errorsNameTheKey() {
        ConfigDocsCommand.registerAll();
        ConfigKey<?> k = ConfigRegistry.find("backend.slicesPerPass");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> k.parse("3"));
        assertTrue(e.getMessage().startsWith("config key backend.slicesPerPass: invalid value '3'"), e.getMessage());
        ConfigKey<?> c = ConfigRegistry.find("center");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.parse("abc")).getMessage().contains("config key center"));
    }
}
