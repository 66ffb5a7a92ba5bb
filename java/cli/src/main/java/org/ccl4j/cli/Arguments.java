package org.ccl4j.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line arguments: positionals, {@code --flag}s and {@code --option value} (or
 * {@code --option=value}) pairs, checked against the options a command accepts.
 */
final class Arguments {
    private final List<String> positionals = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    /**
     * @param args        the arguments after the command name
     * @param withValue   options that take a value
     * @param flags       options without a value
     */
    Arguments(List<String> args, Set<String> withValue, Set<String> flags) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--") || a.equals("--")) {
                positionals.add(a);
                continue;
            }
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flags.contains(name)) {
                if (value != null) {
                    throw new UsageException("--" + name + " takes no value");
                }
                options.put(name, "true");
            } else if (withValue.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                options.put(name, value);
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
    }

    List<String> positionals() {
        return positionals;
    }

    boolean flag(String name) {
        return options.containsKey(name);
    }

    String get(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    int getInt(String name, int fallback) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " needs an integer, got '" + v + "'");
        }
    }
}
