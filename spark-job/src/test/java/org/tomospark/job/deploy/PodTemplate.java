package org.tomospark.job.deploy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/** A pod template's container as Spark takes it (by name), and the volumes of its pod. */
record PodTemplate(Map<String, Object> pod, Map<String, Object> container) {

    /** A file of a ConfigMap mounted into the container: where, from which ConfigMap and key, with which mode. */
    record Mounted(String mountPath, String configMap, String key, int mode) {
    }

    static PodTemplate read(Path file, String containerName) throws IOException {
        Map<String, Object> pod = RecipeFiles.yaml(file);
        Map<String, Object> spec = RecipeFiles.map(pod.get("spec"), "spec");
        for (Object c : RecipeFiles.list(spec.get("containers"), "spec.containers")) {
            Map<String, Object> container = RecipeFiles.map(c, "a container");
            if (containerName.equals(container.get("name"))) return new PodTemplate(pod, container);
        }
        return fail(file + " has no container " + containerName);
    }

    /** The container's resources.limits. */
    Map<String, Object> limits() {
        Map<String, Object> resources = RecipeFiles.map(container.get("resources"), "resources");
        return RecipeFiles.map(resources.get("limits"), "resources.limits");
    }

    /** The one file the container mounts from the ConfigMap volume {@code volume} (a subPath mount of one item). */
    Mounted mountedFile(String volume) {
        Map<String, Object> mount = named(container.get("volumeMounts"), volume, "volumeMounts");
        Map<String, Object> spec = RecipeFiles.map(pod.get("spec"), "spec");
        Map<String, Object> configMap = RecipeFiles.map(named(spec.get("volumes"), volume, "volumes").get("configMap"), "configMap");
        var items = RecipeFiles.list(configMap.get("items"), "configMap.items");
        assertEquals(1, items.size(), "one file of the ConfigMap");
        Map<String, Object> item = RecipeFiles.map(items.get(0), "an item");
        assertEquals(item.get("path"), mount.get("subPath"), "the mount takes the item's file");
        Object mode = item.getOrDefault("mode", configMap.get("defaultMode"));
        assertNotNull(mode, "no mode for the mounted file");
        return new Mounted((String) mount.get("mountPath"), (String) configMap.get("name"), (String) item.get("key"), (Integer) mode);
    }

    /** The entry of a list of named entries (volumes, volumeMounts) with {@code name}. */
    private static Map<String, Object> named(Object list, String name, String what) {
        for (Object e : RecipeFiles.list(list, what)) {
            Map<String, Object> entry = RecipeFiles.map(e, what);
            if (name.equals(entry.get("name"))) return entry;
        }
        return fail(what + " has no " + name);
    }
}
