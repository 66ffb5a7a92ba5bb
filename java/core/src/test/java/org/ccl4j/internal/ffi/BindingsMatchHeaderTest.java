package org.ccl4j.internal.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bindings are jextract's output (BindingsAreGeneratedTest checks that where jextract is
 * installed). This test needs no jextract: it parses the headers of native/include and fails
 * whenever a function, struct, field, typedef or constant has no matching binding (name, arity,
 * carrier types, offsets and sizes under the x86-64 System V rules) or a binding has no
 * declaration left in the headers, so a header changed without regenerating the bindings is
 * caught everywhere. The public headers (ccl4j.h and the topic headers it includes) belong to
 * {@code ccl4j_h}, the benchmark header ccl4j/bench.h to {@code org.ccl4j.bench.ffi.ccl4j_bench_h},
 * which ccl4j-bench compiles and ccl4j-core does not: bench.h is parsed here all the same (its
 * declarations use the public headers' types), but its functions and typedefs are checked only
 * where that class is on the class path, in ccl4j-bench's BenchBindingsMatchHeaderTest, which is
 * this test run there.
 */
public class BindingsMatchHeaderTest {
    private static final Path INCLUDE = Path.of("native/include");
    private static final Path UMBRELLA = INCLUDE.resolve("ccl4j.h");
    private static final Path BENCH = INCLUDE.resolve("ccl4j/bench.h");
    private static final String PACKAGE = "org.ccl4j.internal.ffi.";
    private static final String BENCH_BINDINGS = "org.ccl4j.bench.ffi.ccl4j_bench_h";

    /** A C type as the header spells it, reduced to what decides the Java carrier. */
    private record CType(String base, boolean pointer) {
        Class<?> carrier() {
            if (pointer || handles.contains(base) || callbacks.containsKey(base)) {
                return MemorySegment.class;
            }
            return switch (base) {
                case "void" -> void.class;
                case "char" -> byte.class;
                case "double" -> double.class;
                case "int64_t", "uint64_t" -> long.class;
                case "int32_t", "uint32_t", "ccl4j_status", "ccl4j_backend", "ccl4j_algorithm", "ccl4j_lattice_kind" -> int.class;
                default -> throw new AssertionError("no carrier known for C type " + base);
            };
        }

        long size() {
            return pointer || carrier() == MemorySegment.class ? 8 : switch (base) {
                case "char" -> 1;
                case "double", "int64_t", "uint64_t" -> 8;
                default -> 4;
            };
        }
    }

    private record CField(CType type, String name, long dimension) {
    }

    /** A function of {@code header}, and the header class of its binding (null where it is not on the class path). */
    private record CFunction(CType result, String name, List<CType> parameters, Path header, Class<?> owner) {
    }

    /** A typedef of an int32_t or an opaque handle, and the header class that holds its layout (or null, as above). */
    private record CTypedef(String name, boolean handle, Class<?> owner) {
    }

    /** A function pointer type ({@code typedef R (*name)(P...)}), and the header class beside whose class it is bound. */
    private record CCallback(CType result, String name, List<CType> parameters, Class<?> owner) {
    }

    private static final List<CTypedef> typedefs = new ArrayList<>();
    /** The function pointer types, by name: pointers where they are passed, a class of their own in the bindings. */
    private static final Map<String, CCallback> callbacks = new LinkedHashMap<>();
    private static final Map<String, Long> macros = new LinkedHashMap<>();
    private static final Map<String, List<CField>> structs = new LinkedHashMap<>();
    private static final List<CFunction> functions = new ArrayList<>();
    /** The opaque handle types (typedef struct x_s* x): pointers, whatever their name. */
    private static final Set<String> handles = new HashSet<>();

    /** The header class of ccl4j/bench.h, or null where ccl4j-bench's classes are not on the class path. */
    protected static Class<?> benchBindings() {
        try {
            return Class.forName(BENCH_BINDINGS, false, BindingsMatchHeaderTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** The headers: ccl4j.h and every header of ccl4j/, each with the header class of its bindings (or null). */
    private static Map<Path, Class<?>> headers() throws IOException {
        Map<Path, Class<?>> headers = new LinkedHashMap<>();
        headers.put(UMBRELLA, ccl4j_h.class);
        try (var files = Files.list(INCLUDE.resolve("ccl4j"))) {
            for (Path h : files.filter(f -> f.toString().endsWith(".h")).sorted().toList()) {
                headers.put(h, h.equals(BENCH) ? benchBindings() : ccl4j_h.class);
            }
        }
        return headers;
    }

    @BeforeAll
    static void parseHeaders() throws IOException {
        // the downcall handles behind the $descriptor methods look their symbols up when first used
        assertTrue(org.ccl4j.engine.nativelib.NativeLibrary.load(), org.ccl4j.engine.nativelib.NativeLibrary::loadError);
        // once per test class, and this class and BenchBindingsMatchHeaderTest may share a JVM
        typedefs.clear();
        macros.clear();
        structs.clear();
        functions.clear();
        handles.clear();
        callbacks.clear();
        for (var h : headers().entrySet()) {
            parseHeader(Files.readString(h.getKey()), h.getKey(), h.getValue());
        }
        assertTrue(functions.size() >= 10, "parsed only " + functions.size() + " functions from the headers");
        assertTrue(structs.size() >= 5, "parsed only " + structs.size() + " structs from the headers");
        assertTrue(typedefs.size() >= 5, "parsed only " + typedefs.size() + " typedefs from the headers");
        assertTrue(functions.stream().anyMatch(f -> f.header().equals(BENCH)), "no function in " + BENCH);
    }

    private static void parseHeader(String raw, Path path, Class<?> owner) {
        String header = raw.replaceAll("(?s)/\\*.*?\\*/", "");
        Matcher m = Pattern.compile("(?m)^#define\\s+(CCL4J_\\w+)\\s+(\\d+)u?\\s*$").matcher(header);
        while (m.find()) {
            macros.put(m.group(1), Long.parseLong(m.group(2)));
        }
        m = Pattern.compile("typedef struct \\w+\\s*\\*\\s*(\\w+);").matcher(header);
        while (m.find()) {
            handles.add(m.group(1));
        }
        m = Pattern.compile("(?s)typedef (\\w+) \\(\\*(ccl4j_\\w+)\\)\\((.*?)\\);").matcher(header);
        while (m.find()) {
            callbacks.put(m.group(2), new CCallback(new CType(m.group(1), false), m.group(2),
                    parameters(m.group(3), m.group(2)), owner));
        }
        m = Pattern.compile("(?s)typedef struct (\\w+) \\{(.*?)\\} \\1;").matcher(header);
        while (m.find()) {
            List<CField> fields = new ArrayList<>();
            for (String decl : m.group(2).split(";")) {
                decl = decl.strip();
                if (decl.isEmpty()) {
                    continue;
                }
                Matcher f = Pattern.compile("(?:const\\s+)?(\\w+)\\s*(\\*?)\\s*(\\w+)(?:\\[(\\w+)\\])?").matcher(decl);
                assertTrue(f.matches(), "cannot parse field declaration '" + decl + "'");
                long dim = f.group(4) == null ? 0 : resolve(f.group(4));
                fields.add(new CField(new CType(f.group(1), !f.group(2).isEmpty()), f.group(3), dim));
            }
            structs.put(m.group(1), fields);
        }
        m = Pattern.compile("(?ms)^CCL4J_API\\s+(?:const\\s+)?(\\w+)\\s*(\\*?)\\s*(ccl4j_\\w+)\\((.*?)\\);").matcher(header);
        while (m.find()) {
            functions.add(new CFunction(new CType(m.group(1), !m.group(2).isEmpty()), m.group(3),
                    parameters(m.group(4), m.group(3)), path, owner));
        }
        m = Pattern.compile("(?m)^typedef (int32_t|struct \\w+\\*) (ccl4j_\\w+);").matcher(header);
        while (m.find()) {
            typedefs.add(new CTypedef(m.group(2), !m.group(1).equals("int32_t"), owner));
        }
    }

    /** The types of a parameter list ({@code void} or empty: none) of {@code function}. */
    private static List<CType> parameters(String list, String function) {
        List<CType> params = new ArrayList<>();
        list = list.strip();
        if (!list.equals("void") && !list.isEmpty()) {
            for (String p : list.split(",")) {
                Matcher pm = Pattern.compile("(?:const\\s+)?(\\w+)\\s*(\\**)\\s*\\w+").matcher(p.strip().replaceAll("\\s+", " "));
                assertTrue(pm.matches(), "cannot parse parameter '" + p + "' of " + function);
                params.add(new CType(pm.group(1), !pm.group(2).isEmpty()));
            }
        }
        return params;
    }

    /** ccl4j.h includes every topic header but the benchmarks' one. */
    @Test
    void theUmbrellaIncludesEveryPublicHeaderAndNotTheBenchmarkHeader() throws IOException {
        String umbrella = Files.readString(UMBRELLA);
        for (Path h : headers().keySet()) {
            if (h.equals(UMBRELLA)) {
                continue;
            }
            String directive = "#include \"ccl4j/" + h.getFileName() + "\"";
            assertEquals(!h.equals(BENCH), umbrella.contains(directive),
                    h.equals(BENCH) ? UMBRELLA + " must not include " + BENCH : UMBRELLA + " must include " + h);
        }
    }

    private static long resolve(String token) {
        return token.matches("\\d+") ? Long.parseLong(token) : macros.get(token);
    }

    @Test
    void everyFunctionHasADowncallWithMatchingCarriers() throws Exception {
        for (CFunction f : functions) {
            if (f.owner() == null) {
                continue;
            }
            Class<?>[] expected = f.parameters().stream().map(CType::carrier).toArray(Class<?>[]::new);
            Method method;
            try {
                method = f.owner().getMethod(f.name(), expected);
            } catch (NoSuchMethodException e) {
                fail(f.owner().getSimpleName() + " has no method " + f.name() + Arrays.toString(expected)
                        + " for the header's " + f);
                return;
            }
            assertTrue(Modifier.isStatic(method.getModifiers()), f.name() + " must be static");
            assertEquals(f.result().carrier(), method.getReturnType(), "return type of " + f.name());
            var descriptor = (java.lang.foreign.FunctionDescriptor) f.owner().getMethod(f.name() + "$descriptor").invoke(null);
            assertEquals(f.parameters().size(), descriptor.argumentLayouts().size(), "arity of " + f.name());
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], carrierOf(descriptor.argumentLayouts().get(i)),
                        "parameter " + i + " of " + f.name());
            }
            assertEquals(f.result().carrier() == void.class, descriptor.returnLayout().isEmpty(),
                    "void-ness of " + f.name());
        }
    }

    /**
     * Every function pointer type has its class beside the header class: a {@code Function}
     * interface whose {@code apply} takes the header's carriers, and a descriptor of the same.
     */
    @Test
    void everyFunctionPointerTypeHasAnUpcallWithMatchingCarriers() throws Exception {
        for (CCallback c : callbacks.values()) {
            if (c.owner() == null) {
                continue;
            }
            Class<?> type = Class.forName(c.owner().getPackageName() + "." + c.name());
            Class<?>[] expected = c.parameters().stream().map(CType::carrier).toArray(Class<?>[]::new);
            Method apply;
            try {
                apply = Class.forName(type.getName() + "$Function").getMethod("apply", expected);
            } catch (ClassNotFoundException | NoSuchMethodException e) {
                fail(c.name() + ".Function has no apply" + Arrays.toString(expected) + " for the header's " + c);
                return;
            }
            assertEquals(c.result().carrier(), apply.getReturnType(), "return type of " + c.name());
            var descriptor = (java.lang.foreign.FunctionDescriptor) type.getMethod("descriptor").invoke(null);
            assertEquals(c.parameters().size(), descriptor.argumentLayouts().size(), "arity of " + c.name());
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], carrierOf(descriptor.argumentLayouts().get(i)),
                        "parameter " + i + " of " + c.name());
            }
            assertEquals(c.result().carrier() == void.class, descriptor.returnLayout().isEmpty(),
                    "void-ness of " + c.name());
        }
        assertTrue(callbacks.containsKey("ccl4j_progress_fn"), "the progress listener's type was not parsed");
    }

    @Test
    void everyDowncallIsDeclaredInTheHeaders() throws IOException {
        for (Class<?> owner : headers().values().stream().filter(Objects::nonNull).distinct().toList()) {
            Set<String> declared = new TreeSet<>();
            functions.stream().filter(f -> f.owner() == owner).forEach(f -> declared.add(f.name()));
            for (Method m : owner.getDeclaredMethods()) {
                String name = m.getName();
                if (Modifier.isPublic(m.getModifiers()) && name.startsWith("ccl4j_") && !name.contains("$")) {
                    assertTrue(declared.contains(name), "binding " + owner.getSimpleName() + "." + name
                            + " has no declaration in " + (owner == ccl4j_h.class ? UMBRELLA + " (and what it includes)" : BENCH));
                }
            }
        }
    }

    @Test
    void everyStructHasALayoutWithTheHeadersFieldsOffsetsAndSize() throws Exception {
        for (var entry : structs.entrySet()) {
            Class<?> type = Class.forName(PACKAGE + entry.getKey());
            GroupLayout layout = (GroupLayout) type.getMethod("layout").invoke(null);
            List<MemoryLayout> members = layout.memberLayouts().stream()
                    .filter(l -> !(l instanceof PaddingLayout)).toList();
            List<CField> fields = entry.getValue();
            assertEquals(fields.stream().map(CField::name).toList(),
                    members.stream().map(l -> l.name().orElse("?")).toList(), "fields of " + entry.getKey());
            long offset = 0;
            long align = 1;
            for (int i = 0; i < fields.size(); i++) {
                CField f = fields.get(i);
                MemoryLayout member = members.get(i);
                long[] sizeAlign = sizeAndAlignment(f);
                offset = (offset + sizeAlign[1] - 1) / sizeAlign[1] * sizeAlign[1];
                align = Math.max(align, sizeAlign[1]);
                assertEquals(offset, layout.byteOffset(MemoryLayout.PathElement.groupElement(f.name())),
                        "offset of " + entry.getKey() + "." + f.name());
                MemoryLayout element = member;
                if (f.dimension() > 0) {
                    assertTrue(member instanceof SequenceLayout, entry.getKey() + "." + f.name() + " must be an array");
                    assertEquals(f.dimension(), ((SequenceLayout) member).elementCount(),
                            "length of " + entry.getKey() + "." + f.name());
                    element = ((SequenceLayout) member).elementLayout();
                }
                if (structs.containsKey(f.type().base()) && !f.type().pointer()) {
                    // the struct's own layout: an array's elements keep its name, a member takes the field's
                    MemoryLayout struct = (MemoryLayout) Class.forName(PACKAGE + f.type().base()).getMethod("layout")
                            .invoke(null);
                    assertEquals(struct.withoutName(), element.withoutName(), "struct type of " + f.name());
                    assertEquals(f.dimension() > 0 ? f.type().base() : f.name(), element.name().orElse("?"),
                            "name of " + entry.getKey() + "." + f.name());
                } else {
                    assertEquals(f.type().carrier(), carrierOf(element), "carrier of " + entry.getKey() + "." + f.name());
                }
                offset += sizeAlign[0];
            }
            long size = (offset + align - 1) / align * align;
            assertEquals(size, layout.byteSize(), "size of " + entry.getKey());
            assertEquals(size, (long) type.getMethod("sizeof").invoke(null), "sizeof() of " + entry.getKey());
        }
    }

    @Test
    void indexedAccessorsOfArrayFieldsAddressTheirElements() throws Exception {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            for (var entry : structs.entrySet()) {
                Class<?> type = Class.forName(PACKAGE + entry.getKey());
                GroupLayout layout = (GroupLayout) type.getMethod("layout").invoke(null);
                MemorySegment struct = arena.allocate(layout);
                for (CField f : entry.getValue()) {
                    if (f.dimension() == 0) {
                        continue;
                    }
                    long offset = layout.byteOffset(MemoryLayout.PathElement.groupElement(f.name()));
                    long last = f.dimension() - 1;
                    if (structs.containsKey(f.type().base())) {
                        long size = (long) Class.forName(PACKAGE + f.type().base()).getMethod("sizeof").invoke(null);
                        MemorySegment element = (MemorySegment) type.getMethod(f.name(), MemorySegment.class, long.class)
                                .invoke(null, struct, last);
                        assertEquals(struct.address() + offset + last * size, element.address(),
                                "element " + last + " of " + entry.getKey() + "." + f.name());
                    } else {
                        type.getMethod(f.name(), MemorySegment.class, long.class, byte.class)
                                .invoke(null, struct, last, (byte) 42);
                        assertEquals(42, struct.get(ValueLayout.JAVA_BYTE, offset + last),
                                "element " + last + " of " + entry.getKey() + "." + f.name());
                        assertEquals((byte) 42, type.getMethod(f.name(), MemorySegment.class, long.class)
                                .invoke(null, struct, last));
                    }
                }
            }
        }
    }

    /** Size and alignment of a field under the System V x86-64 rules. */
    private static long[] sizeAndAlignment(CField f) {
        long size;
        long align;
        if (structs.containsKey(f.type().base()) && !f.type().pointer()) {
            long offset = 0;
            align = 1;
            for (CField inner : structs.get(f.type().base())) {
                long[] sa = sizeAndAlignment(inner);
                offset = (offset + sa[1] - 1) / sa[1] * sa[1] + sa[0];
                align = Math.max(align, sa[1]);
            }
            size = (offset + align - 1) / align * align;
        } else {
            size = f.type().size();
            align = size;
        }
        return new long[] {size * Math.max(1, f.dimension()), align};
    }

    @Test
    void everyConstantHasAnAccessorWithItsValue() throws Exception {
        for (var entry : macros.entrySet()) {
            Method m;
            try {
                m = ccl4j_h.class.getMethod(entry.getKey());
            } catch (NoSuchMethodException e) {
                fail("ccl4j_h has no accessor for #define " + entry.getKey());
                return;
            }
            assertEquals(entry.getValue().longValue(), ((Number) m.invoke(null)).longValue(), entry.getKey());
        }
    }

    @Test
    void everyTypedefHasALayoutConstant() throws Exception {
        for (CTypedef t : typedefs) {
            if (t.owner() == null) {
                continue;
            }
            Field f = t.owner().getField(t.name());
            Object layout = f.get(null);
            if (t.handle()) {
                assertTrue(layout instanceof AddressLayout, t.name() + " must be an address layout");
            } else {
                assertEquals(ValueLayout.JAVA_INT, layout, t.name());
            }
        }
    }

    private static Class<?> carrierOf(MemoryLayout layout) {
        if (layout instanceof ValueLayout v) {
            return v.carrier();
        }
        throw new AssertionError("not a value layout: " + layout);
    }
}
