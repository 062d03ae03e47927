package org.tomospark.executor.backends.cuda;

import jcuda.NativePointerObject;
import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelArgsTest {
    @Test
    void missingAndDuplicateParametersAreErrors() {
        KernelCalls.Pack a = KernelCalls.pack().width(3).np(2);
        assertEquals(List.of("raw", "sliceStride", "nValid", "dst", "pitch"), a.missing());
        IllegalStateException e = assertThrows(IllegalStateException.class, a::build);
        assertTrue(e.getMessage().contains("PACK") && e.getMessage().contains("[raw, sliceStride, nValid, dst, pitch]"),
                e.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> a.width(4));
        assertTrue(twice.getMessage().contains("'width'"), twice.getMessage());
    }

    @Test
    void aStructByValueMustHaveTheSizeTheKernelDeclares() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelCalls.fdkTensor().map(new byte[64]));
        assertTrue(e.getMessage().contains("'map'") && e.getMessage().contains("128 bytes, not 64"), e.getMessage());
        assertTrue(KernelCalls.fdkTensor().map(new byte[128]).missing().indexOf("map") < 0);
    }

    /**
     * Every generated setter of every parameter list fills its own parameter's place and no other: set one by one in
     * reverse order, the missing names shrink exactly as the declaration order says, and the complete list builds.
     */
    @Test
    void everySetterFillsItsOwnParameter() throws Exception {
        int checked = 0;
        for (KernelCalls.Signature sig : KernelCalls.Signature.values()) {
            Class<?> builder = Class.forName(KernelCalls.class.getName() + "$" + className(sig));
            KernelArgs<?> args = (KernelArgs<?>) KernelCalls.class.getDeclaredMethod(factory(sig)).invoke(null);
            assertEquals(sig, args.signature());
            assertEquals(sig.params, args.missing(), sig + ": nothing set");
            List<String> left = new ArrayList<>(sig.params);
            for (int i = sig.params.size() - 1; i >= 0; i--) {
                String name = sig.params.get(i);
                setter(builder, name).invoke(args, sample(setter(builder, name).getParameterTypes()[0]));
                left.remove(name);
                assertEquals(left, args.missing(), sig + " after " + name);
                checked++;
            }
            assertNotNull(args.build());
        }
        assertTrue(checked > 200, checked + " parameters");
    }

    /** The manifest carries the parameter lists the classes were generated from; another list is refused, naming both. */
    @Test
    void aManifestFromOtherKernelSourcesIsRefused() throws Exception {
        String manifest = Files.readString(packagedManifest());
        KernelManifest.parse(manifest);
        String renamed = manifest.replace("signature FILTER kernel=ramp_filter_rows params=data:ptr,nrows:i64,width:i32,",
                "signature FILTER kernel=ramp_filter_rows params=data:ptr,nrows:i64,rowWidth:i32,");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelManifest.parse(renamed));
        assertTrue(e.getMessage().contains("[data, nrows, rowWidth, n, tw, resp, edge]")
                && e.getMessage().contains("[data, nrows, width, n, tw, resp, edge]"), e.getMessage());
    }

    static Path packagedManifest() {
        Path p = Path.of("src", "main", "resources", "kernels-ptx", "variants.manifest");
        return Files.exists(p) ? p : Path.of("gpu-executor").resolve(p);
    }

    private static String className(KernelCalls.Signature sig) {
        StringBuilder b = new StringBuilder();
        for (String part : sig.name().split("_")) b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        return b.toString();
    }

    private static String factory(KernelCalls.Signature sig) {
        String c = className(sig);
        return Character.toLowerCase(c.charAt(0)) + c.substring(1);
    }

    private static Method setter(Class<?> builder, String name) {
        for (Method m : builder.getDeclaredMethods())
            if (m.getName().equals(name) && m.getParameterCount() == 1 && !Modifier.isStatic(m.getModifiers())) return m;
        throw new AssertionError(builder.getSimpleName() + " has no setter " + name);
    }

    private static Object sample(Class<?> type) {
        if (type == int.class) return 1;
        if (type == long.class) return 1L;
        if (type == float.class) return 1f;
        if (type == double.class) return 1d;
        if (type == byte[].class) return new byte[128];
        if (type == NativePointerObject.class) return new CUdeviceptr();
        throw new AssertionError("no sample of " + type);
    }
}
