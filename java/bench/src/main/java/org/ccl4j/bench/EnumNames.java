package org.ccl4j.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the benchmarks name the API's enum constants (a {@code backend} or {@code algorithm}
 * parameter, {@link PhaseCheck}'s arguments): by the constant's own name, in lower case with dashes
 * as written here ({@code CPU_PARALLEL} is {@code cpu-parallel}, {@code ECL_CC} is {@code ecl-cc}),
 * or as the enum spells it; the case and dash or underscore do not matter.
 */
final class EnumNames {
    private EnumNames() {
    }

    /** The name of {@code constant} as the benchmarks write it: {@code cpu-parallel}. */
    static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The constant of {@code type} named {@code name}.
     *
     * @throws IllegalArgumentException "unknown TYPE 'NAME'; expected one of ..." when there is none
     */
    static <E extends Enum<E>> E parse(Class<E> type, String name) {
        String constant = name.replace('-', '_');
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(constant)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + name + "'; expected one of "
                + Arrays.stream(type.getEnumConstants()).map(EnumNames::of).collect(Collectors.joining(", ")));
    }
}
