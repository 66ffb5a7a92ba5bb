package org.ccl4j.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Audits the libccl4j.so that the ccl4j-core jar ships, as manylinux audits a wheel: read from the
 * jar on this module's class path (the packaged artifact in {@code ./mvnw verify}), its ELF
 * version needs, needed libraries and dynamic symbols must let it load on any Linux x86-64 with
 * glibc 2.28 or newer and nothing else installed, and it must export the C ABI alone.
 */
class NativeLibraryPortabilityTest {
    private static final String RESOURCE = "org/ccl4j/native/linux-x86_64/libccl4j.so";
    /** The newest glibc symbol version the library may need. */
    private static final int[] GLIBC_BASELINE = {2, 28};
    /** libgcc_s's versions as of GCC 8, the compiler of glibc 2.28's distributions. */
    private static final int[] LIBGCC_BASELINE = {7, 0, 0};
    /** What every glibc 2.28 system has: glibc's own libraries and libgcc_s. */
    private static final Set<String> SYSTEM_LIBRARIES = Set.of("libc.so.6", "libm.so.6", "libdl.so.2",
            "libpthread.so.0", "librt.so.1", "ld-linux-x86-64.so.2", "libgcc_s.so.1");

    private static Elf library;

    @BeforeAll
    static void readFromTheJar() throws IOException {
        URL url = NativeLibraryPortabilityTest.class.getClassLoader().getResource(RESOURCE);
        assertNotNull(url, RESOURCE + " is not in ccl4j-core");
        System.out.println("NativeLibraryPortabilityTest reads " + url);
        try (InputStream in = url.openStream()) {
            library = new Elf(in.readAllBytes());
        }
    }

    @Test
    void needsNoSymbolVersionNewerThanGlibc228() {
        List<String> tooNew = new ArrayList<>();
        for (Elf.VersionNeed need : library.versionNeeds()) {
            String v = need.version();
            if (v.startsWith("GLIBC_PRIVATE")
                    || v.startsWith("GLIBC_") && newer(v.substring("GLIBC_".length()), GLIBC_BASELINE)
                    || v.startsWith("GCC_") && newer(v.substring("GCC_".length()), LIBGCC_BASELINE)
                    || v.startsWith("GLIBCXX_") || v.startsWith("CXXABI_")) {
                tooNew.add(need.file() + ": " + v);
            }
        }
        assertEquals(List.of(), tooNew, "version needs beyond glibc 2.28 (and GCC 8's libgcc_s, no libstdc++)");
    }

    @Test
    void needsOnlyLibrariesEveryGlibcSystemHas() {
        Set<String> others = new TreeSet<>(library.neededLibraries());
        others.removeAll(SYSTEM_LIBRARIES);
        assertEquals(Set.of(), others, "needed libraries beyond glibc and libgcc_s");
    }

    @Test
    void exportsTheCAbiAlone() {
        List<String> exported = library.exportedSymbols();
        assertTrue(exported.contains("ccl4j_version") && exported.contains("ccl4j_label_graph"),
                "the C ABI is exported: " + exported);
        assertEquals(List.of(), exported.stream().filter(s -> !s.startsWith("ccl4j_")).toList(),
                "exported symbols other than ccl4j_*");
    }

    @Test
    void isStripped() {
        assertTrue(!library.sectionNames().contains(".symtab") && !library.sectionNames().contains(".debug_info"),
                "a symbol table or debug information in the shipped library: " + library.sectionNames());
    }

    /** Whether the dotted version {@code v} is newer than {@code baseline}. */
    private static boolean newer(String v, int[] baseline) {
        String[] parts = v.split("\\.");
        for (int i = 0; i < Math.max(parts.length, baseline.length); i++) {
            int a = i < parts.length ? Integer.parseInt(parts[i]) : 0;
            int b = i < baseline.length ? baseline[i] : 0;
            if (a != b) {
                return a > b;
            }
        }
        return false;
    }

    /**
     * The parts of a 64-bit little-endian ELF shared object this audit reads: section headers,
     * the dynamic section's DT_NEEDED entries, the dynamic symbol table and the version needs
     * (System V gABI and the GNU symbol versioning extension).
     */
    record Elf(ByteBuffer data, List<Section> sections) {
        private static final int SHT_DYNSYM = 11;
        private static final int SHT_DYNAMIC = 6;
        private static final int SHT_GNU_VERNEED = 0x6ffffffe;
        private static final long DT_NEEDED = 1;

        record Section(String name, int type, long offset, long size, int link, int info) {
        }

        record VersionNeed(String file, String version) {
        }

        Elf(byte[] bytes) {
            this(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), readSections(bytes));
        }

        private static List<Section> readSections(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            if (bytes.length < 64 || b.getInt(0) != 0x464c457f || bytes[4] != 2 || bytes[5] != 1) {
                throw new IllegalArgumentException("not a 64-bit little-endian ELF file");
            }
            long shoff = b.getLong(0x28);
            int shentsize = Short.toUnsignedInt(b.getShort(0x3a));
            int shnum = Short.toUnsignedInt(b.getShort(0x3c));
            int shstrndx = Short.toUnsignedInt(b.getShort(0x3e));
            long namesAt = b.getLong((int) (shoff + (long) shstrndx * shentsize + 0x18));
            List<Section> sections = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                int h = (int) (shoff + (long) i * shentsize);
                sections.add(new Section(string(b, namesAt + b.getInt(h)), b.getInt(h + 4), b.getLong(h + 0x18),
                        b.getLong(h + 0x20), b.getInt(h + 0x28), b.getInt(h + 0x2c)));
            }
            return sections;
        }

        private static String string(ByteBuffer b, long at) {
            int end = (int) at;
            while (b.get(end) != 0) {
                end++;
            }
            return new String(b.array(), (int) at, end - (int) at, StandardCharsets.US_ASCII);
        }

        List<String> sectionNames() {
            return sections.stream().map(Section::name).toList();
        }

        private Section only(int type) {
            List<Section> found = sections.stream().filter(s -> s.type() == type).toList();
            assertEquals(1, found.size(), "sections of type " + type);
            return found.get(0);
        }

        private long stringTable(Section s) {
            return sections.get(s.link()).offset();
        }

        List<String> neededLibraries() {
            Section dynamic = only(SHT_DYNAMIC);
            List<String> needed = new ArrayList<>();
            for (long e = dynamic.offset(); e < dynamic.offset() + dynamic.size(); e += 16) {
                if (data.getLong((int) e) == DT_NEEDED) {
                    needed.add(string(data, stringTable(dynamic) + data.getLong((int) e + 8)));
                }
            }
            return needed;
        }

        /** Defined global or weak symbols of default or protected visibility. */
        List<String> exportedSymbols() {
            Section dynsym = only(SHT_DYNSYM);
            List<String> exported = new ArrayList<>();
            for (long e = dynsym.offset() + 24; e < dynsym.offset() + dynsym.size(); e += 24) {
                int binding = (data.get((int) e + 4) & 0xff) >> 4;
                int visibility = data.get((int) e + 5) & 3;
                int sectionIndex = Short.toUnsignedInt(data.getShort((int) e + 6));
                boolean visible = visibility == 0 || visibility == 3;
                if ((binding == 1 || binding == 2) && visible && sectionIndex != 0) {
                    exported.add(string(data, stringTable(dynsym) + Integer.toUnsignedLong(data.getInt((int) e))));
                }
            }
            return exported;
        }

        List<VersionNeed> versionNeeds() {
            Section verneed = only(SHT_GNU_VERNEED);
            long strings = stringTable(verneed);
            List<VersionNeed> needs = new ArrayList<>();
            long entry = verneed.offset();
            for (int i = 0; i < verneed.info(); i++) {
                String file = string(data, strings + Integer.toUnsignedLong(data.getInt((int) entry + 4)));
                int count = Short.toUnsignedInt(data.getShort((int) entry + 2));
                long aux = entry + Integer.toUnsignedLong(data.getInt((int) entry + 8));
                for (int j = 0; j < count; j++) {
                    needs.add(new VersionNeed(file, string(data, strings + Integer.toUnsignedLong(data.getInt((int) aux + 8)))));
                    aux += Integer.toUnsignedLong(data.getInt((int) aux + 12));
                }
                entry += Integer.toUnsignedLong(data.getInt((int) entry + 12));
            }
            return needs;
        }
    }
}
