package org.ccl4j.internal;

import java.util.Arrays;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The lookup of an enum constant by its command-line name, shared by the API's enums
 * ({@code Backend.fromCliName}, {@code GraphFormat.fromName}, ...) so that they all accept names
 * and report unknown ones alike, listing the valid names from the constants themselves.
 */
public final class CliNames {
    private CliNames() {
    }

    /**
     * The constant among {@code values} whose command-line name is {@code name}.
     *
     * @param what what the constants are, for the error: {@code "backend"}, {@code "mesh mode"}, ...
     * @throws IllegalArgumentException "unknown WHAT 'NAME'; expected one of ..." when there is none
     */
    public static <E> E parse(String what, String name, E[] values, Function<E, String> cliName) {
        return find(what, name, values, cliName, String::equals);
    }

    /** As {@link #parse}, ignoring case. */
    public static <E> E parseIgnoringCase(String what, String name, E[] values, Function<E, String> cliName) {
        return find(what, name, values, cliName, String::equalsIgnoreCase);
    }

    private static <E> E find(String what, String name, E[] values, Function<E, String> cliName,
            BiPredicate<String, String> matches) {
        for (E value : values) {
            if (matches.test(cliName.apply(value), name)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + name + "'; expected one of "
                + Arrays.stream(values).map(cliName).collect(Collectors.joining(", ")));
    }
}
